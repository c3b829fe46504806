"""Review material for a stroke whose strike nobody saw (no seat, no striker start)."""

from __future__ import annotations

import numpy as np

from calibration.camera import Calibration
from calibration.geometry import BASE_LINE_MID_MM, HALF_SURFACE_MM
from vision.detect.base import BoardRectifier
from vision.events.strokes import StrokeRecord
from vision.review import clip
from vision.review.images import compose_review

SIZE = 240
PX_PER_MM = SIZE / (2 * HALF_SURFACE_MM + 40.0)


def stroke(seat: str | None, start: tuple[float, float] | None) -> StrokeRecord:
    return StrokeRecord(
        seat=seat, start_frame=10, end_frame=40, start_time_s=0.33, end_time_s=1.33,
        striker_start_xy=start, pocketed=(), overboard=(), touched=True, new_board=False,
        counts_before={"white": 9}, counts_after={"white": 9},
    )  # fmt: skip


def test_the_review_picture_of_an_unseen_strike_draws_no_striker_start() -> None:
    rectifier = BoardRectifier(px_per_mm=0.5)
    side = int(round(2 * rectifier.half_extent_mm * rectifier.px_per_mm))
    grey = np.full((side, side, 3), 90, np.uint8)
    # (The panels are drawn on in place, as the recorder's own copies are.)
    seen = compose_review(stroke("S", (0.0, -BASE_LINE_MID_MM)), grey.copy(), grey.copy(), 1, rectifier)
    unseen = compose_review(stroke(None, None), grey.copy(), grey.copy(), 1, rectifier)
    assert seen.shape == unseen.shape
    # The before panel: the seen start is ringed; the unseen one leaves the board bare.
    panel = (slice(side // 2, side), slice(0, side))
    assert (seen[panel] != grey[side // 2 :]).any()
    assert (unseen[panel] == grey[side // 2 :]).all()


def test_the_review_clip_of_an_unseen_strike_draws_no_striker_start() -> None:
    h = np.array([[PX_PER_MM, 0, SIZE / 2], [0, -PX_PER_MM, SIZE / 2], [0, 0, 1.0]])
    calibration = Calibration.from_homography((SIZE, SIZE), h)
    entry = {"frames": [10, 40], "striker_start_mm": None, "pocket_events": [], "paths": {}}
    image = np.full((SIZE, SIZE, 3), 90, np.uint8)
    clip._annotate(image, calibration, 5, entry, "stroke 4", None)
    below_caption = image[SIZE // 2 :]
    assert (below_caption == 90).all()
