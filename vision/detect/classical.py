"""A classical detector: the circle vote for where, disc colour for what.

No learning at all, so it is the baseline the ONNX detector is measured against
(`python -m vision.detect.eval --detector classical`). The disc size chooses the striker;
among coins the mean colour inside the disc decides: red-dominant is the queen, otherwise
bright is white and dark is black. Printed circles (base circles, the centre circle) are
coin-sized discs too; the baseline drops every candidate sitting on a base circle (a coin
placed exactly there is lost) and cannot tell the printed centre circle from the queen on
it: its main weaknesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.camera import Calibration
from calibration.geometry import COIN_RADIUS_MM, all_base_circle_centres, pocket_distance_mm
from vision.detect.base import BoardRectifier, BoardView, Picture
from vision.detect.candidates import MIN_RIM_FRACTION, RADII_MM, Candidates, find_blobs, find_candidates
from vision.detections import BLACK, QUEEN, STRIKER, WHITE, Detections

# Candidates are searched at half the view's scale (a quarter of the pixels).
SEARCH_SCALE = 0.5
MIN_STRENGTH = 0.45  # of a full rim's votes
BLOB_SEPARATION_MM = 10.0  # a blob this close to a rim-vote candidate adds nothing
PRINTED_CIRCLE_TOLERANCE_MM = 3.0
POCKET_TOLERANCE_MM = 10.0
WHITE_MIN_BRIGHTNESS = 120.0
QUEEN_MIN_REDNESS = 35.0  # R minus the mean of G and B


def search_candidates(view: BoardView, min_strength: float = 0.0, blobs: int = 0) -> Candidates:
    """Candidates of a view, searched at `SEARCH_SCALE` and returned in the view's pixels:
    rim-vote peaks of at least `min_strength`, then up to `blobs` blob peaks that are not
    already near one (strength 0: they come last)."""
    small = cv2.resize(view.image_bgr, None, fx=SEARCH_SCALE, fy=SEARCH_SCALE, interpolation=cv2.INTER_AREA)
    scale = view.px_per_mm * SEARCH_SCALE
    found = find_candidates(small, scale, max(min_strength, MIN_RIM_FRACTION))
    keep = found.strength >= min_strength
    xy, size, strength = found.xy_px[keep], found.radius_index[keep], found.strength[keep]
    if blobs:
        extra = find_blobs(small, scale, blobs)
        if len(xy):
            gap = np.linalg.norm(extra.xy_px[:, None] - xy[None], axis=2).min(axis=1)
            fresh = gap > BLOB_SEPARATION_MM * scale
        else:
            fresh = np.ones(len(extra), bool)
        xy = np.concatenate([xy, extra.xy_px[fresh]])
        size = np.concatenate([size, extra.radius_index[fresh]])
        strength = np.concatenate([strength, np.zeros(int(fresh.sum()), np.float32)])
    # Pixel centres: small pixel c covers view pixels [c / s, (c + 1) / s).
    return Candidates((xy + 0.5) / SEARCH_SCALE - 0.5, size, strength)


def disc_means(view: BoardView, xy_px: np.ndarray, radius_mm: float) -> np.ndarray:
    """(N, 3) mean BGR inside a disc of `radius_mm` around each point."""
    r = max(1, int(round(radius_mm * view.px_per_mm)))
    ys, xs = np.mgrid[-r : r + 1, -r : r + 1]
    inside = xs**2 + ys**2 <= r * r
    oy, ox = ys[inside], xs[inside]
    height, width = view.image_bgr.shape[:2]
    cols = np.clip(np.rint(xy_px[:, 0:1]).astype(int) + ox[None, :], 0, width - 1)
    rows = np.clip(np.rint(xy_px[:, 1:2]).astype(int) + oy[None, :], 0, height - 1)
    return view.image_bgr[rows, cols].astype(np.float32).mean(axis=1)


@dataclass(eq=False)
class ClassicalDetector:
    rectifier: BoardRectifier = field(default_factory=BoardRectifier)
    min_strength: float = MIN_STRENGTH

    def detect(self, image: Picture, calibration: Calibration) -> Detections:
        view = self.rectifier.view(image, calibration)
        found = search_candidates(view)
        keep = found.strength >= self.min_strength
        xy_px, size, strength = found.xy_px[keep], found.radius_index[keep], found.strength[keep]
        if not len(xy_px):
            return Detections.empty()
        xy_mm = view.to_board(xy_px)
        near_print = np.linalg.norm(xy_mm[:, None] - all_base_circle_centres()[None], axis=2).min(axis=1)
        means = disc_means(view, xy_px, 0.6 * COIN_RADIUS_MM)
        b, g, r = means[:, 0], means[:, 1], means[:, 2]
        brightness = means.mean(axis=1)
        redness = r - (g + b) / 2.0
        classes = np.where(
            redness > QUEEN_MIN_REDNESS, QUEEN, np.where(brightness > WHITE_MIN_BRIGHTNESS, WHITE, BLACK)
        )
        classes = np.where(RADII_MM[1] == np.take(RADII_MM, size), STRIKER, classes)
        near_pocket = pocket_distance_mm(xy_mm)
        # The pockets are dark striker-sized holes.
        keep = (near_print >= PRINTED_CIRCLE_TOLERANCE_MM) & (near_pocket >= POCKET_TOLERANCE_MM)
        score = np.clip(strength, 0.0, 1.0)
        return Detections(xy_mm[keep], classes[keep], score[keep])
