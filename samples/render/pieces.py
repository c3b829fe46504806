"""Carrommen, the queen and the striker as top-down sprites, and their compositing.

A sprite is a BGRA image of one piece seen from above (albedo with its own shading: the
bevelled rim, engraved rings, a soft highlight). It is drawn into the frame with the local
affine map of the camera at the piece's centre, which is exact to well under a pixel over
a piece's 31 to 41 mm. Motion blur averages the piece over the frame's sub-samples; the
drop shadow is a blurred disc pushed away from the lamp.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration import geometry as g

# Albedo colours (BGR) of each class; designs vary per video.
COIN_COLOURS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "white": ((200, 228, 240), (185, 215, 232), (215, 235, 242)),
    "black": ((40, 38, 36), (30, 30, 34), (45, 40, 48)),
    "queen": ((45, 40, 200), (50, 30, 170), (60, 55, 215)),
    "striker": ((215, 232, 240), (205, 220, 225), (200, 190, 120), (170, 210, 225)),
}
PIECE_THICKNESS_MM = 7.0  # carrommen are 7 to 9 mm thick: the camera sees the top face this
# high (a parallax of a mm or two against the truth's centre on the surface), and the drop
# shadow's length follows from it
HELD_HEIGHT_MM = 35.0  # a piece in the fingers, above the surface
# A piece flying off the board (ObjectState.AIRBORNE) is drawn with its base this far above
# the frame's top (FRAME_HEIGHT_MM): it must pass over the frame, and a leap that carries it
# off rises a couple of centimetres more. One height for the whole flight (the timeline
# keeps no height): the flight is short, and following the arc's rise and fall would change
# the piece's size in the picture by a few percent at most.
FLIGHT_CLEARANCE_MM = 20.0
FLIGHT_HEIGHT_MM = g.FRAME_HEIGHT_MM + FLIGHT_CLEARANCE_MM + PIECE_THICKNESS_MM  # its top face
SHADOW_STRENGTH = 0.45
SUPERSAMPLE = 4
LIGHT_DIRECTIONS = 8  # sprites are made for this many directions of the lamp


@dataclass(frozen=True)
class PieceLook:
    """Per video: the colour and design of each class."""

    colours: dict[str, tuple[int, int, int]]
    rings: dict[str, tuple[float, ...]]  # engraved ring radii as fractions of the piece's radius
    striker_star: int  # points of the striker's printed star (0: none)

    @staticmethod
    def sample(rng: np.random.Generator) -> PieceLook:
        colours = {c: opts[int(rng.integers(len(opts)))] for c, opts in COIN_COLOURS.items()}
        rings = {
            c: tuple(sorted(rng.uniform(0.3, 0.85, int(rng.integers(0, 4))).tolist())) for c in COIN_COLOURS
        }
        return PieceLook(colours, rings, int(rng.choice([0, 0, 5, 6, 8])))


def piece_radius(cls: str) -> float:
    return g.STRIKER_RADIUS_MM if cls == "striker" else g.COIN_RADIUS_MM


def make_sprite(cls: str, look: PieceLook, px_per_mm: float, light_angle: float = 2.3) -> np.ndarray:
    """BGRA uint8 sprite of a piece, centred, `px_per_mm` scale, 2 px of transparent border.

    `light_angle` (radians, board frame) is the direction from the piece towards the lamp:
    the bevel on that side is lit, the far side darker, and the highlight sits towards it.
    """
    r_mm = piece_radius(cls)
    ss = SUPERSAMPLE
    r = r_mm * px_per_mm * ss
    size = int(np.ceil(2 * r_mm * px_per_mm)) + 4
    big = size * ss
    c = big / 2.0
    yy, xx = np.mgrid[0:big, 0:big].astype(np.float32)
    dx, dy = (xx + 0.5 - c) / r, (yy + 0.5 - c) / r
    rho = np.sqrt(dx * dx + dy * dy)
    alpha = (rho <= 1.0).astype(np.float32)
    base = np.array(look.colours[cls], np.float32)
    dark = base.mean() < 90
    # Sprite rows run south: the lamp's direction in sprite coordinates.
    lx, ly = np.cos(light_angle), -np.sin(light_angle)
    # Bevelled rim: darker towards the edge, lit on the lamp's side.
    shade = 1.0 - 0.35 * np.clip((rho - 0.82) / 0.18, 0, 1) ** 2
    shade += 0.06 * np.clip(1.0 - rho, 0, 1) + 0.08 * (dx * lx + dy * ly) * (rho > 0.8)
    # Engraved rings (lighter on dark pieces, darker on light ones).
    ring_tone = 1.6 if dark else 0.82
    for ring in look.rings[cls]:
        shade = np.where(np.abs(rho - ring) < 0.025, shade * ring_tone, shade)
    if cls == "striker" and look.striker_star:
        theta = np.arctan2(dy, dx)
        n = look.striker_star
        star_r = 0.35 + 0.3 * np.abs(np.cos(theta * n / 2.0)) ** 3
        inside = (rho < star_r) & (rho < 0.7)
        shade = np.where(inside, shade * 0.78, shade)
    highlight = np.exp(-((dx - 0.45 * lx) ** 2 + (dy - 0.45 * ly) ** 2) / 0.08) * (0.12 if not dark else 0.25)
    colour = base[None, None, :] * shade[..., None] + 255.0 * highlight[..., None]
    sprite = np.dstack([np.clip(colour, 0, 255), alpha * 255.0])
    return cv2.resize(sprite, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)


def make_shadow(cls: str, px_per_mm: float, softness_mm: float = 2.5) -> np.ndarray:
    """Single-channel float sprite in [0, 1]: the piece's soft shadow."""
    r_mm = piece_radius(cls)
    pad = softness_mm * 3
    size = int(np.ceil(2 * (r_mm + pad) * px_per_mm)) + 2
    img = np.zeros((size, size), np.float32)
    cv2.circle(img, (size // 2 * 16, size // 2 * 16), int(r_mm * px_per_mm * 16), 1.0, -1, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(img, (0, 0), max(0.5, softness_mm * px_per_mm))


def sprite_affine(
    jac: np.ndarray, centre_px: np.ndarray, sprite_size: int, px_per_mm: float, scale: float = 1.0
) -> np.ndarray:
    """2x3 map from sprite pixels to frame pixels (sprite rows run south)."""
    m = jac @ np.array([[1.0 / px_per_mm, 0.0], [0.0, -1.0 / px_per_mm]]) * scale
    c = sprite_size / 2.0 - 0.5
    t = centre_px - m @ np.array([c, c])
    return np.column_stack([m, t])
