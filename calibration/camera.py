"""The image <-> board mapping: a frozen calibration object and its JSON form.

Convention (issue "Board calibration"): `homography` maps board mm (x east, y north) to
*undistorted* pixels; lens distortion follows OpenCV (`camera_matrix`, `dist_coeffs`). A
pixel maps to the board by `cv2.undistortPoints(p, K, dist, P=K)` and then the inverse
homography.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationFileError
from calibration.geometry import FRAME_BREADTH_MM, HALF_SURFACE_MM

SCHEMA = "carrom-calibration/1"


def _as_points(points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim == 1:
        pts = pts[None, :]
    if pts.shape[-1] != 2:
        raise ValueError(f"expected points of shape (N, 2), got {pts.shape}")
    return pts.reshape(-1, 2)


@dataclass(frozen=True, eq=False)
class Calibration:
    image_size: tuple[int, int]  # (width, height) in pixels
    camera_matrix: np.ndarray  # (3, 3)
    dist_coeffs: np.ndarray  # (5,) k1 k2 p1 p2 k3
    homography: np.ndarray  # (3, 3) board mm -> undistorted pixels
    reprojection_error_mm: float = 0.0
    landmarks: tuple[str, ...] = field(default_factory=tuple)

    @property
    def has_distortion(self) -> bool:
        return bool(np.any(self.dist_coeffs != 0.0))

    def image_to_board(self, points_px: np.ndarray) -> np.ndarray:
        """(N, 2) pixel positions in the (distorted) frame -> (N, 2) board mm."""
        pts = _as_points(points_px)
        if self.has_distortion:
            pts = cv2.undistortPoints(
                pts.reshape(-1, 1, 2), self.camera_matrix, self.dist_coeffs, P=self.camera_matrix
            ).reshape(-1, 2)
        inverse = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), inverse).reshape(-1, 2)

    def board_to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N, 2) pixel positions in the (distorted) frame."""
        pts = _as_points(points_mm)
        undistorted = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.homography).reshape(-1, 2)
        if not self.has_distortion:
            return undistorted
        return distort_pixels(undistorted, self.camera_matrix, self.dist_coeffs)

    def mm_per_pixel_at(self, point_mm: np.ndarray) -> float:
        """Local scale: how many board mm one pixel spans near a board point."""
        p = _as_points(point_mm)[0]
        probe = np.array([p, p + [1.0, 0.0], p + [0.0, 1.0]])
        img = self.board_to_image(probe)
        px_per_mm = (np.linalg.norm(img[1] - img[0]) + np.linalg.norm(img[2] - img[0])) / 2.0
        return float(1.0 / px_per_mm)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "image_size": [int(self.image_size[0]), int(self.image_size[1])],
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.reshape(-1).tolist(),
            "board_to_image": self.homography.tolist(),
            "reprojection_error_mm": float(self.reprojection_error_mm),
            "landmarks": list(self.landmarks),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "calibration") -> Calibration:
        if data.get("schema") != SCHEMA:
            raise CalibrationFileError(f"{where}: schema must be {SCHEMA!r}, got {data.get('schema')!r}")
        try:
            width, height = (int(v) for v in data["image_size"])
            camera_matrix = np.array(data["camera_matrix"], dtype=np.float64).reshape(3, 3)
            dist = np.zeros(5)
            given = np.array(data.get("dist_coeffs", []), dtype=np.float64).reshape(-1)
            dist[: min(5, given.size)] = given[:5]
            homography = np.array(data["board_to_image"], dtype=np.float64).reshape(3, 3)
            error = float(data.get("reprojection_error_mm", 0.0))
            landmarks = tuple(str(x) for x in data.get("landmarks", []))
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationFileError(f"{where}: malformed calibration ({exc})") from exc
        return cls((width, height), camera_matrix, dist, homography, error, landmarks)

    @classmethod
    def from_homography(cls, image_size: tuple[int, int], homography: np.ndarray) -> Calibration:
        """A distortion-free calibration with a nominal pinhole camera matrix."""
        return cls(image_size, nominal_camera_matrix(image_size), np.zeros(5), np.asarray(homography, float))


def nominal_camera_matrix(image_size: tuple[int, int], focal_px: float | None = None) -> np.ndarray:
    width, height = image_size
    f = float(focal_px if focal_px is not None else max(width, height))
    return np.array([[f, 0.0, width / 2.0], [0.0, f, height / 2.0], [0.0, 0.0, 1.0]])


def distort_pixels(
    undistorted_px: np.ndarray, camera_matrix: np.ndarray, dist_coeffs: np.ndarray
) -> np.ndarray:
    """Apply OpenCV's lens model to undistorted pixel positions."""
    pts = _as_points(undistorted_px)
    homogeneous = np.hstack([pts, np.ones((len(pts), 1))])
    normalised = (np.linalg.inv(camera_matrix) @ homogeneous.T).T
    object_points = np.hstack([normalised[:, :2], np.ones((len(pts), 1))])
    projected, _ = cv2.projectPoints(
        object_points.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), camera_matrix, dist_coeffs
    )
    return projected.reshape(-1, 2)


def board_extent_mm(include_frame: bool = True) -> float:
    """Half-width of the square the rectified view covers."""
    return HALF_SURFACE_MM + (FRAME_BREADTH_MM if include_frame else 0.0)


def rectify_maps(
    calibration: Calibration, px_per_mm: float, half_extent_mm: float
) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps giving a top-down view of the board, north up, centred on the board.

    Pixel (col, row) of the output shows board point
    (x, y) = (-half + (col + 0.5) / px_per_mm, half - (row + 0.5) / px_per_mm).
    """
    size = int(round(2 * half_extent_mm * px_per_mm))
    coords = (np.arange(size) + 0.5) / px_per_mm - half_extent_mm
    xs, ys = np.meshgrid(coords, -coords)
    board_points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    image_points = calibration.board_to_image(board_points).astype(np.float32)
    map_x = image_points[:, 0].reshape(size, size)
    map_y = image_points[:, 1].reshape(size, size)
    return map_x, map_y


def rectified_to_board(pixels: np.ndarray, px_per_mm: float, half_extent_mm: float) -> np.ndarray:
    """Positions in a `rectify_maps` view -> board mm."""
    pts = _as_points(pixels)
    x = (pts[:, 0] + 0.5) / px_per_mm - half_extent_mm
    y = half_extent_mm - (pts[:, 1] + 0.5) / px_per_mm
    return np.stack([x, y], axis=1)


def board_to_rectified(points_mm: np.ndarray, px_per_mm: float, half_extent_mm: float) -> np.ndarray:
    pts = _as_points(points_mm)
    col = (pts[:, 0] + half_extent_mm) * px_per_mm - 0.5
    row = (half_extent_mm - pts[:, 1]) * px_per_mm - 0.5
    return np.stack([col, row], axis=1)
