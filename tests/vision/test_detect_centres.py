"""Reading centres off heat maps, and the training targets that teach them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.detector.views import STRIDE, targets, turn
from vision.detect.centres import find_peaks, suppress_close
from vision.detections import BLACK, STRIKER, WHITE


def test_targets_read_back_give_the_centres_of_touching_coins() -> None:
    # Two coins touching (31 mm = 15.5 view px apart) and a striker, at sub-pixel places.
    uv = np.array([[100.3, 120.7], [115.8, 120.7], [60.2, 40.9]])
    cls = np.array([WHITE, BLACK, STRIKER])
    heat, offsets, _, weight = targets(uv, cls, np.ones(3, bool), 192)
    found, classes, score = find_peaks(heat, offsets, STRIDE, 0.5)
    assert len(found) == 3
    order = [int(np.argmin(np.linalg.norm(found - p, axis=1))) for p in uv]
    np.testing.assert_allclose(found[order], uv, atol=1e-4)
    assert classes[order].tolist() == cls.tolist()
    assert np.all(score == 1.0) and np.all(weight == 1.0)


def test_an_ignored_piece_masks_the_loss_and_teaches_nothing() -> None:
    uv = np.array([[100.0, 100.0], [150.0, 60.0]])
    heat, _, _, weight = targets(uv, np.array([WHITE, BLACK]), np.array([True, False]), 192)
    assert heat[BLACK].max() == 0.0
    assert weight[60 // STRIDE, 150 // STRIDE] == 0.0
    assert weight[100 // STRIDE, 100 // STRIDE] == 1.0


def test_close_points_are_one() -> None:
    xy = np.array([[0.0, 0.0], [5.0, 0.0], [40.0, 0.0], [44.0, 1.0]])
    assert suppress_close(xy, 15.5).tolist() == [0, 2]


@settings(max_examples=30, deadline=None)
@given(
    u=st.integers(0, 31).map(lambda c: c + 0.5) | st.floats(0.05, 0.95).map(lambda f: 7 + f),
    v=st.integers(0, 31).map(lambda r: r + 0.25),
    turns=st.integers(0, 3),
    mirror=st.booleans(),
)
def test_turning_a_view_moves_its_points_with_it(u: float, v: float, turns: int, mirror: bool) -> None:
    image = np.zeros((32, 32), np.uint8)
    image[int(v), int(u)] = 255  # the pixel holding the point (view units: pixel c spans [c, c+1))
    turned, uv = turn(image, np.array([[u, v]]), turns, mirror)
    row, col = np.argwhere(turned == 255)[0]
    assert int(uv[0, 0]) == col and int(uv[0, 1]) == row
