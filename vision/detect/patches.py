"""Square patches of the rectified board around candidate centres: the classifier's input.

Training (models/detector) and inference (vision.detect.onnx_detector) cut patches with this
one function so the two can never disagree on size, scale or where a patch's centre is.
"""

from __future__ import annotations

import cv2
import numpy as np

# 48 px at 1 px/mm: a striker (41 mm) whole, with a few mm of its neighbours around it.
PATCH_PX = 48
HALF_PATCH_PX = PATCH_PX // 2
PATCH_CLASSES: tuple[str, ...] = ("white", "black", "queen", "striker", "background")
BACKGROUND = PATCH_CLASSES.index("background")


def patch_origins(xy_px: np.ndarray) -> np.ndarray:
    """(N, 2) integer top-left corners (col, row) of the patches around view positions."""
    return np.rint(np.asarray(xy_px, float).reshape(-1, 2)).astype(np.int64) - HALF_PATCH_PX


def patch_centres(origins: np.ndarray) -> np.ndarray:
    """The view position (col, row) each patch is centred on: between its two middle pixels."""
    return origins.astype(np.float64) + HALF_PATCH_PX - 0.5


def cut_patches(view_bgr: np.ndarray, origins: np.ndarray) -> np.ndarray:
    """(N, PATCH_PX, PATCH_PX, 3) uint8 patches; outside the view is the nearest edge pixel."""
    if len(origins) == 0:
        return np.zeros((0, PATCH_PX, PATCH_PX, 3), np.uint8)
    pad = PATCH_PX
    padded = cv2.copyMakeBorder(view_bgr, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    height, width = view_bgr.shape[:2]
    cols = np.clip(origins[:, 0], -pad, width) + pad
    rows = np.clip(origins[:, 1], -pad, height) + pad
    return np.stack([padded[r : r + PATCH_PX, c : c + PATCH_PX] for c, r in zip(cols, rows, strict=True)])
