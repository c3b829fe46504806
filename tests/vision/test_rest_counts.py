"""Counting the carrommen lying still from the last looks at the board."""

from __future__ import annotations

import numpy as np

from calibration.geometry import COIN_RADIUS_MM, HALF_SURFACE_MM
from vision.detections import CLASS_NAMES, Detections
from vision.events.rest_counts import WINDOW_LOOKS, RestCounter

WHITE = CLASS_NAMES.index("white")


def looks(xy_mm: list[tuple[float, float]]) -> RestCounter:
    counter = RestCounter(("white", "black", "queen"))
    xy = np.array(xy_mm, dtype=float)
    for _ in range(WINDOW_LOOKS):
        counter.add(Detections(xy, np.full(len(xy), WHITE), np.full(len(xy), 0.9, np.float32)))
    return counter


def test_a_coin_against_the_frame_is_counted_but_not_a_spot_closer_to_the_edge_than_a_coin_can_lie() -> None:
    against_the_frame = HALF_SURFACE_MM - COIN_RADIUS_MM  # its rim touches the frame
    on_the_wood = HALF_SURFACE_MM - 8.0  # its rim would be under the frame: the frame's grain
    counter = looks([(0.0, 0.0), (against_the_frame, 100.0), (-100.0, -on_the_wood)])
    assert counter.counts()["white"] == 2
    assert sorted(counter.pieces("white")[:, 1].round().tolist()) == [0.0, 100.0]


def test_a_detection_seen_once_in_the_window_is_not_a_piece() -> None:
    counter = looks([(0.0, 0.0)])
    counter.add(Detections(np.array([[100.0, 100.0]]), np.array([WHITE]), np.array([0.9], np.float32)))
    assert counter.counts()["white"] == 1
