"""Procedural textures: wood grain, low-frequency blotches and fine speckle.

Everything is made from seeded noise stretched with `cv2.resize`, so a texture costs a few
tens of milliseconds even at board resolution.
"""

from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Noise in [-1, 1]-ish, smooth over `shape / cells` pixels (rows, cols)."""
    rows, cols = shape
    small = rng.standard_normal((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return cv2.resize(small, (cols, rows), interpolation=cv2.INTER_CUBIC)


def wood(
    rng: np.random.Generator,
    shape: tuple[int, int],
    base_bgr: tuple[int, int, int],
    grain: float,
    ring_period_px: float,
    along_rows: bool = False,
) -> np.ndarray:
    """A plank of wood, uint8 BGR; the grain runs along the columns (x) unless `along_rows`."""
    rows, cols = shape
    if along_rows:
        return np.ascontiguousarray(
            wood(rng, (cols, rows), base_bgr, grain, ring_period_px, along_rows=False).transpose(1, 0, 2)
        )
    y = np.arange(rows, dtype=np.float32)[:, None]
    # Growth rings: stripes across the grain, wandering slowly along it.
    warp = smooth_noise(rng, shape, (max(2, rows // 60), max(2, cols // 400))) * ring_period_px * 1.5
    phase = (y + warp) * (2.0 * np.pi / ring_period_px)
    rings = np.sin(phase) ** 8  # thin dark late-wood lines
    # Fibres: fine streaks stretched along the grain.
    fibres = smooth_noise(rng, shape, (max(2, rows // 2), max(2, cols // 80)))
    blotch = smooth_noise(rng, shape, (4, 4))
    shade = 1.0 - grain * (0.10 * rings + 0.035 * fibres + 0.04 * blotch)
    out = np.empty((rows, cols, 3), np.float32)
    # Late wood is a little more saturated (less blue) than the plank's mean colour.
    saturation = (1.0, 0.97, 0.99)
    for c in range(3):
        out[..., c] = base_bgr[c] * shade * (1.0 - grain * 0.08 * rings * (1.0 - saturation[c]) * 10)
    return np.clip(out, 0, 255).astype(np.uint8)


def speckle(rng: np.random.Generator, shape: tuple[int, int], blur_px: float) -> np.ndarray:
    """Fine positive noise in [0, 1] (powder grains, dust)."""
    raw = rng.random(shape, dtype=np.float32) ** 6
    if blur_px > 0:
        raw = cv2.GaussianBlur(raw, (0, 0), blur_px)
    return raw / max(float(raw.max()), 1e-6)
