"""A piece's top face is not where its base is: the parallax of a face 7 mm above the surface.

The rectified view maps the playing surface exactly, but the camera sees a piece's top face,
`PIECE_THICKNESS_MM` higher, and a point above the surface shows in that view displaced away
from the point under the camera, by its height over the camera's: up to about 4 mm at the
board's corners for the generator's cameras. A detector finds the face; this module moves it
to the base, where positions are measured.

The camera's centre comes from the calibration: its homography is K [r1 r2 t] up to scale, so
K^-1 H gives the rotation and translation and the centre is -R^T t. With the nominal camera
matrix the calibration falls back on, the height is off as far as the focal length is (the
correction stays within about 1 mm of the truth at the corners).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.camera import Calibration
from calibration.geometry import PIECE_THICKNESS_MM

# A camera lower than this over the board is not a plausible overhead view (a degenerate
# calibration): no correction rather than a wild one.
MIN_CAMERA_HEIGHT_MM = 200.0


@dataclass(frozen=True, eq=False)
class Viewpoint:
    """The camera centre over the board: `xy_mm` in the board frame, `height_mm` above it."""

    xy_mm: np.ndarray
    height_mm: float

    @classmethod
    def of(cls, calibration: Calibration) -> Viewpoint:
        m = np.linalg.inv(calibration.camera_matrix) @ calibration.homography
        m = m * (2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])))
        if m[2, 2] < 0:  # the board lies in front of the camera
            m = -m
        r1, r2, t = m[:, 0], m[:, 1], m[:, 2]
        rotation = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
        centre = -rotation.T @ t
        height = float(abs(centre[2]))
        if not np.all(np.isfinite(centre)) or height < MIN_CAMERA_HEIGHT_MM:
            return cls(np.zeros(2), np.inf)
        return cls(centre[:2].copy(), height)

    def base_to_face(self, xy_mm: np.ndarray, height_mm: float = PIECE_THICKNESS_MM) -> np.ndarray:
        """Where the face `height_mm` above each base point shows on the surface."""
        if not np.isfinite(self.height_mm):
            return np.asarray(xy_mm, float).copy()
        scale = self.height_mm / (self.height_mm - height_mm)
        return self.xy_mm + (np.asarray(xy_mm, float) - self.xy_mm) * scale

    def face_to_base(self, xy_mm: np.ndarray, height_mm: float = PIECE_THICKNESS_MM) -> np.ndarray:
        """The base points under faces seen at `xy_mm` on the surface."""
        if not np.isfinite(self.height_mm):
            return np.asarray(xy_mm, float).copy()
        scale = (self.height_mm - height_mm) / self.height_mm
        return self.xy_mm + (np.asarray(xy_mm, float) - self.xy_mm) * scale
