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

from calibration.camera import Calibration, rectified_to_board, rectify_maps
from calibration.geometry import HALF_SURFACE_MM
from vision.detections import Detections

# 1 px per mm: a coin is 31 px across. Finer costs time (the remap and the candidate search
# grow with its square); the classifier's centre offset gives the sub-pixel accuracy.
DEFAULT_PX_PER_MM = 1.0
# The view covers the playing surface and a strip of frame so pieces at the pocket mouths and
# on the surface edge are whole.
VIEW_MARGIN_MM = 12.0


class Detector(Protocol):
    """Anything that finds the pieces in one frame."""

    def detect(self, image_bgr: np.ndarray, calibration: Calibration) -> Detections: ...


@dataclass(frozen=True, eq=False)
class BoardView:
    """One rectified top-down image of the board and how its pixels map to board mm."""

    image_bgr: np.ndarray  # (S, S, 3) uint8
    px_per_mm: float
    half_extent_mm: float

    def to_board(self, pixels: np.ndarray) -> np.ndarray:
        return rectified_to_board(pixels, self.px_per_mm, self.half_extent_mm)


@dataclass(eq=False)
class BoardRectifier:
    """Rectifies frames of one camera; the remap tables are built once per calibration."""

    px_per_mm: float = DEFAULT_PX_PER_MM
    half_extent_mm: float = HALF_SURFACE_MM + VIEW_MARGIN_MM
    _key: bytes | None = field(default=None, repr=False)
    _maps: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

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

    def view(self, image_bgr: np.ndarray, calibration: Calibration) -> BoardView:
        key = self.calibration_key(calibration)
        if key != self._key or self._maps is None:
            map_x, map_y = rectify_maps(calibration, self.px_per_mm, self.half_extent_mm)
            # Fixed-point maps remap about twice as fast as float maps.
            self._maps = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
            self._key = key
        rectified = cv2.remap(
            image_bgr, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return BoardView(rectified, self.px_per_mm, self.half_extent_mm)
