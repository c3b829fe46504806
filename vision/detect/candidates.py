"""Where pieces may be: a fixed-radius circle vote on the rectified board.

Every piece is a disc of known size in the top-down view (coin 31 mm, striker 41 mm), so each
strong edge pixel votes for the two points one radius away along its gradient (both ways: a
white coin on dark wood and a black coin on light wood give opposite gradients). A whole disc
gathers about 2*pi*r votes at its centre; touching discs keep separate peaks because each
one's votes meet at its own centre. The vote is tuned for recall: the classifier after it
throws away what is not a piece (printed circles, fingers, shadows).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import COIN_RADIUS_MM, STRIKER_RADIUS_MM

# Sobel (3x3) magnitude an edge needs before it votes; about 10 grey levels of contrast.
EDGE_THRESHOLD = 40.0
# Fraction of a full rim's votes a peak needs to become a candidate: low, so a disc half
# under a hand or smeared by motion still makes it.
MIN_RIM_FRACTION = 0.22
# Candidates closer than this (in units of coin radius) are one piece.
NMS_RADIUS_FRACTION = 0.7
# Grey-level contrast of a blob against its surroundings before it is a candidate.
BLOB_MIN_CONTRAST = 8.0
RADII_MM: tuple[float, ...] = (COIN_RADIUS_MM, STRIKER_RADIUS_MM)


@dataclass(frozen=True, eq=False)
class Candidates:
    xy_px: np.ndarray  # (N, 2) float64 in the rectified view (col, row)
    radius_index: np.ndarray  # (N,) int64 into RADII_MM: which disc size voted best
    strength: np.ndarray  # (N,) float32: votes over a full rim's votes

    def __len__(self) -> int:
        return len(self.strength)


def _edges(image_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-pixel gradient of the channel with the strongest edge (colour edges count too)."""
    best_gx = best_gy = best_mag = None
    for channel in cv2.split(image_bgr):
        gx = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3)
        mag = cv2.magnitude(gx, gy)
        if best_mag is None:
            best_gx, best_gy, best_mag = gx, gy, mag
        else:
            take = mag > best_mag
            np.copyto(best_gx, gx, where=take)
            np.copyto(best_gy, gy, where=take)
            np.copyto(best_mag, mag, where=take)
    return best_gx, best_gy, best_mag


def _vote(
    xs: np.ndarray, ys: np.ndarray, ux: np.ndarray, uy: np.ndarray, radius_px: float, shape: tuple[int, int]
) -> np.ndarray:
    height, width = shape
    acc = np.zeros(height * width, np.float32)
    for sign in (1.0, -1.0):
        cx = np.rint(xs + sign * radius_px * ux).astype(np.int64)
        cy = np.rint(ys + sign * radius_px * uy).astype(np.int64)
        ok = (cx >= 0) & (cx < width) & (cy >= 0) & (cy < height)
        acc += np.bincount(cy[ok] * width + cx[ok], minlength=height * width).astype(np.float32)
    return acc.reshape(height, width)


def find_candidates(
    image_bgr: np.ndarray, px_per_mm: float, min_fraction: float = MIN_RIM_FRACTION
) -> Candidates:
    """Disc centres in a rectified view, strongest first."""
    gx, gy, mag = _edges(image_bgr)
    ys, xs = np.nonzero(mag > EDGE_THRESHOLD)
    m = mag[ys, xs]
    ux = gx[ys, xs] / m
    uy = gy[ys, xs] / m
    xs = xs.astype(np.float32)
    ys = ys.astype(np.float32)
    shape = mag.shape
    nms = max(3, int(round(NMS_RADIUS_FRACTION * COIN_RADIUS_MM * px_per_mm)))
    # A square local maximum (fast in OpenCV); the greedy suppression below finishes the job
    # across disc sizes and on the square's diagonals.
    kernel = np.ones((nms | 1, nms | 1), np.uint8)
    points, sizes, strengths = [], [], []
    for index, radius_mm in enumerate(RADII_MM):
        radius_px = radius_mm * px_per_mm
        acc = _vote(xs, ys, ux, uy, radius_px, shape)
        acc = cv2.GaussianBlur(acc, (0, 0), 1.0)
        # A full rim casts 2*pi*r votes; the blur spreads a peak over about 2*pi*sigma^2 px.
        full = 2.0 * np.pi * radius_px / (2.0 * np.pi * 1.0**2)
        norm = acc / full
        peaks = (norm >= cv2.dilate(norm, kernel)) & (norm >= min_fraction)
        py, px = np.nonzero(peaks)
        points.append(_refine(norm, px, py))
        sizes.append(np.full(len(px), index, np.int64))
        strengths.append(norm[py, px])
    xy = np.concatenate(points) if points else np.zeros((0, 2))
    size = np.concatenate(sizes)
    strength = np.concatenate(strengths).astype(np.float32)
    keep = _suppress(xy, strength, nms)
    return Candidates(xy[keep], size[keep], strength[keep])


def find_blobs(image_bgr: np.ndarray, px_per_mm: float, limit: int) -> Candidates:
    """Coin-sized blobs (difference of Gaussians on grey), the `limit` strongest.

    A piece smeared by motion has no sharp rim to vote with but is still a blob darker or
    brighter than the board around it; these candidates catch what the rim vote misses.
    """
    gray = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sigma = COIN_RADIUS_MM * px_per_mm / np.sqrt(2.0)
    inner = cv2.GaussianBlur(gray, (0, 0), 0.75 * sigma)
    outer = cv2.GaussianBlur(gray, (0, 0), 1.3 * sigma)
    response = np.abs(inner - outer)
    size = max(3, int(round(COIN_RADIUS_MM * px_per_mm))) | 1
    peaks = (response >= cv2.dilate(response, np.ones((size, size), np.uint8))) & (
        response > BLOB_MIN_CONTRAST
    )
    py, px = np.nonzero(peaks)
    strength = response[py, px]
    order = np.argsort(-strength, kind="stable")[:limit]
    xy = _refine(response, px[order], py[order])
    return Candidates(xy, np.zeros(len(order), np.int64), (strength[order] / 255.0).astype(np.float32))


def _refine(acc: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Sub-pixel peak: a parabola through each peak and its neighbours, per axis."""
    height, width = acc.shape
    xl, xr = np.clip(px - 1, 0, width - 1), np.clip(px + 1, 0, width - 1)
    yu, yd = np.clip(py - 1, 0, height - 1), np.clip(py + 1, 0, height - 1)
    centre = acc[py, px]

    def offset(before: np.ndarray, after: np.ndarray) -> np.ndarray:
        curvature = before - 2.0 * centre + after
        safe = np.where(curvature < 0, curvature, -1.0)
        return np.clip(np.where(curvature < 0, 0.5 * (before - after) / safe, 0.0), -0.5, 0.5)

    return np.stack([px + offset(acc[py, xl], acc[py, xr]), py + offset(acc[yu, px], acc[yd, px])], axis=1)


def _suppress(xy: np.ndarray, strength: np.ndarray, radius: float) -> np.ndarray:
    """Greedy non-maximum suppression across the disc sizes: indices kept, strongest first."""
    order = np.argsort(-strength, kind="stable")
    ordered = xy[order]
    delta = ordered[:, None, :] - ordered[None, :, :]
    close = np.einsum("ijk,ijk->ij", delta, delta) <= radius * radius
    alive = np.ones(len(order), bool)
    for i in range(len(order)):
        if alive[i]:
            alive[i + 1 :] &= ~close[i, i + 1 :]
    return order[alive]
