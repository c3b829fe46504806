"""A tiny board painter for detector and tracker tests: exact ground truth, no generator needed.

It paints a plain board (wood, base circles, centre circle) top-down at `px_per_mm` and warps
it into a camera image through a perspective homography, so tests exercise the same
calibration and rectification path as real frames.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.camera import Calibration
from calibration.geometry import (
    BASE_CIRCLE_RADIUS_MM,
    CENTRE_CIRCLE_RADIUS_MM,
    COIN_RADIUS_MM,
    FRAME_BREADTH_MM,
    HALF_SURFACE_MM,
    POCKET_RADIUS_MM,
    STRIKER_RADIUS_MM,
    all_base_circle_centres,
    pocket_centres,
)

COLOURS = {"white": (215, 228, 236), "black": (35, 32, 30), "queen": (40, 40, 190), "striker": (150, 190, 80)}
RADIUS = {
    "white": COIN_RADIUS_MM,
    "black": COIN_RADIUS_MM,
    "queen": COIN_RADIUS_MM,
    "striker": STRIKER_RADIUS_MM,
}
WOOD = (120, 175, 215)
PAINT_PX_PER_MM = 3.0


def camera(image_size: tuple[int, int] = (1280, 960), tilt: float = 0.0) -> Calibration:
    """A camera looking down at the board; `tilt` skews it into perspective."""
    width, height = image_size
    half = HALF_SURFACE_MM
    scale = 0.46 * min(width, height) / half
    corners_mm = np.array([[-half, half], [half, half], [half, -half], [-half, -half]], np.float32)
    cx, cy = width / 2.0, height / 2.0
    corners_px = np.array(
        [
            [cx - half * scale * (1 - tilt), cy - half * scale],
            [cx + half * scale * (1 - tilt), cy - half * scale],
            [cx + half * scale, cy + half * scale],
            [cx - half * scale, cy + half * scale],
        ],
        np.float32,
    )
    homography = cv2.getPerspectiveTransform(corners_mm, corners_px)
    return Calibration.from_homography(image_size, homography)


def _to_paint(xy_mm: np.ndarray, half: float) -> tuple[int, int]:
    return (
        int(round((xy_mm[0] + half) * PAINT_PX_PER_MM * 16)),
        int(round((half - xy_mm[1]) * PAINT_PX_PER_MM * 16)),
    )


def paint(
    pieces: list[tuple[str, tuple[float, float]]],
    calibration: Calibration,
    seed: int = 0,
    noise: float = 3.0,
) -> np.ndarray:
    """The camera image of a board with `pieces` (class, (x_mm, y_mm)) on it."""
    rng = np.random.default_rng(seed)
    half = HALF_SURFACE_MM + FRAME_BREADTH_MM
    size = int(round(2 * half * PAINT_PX_PER_MM))
    canvas = np.full((size, size, 3), (40, 60, 90), np.uint8)
    s = PAINT_PX_PER_MM

    def circle(xy: np.ndarray, radius_mm: float, colour: tuple[int, int, int], thickness: int = -1) -> None:
        cv2.circle(
            canvas, _to_paint(xy, half), int(round(radius_mm * s * 16)), colour, thickness, cv2.LINE_AA, 4
        )

    top_left = _to_paint(np.array([-HALF_SURFACE_MM, HALF_SURFACE_MM]), half)
    bottom_right = _to_paint(np.array([HALF_SURFACE_MM, -HALF_SURFACE_MM]), half)
    cv2.rectangle(
        canvas,
        (top_left[0] // 16, top_left[1] // 16),
        (bottom_right[0] // 16, bottom_right[1] // 16),
        WOOD,
        -1,
    )
    for centre in pocket_centres():
        circle(centre, POCKET_RADIUS_MM, (10, 10, 10))
    for centre in [*all_base_circle_centres(), np.zeros(2)]:
        radius = BASE_CIRCLE_RADIUS_MM if np.any(centre) else CENTRE_CIRCLE_RADIUS_MM
        circle(centre, radius, (30, 30, 30), max(1, int(1.5 * s)))
        circle(centre, radius * 0.8, (40, 40, 180))
    for name, (x, y) in pieces:
        xy = np.array([x, y])
        radius = RADIUS[name]
        circle(xy + 1.0, radius, (60, 80, 100))  # a soft shadow
        circle(xy, radius, COLOURS[name])
        circle(xy, radius * 0.6, tuple(int(c * 0.85) for c in COLOURS[name]), max(1, int(s)))
    # Board mm -> paint px, then the camera's board mm -> image px.
    paint_to_mm = np.array([[1 / s, 0, -half], [0, -1 / s, half], [0, 0, 1]])
    warp = calibration.homography @ paint_to_mm
    image = cv2.warpPerspective(canvas, warp, calibration.image_size, flags=cv2.INTER_AREA)
    image = image.astype(np.float32) + rng.normal(0.0, noise, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)
