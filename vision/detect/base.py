"""The detector interface and the top-down board view every detector works on.

A detector takes a camera frame and its calibration and returns `Detections` in board mm.
Detectors here work on the rectified board (a top-down view at a fixed scale, north up), where
every piece is a disc of known size wherever it lies, so a classical and a learned detector
share the same view and are interchangeable (`Detector` protocol) and comparable
(`python -m vision.detect.eval`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from calibration.camera import Calibration, board_to_rectified, rectified_to_board, rectify_maps
from calibration.geometry import HALF_SURFACE_MM
from vision.detections import Detections
from vision.io import Frame, i420_to_bgr

# 1 px per mm: a coin is 31 px across. Finer costs time (the remap and the candidate search
# grow with its square); the classifier's centre offset gives the sub-pixel accuracy.
DEFAULT_PX_PER_MM = 1.0
# The view covers the playing surface and a strip of frame so pieces at the pocket mouths and
# on the surface edge are whole.
VIEW_MARGIN_MM = 12.0


# A picture to detect in: a BGR image, or a decoded video frame (whose planes the board's
# rectification samples directly, see `BoardRectifier.view`).
Picture = np.ndarray | Frame


class Detector(Protocol):
    """Anything that finds the pieces in one frame."""

    def detect(self, image: Picture, calibration: Calibration) -> Detections: ...


# A rectangle of the whole view, in its pixels: (first column, first row, end column, end row).
ViewBox = tuple[int, int, int, int]


@dataclass(frozen=True, eq=False)
class BoardView:
    """One rectified top-down image of the board (or of a box of it, whose first pixel is
    `origin_px` of the whole view) and how its pixels map to board mm."""

    image_bgr: np.ndarray  # (rows, cols, 3) uint8
    px_per_mm: float
    half_extent_mm: float
    origin_px: tuple[int, int] = (0, 0)  # (column, row) of the whole view

    def to_board(self, pixels: np.ndarray) -> np.ndarray:
        return rectified_to_board(np.asarray(pixels) + self.origin_px, self.px_per_mm, self.half_extent_mm)

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        return board_to_rectified(points_mm, self.px_per_mm, self.half_extent_mm) - self.origin_px


_Maps = tuple[np.ndarray, np.ndarray]


@dataclass(eq=False)
class BoardRectifier:
    """Rectifies frames of one camera; the remap tables are built once per calibration."""

    px_per_mm: float = DEFAULT_PX_PER_MM
    half_extent_mm: float = HALF_SURFACE_MM + VIEW_MARGIN_MM
    _key: bytes | None = field(default=None, repr=False)
    _maps: tuple[_Maps, _Maps | None] | None = field(default=None, repr=False)

    @staticmethod
    def calibration_key(calibration: Calibration) -> bytes:
        """Equal for calibrations that map the same way (what per-calibration caches key on)."""
        return b"".join(
            np.ascontiguousarray(a, dtype=np.float64).tobytes()
            for a in (
                np.asarray(calibration.image_size, dtype=np.float64),
                calibration.camera_matrix,
                calibration.dist_coeffs,
                calibration.homography,
            )
        )

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        """Board mm -> pixels of the whole view."""
        return board_to_rectified(points_mm, self.px_per_mm, self.half_extent_mm)

    def size_px(self) -> int:
        """The whole view's side in pixels."""
        return int(round(2 * self.half_extent_mm * self.px_per_mm))

    def view(self, image: Picture, calibration: Calibration, box: ViewBox | None = None) -> BoardView:
        """The whole view, or only `box` of it (its corners on multiples of 4 pixels: the
        colour planes have half the resolution, and I420 stacks them in whole rows)."""
        luma_maps, chroma_maps = self._maps_for(calibration)
        origin = (0, 0)
        if box is not None:
            col0, row0, col1, row1 = box
            if any(edge % 4 for edge in box):
                raise ValueError(f"a view box's corners lie on multiples of 4 pixels, not {box}")
            origin = (col0, row0)
            luma_maps = _crop_maps(luma_maps, col0, row0, col1, row1)
            if chroma_maps is not None:
                chroma_maps = _crop_maps(chroma_maps, col0 // 2, row0 // 2, col1 // 2, row1 // 2)
        planes = image.yuv420() if isinstance(image, Frame) else None
        if planes is not None and chroma_maps is not None:
            # Only the view's pixels are sampled from the decoded planes and turned into colour
            # (a 1080p frame in colour costs more than the network's whole pass).
            luma, cb, cr = (
                cv2.remap(plane, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                for plane, maps in zip(planes, (luma_maps, chroma_maps, chroma_maps), strict=True)
            )
            rectified = i420_to_bgr(luma, cb, cr)
        else:
            bgr = image.bgr() if isinstance(image, Frame) else image
            rectified = cv2.remap(bgr, *luma_maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return BoardView(rectified, self.px_per_mm, self.half_extent_mm, origin)

    def _maps_for(self, calibration: Calibration) -> tuple[_Maps, _Maps | None]:
        """Fixed-point remap tables (about twice as fast as float ones) for the view and, when
        the view's size allows 4:2:0 colour, for its chroma."""
        key = self.calibration_key(calibration)
        if key != self._key or self._maps is None:
            map_x, map_y = rectify_maps(calibration, self.px_per_mm, self.half_extent_mm)
            chroma = None
            if map_x.shape[0] % 4 == 0:
                # A chroma pixel of the view stands for 2 x 2 of its pixels: sampled where their
                # centre maps to, in the frame's chroma grid (H.264's: a chroma sample sits on
                # the even luma columns, between two luma rows).
                half_x = map_x.reshape(map_x.shape[0] // 2, 2, -1, 2).mean(axis=(1, 3))
                half_y = map_y.reshape(map_y.shape[0] // 2, 2, -1, 2).mean(axis=(1, 3))
                chroma = cv2.convertMaps(
                    (half_x / 2.0).astype(np.float32), ((half_y - 0.5) / 2.0).astype(np.float32), cv2.CV_16SC2
                )
            self._maps = (cv2.convertMaps(map_x, map_y, cv2.CV_16SC2), chroma)
            self._key = key
        return self._maps


def _crop_maps(maps: _Maps, col0: int, row0: int, col1: int, row1: int) -> _Maps:
    return tuple(np.ascontiguousarray(m[row0:row1, col0:col1]) for m in maps)  # type: ignore[return-value]
