"""How big a disc is: the radius of its rim, measured on the rectified board.

The striker is 41 mm across and a carromman 31 mm (law 107 sets both), a difference a dim
lamp does not hide, though it can wash a pale striker out until the network takes it for a
white coin or is unsure it is a piece at all. The rim is where the brightness changes most
sharply going outward from the centre: the change is measured along rays in every direction
and the median over the rays is kept, so a touching neighbour, a printed line or a finger
across part of the rim does not move it.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import (
    COIN_RADIUS_MM,
    POCKET_RADIUS_MM,
    STRIKER_RADIUS_MM,
    on_playing_surface,
    pocket_distance_mm,
)
from vision.detect.base import BoardView

# From well inside a carromman's rim to well outside the striker's.
_STEP_MM = 0.5
_RADII_MM = np.arange(COIN_RADIUS_MM - 6.5, STRIKER_RADIUS_MM + 6.5, _STEP_MM)
_ANGLES = np.linspace(0.0, 2.0 * np.pi, 64, endpoint=False)
_RAYS = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)
# Between the two sizes as this measure reads them: the sharpest change lies a little inside
# the true rim (the bevel, the blur). On the development videos' dim boards carrommen read
# 12-16 mm (99% of them), the striker 18-19 mm.
STRIKER_MIN_RIM_MM = 0.5 * (COIN_RADIUS_MM + STRIKER_RADIUS_MM)
# A disc lying against a cushion or at a pocket's mouth has the surface's edge or the hole's
# within the radii looked at: along the rays that cross it the sharpest change is that edge,
# not the disc's rim (development video 9182, a `warm-lamp` board: a white lying 20 mm from
# the cushion, between a carromman's radius and the striker's, read as the striker's size:
# 19.3 mm over every ray). Sizing a disc, each ray counts only out to where it leaves the
# surface or meets a hole (that white: 11.3 mm; a striker lying at a corner's mouth, 21 mm
# from the cushion, development video 9116: 21.3 mm either way), and a radius reached by
# fewer than a quarter of the rays is not looked at.
MIN_CLEAR_RAYS = len(_ANGLES) // 4


def rim_radii_mm(view: BoardView, centres_mm: np.ndarray) -> np.ndarray:
    """(N,) rim radius in mm of the disc whose face is centred at each of `centres_mm` (N, 2),
    measured along the rays out to where they leave the surface or meet a pocket's hole (NaN
    where no radius is reached by `MIN_CLEAR_RAYS`)."""
    return rims(view, centres_mm, clear_rays_only=True)[0]


def rims(
    view: BoardView, centres_mm: np.ndarray, clear_rays_only: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """(N,) rim radius in mm and (N,) its sharpness (the grey-level change across the rim per
    half millimetre, median over the rays) of the disc whose face is centred at each of
    `centres_mm` (N, 2); with `clear_rays_only`, over the rays out to where they leave the
    surface or meet a pocket's hole (`MIN_CLEAR_RAYS`)."""
    centres = np.asarray(centres_mm, dtype=np.float64).reshape(-1, 2)
    if not len(centres):
        return np.zeros(0), np.zeros(0)
    points = centres[:, None, None, :] + _RADII_MM[None, None, :, None] * _RAYS[None, :, None, :]
    pixels = view.to_pixels(points.reshape(-1, 2)).astype(np.float32)
    rows = len(centres) * len(_ANGLES)
    # Only the rays are sampled and turned grey: the whole view would cost more than them.
    polar_bgr = cv2.remap(
        view.image_bgr,
        pixels[:, 0].reshape(rows, -1),
        pixels[:, 1].reshape(rows, -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    polar = cv2.cvtColor(polar_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    polar = polar.reshape(len(centres), len(_ANGLES), len(_RADII_MM))
    # The change between two neighbouring radii is placed halfway between them.
    per_ray = np.abs(np.diff(polar, axis=2))
    if not clear_rays_only:
        change = np.median(per_ray, axis=1)
        return _RADII_MM[:-1][np.argmax(change, axis=1)] + _STEP_MM / 2, change.max(axis=1)
    flat = points.reshape(-1, 2)
    clear = (on_playing_surface(flat) & (pocket_distance_mm(flat) > POCKET_RADIUS_MM)).reshape(
        len(centres), len(_ANGLES), len(_RADII_MM)
    )
    # A ray counts out to where it first leaves the surface or meets a hole.
    clear = np.logical_and.accumulate(clear, axis=2)[:, :, 1:]
    counted = clear.sum(axis=1) >= MIN_CLEAR_RAYS  # (N, radii): reached by enough rays
    # Radii not counted are given every ray, so that no median is of nothing, and then set aside.
    change = np.nanmedian(np.where(clear | ~counted[:, None, :], per_ray, np.nan), axis=1)
    change = np.where(counted, change, -1.0)
    sized = counted.any(axis=1)
    radius = np.where(sized, _RADII_MM[:-1][np.argmax(change, axis=1)] + _STEP_MM / 2, np.nan)
    sharpness = np.where(sized, change.max(axis=1), np.nan)
    return radius, sharpness
