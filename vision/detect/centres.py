"""Reading piece centres off the network's heat maps.

The network sees the whole rectified board at once and answers, for every cell of a coarse
grid (`stride` view pixels square), how likely a piece of each class has its centre there
(`heat`, one map per class) and where exactly in the cell that centre is (`offsets`, in
cells). A piece is a local maximum of the heat over all classes; its class is the map that
peaks there. Touching coins are 31 mm apart, four cells at the shipped 8 mm per cell, so
their peaks stay apart where a box or blob detector would merge them.

Positions here are in view units `u, v`: view pixels counted from the view's outer edge (the
pixel in column c spans u from c to c + 1), so a cell's centre is (i + 0.5) * stride.
"""

from __future__ import annotations

import cv2
import numpy as np

_NEIGHBOURS = np.ones((3, 3), np.uint8)
_STEPS = np.array([(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)])


def find_peaks(
    heat: np.ndarray, offsets: np.ndarray, stride: float, min_score: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N, 2) centres in view units, (N,) class ids and (N,) scores, strongest first.

    `heat`: (C, rows, cols) per-class scores in [0, 1]; `offsets`: (2, rows, cols) from each
    cell's centre to the piece's centre, in cells.
    """
    best = heat.max(axis=0)
    peaks = (best >= cv2.dilate(best, _NEIGHBOURS)) & (best >= min_score)
    rows, cols = np.nonzero(peaks)
    score = best[rows, cols]
    order = np.argsort(-score, kind="stable")
    rows, cols, score = rows[order], cols[order], score[order]
    classes = heat[:, rows, cols].argmax(axis=0)
    # Every cell next to a centre was taught the offset to it too: the centre is the mean of
    # the 3 x 3 cells' answers weighted by their heat, steadier than the peak's alone (and
    # no other piece's cells are that close: touching coins are four cells apart).
    near_rows = np.clip(rows[:, None] + _STEPS[None, :, 0], 0, best.shape[0] - 1)
    near_cols = np.clip(cols[:, None] + _STEPS[None, :, 1], 0, best.shape[1] - 1)
    weight = best[near_rows, near_cols]
    u = ((near_cols + 0.5 + offsets[0, near_rows, near_cols]) * weight).sum(axis=1) / weight.sum(axis=1)
    v = ((near_rows + 0.5 + offsets[1, near_rows, near_cols]) * weight).sum(axis=1) / weight.sum(axis=1)
    uv = np.stack([u, v], axis=1) * stride
    return uv.astype(np.float64), classes.astype(np.int64), score.astype(np.float32)


def suppress_close(xy: np.ndarray, radius: float) -> np.ndarray:
    """Indices kept (in order) when each point removes the later ones within `radius`: two
    neighbouring cells of equal heat, or one smeared piece peaking twice, are one piece."""
    if len(xy) < 2:
        return np.arange(len(xy))
    delta = xy[:, None, :] - xy[None, :, :]
    close = np.einsum("ijk,ijk->ij", delta, delta) < radius * radius
    alive = np.ones(len(xy), bool)
    for i in range(len(xy)):
        if alive[i]:
            alive[i + 1 :] &= ~close[i, i + 1 :]
    return np.flatnonzero(alive)
