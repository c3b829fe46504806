"""Drawing the evidence of a stroke on a top-down board image (board mm -> rectified pixels)."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.camera import board_to_rectified
from calibration.geometry import COIN_RADIUS_MM, STRIKER_RADIUS_MM, pocket_centre

# BGR colours for each item; outlines make white and black readable on any wood.
ITEM_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (245, 245, 245),
    "black": (40, 40, 40),
    "queen": (40, 40, 220),
    "striker": (230, 160, 40),
}
PATH_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (255, 255, 0),
    "black": (0, 200, 255),
    "queen": (80, 80, 255),
    "striker": (255, 120, 0),
}
GOOD = (60, 200, 60)
BAD = (40, 40, 230)
FONT = cv2.FONT_HERSHEY_SIMPLEX


class TopDownCanvas:
    """Draws on a rectified board image of known scale."""

    def __init__(self, image: np.ndarray, px_per_mm: float, half_extent_mm: float) -> None:
        self.image = image
        self.px_per_mm = px_per_mm
        self.half_extent_mm = half_extent_mm

    def px(self, xy_mm: tuple[float, float] | np.ndarray) -> tuple[int, int]:
        p = board_to_rectified(np.asarray(xy_mm, dtype=float), self.px_per_mm, self.half_extent_mm)[0]
        return int(round(p[0])), int(round(p[1]))

    def radius(self, mm: float) -> int:
        return max(2, int(round(mm * self.px_per_mm)))

    def piece(self, item: str, xy: tuple[float, float], filled: bool = False) -> None:
        r = self.radius(STRIKER_RADIUS_MM if item == "striker" else COIN_RADIUS_MM)
        colour = ITEM_COLOURS.get(item, (200, 200, 200))
        if filled:
            cv2.circle(self.image, self.px(xy), r, colour, -1, cv2.LINE_AA)
        cv2.circle(self.image, self.px(xy), r, (0, 0, 0), 2, cv2.LINE_AA)
        cv2.circle(self.image, self.px(xy), max(1, r - 2), colour, 1, cv2.LINE_AA)

    def path(self, item: str, points: list[tuple[float, float]] | tuple[tuple[float, float], ...]) -> None:
        if len(points) < 2:
            return
        pts = np.array([self.px(p) for p in points], np.int32).reshape(-1, 1, 2)
        cv2.polylines(self.image, [pts], False, PATH_COLOURS.get(item, (255, 255, 255)), 2, cv2.LINE_AA)

    def striker_start(self, xy: tuple[float, float], legal: bool) -> None:
        centre = self.px(xy)
        cv2.circle(self.image, centre, self.radius(STRIKER_RADIUS_MM), GOOD if legal else BAD, 2, cv2.LINE_AA)
        cv2.drawMarker(self.image, centre, GOOD if legal else BAD, cv2.MARKER_CROSS, 10, 2)

    def pocket_mark(self, pocket: str, label: str) -> None:
        centre = self.px(pocket_centre(pocket))  # type: ignore[arg-type]
        cv2.circle(self.image, centre, self.radius(COIN_RADIUS_MM * 1.6), (0, 220, 255), 2, cv2.LINE_AA)
        self.text(label, (centre[0] - 30, centre[1] + (25 if centre[1] < self.image.shape[0] / 2 else -15)))

    def text(self, words: str, origin: tuple[int, int], scale: float = 0.45) -> None:
        put_text(self.image, words, origin, scale)


def put_text(image: np.ndarray, words: str, origin: tuple[int, int], scale: float = 0.45) -> None:
    """White text on a dark box, readable on light and dark backgrounds."""
    (width, height), baseline = cv2.getTextSize(words, FONT, scale, 1)
    x, y = origin
    cv2.rectangle(image, (x - 2, y - height - 3), (x + width + 2, y + baseline), (0, 0, 0), -1)
    cv2.putText(image, words, origin, FONT, scale, (255, 255, 255), 1, cv2.LINE_AA)


def caption_strip(width: int, lines: list[str], height_per_line: int = 20) -> np.ndarray:
    strip = np.full((height_per_line * len(lines) + 8, width, 3), 32, np.uint8)
    for i, line in enumerate(lines):
        put_text(strip, line, (8, 18 + i * height_per_line), 0.5)
    return strip
