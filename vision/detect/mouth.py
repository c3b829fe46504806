"""Black carrommen lying at a pocket's mouth, found by the shape of the dark there.

A black coin that comes to rest overhanging a pocket's hole (its centre a few millimetres
short of the hole's edge: it does not fall) merges with the dark hole, and the network hardly
sees it: on development video 9327 (`club`) a black lying 24.7 mm from a corner pocket's
centre scores 0.1, on 9334 (`warm-lamp`) another at 23.8 mm was never found from the break
on. Unseen, the recorder counts it gone into the pocket, or carries it as missing until some
later sighting stands in for it.

The hole is a disc of known size and place, so the dark around a pocket is known too: what
bulges past the hole's edge in a carromman's disc, on the playing surface, as dark as the
hole, is a black coin lying over it. The brightness is the brightest of the three colours,
so the red queen and a dim lamp's tint are not dark; dark is nearer the hole's own darkness
than the surface's around it, both read off the same picture.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import board_to_rectified, rectified_to_board
from calibration.geometry import (
    COIN_RADIUS_MM,
    HALF_SURFACE_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    pocket_centre,
)
from vision.detect.base import BoardView

# The part of the view looked at around each pocket: the hole, a coin overhanging it, and
# the surface around that coin.
_REACH_MM = POCKET_RADIUS_MM + 2.0 * COIN_RADIUS_MM + 8.0
# The blur of the hole's edge and of a coin's rim (a view pixel or so) is left out of both the
# hole's part and the coin's.
EDGE_MM = 2.0
# The surface must be this much brighter than the hole (grey levels) for the dark to be told
# apart at all (a dim lamp's corner may not be).
MIN_CONTRAST = 40.0
# Dark: below this share of the way from the hole's darkness up to the surface's brightness.
DARK_SHARE = 0.5
# A coin's part outside the hole must be at least this share of its disc (centred on the
# hole's edge it is nearly half), nearly all dark, with the surface around it nearly all not.
MIN_CAP_SHARE = 0.3
MIN_CAP_DARK = 0.85
MAX_RING_DARK = 0.25
# On video a black is taken at a mouth only where it was found in the last look at that pocket
# too, this near (a view pixel and a half): lying there. A black falling into the pocket
# passes over the mouth in a look or two and bulges the dark there for one of them
# (development video 62004: three blacks, each for one look as it fell in, the recorder's
# pocket watch then taking one for a black come back out).
STILL_MM = 3.0
# Its score, for the tracker and the counts: found, but by its shape rather than by the
# network, so no surer than the network's threshold's neighbourhood.
SCORE = 0.5


@dataclass(frozen=True)
class _Patch:
    """The view's pixels around one pocket and what each is, at one scale of view."""

    rows: slice
    cols: slice
    x_mm: np.ndarray
    y_mm: np.ndarray
    hole: np.ndarray  # well inside the hole's edge
    beyond: np.ndarray  # on the surface, clear of the hole's edge
    near: np.ndarray  # beyond, within a coin's width of the hole's edge
    centres: np.ndarray  # where an overhanging coin's centre can lie
    cap: np.ndarray  # kernels: a coin's disc and the surface around it, in view pixels
    ring: np.ndarray
    cap_beyond: np.ndarray  # per pixel, how much of each kernel centred there is `beyond`
    ring_beyond: np.ndarray
    coin_px: float  # a coin's area in view pixels


def mouth_blacks_mm(view: BoardView) -> dict[str, np.ndarray | None]:
    """Per pocket whose surround lies wholly in `view`: the board mm of the face of a black
    coin lying over its hole, or None."""
    rows, cols = view.image_bgr.shape[:2]
    found: dict[str, np.ndarray | None] = {}
    for pocket in POCKETS:
        patch = _patch(view.px_per_mm, view.half_extent_mm, pocket)
        row0, col0 = patch.rows.start - view.origin_px[1], patch.cols.start - view.origin_px[0]
        row1, col1 = patch.rows.stop - view.origin_px[1], patch.cols.stop - view.origin_px[0]
        if row0 < 0 or col0 < 0 or row1 > rows or col1 > cols:
            continue  # part of the surround is outside this view (a box of the board)
        found[pocket] = _at_mouth(view.image_bgr[row0:row1, col0:col1], patch)
    return found


def _at_mouth(image_bgr: np.ndarray, patch: _Patch) -> np.ndarray | None:
    # The brightest colour: the red queen and a lamp's tint are not dark, a black coin is.
    brightness = np.maximum(np.maximum(image_bgr[:, :, 0], image_bgr[:, :, 1]), image_bgr[:, :, 2])
    hole, beyond = brightness[patch.hole], brightness[patch.beyond]
    hole_level = float(np.partition(hole, len(hole) // 2)[len(hole) // 2])
    k = (3 * len(beyond)) // 4
    surface_level = float(np.partition(beyond, k)[k])
    if surface_level - hole_level < MIN_CONTRAST:
        return None
    dark_below = hole_level + DARK_SHARE * (surface_level - hole_level)
    # Most looks: no dark bulge past the hole's edge as big as a coin's part would be.
    if np.count_nonzero(brightness[patch.near] < dark_below) < MIN_CAP_SHARE * MIN_CAP_DARK * patch.coin_px:
        return None
    dark = (patch.beyond & (brightness < dark_below)).astype(np.float32)
    cap_share = _count(dark, patch.cap) / np.maximum(patch.cap_beyond, 1.0)
    ring_share = _count(dark, patch.ring) / np.maximum(patch.ring_beyond, 1.0)
    possible = patch.centres & (cap_share >= MIN_CAP_DARK) & (ring_share <= MAX_RING_DARK)
    if not possible.any():
        return None
    margin = np.where(possible, cap_share - ring_share, -np.inf)
    row, col = np.unravel_index(int(np.argmax(margin)), margin.shape)
    return np.array([patch.x_mm[row, col], patch.y_mm[row, col]])


def _count(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Per pixel, the sum of `image` under `kernel` centred there (nothing past the edges)."""
    return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_CONSTANT)


def _kernel(px_per_mm: float, inner_mm: float, outer_mm: float) -> np.ndarray:
    """1 where a view pixel's distance from the kernel's middle lies in [inner, outer] mm."""
    half = int(np.ceil(outer_mm * px_per_mm))
    steps = np.arange(-half, half + 1) / px_per_mm
    r = np.hypot(*np.meshgrid(steps, steps))
    return ((r >= inner_mm) & (r <= outer_mm)).astype(np.float32)


@functools.lru_cache(maxsize=16)
def _patch(px_per_mm: float, half_extent_mm: float, pocket: str) -> _Patch:
    size = int(round(2 * half_extent_mm * px_per_mm))
    centre = pocket_centre(pocket)  # type: ignore[arg-type]
    ((col_c, row_c),) = board_to_rectified(centre[None], px_per_mm, half_extent_mm) + 0.5
    reach = _REACH_MM * px_per_mm
    col0, col1 = max(0, int(col_c - reach)), min(size, int(np.ceil(col_c + reach)))
    row0, row1 = max(0, int(row_c - reach)), min(size, int(np.ceil(row_c + reach)))
    cols, rows = np.meshgrid(np.arange(col0, col1), np.arange(row0, row1))
    board = rectified_to_board(np.stack([cols.ravel(), rows.ravel()], axis=1), px_per_mm, half_extent_mm)
    x, y = board[:, 0].reshape(cols.shape), board[:, 1].reshape(cols.shape)
    from_centre = np.hypot(x - centre[0], y - centre[1])
    on_surface = (np.abs(x) <= HALF_SURFACE_MM) & (np.abs(y) <= HALF_SURFACE_MM)
    inset = (np.abs(x) <= HALF_SURFACE_MM - COIN_RADIUS_MM) & (np.abs(y) <= HALF_SURFACE_MM - COIN_RADIUS_MM)
    beyond = on_surface & (from_centre >= POCKET_RADIUS_MM + EDGE_MM)
    cap = _kernel(px_per_mm, 0.0, COIN_RADIUS_MM - EDGE_MM)
    ring = _kernel(px_per_mm, COIN_RADIUS_MM + EDGE_MM, COIN_RADIUS_MM + 6.0)
    coin_px = float(np.pi * (COIN_RADIUS_MM * px_per_mm) ** 2)
    cap_beyond = _count(beyond.astype(np.float32), cap)
    ring_beyond = _count(beyond.astype(np.float32), ring)
    return _Patch(
        rows=slice(row0, row1),
        cols=slice(col0, col1),
        x_mm=x,
        y_mm=y,
        hole=from_centre <= POCKET_RADIUS_MM - EDGE_MM,
        beyond=beyond,
        near=beyond & (from_centre <= POCKET_RADIUS_MM + 2.0 * COIN_RADIUS_MM),
        # Not over the hole (it would fall), near enough for its disc to reach over the edge,
        # with enough of it past the edge to be told by, and the surface around it in view.
        centres=inset
        & (from_centre >= POCKET_RADIUS_MM)
        & (from_centre <= POCKET_RADIUS_MM + COIN_RADIUS_MM - EDGE_MM)
        & (cap_beyond >= MIN_CAP_SHARE * coin_px)
        & (ring_beyond > 0),
        cap=cap,
        ring=ring,
        cap_beyond=cap_beyond,
        ring_beyond=ring_beyond,
        coin_px=coin_px,
    )
