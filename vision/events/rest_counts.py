"""How many carrommen of each colour lie on the board, from the last few looks at it.

One frame's detections miscount: a hand passing over the board makes false pieces that move
with it and hides real ones, and a detector misses a piece now and then. A piece at rest
stays where it is, so a piece is counted where detections of its colour keep coming back to
the same spot over the window; what moves (a hand, a piece still rolling) or flickers (a
false detection) is not. A piece wholly hidden under a hand is not counted.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

import numpy as np

from calibration.geometry import STRIKER_RADIUS_MM, all_base_circle_centres, on_playing_surface
from vision.detections import CLASS_NAMES, Detections

# Looks kept: about a third of a second when every frame is detected (the board has been
# still at least that long when a stroke is closed).
WINDOW_LOOKS = 10
# Detections of a piece at rest scatter by a millimetre or two.
SPOT_MM = 4.0
# A spot is a piece when a detection of that colour was there in this share of the looks (a
# piece partly hidden now and then still counts; a detection once in a while does not).
PERSISTENCE = 0.4
# Two discs lying on the board cannot have centres this close: a coin's spot this near where
# the striker was seen is the striker, read as a coin in some looks.
SAME_DISC_MM = 0.5 * STRIKER_RADIUS_MM
# A spot whose every look scored under this is faint: a real carromman lying in plain view
# scores 0.8-0.95, while a gap ringed by black coins, or the crescent of a pocket's edge beside
# one, can read as a white coin at 0.4-0.5 look after look (held-out videos 64008, 64011,
# 64015, now development data).
FAINT_SPOT_SCORE = 0.6
# A faint spot this near a phantom (`RestCounter.phantoms`) is that phantom seen again: a
# spot's looks scatter by `SPOT_MM` about where it was found.
PHANTOM_MM = 2.0 * SPOT_MM
_STRIKER = CLASS_NAMES.index("striker")
# The base circles are a coin's size: phantoms on every board, known before any look. The
# detector drops a print read within `vision.detect.onnx_detector.PRINT_MATCH_MM` of a circle's
# centre, but where a phone's lens bends the picture its peak lies about that far off and
# moves with what lies near it (held-out video 91017, `phone`, development data since: a base
# circle read as a white at 0.52, 3.8 mm off before the break, dropped, and so never learned
# as a phantom; 4.3 mm off after it, kept; with two more such circles the count after the
# break held nine whites, a white's pocketing was dropped and, in its wake, the result lost).
_BASE_CIRCLES_MM = all_base_circle_centres()


class RestCounter:
    def __init__(self, items: Iterable[str]) -> None:
        self.items = tuple(items)
        self._looks: deque[Detections] = deque(maxlen=WINDOW_LOOKS)
        # Spots per item for the current window: asked for every frame the striker rests
        # (the counts and the placing zone's counts), found once per look.
        self._spots: dict[str, np.ndarray] = {}
        self._strongest: dict[str, np.ndarray] = {}  # per spot, its best look's score
        # Where the detector sees a carromman, only ever faintly, that is not one: spots found
        # when every piece was known to lie elsewhere (`StrokeSegmenter`, at a new board's
        # break). A faint spot there is not counted; a piece seen plainly there is. Kept in
        # board mm until the next break: a print on the board stays where it is on the board
        # when the camera is bumped and re-calibrated. The base circles are phantoms from the
        # start (`_BASE_CIRCLES_MM`).
        self._phantoms: np.ndarray = np.zeros((0, 2))

    @property
    def phantoms(self) -> np.ndarray:
        return self._phantoms

    def set_phantoms(self, spots_mm: np.ndarray) -> None:
        self._phantoms = np.asarray(spots_mm, dtype=float).reshape(-1, 2)

    def add(self, detections: Detections) -> None:
        self._looks.append(detections)
        self._spots = {}
        self._strongest = {}

    def snapshot(self) -> RestCounter:
        """The window as it is now, counted only when asked (the looks are not copied)."""
        frozen = RestCounter(self.items)
        frozen._looks.extend(self._looks)
        frozen._phantoms = self._phantoms
        frozen._spots = self._spots
        frozen._strongest = self._strongest
        return frozen

    def clear(self) -> None:
        self._looks.clear()
        self._spots = {}
        self._strongest = {}

    @property
    def empty(self) -> bool:
        return not self._looks

    def pieces(self, item: str, striker_mm: np.ndarray | None = None) -> np.ndarray:
        """(N, 2) board mm of the pieces of `item` the window shows lying still. `striker_mm`:
        where the striker is believed to lie, whether or not the window shows it there (its
        track, when the detector has read it as a coin since): one more sighting of it."""
        return self._spots_of(item, striker_mm)[0]

    def faint(self, item: str, striker_mm: np.ndarray | None = None) -> int:
        """How many of the pieces `pieces` counts scored under `FAINT_SPOT_SCORE` in every look."""
        return len(self.faint_pieces(item, striker_mm))

    def faint_pieces(
        self, item: str, striker_mm: np.ndarray | None = None, with_phantoms: bool = False
    ) -> np.ndarray:
        """(N, 2) board mm of the pieces of `pieces` that scored under `FAINT_SPOT_SCORE` in
        every look (`with_phantoms`: and the faint spots at `phantoms`, not counted)."""
        spots, strongest = self._spots_of(item, striker_mm, with_phantoms)
        return spots[strongest < FAINT_SPOT_SCORE]

    def _spots_of(
        self, item: str, striker_mm: np.ndarray | None, with_phantoms: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        if item not in self._spots:
            self._spots[item], self._strongest[item] = self._find(item)
        spots, strongest = self._spots[item], self._strongest[item]
        if len(spots) and not with_phantoms:
            real = ~((strongest < FAINT_SPOT_SCORE) & self._near_phantom(spots))
            spots, strongest = spots[real], strongest[real]
        if striker_mm is None or not len(striker_mm) or not len(spots) or item == "striker":
            return spots, strongest
        coin = ~self._striker_misread(spots, striker_mm)
        return spots[coin], strongest[coin]

    def _find(self, item: str) -> tuple[np.ndarray, np.ndarray]:
        class_id = CLASS_NAMES.index(item)
        points, scores, look = [], [], []
        for k, detections in enumerate(self._looks):
            on_surface = on_playing_surface(detections.xy_mm)
            mine = (detections.class_id == class_id) & on_surface
            points.append(detections.xy_mm[mine])
            scores.append(detections.score[mine])
            look.extend([k] * int(mine.sum()))
        if not look:
            return np.zeros((0, 2)), np.zeros(0)
        xy = np.concatenate(points)
        score = np.concatenate(scores)
        looks = np.array(look)
        near = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2) <= SPOT_MM
        needed = PERSISTENCE * len(self._looks)
        taken = np.zeros(len(xy), bool)
        found, strongest = [], []
        # Densest spots first, so a spot is not split by starting from a stray detection.
        for i in np.argsort(-near.sum(axis=1), kind="stable"):
            if taken[i]:
                continue
            members = near[i] & ~taken
            taken |= members
            if len(set(looks[members].tolist())) >= needed:
                found.append(xy[members].mean(axis=0))
                strongest.append(float(score[members].max()))
        spots, best = np.array(found).reshape(-1, 2), np.array(strongest)
        if class_id == _STRIKER or not len(spots):
            return spots, best
        coin = ~self._striker_misread(spots)
        return spots[coin], best[coin]

    def _near_phantom(self, spots: np.ndarray) -> np.ndarray:
        marks = np.vstack([self.phantoms, _BASE_CIRCLES_MM])
        distance = np.linalg.norm(spots[:, None, :] - marks[None, :, :], axis=2)
        return (distance <= PHANTOM_MM).any(axis=1)

    def _striker_misread(self, spots: np.ndarray, striker_mm: np.ndarray | None = None) -> np.ndarray:
        """Which spots are the striker read as a coin: the striker was seen only there
        (where it was seen elsewhere too, the spot may be a coin read as the striker)."""
        extra = np.zeros((0, 2)) if striker_mm is None else np.asarray(striker_mm, dtype=float).reshape(-1, 2)
        strikers = np.concatenate([*(d.xy_mm[d.class_id == _STRIKER] for d in self._looks), extra])
        if not len(strikers):
            return np.zeros(len(spots), bool)
        near = np.linalg.norm(spots[:, None, :] - strikers[None, :, :], axis=2) <= SAME_DISC_MM
        return near.any(axis=1) & near.all(axis=1)

    def counts_within(self, radius_mm: float, striker_mm: np.ndarray | None = None) -> Counter[str]:
        """Pieces per item seen lying still within `radius_mm` of the board's centre."""
        return Counter(
            {
                item: int(np.sum(np.hypot(*self.pieces(item, striker_mm).T) <= radius_mm))
                for item in self.items
            }
        )

    def counts(self, striker_mm: np.ndarray | None = None) -> Counter[str]:
        """Pieces per item seen lying still."""
        return Counter({item: len(self.pieces(item, striker_mm)) for item in self.items})

    def faint_counts(self, striker_mm: np.ndarray | None = None) -> Counter[str]:
        """Of `counts`, the pieces per item only ever seen faintly (`FAINT_SPOT_SCORE`)."""
        return Counter({item: self.faint(item, striker_mm) for item in self.items})
