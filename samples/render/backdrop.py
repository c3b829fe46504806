"""What surrounds the pieces: the table around the board (with clutter and the players) and
the lamp's light over everything (hotspot, vignette, colour temperature)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from calibration import geometry as g
from samples.render.styles import LampLook
from samples.render.texture import smooth_noise

if TYPE_CHECKING:
    from samples.render.scene import SceneLook

TORSO_HALF_WIDTH_MM = 230.0  # a seated player seen from above: half the shoulders' width
TORSO_DEPTH_MM = 140.0
HEAD_RADIUS_MM = 95.0


def temperature_gains(kelvin: float) -> np.ndarray:
    """BGR gains of a light of this colour temperature against a white balance at 5000 K."""
    t = (kelvin - 5000.0) / 2500.0
    return np.array([1.0 + 0.28 * t, 1.0 + 0.02 * t, 1.0 - 0.16 * t], np.float32).clip(0.5, 1.5)


def lamp_gain(
    lamp: LampLook, lamp_xy: np.ndarray, grid: np.ndarray, image_size: tuple[int, int]
) -> np.ndarray:
    """(H, W, 3) float32 light falling on each pixel's board point: exposure, the lamp's
    hotspot around `lamp_xy`, the lens's vignette and the lamp's colour."""
    width, height = image_size
    d2 = ((grid[..., 0] - lamp_xy[0]) ** 2 + (grid[..., 1] - lamp_xy[1]) ** 2) / (
        lamp.hotspot_radius * g.HALF_SURFACE_MM
    ) ** 2
    hotspot = 1.0 + lamp.hotspot_gain * np.exp(-d2) - lamp.hotspot_gain * 0.3
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    vignette = 1.0 - lamp.vignette * r2
    total = (lamp.exposure * hotspot * vignette).astype(np.float32)
    return total[..., None] * temperature_gains(lamp.temperature_k)[None, None, :]


def table_around_board(
    look: SceneLook, grid: np.ndarray, outside_mm: np.ndarray, seats: tuple[str, ...] | None
) -> np.ndarray:
    """Float BGR of the table around the board: its cloth, the board's shadow on it, clutter,
    and the players at `seats` (None: two opposite sides drawn from the look's seed).

    `grid` is the board position (mm) seen at each pixel, `outside_mm` how far beyond the
    board's outer edge that is."""
    rng = np.random.default_rng(look.seed + 1)
    h, w = outside_mm.shape
    tone = 1.0 + 0.15 * smooth_noise(rng, (h, w), (6, 10)) + 0.04 * smooth_noise(rng, (h, w), (60, 100))
    # The board's own shadow on the table around it.
    shadow = 1.0 - 0.6 * np.exp(-np.clip(outside_mm, 0, None) / 25.0)
    floor = np.array(look.floor_bgr, np.float32)[None, None, :] * (tone * shadow)[..., None]
    # Clutter around the board (knees, chairs, a cup, a towel): blurred blobs of colour,
    # so a detector does not learn that everything off the board is plain.
    clutter = np.zeros((h, w, 3), np.float32)
    weight = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(0, 7))):
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        axes = (int(rng.integers(w // 30, w // 6)), int(rng.integers(h // 30, h // 5)))
        grey = float(rng.uniform(25, 140))
        colour = np.clip(grey + rng.normal(0, 25, 3), 10, 220).tolist()  # muted, like cloth
        angle = float(rng.uniform(0, 180))
        cv2.ellipse(clutter, centre, axes, angle, 0, 360, colour, -1, cv2.LINE_AA)
        cv2.ellipse(weight, centre, axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA)
    # The players themselves, sitting at two opposite sides: a shoulder-wide torso and a
    # head of dark hair beyond the frame (found from each pixel's board position, which
    # stays well-defined far outside the board where the lens model would fold).
    pair = ("S", "N") if rng.random() < 0.5 else ("E", "W")
    for k, seat in enumerate(seats if seats is not None else pair):
        seat_xy = g.board_to_seat(seat, grid.astype(np.float64))
        along, out = seat_xy[..., 0], seat_xy[..., 1]
        reach = g.HALF_SURFACE_MM + look.board.frame_breadth_mm
        depth = (out - reach - TORSO_DEPTH_MM) / TORSO_DEPTH_MM
        torso = (along / TORSO_HALF_WIDTH_MM) ** 2 + depth**2 <= 1
        head = (along**2 + (out - reach - 2.2 * TORSO_DEPTH_MM) ** 2) <= HEAD_RADIUS_MM**2
        cloth = np.array(look.sleeve_bgr[k % len(look.sleeve_bgr)], np.float32) * 0.8
        clutter[torso] = cloth
        clutter[head] = float(rng.uniform(15, 45))
        weight[torso | head] = 1.0
    weight = cv2.GaussianBlur(np.clip(weight, 0, 1) * (outside_mm > 40), (0, 0), 3)[..., None]
    return floor * (1 - weight) + clutter * tone[..., None] * weight
