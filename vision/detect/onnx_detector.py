"""The learned detector: one pass of a small centre-point network over the rectified board.

The frame is rectified to a coarse top-down view of the whole board (0.5 px/mm), the network
(models/detector) turns it into per-class heat maps of piece centres and sub-cell offsets,
and each peak is a piece (vision.detect.centres). The network finds a piece's top face, so
the centre is then moved to the piece's base (vision.detect.parallax). No candidate search,
no patches: the cost is the same for an empty board and for the break.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np
import onnxruntime as ort

from calibration.camera import Calibration
from calibration.geometry import (
    ARROW_ARC_DIAMETER_MM,
    COIN_RADIUS_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    SEATS,
    STRIKER_RADIUS_MM,
    arrow_arc_centre,
    base_circle_centres,
    on_playing_surface,
    pocket_centres,
    pocket_distance_mm,
)
from vision.detect.base import BoardRectifier, BoardView, Picture, ViewBox
from vision.detect.centres import find_peaks, suppress_close
from vision.detect.lighting import SurfaceLight
from vision.detect.mouth import SCORE as MOUTH_SCORE
from vision.detect.mouth import STILL_MM as MOUTH_STILL_MM
from vision.detect.mouth import mouth_blacks_mm
from vision.detect.parallax import Viewpoint
from vision.detect.rim import STRIKER_MIN_RIM_MM, rim_radii_mm, rims
from vision.detections import CLASS_NAMES, Detections
from vision.errors import VisionError
from vision.io import Frame

DEFAULT_MODEL = "detector.onnx"
# Chosen on development data (models/detector/MODEL_CARD.md): with printed base circles no
# longer taken for coins, 0.40 keeps precision at rest over 99.7% on the development stills
# and finds more of what the recorder needs on the development videos (fast pieces, a dim
# striker) than 0.45; 0.5 loses fast pieces.
MIN_SCORE = 0.40
# Two peaks closer than this are one piece (touching coins are two radii apart).
MERGE_DISTANCE_MM = COIN_RADIUS_MM
# A piece whose centre is over a pocket's hole is falling (it drops within milliseconds), not
# lying on the board: what shows there is the dark hole itself (which the network can take
# for a black coin, its centre found 5 to 11 mm from the pocket's on ten development videos)
# or a piece sinking into it. A slow piece can stop with its centre a fraction of a
# millimetre short of the hole's edge and lie there (on the development videos 8 pieces in
# 20 boards, for seconds); near a corner it can be found 3.5 mm further in (a black on
# development video 9131), and must not drop out of view and be taken for pocketed a stroke
# early. So a piece is taken for falling only this far inside the edge (2 mm until session
# 19; 7 mm found no more on the 40 development videos).
OVER_HOLE_MM = POCKET_RADIUS_MM - 5.0
# Behind a pocket's hole, off the playing surface, no piece lies: one centred there is in
# the air. What the network finds there is the dark of a hole a piece is falling into, beside
# the piece (on the 160 development videos 8 pocket and overboard events were made of such
# sightings, 23 to 33 mm from a hole's centre; 6 of them were wrong, most of them a "black"
# behind a hole a white fell into, which took the place of the black pocketed elsewhere).
BEHIND_HOLE_MM = POCKET_RADIUS_MM + COIN_RADIUS_MM
# A coin on the surface lies a radius or more from the cushions, and the detector finds one
# there within a few millimetres; a "coin" centred well inside that, on a cushion's edge, is
# the frame's print, a shadow or the striker in a hand passing over (on 60 development boards,
# with the truth's camera, 28 coins passed on to the recorder clear of the holes with their
# centres 6 mm or more further in than a coin against the cushion lies: none within 8 mm of a
# carromman, while 4 of those found 5 to 6 mm in were; held-out video 73002, now development
# data: a "white" at 0.41 to 0.43 by a corner as a black went in, 5 mm from the cushion, was
# taken into the pocket). One centred over a hole may be sinking, and is judged as such.
INTO_CUSHION_MM = 6.0
# A coin overhanging a pocket's hole covers part of it, and the dark left uncovered, a
# crescent, can read as a black coin lying just inside the hole's edge (development video
# 9300: 0.42 to 0.46, 20 mm from the centre of a hole a white lay over, for a whole board;
# counted, it stood for a black that was really pocketed). A black lying there, found a
# little inside the edge, has the hole to itself: one found inside the edge under this
# score beside another piece lying over the same hole's edge is the hole.
CRESCENT_MAX_SCORE = 0.5
# A base circle is printed the size of a carromman, and on some boards (a cream fill) the
# network takes the print for a white coin, though never with a real coin's confidence. A
# print has no height, so its top face is where it is printed: a carromman found with its
# face this close to a base circle's centre and a score under `PRINT_MAX_SCORE` is the print.
# (On the development stills the prints scored 0.47 to 0.80 and lay within 3 mm; a real coin
# on a base circle scored 0.90.) The striker is never dropped: players cover the base
# circle with it (law 130).
PRINT_MATCH_MM = 4.0
PRINT_MAX_SCORE = 0.85
_BASE_CIRCLES = np.concatenate([base_circle_centres(seat) for seat in SEATS])
# The centre circle is a carromman's size too: on development video 9108 (a `phone` board)
# the network read it as a white coin at 0.41 to 0.44 whenever the centre lay bare, a
# phantom white that a later stroke "pocketed". But pieces are put there (the queen at the
# break and when she is put back, often dues), and dropping every peak under the base
# circles' `PRINT_MAX_SCORE` there lost most development boards' results (18 -> 4 of 20):
# real pieces on the centre score that low at times. So only a white this faint there is
# the print.
CENTRE_PRINT_MAX_SCORE = 0.5
# A red-filled base circle is the queen's colour, and where a phone's lens bends the picture
# the calibration places the print further off its centre: on development video 9416 (`phone`)
# a faint "queen" (0.44 to 0.47) lay 6.4 mm from a base circle's centre after the real queen
# was pocketed, and the count at rest took the pocketing back. The queen is found with a real
# piece's confidence; one this faint this near a base circle is the print. And only such a
# one: the base circles' `PRINT_MAX_SCORE` (a cream print read as a white) took the real queen
# for the print (held-out video 64003, development data since: a queen at rest 2.8 mm from a
# red base circle's centre, read at 0.77, gone from view and "pocketed" at the break). Before
# the break on the 80 development videos the red prints read as the queen at 0.22 at most.
QUEEN_PRINT_MATCH_MM = 10.0
QUEEN_PRINT_MAX_SCORE = 0.5
_CENTRE = np.zeros((1, 2))
_STRIKER = CLASS_NAMES.index("striker")
_WHITE = CLASS_NAMES.index("white")
_BLACK = CLASS_NAMES.index("black")
_QUEEN = CLASS_NAMES.index("queen")
# Under a dim lamp the pale striker washes out: the network takes it for a white coin or is
# unsure it is a piece at all. When no peak is a confident striker, a weaker peak that the
# network thinks may be the striker (or a white coin) is taken for the striker if its rim is
# the striker's size (vision.detect.rim): on the development videos' dim board 9102 the
# striker lying in plain view is then found in 61% of the frames instead of 52%, and on four
# development videos what is so taken for the striker is something else about once in thirty.
# The rim must be no larger than the striker's either: a blurred or half-covered disc has no
# sharp rim and reads as the largest radius looked at.
RESCUE_MIN_SCORE = 0.2
RESCUE_MIN_STRIKER_HEAT = 0.1
RESCUE_MAX_RIM_MM = STRIKER_RADIUS_MM + 2.5
# A striker lies on the playing surface, its centre a radius inside the edge; the frame's
# wood past the edge is where most of what the development stills found so was (the face
# the network sees is a few mm off the base: half a radius of room).
RESCUE_INSIDE_EDGE_MM = 0.5 * STRIKER_RADIUS_MM
# Discs do not overlap: a striker's centre lies at least a coin's and a striker's radius from
# a coin's (less a few mm for the peaks' errors). A gap ringed by coins can read as a
# striker-sized rim, and under a hand or in flight, the real striker unsure, such a gap was
# taken for it frame after frame (development video 9118: strokes started from it).
RESCUE_CLEAR_OF_COINS_MM = COIN_RADIUS_MM + STRIKER_RADIUS_MM - 3.0
# An arrow's arc is a printed ring not much larger than the striker: within it a pale peak
# with a striker-sized rim is the print (held-out video 71001, `phone`, development data
# since: a "striker" at 0.23 inside an arc, 15 mm off its centre, whenever the real one was
# hidden; the striker's track jumped there and back, a stroke was made of it and the real
# one after it lost, with its white). On the 60 `phone` and `warm-lamp` development videos
# (one look in four), of 674 pale strikers found, 37 lay inside an arc, none of them the
# striker.
_ARROW_ARCS = np.array([arrow_arc_centre(pocket) for pocket in POCKETS])
RESCUE_CLEAR_OF_ARCS_MM = ARROW_ARC_DIAMETER_MM / 2.0
# A striker come to rest at a pocket's mouth, its disc overhanging the hole, merges with the
# dark there: the network reads it as the striker, but faintly, and its rim is the hole's edge
# as much as its own (held-out video 72007, `phone`, development data since: the striker lay
# 33.4 mm from a corner's centre at 0.36 to 0.38, its rim read at 9 mm, for the last
# 1.5 s of the board; unseen, it was taken into the pocket, a foul that cost the board's
# result). When no confident striker is found, a striker peak from `MOUTH_STRIKER_MIN_SCORE`
# whose disc overhangs a hole (its centre within a striker's radius of the hole's edge) is the
# striker, if its centre lies clear of the edge by more than what shows of a striker tipping
# into the hole (the middle of half its disc lies 4r/3pi, 8.7 mm, outward of its centre).
MOUTH_STRIKER_MIN_SCORE = 0.3
MOUTH_STRIKER_FROM_MM = POCKET_RADIUS_MM + 0.5 * STRIKER_RADIUS_MM
MOUTH_STRIKER_TO_MM = POCKET_RADIUS_MM + STRIKER_RADIUS_MM
# A carromman has a rim: where its face ends the board shows and the brightness changes. In a
# single picture a faint peak (under `FAINT_MAX_SCORE`) whose rim hardly changes the
# brightness at all is taken for a knot in the frame's wood, a fold of a hand, a print: on the
# development stills 8 of 17 false pieces at rest, against no piece at rest that had to be
# found and 4 of 606 moving ones (a blurred coin has a soft rim). A tracker is given them all
# (`for_tracking`): across frames it confirms a faint sighting or lets it go, and the recorder
# needs the faint ones (a coin blurred in flight, one passing over the frame's rail): on the
# development videos dropping them lost a stroke, four pocket events and a board's result.
# A striker is never dropped: a dim lamp's pale striker is exactly such a faint peak.
FAINT_MAX_SCORE = 0.5
RIMLESS_MAX_SHARPNESS = 2.0
# A peak between these scores (a piece or not) is one the network may answer otherwise in the
# next frame of a still board: `detect_within` reports where, for whoever skips looking again.
UNSURE_FROM_SCORE = 0.1
UNSURE_BELOW_SCORE = 0.6
# A carromman lying still can fade under the threshold where it lies: a black at a pocket's
# mouth against the dark hole (development video 9112: 0.17 to 0.21 for seconds, taken for
# pocketed a stroke early), and so can the striker come to rest overhanging a hole
# (`vision.track.faint`). Peaks from this score up are reported apart (`Within.faint`), for a
# tracker to continue a piece it follows with, never to start one. On the 40 development
# videos a black lying still 18 to 34 mm from a pocket's centre had a black peak this strong
# within 6 mm of it in 98% of looks (at the threshold: 91%), and within 10 mm of where a
# black had just fallen in, none in 2,990 looks.
FAINT_FROM_SCORE = 0.15
# What the model file must say about itself (its metadata) for this code to read it.
REQUIRED_METADATA = ("px_per_mm", "half_extent_mm", "stride", "classes")


def _hole_crescents(bases: np.ndarray, classes: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Which of the peaks (at their bases) are the uncovered part of a pocket's hole that
    another peak, lying over its edge, overhangs (`CRESCENT_MAX_SCORE`)."""
    to_pockets = np.linalg.norm(bases[:, None, :] - pocket_centres()[None, :, :], axis=2)
    nearest = np.argmin(to_pockets, axis=1)
    distance = to_pockets[np.arange(len(bases)), nearest]
    inside = (classes == _BLACK) & (score < CRESCENT_MAX_SCORE) & (distance < POCKET_RADIUS_MM)
    # Lying over the edge, not falling in: a coin sinking into the hole is read as two
    # pieces, one of them a black inside the edge, as often as not (63000, at the break).
    over = (distance >= POCKET_RADIUS_MM) & (distance < POCKET_RADIUS_MM + COIN_RADIUS_MM)
    out = np.zeros(len(bases), bool)
    for i in np.flatnonzero(inside):
        out[i] = bool(np.any(over & (nearest == nearest[i]) & (np.arange(len(bases)) != i) & ~inside))
    return out


def _into_cushion(bases: np.ndarray, classes: np.ndarray, to_hole: np.ndarray) -> np.ndarray:
    """Which of the peaks (at their bases) are carrommen centred on the surface but too far
    into a cushion to lie on it (`INTO_CUSHION_MM`), and not over a pocket's hole."""
    too_near = on_playing_surface(bases) & ~on_playing_surface(bases, COIN_RADIUS_MM - INTO_CUSHION_MM)
    return too_near & (classes != _STRIKER) & (to_hole >= POCKET_RADIUS_MM)


def _nearest_mm(points: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(N,) distance from each of `points` (N, 2) to the nearest of `centres` (M, 2)."""
    return np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2).min(axis=1)


def _clear_of(points: np.ndarray, others: np.ndarray, distance_mm: float) -> np.ndarray:
    """(N,) whether each of `points` lies at least `distance_mm` from every one of `others`,
    not counting one within a merge distance (the point itself, when it is among them)."""
    if not len(others) or not len(points):
        return np.ones(len(points), dtype=bool)
    gaps = np.linalg.norm(points[:, None, :] - others[None, :, :], axis=2)
    return ~np.any((gaps < distance_mm) & (gaps > MERGE_DISTANCE_MM), axis=1)


def _striker_at_a_mouth(
    classes: np.ndarray, score: np.ndarray, faces: np.ndarray, to_hole: np.ndarray
) -> int | None:
    """Index of the likeliest striker peak lying at a pocket's mouth over the hole's edge
    (`MOUTH_STRIKER_MIN_SCORE`), if any; `to_hole`: each face's distance from the nearest
    pocket's centre."""
    at_mouth = np.flatnonzero(
        (classes == _STRIKER)
        & (score >= MOUTH_STRIKER_MIN_SCORE)
        & (to_hole >= MOUTH_STRIKER_FROM_MM)
        & (to_hole <= MOUTH_STRIKER_TO_MM)
        & on_playing_surface(faces, RESCUE_INSIDE_EDGE_MM)
    )
    return int(at_mouth[np.argmax(score[at_mouth])]) if len(at_mouth) else None


def _rimless(view: BoardView, faces: np.ndarray, classes: np.ndarray, score: np.ndarray) -> np.ndarray:
    """(N,) which of these peaks are faint carrommen with no rim to be seen (`FAINT_MAX_SCORE`)."""
    rimless = (score < FAINT_MAX_SCORE) & (classes != _STRIKER)
    if rimless.any():
        rimless[rimless] = rims(view, faces[rimless])[1] <= RIMLESS_MAX_SHARPNESS
    return rimless


class Within(NamedTuple):
    """What `OnnxDetector.detect_within` found: the pieces, the faces (board mm) of the peaks
    it was unsure of (pieces or not), whether a pale striker was there to be found (taken
    only when no striker was found elsewhere), and the pieces seen over a pocket's hole
    (falling in, or the dark hole itself read as a black coin: not among `found`), down to
    the faint peaks the detector reads off (`OnnxDetector.peak_floor`); and the pieces on
    the board too faint to be found (`FAINT_FROM_SCORE`)."""

    found: Detections
    unsure_mm: np.ndarray
    pale_striker: bool
    over_holes: Detections
    faint: Detections


class ModelError(VisionError):
    """A detector model file that cannot be loaded or does not fit this code."""


def default_model_path() -> Path:
    return Path(str(resources.files("models") / "detector" / DEFAULT_MODEL))


def _session(path: Path, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelError(f"{path}: cannot load the detector model ({exc})") from exc


@dataclass(eq=False)
class OnnxDetector:
    model_path: Path = field(default_factory=default_model_path)
    min_score: float = MIN_SCORE
    threads: int = 1
    # Detections for a tracker (see `FAINT_MAX_SCORE`) rather than for a single picture.
    for_tracking: bool = False
    # Brighten a dim lamp's dark parts of the board before the network looks (vision.detect.
    # lighting). Off unless asked for: better on dim development boards, mixed on the held-out
    # ones (the recorder's card, vision/RECORDER_CARD.md).
    even_light: bool = False

    def __post_init__(self) -> None:
        self.model_path = Path(self.model_path)
        if not self.model_path.is_file():
            raise ModelError(f"{self.model_path}: no such detector model")
        self._session = _session(self.model_path, self.threads)
        meta = self._session.get_modelmeta().custom_metadata_map
        missing = [k for k in REQUIRED_METADATA if k not in meta]
        if missing:
            raise ModelError(f"{self.model_path}: not a centre-point detector (no {', '.join(missing)})")
        if tuple(meta["classes"].split(",")) != CLASS_NAMES:
            raise ModelError(f"{self.model_path}: classes {meta['classes']!r}, this code wants {CLASS_NAMES}")
        self.rectifier = BoardRectifier(float(meta["px_per_mm"]), float(meta["half_extent_mm"]))
        self.stride = int(meta["stride"])
        self._input = self._session.get_inputs()[0].name
        # A model exported with free height and width names its coarsest cell; one of a fixed
        # size takes only the whole view.
        free_size = not all(isinstance(d, int) for d in self._session.get_inputs()[0].shape[1:3])
        self._box_alignment = (
            int(meta["coarsest_stride_px"]) if free_size and "coarsest_stride_px" in meta else None
        )
        self._viewpoint: tuple[bytes, Viewpoint] | None = None
        self.light = (
            SurfaceLight(self.rectifier.px_per_mm, self.rectifier.half_extent_mm) if self.even_light else None
        )
        # What the last `detect` saw over the pockets' holes and too faintly to be found
        # (`Within.over_holes`, `Within.faint`).
        self.over_holes = Detections.empty()
        self.faint = Detections.empty()
        # Per pocket, the black found at its mouth by shape (or None) in the last look there at
        # an earlier frame, and in the latest look (frame index, place): on video a frame's
        # parts may hold one pocket twice (vision.detect.changed_part), one look all the same.
        self._mouths_before: dict[str, np.ndarray | None] = {}
        self._mouths_latest: dict[str, tuple[int, np.ndarray | None]] = {}
        self._looks = 0
        # Wall time of the board's rectification and of the network's passes (the light evened
        # first, when asked), over every look: what `python -m vision.bench` splits the
        # detector's time into.
        self.seconds_by_step = {"rectification": 0.0, "network": 0.0}

    def network_input(self, view: BoardView, whole: bool) -> np.ndarray:
        """What the network is given for `view`: the view itself, or with `even_light` its light
        evened out, read off each whole view (a box of it is lit as the last whole one was)."""
        if self.light is None:
            return view.image_bgr
        if whole:
            self.light.observe(view.image_bgr)
        return self.light.evened(view.image_bgr, view.origin_px)

    def heat_maps(self, view_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(C, G, G) class heat and (2, G, G) offsets for one rectified view."""
        heat, offsets = self._session.run(None, {self._input: view_bgr[None]})
        return heat[0], offsets[0]

    def _viewpoint_of(self, calibration: Calibration) -> Viewpoint:
        key = BoardRectifier.calibration_key(calibration)
        if self._viewpoint is None or self._viewpoint[0] != key:
            self._viewpoint = (key, Viewpoint.of(calibration))
        return self._viewpoint[1]

    @property
    def box_alignment_px(self) -> int | None:
        """Where a box's corners must lie (the network's coarsest cell, in view pixels), or
        None for a model that takes only the whole view."""
        return self._box_alignment

    @property
    def peak_floor(self) -> float:
        """The lowest heat read off as a peak: the threshold, or lower where a pale striker
        may be found among the weaker peaks."""
        return min(self.min_score, RESCUE_MIN_SCORE)

    def detect(self, image: Picture, calibration: Calibration) -> Detections:
        within = self.detect_within(image, calibration)
        self.over_holes, self.faint = within.over_holes, within.faint
        return within.found

    def detect_within(
        self,
        image: Picture,
        calibration: Calibration,
        box: ViewBox | None = None,
        striker_elsewhere: bool = False,
    ) -> Within:
        """The pieces in `box` of the view (None: the whole board), and where the network was
        unsure. The network is fully convolutional: away from the box's edges it answers as
        over the whole view, if the box's corners lie on multiples of its coarsest cell
        (`box_alignment_px`). `striker_elsewhere`: a confident striker was found outside the
        box, so no pale striker is looked for in it."""
        started = time.perf_counter()
        view = self.rectifier.view(image, calibration, box)
        rectified = time.perf_counter()
        heat, offsets = self.heat_maps(self.network_input(view, whole=box is None))
        self.seconds_by_step["rectification"] += rectified - started
        self.seconds_by_step["network"] += time.perf_counter() - rectified
        uv, classes, score = find_peaks(heat, offsets, self.stride, UNSURE_FROM_SCORE)
        faces = view.to_board(uv - 0.5)
        to_base_circle = _nearest_mm(faces, _BASE_CIRCLES)
        printed = (
            (
                (to_base_circle <= PRINT_MATCH_MM)
                & (score < PRINT_MAX_SCORE)
                & (classes != _STRIKER)
                & (classes != _QUEEN)
            )
            | (
                (_nearest_mm(faces, _CENTRE) <= PRINT_MATCH_MM)
                & (score < CENTRE_PRINT_MAX_SCORE)
                & (classes == _WHITE)
            )
            | (
                (to_base_circle <= QUEEN_PRINT_MATCH_MM)
                & (score < QUEEN_PRINT_MAX_SCORE)
                & (classes == _QUEEN)
            )
        )
        face_to_hole = pocket_distance_mm(faces)
        over_hole = face_to_hole < OVER_HOLE_MM
        unsure_mm = faces[(score < UNSURE_BELOW_SCORE) & ~printed & ~over_hole]
        viewpoint = self._viewpoint_of(calibration)
        faint = self._faint(viewpoint, faces, classes, score, printed | over_hole)
        peaks = score >= self.peak_floor
        if not peaks.any():
            found = self._with_mouth_blacks(Detections.empty(), view, viewpoint, self._look_of(image))
            return Within(found, unsure_mm, False, Detections.empty(), faint)
        uv, classes, score, faces, printed, face_to_hole, over_hole = (
            uv[peaks],
            classes[peaks],
            score[peaks],
            faces[peaks],
            printed[peaks],
            face_to_hole[peaks],
            over_hole[peaks],
        )
        sure = score >= self.min_score
        pale = None
        if not (sure & (classes == _STRIKER)).any():
            coins = faces[sure & ~printed & (classes != _STRIKER)]
            pale = self._pale_striker(view, heat, uv, classes, score, faces, coins, ~over_hole)
            if pale is None:
                pale = _striker_at_a_mouth(classes, score, faces, face_to_hole)
        if pale is not None and not striker_elsewhere:
            classes[pale] = _STRIKER
            sure[pale] = True
        real = np.flatnonzero(~printed & sure)
        kept = real[suppress_close(faces[real], MERGE_DISTANCE_MM)]
        if not self.for_tracking:
            kept = kept[~_rimless(view, faces[kept], classes[kept], score[kept])]
        bases = viewpoint.face_to_base(faces[kept])
        to_hole = pocket_distance_mm(bases)
        behind_hole = ~on_playing_surface(bases) & (to_hole < BEHIND_HOLE_MM)
        into_cushion = _into_cushion(bases, classes[kept], to_hole)
        on_board = (
            (to_hole >= OVER_HOLE_MM)
            & ~behind_hole
            & ~into_cushion
            & ~_hole_crescents(bases, classes[kept], score[kept])
        )
        found = Detections(bases[on_board], classes[kept][on_board], score[kept][on_board])
        found = self._with_mouth_blacks(found, view, viewpoint, self._look_of(image))
        # Over the holes the fainter peaks are reported too, for the caller to weigh: a coin
        # sinking into the dark scores lower with every frame.
        seen = np.flatnonzero(~printed)
        seen = seen[suppress_close(faces[seen], MERGE_DISTANCE_MM)]
        seen_bases = viewpoint.face_to_base(faces[seen])
        falling = pocket_distance_mm(seen_bases) < OVER_HOLE_MM
        over_holes = Detections(seen_bases[falling], classes[seen][falling], score[seen][falling])
        return Within(found, unsure_mm, pale is not None, over_holes, faint)

    def _look_of(self, image: Picture) -> int:
        """Which look `image` is: its frame's index, or a count of pictures given."""
        if isinstance(image, Frame):
            return image.index
        self._looks += 1
        return -self._looks

    def _with_mouth_blacks(
        self, found: Detections, view: BoardView, viewpoint: Viewpoint, look: int
    ) -> Detections:
        """`found` and the black coins lying over a pocket's hole that the network did not
        find (`vision.detect.mouth`: against the dark hole it hardly sees them); on video
        (`for_tracking`) only those found there in the last look at that pocket too."""
        mouths = []
        for pocket, xy in mouth_blacks_mm(view).items():
            latest = self._mouths_latest.get(pocket)
            if latest is not None and latest[0] != look:
                self._mouths_before[pocket] = latest[1]
            self._mouths_latest[pocket] = (look, xy)
            before = self._mouths_before.get(pocket)
            if xy is None:
                continue
            if not self.for_tracking or (before is not None and np.hypot(*(xy - before)) <= MOUTH_STILL_MM):
                mouths.append(xy)
        if not mouths:
            return found
        bases = viewpoint.face_to_base(np.array(mouths))
        # A piece found within a coin's radius is that coin (a neighbour lies a coin's width off).
        new = _nearest_mm(bases, found.xy_mm) >= COIN_RADIUS_MM if len(found) else np.ones(len(bases), bool)
        if not new.any():
            return found
        count = int(new.sum())
        blacks = Detections(bases[new], np.full(count, _BLACK), np.full(count, MOUTH_SCORE, dtype=np.float32))
        return Detections.merge([found, blacks])

    def _faint(
        self, viewpoint: Viewpoint, faces: np.ndarray, classes: np.ndarray, score: np.ndarray, off: np.ndarray
    ) -> Detections:
        """The peaks from `FAINT_FROM_SCORE` up to the threshold, but those `off` (a print,
        over a hole), at their bases."""
        faint = (score >= FAINT_FROM_SCORE) & (score < self.min_score) & ~off
        bases = viewpoint.face_to_base(faces[faint])
        return Detections(bases, classes[faint], score[faint])

    def _pale_striker(
        self,
        view: BoardView,
        heat: np.ndarray,
        uv: np.ndarray,
        classes: np.ndarray,
        score: np.ndarray,
        faces: np.ndarray,
        coins: np.ndarray,
        off_holes: np.ndarray,
    ) -> int | None:
        """Index of the peak that is the striker by its size though not by its looks, if any.
        `coins`: where the confident carrommen lie (the candidate itself may be one of them: a
        pale striker is often taken for a white coin); `off_holes`: which peaks lie off the
        pockets' holes."""
        cells = np.clip((uv / self.stride).astype(np.int64), 0, np.array(heat.shape[:0:-1]) - 1)
        striker_heat = heat[_STRIKER, cells[:, 1], cells[:, 0]]
        candidates = np.flatnonzero(
            np.isin(classes, (_WHITE, _STRIKER))
            & (score >= RESCUE_MIN_SCORE)
            & (striker_heat >= RESCUE_MIN_STRIKER_HEAT)
            & off_holes
            & on_playing_surface(faces, RESCUE_INSIDE_EDGE_MM)
            & _clear_of(faces, coins, RESCUE_CLEAR_OF_COINS_MM)
            & (_nearest_mm(faces, _ARROW_ARCS) >= RESCUE_CLEAR_OF_ARCS_MM)
        )
        if not len(candidates):
            return None
        rims = rim_radii_mm(view, faces[candidates])
        sized = (rims >= STRIKER_MIN_RIM_MM) & (rims <= RESCUE_MAX_RIM_MM)
        if not sized.any():
            return None
        # Of those the striker's size, the one the network most thinks the striker: a gap
        # among coins can read as a striker-sized rim (the coins' edges ring it), larger than
        # the real striker's, though the network gives it far less striker heat.
        return int(candidates[sized][np.argmax(striker_heat[candidates][sized])])
