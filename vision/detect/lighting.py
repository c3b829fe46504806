"""Evening out a dim lamp's light before the network looks at the board (on request:
`carrom score --even-light`; the recorder's card and the model card give its figures, better on dim
development boards and mixed on the held-out ones).

A warm lamp over a club table lights the middle of the board and leaves its corners and
cushions dark (a hotspot and a strong vignette, the whole picture under-exposed). The network
finds a black coin against a dark corner, or the pale striker on a dim surface, far less often
than the same pieces under even light (development video 9191, a `warm-lamp` board: blacks
lying still in plain view found in 92% of looks, the striker in 57%). The surface itself says
how it is lit: it is one wood, so its brightness, cell by cell, is the light falling there.
Where the surface is darker than `TARGET_LUMA`, the network's input is brightened by the ratio
(at most `MAX_GAIN`), evenly over the colour channels so the lamp's tint and the pieces'
colours stay as they were; where it is already that bright nothing changes, and a board lit
that well all over goes to the network untouched, bit for bit. (Most boards have some part
under it, a vignetted corner: on development video 9100, a bright `tournament` board, the
corners are brightened by up to a fifth.) The frame's wood past the surface is left as it is.

The light is read off the rectified view itself: per 32 mm cell of the surface (pockets and
the frame left out), a high percentile of the grey levels, which the ink of the markings and
the pieces (dark coins, a hand) hardly move; a cell without enough surface takes its nearest
neighbour's. A reading every `READ_EVERY`-th whole-board pass, the light the median of the
last `HISTORY` readings per cell, so a hand or a cluster of coins lying over a cell for a
while does not change the light there.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.camera import rectified_to_board
from calibration.geometry import HALF_SURFACE_MM, POCKET_RADIUS_MM, pocket_distance_mm

# The surface's grey level under good light. Read as below on generator stills (seeds
# 31000-31011, each style): the median cell of a `tournament` board 161-233 (median 182),
# `club` 140-227, `worn` 150-230, `phone` 140-235; `warm-lamp` 91-193 (130), its darkest
# cells down to 69.
TARGET_LUMA = 190.0
MAX_GAIN = 3.0
CELL_MM = 32.0
# A cell is read only where this much of it is surface; the percentile keeps the surface's
# own level with a few coins or the markings' ink in the cell.
MIN_SURFACE_FRACTION = 0.9
PERCENTILE = 70.0
HISTORY = 5
# Below this much brightening nothing is done (the noise of the readings).
MIN_GAIN = 1.02
# The gain is applied in steps of 1/64 (1.6%: under a grey level at the surface's brightness).
GAIN_STEPS = 64
READ_EVERY = 10  # whole views


@dataclass(eq=False)
class SurfaceLight:
    """The light over the board's surface, for one rectified view geometry, and the gain
    that evens it out."""

    px_per_mm: float
    half_extent_mm: float
    _readings: deque[np.ndarray] = field(default_factory=lambda: deque(maxlen=HISTORY), init=False)
    _gain: np.ndarray | None = field(default=None, init=False, repr=False)  # (S, S, 3) in steps
    _views: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        size = int(round(2 * self.half_extent_mm * self.px_per_mm))
        self._cell_px = max(1, int(round(CELL_MM * self.px_per_mm)))
        if size % self._cell_px:
            raise ValueError(f"a {size} px view does not divide into {self._cell_px} px cells")
        self._size = size
        rows, cols = np.mgrid[0:size, 0:size]
        points = rectified_to_board(
            np.stack([cols.ravel(), rows.ravel()], axis=1), self.px_per_mm, self.half_extent_mm
        )
        on_surface = np.all(np.abs(points) <= HALF_SURFACE_MM, axis=1)
        self._on_surface = on_surface.reshape(size, size)
        # What the light is read off: the surface's wood, without the pockets' holes.
        self._surface = (on_surface & (pocket_distance_mm(points) > POCKET_RADIUS_MM)).reshape(size, size)
        self._off_surface = np.where(self._surface, 0, 255).astype(np.uint8)
        cells = self._cells(self._surface.astype(np.float32)).mean(axis=2)
        read = cells >= MIN_SURFACE_FRACTION
        # Each cell's nearest read cell, where its own is not read.
        _, labels = cv2.distanceTransformWithLabels(
            (~read).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL
        )
        read_rows, read_cols = np.nonzero(read)
        cell_of_label = np.zeros((labels.max() + 1, 2), np.int64)
        cell_of_label[labels[read_rows, read_cols]] = np.stack([read_rows, read_cols], axis=1)
        self._fill_from = cell_of_label[labels]  # (G, G, 2): the cell each cell's light is read in

    def _cells(self, image: np.ndarray) -> np.ndarray:
        """(G, G, cell_px**2) the pixels of each cell of an (S, S) image."""
        g, c = self._size // self._cell_px, self._cell_px
        return image.reshape(g, c, g, c).transpose(0, 2, 1, 3).reshape(g, g, c * c)

    def observe(self, view_bgr: np.ndarray) -> None:
        """Take a whole rectified view (S, S, 3): every `READ_EVERY`-th is read for the light
        (it changes slowly; a reading costs about as much as evening out a view)."""
        if view_bgr.shape[:2] != (self._size, self._size):
            raise ValueError(f"a whole view is {self._size} px square, not {view_bgr.shape[:2]}")
        self._views += 1
        if (self._views - 1) % READ_EVERY:
            return
        # Off the surface a pixel counts as bright as can be, which the percentile of a read
        # cell (at least 90% surface) passes over.
        luma = cv2.max(cv2.cvtColor(view_bgr, cv2.COLOR_BGR2GRAY), self._off_surface)
        cells = self._cells(luma)
        rank = int(round(PERCENTILE / 100.0 * (cells.shape[2] - 1)))
        level = np.partition(cells, rank, axis=2)[..., rank]
        level = level[self._fill_from[..., 0], self._fill_from[..., 1]].astype(np.float32)
        self._readings.append(level)
        light = np.median(np.stack(self._readings), axis=0).astype(np.float32)
        light = cv2.GaussianBlur(light, (0, 0), 1.0)
        gain = np.clip(TARGET_LUMA / np.maximum(light, 1.0), 1.0, MAX_GAIN)
        if float(gain.max()) < MIN_GAIN:
            self._gain = None
            return
        gain = cv2.resize(gain, (self._size, self._size), interpolation=cv2.INTER_LINEAR)
        # Only the surface is evened: the frame's wood past it is another material, and brightened
        # by the surface's light a knot in it read as a black coin (development video 9190). The
        # pockets' holes are brightened with the wood around them, as a longer exposure would.
        gain = np.where(self._on_surface, gain, 1.0)
        # In steps of 1/GAIN_STEPS, three channels alike: one saturating multiply per view.
        quantised = np.clip(np.round(gain * GAIN_STEPS), 0, 255).astype(np.uint8)
        self._gain = cv2.merge([quantised, quantised, quantised])

    def evened(self, image_bgr: np.ndarray, origin_px: tuple[int, int] = (0, 0)) -> np.ndarray:
        """`image_bgr` (a whole view, or a box of it whose first pixel is `origin_px` of the
        whole) with the dim parts brightened; the same array where nothing is dim."""
        if self._gain is None:
            return image_bgr
        col0, row0 = origin_px
        rows, cols = image_bgr.shape[:2]
        gain = self._gain[row0 : row0 + rows, col0 : col0 + cols]
        return cv2.multiply(image_bgr, gain, scale=1.0 / GAIN_STEPS, dtype=cv2.CV_8U)

    @property
    def gain(self) -> np.ndarray | None:
        """(S, S) the brightening per view pixel, or None where nothing is dim."""
        return None if self._gain is None else self._gain[..., 0] / GAIN_STEPS
