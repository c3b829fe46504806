"""Detection where the picture changed: how the recorder skips most of the network's work.

Between strokes a hand comes and goes over one part of the board while the rest lies still;
late in a stroke the last pieces roll in one corner. The network need not look at the whole
board again for that. Each frame's luma is probed on a grid over the board (every
`probe_mm`) and compared with the probe as it was when each part of the board was last
detected. The view is renewed in tiles: those within a piece's reach of a changed probe
cell, and those around a peak the network was unsure of (a faint piece is seen in some frames
of a still board and not in others, so the whole board's pass would look there again). Each
group of such tiles, with the network's context around it, is the only part rectified and
run through the network; elsewhere the pieces are the ones last found there (a piece that
moved changed the picture where it was and where it is). Nothing to renew: the last
detections stand, at no cost. The whole board is detected again every `refresh_s`, and
whenever the parts to renew add up to most of it.

Each rule here answers a difference from the whole board's pass found on the development
videos; with them all the recorder's figures on the 20 development and 20 held-out videos
are identical to that pass's, and the 1080p benchmark runs about 1.2x faster (26% of plain
decoding against 21%, `python -m vision.bench`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from calibration.camera import Calibration, rectify_maps
from calibration.geometry import STRIKER_RADIUS_MM
from vision.detect.base import BoardRectifier, Picture, ViewBox
from vision.detect.onnx_detector import Within
from vision.detections import CLASS_NAMES, Detections
from vision.io import Frame

_STRIKER = CLASS_NAMES.index("striker")
# A changed probe cell may be a piece's edge: its centre lies up to a striker's radius away,
# plus a piece's travel it is not seen to make between two probes of a still board.
PIECE_REACH_MM = STRIKER_RADIUS_MM + 10.0
# Context around a renewed part. Measured on 60 development views, a 64 mm part's heat with
# 64 px of context (128 mm at the shipped scale) is within 0.004 of the whole view's; with
# 32 px it was up to 0.09 off, enough to tip a borderline peak over the threshold.
CONTEXT_PX = 64
# The view is renewed in square tiles of this many pixels (64 mm at the shipped scale): what
# changed in one place and in another far off are two small parts, not one large box.
TILE_PX = 32


class BoxDetector(Protocol):
    """A detector that can run over a box of the board's view (`OnnxDetector`)."""

    rectifier: BoardRectifier
    min_score: float

    @property
    def box_alignment_px(self) -> int | None: ...

    def detect_within(
        self,
        image: Picture,
        calibration: Calibration,
        box: ViewBox | None = None,
        striker_elsewhere: bool = False,
    ) -> Within: ...


@dataclass
class ChangedPartDetector:
    detector: BoxDetector
    probe_mm: float = 4.0  # the probe's spacing on the board
    change_level: int = 8  # grey levels
    refresh_s: float = 1.0
    # A part is looked at again this long after it last changed: a piece coming to rest at a
    # pocket's lip sharpens out of its blur after the picture has all but stopped changing.
    settle_s: float = 0.2
    full_above_fraction: float = 0.75  # of the view's area
    # What the last frame cost: "full", "part" or "none"; and how many frames cost each.
    last_work: str = field(default="", init=False)
    # What the network saw over the pockets' holes in the parts it looked at this frame
    # (`Within.over_holes`): nothing where it did not look (a falling piece changes the picture).
    over_holes: Detections = field(default_factory=Detections.empty, init=False)
    # The pieces too faint to be found (`Within.faint`), as last seen in each part.
    faint: Detections = field(default_factory=Detections.empty, init=False)
    work_counts: dict[str, int] = field(default_factory=dict, init=False)
    _key: bytes | None = field(default=None, init=False, repr=False)
    _probe_maps: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)
    _reference: np.ndarray | None = field(default=None, init=False, repr=False)
    _last: Detections | None = field(default=None, init=False, repr=False)
    _unsure_mm: np.ndarray = field(default_factory=lambda: np.empty((0, 2)), init=False, repr=False)
    _last_full_s: float = field(default=-1e9, init=False, repr=False)
    _changed_at_s: np.ndarray | None = field(default=None, init=False, repr=False)  # per tile

    def detect(self, image: Picture, calibration: Calibration) -> Detections:
        self.over_holes = Detections.empty()
        if not isinstance(image, Frame) or self.detector.box_alignment_px is None:
            self._did("full")
            within = self.detector.detect_within(image, calibration)
            self.over_holes, self.faint = within.over_holes, within.faint
            return within.found
        rectifier = self.detector.rectifier
        key = BoardRectifier.calibration_key(calibration)
        if key != self._key or self._probe_maps is None:
            self._key, self._last, self._changed_at_s = key, None, None
            maps = rectify_maps(calibration, 1.0 / self.probe_mm, rectifier.half_extent_mm)
            self._probe_maps = cv2.convertMaps(*maps, cv2.CV_16SC2)
        probe = cv2.remap(image.gray(), *self._probe_maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if self._last is None or self._reference is None or self._changed_at_s is None:
            return self._full(image, calibration, probe)
        self._changed_at_s[self._changed_tiles(probe)] = image.time_s
        if image.time_s - self._last_full_s >= self.refresh_s:
            return self._full(image, calibration, probe)
        interiors = _tile_boxes(self._tiles_to_renew(image.time_s))
        if not interiors:
            self._did("none")
            return self._last
        size = rectifier.size_px()
        alignment = self.detector.box_alignment_px
        crops = [
            _aligned_box(low - CONTEXT_PX, high + CONTEXT_PX, alignment, size) for low, high in interiors
        ]
        if sum((c1 - c0) * (r1 - r0) for c0, r0, c1, r1 in crops) >= self.full_above_fraction * size * size:
            return self._full(image, calibration, probe)
        to_pixels = rectifier.to_pixels

        def in_part(pieces: Detections, low: np.ndarray, high: np.ndarray) -> Detections:
            return pieces[_within(to_pixels(pieces.xy_mm), low, high)]

        kept = self._last[~_in_any(to_pixels(self._last.xy_mm), interiors)]
        # A pale striker is taken only where no striker was found anywhere, and then the
        # best candidate of all on the board (OnnxDetector._pale_striker): so the parts are
        # looked at without it, and if none has a striker but one has a pale candidate, the
        # whole board is looked at after all.
        parts = [self.detector.detect_within(image, calibration, crop, True) for crop in crops]
        seen = Detections.merge([kept, *(part.found for part in parts)])
        if any(part.pale_striker for part in parts) and not _has_striker(seen, self.detector.min_score):
            return self._full(image, calibration, probe)
        found, over_holes = [kept], []
        faint = [self.faint[~_in_any(to_pixels(self.faint.xy_mm), interiors)]]
        unsure = [self._unsure_mm[~_in_any(to_pixels(self._unsure_mm), interiors)]]
        cells_per_px = 1.0 / (rectifier.px_per_mm * self.probe_mm)
        for (low, high), part in zip(interiors, parts, strict=True):
            found.append(in_part(part.found, low, high))
            over_holes.append(in_part(part.over_holes, low, high))
            faint.append(in_part(part.faint, low, high))
            unsure.append(part.unsure_mm[_within(to_pixels(part.unsure_mm), low, high)])
            col0, row0 = (low * cells_per_px).astype(int)
            col1, row1 = (high * cells_per_px).astype(int)
            self._reference[row0:row1, col0:col1] = probe[row0:row1, col0:col1]
        self._last = Detections.merge(found)
        self.over_holes = Detections.merge(over_holes)
        self.faint = Detections.merge(faint)
        self._unsure_mm = np.concatenate(unsure)
        self._did("part")
        return self._last

    def _did(self, work: str) -> None:
        self.last_work = work
        self.work_counts[work] = self.work_counts.get(work, 0) + 1

    def _changed_tiles(self, probe: np.ndarray) -> np.ndarray:
        """The tiles within a piece's reach of a probe cell that changed since it was last
        detected."""
        assert self._reference is not None
        changed = (np.abs(probe.astype(np.int16) - self._reference) > self.change_level).astype(np.uint8)
        reach_cells = int(np.ceil(PIECE_REACH_MM / self.probe_mm))
        grown = cv2.dilate(changed, np.ones((2 * reach_cells + 1,) * 2, np.uint8))
        side = self._tiles_per_side()
        return grown.reshape(side, grown.shape[0] // side, side, -1).any(axis=(1, 3))

    def _tiles_to_renew(self, time_s: float) -> np.ndarray:
        """Which tiles of the view to detect again: those that changed lately (`settle_s`),
        and those within a piece's reach of a peak the network was unsure of (a faint piece
        is seen in some frames of a still board and not in others; the whole board's pass
        would have looked again)."""
        assert self._changed_at_s is not None
        tiles = time_s - self._changed_at_s <= self.settle_s + 1e-9
        reach_px = PIECE_REACH_MM * self.detector.rectifier.px_per_mm
        for col, row in self.detector.rectifier.to_pixels(self._unsure_mm):
            col0, row0 = (max(0, int((v - reach_px) // TILE_PX)) for v in (col, row))
            col1, row1 = (int((v + reach_px) // TILE_PX) + 1 for v in (col, row))
            tiles[row0:row1, col0:col1] = True
        return tiles

    def _tiles_per_side(self) -> int:
        return self.detector.rectifier.size_px() // TILE_PX

    def _full(self, image: Frame, calibration: Calibration, probe: np.ndarray) -> Detections:
        within = self.detector.detect_within(image, calibration)
        self._last, self._unsure_mm = within.found, within.unsure_mm
        self.over_holes, self.faint = within.over_holes, within.faint
        self._reference = probe.astype(np.int16)
        if self._changed_at_s is None:
            self._changed_at_s = np.full((self._tiles_per_side(),) * 2, -np.inf)
        self._last_full_s = image.time_s
        self._did("full")
        return self._last


def _has_striker(found: Detections, min_score: float) -> bool:
    return bool(np.any((found.class_id == _STRIKER) & (found.score >= min_score)))


def _tile_boxes(tiles: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The marked tiles as a few boxes (view pixels, low and high corners) that do not
    overlap: the bounding boxes of the groups of touching tiles, merged where they overlap."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(tiles.astype(np.uint8), connectivity=8)
    boxes = [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _ in stats[1:count]]
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [(np.array(box[:2]) * TILE_PX, np.array(box[2:]) * TILE_PX) for box in boxes]


def _in_any(px: np.ndarray, boxes: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """(N,) whether each of the points `px` lies within any of `boxes` (low, high corners)."""
    inside = np.zeros(len(px), dtype=bool)
    for low, high in boxes:
        inside |= _within(px, low, high)
    return inside


def _within(px: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    return np.all((px >= low) & (px < high), axis=1)


def _aligned_box(low: np.ndarray, high: np.ndarray, alignment: int, size: int) -> ViewBox:
    col0, row0 = (max(0, int(np.floor(v / alignment)) * alignment) for v in low)
    col1, row1 = (min(size, int(np.ceil(v / alignment)) * alignment) for v in high)
    return col0, row0, col1, row1
