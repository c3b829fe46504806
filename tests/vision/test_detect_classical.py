"""The candidate search and the classical detector on painted boards with exact truth."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import break_arrangement
from tests.vision.synthetic_board import camera, paint
from vision.detect import ClassicalDetector, Detector
from vision.detect.base import BoardRectifier
from vision.detect.classical import search_candidates
from vision.detections import CLASS_NAMES

SCATTER = [
    ("striker", (60.0, -290.0)),
    ("white", (200.0, 150.0)),
    ("black", (-250.0, 120.0)),
    ("white", (300.0, -310.0)),
]


def board_with(pieces: list[tuple[str, tuple[float, float]]], tilt: float = 0.1, seed: int = 0):
    calibration = camera(tilt=tilt)
    return paint(pieces, calibration, seed=seed), calibration


def nearest(found_xy: np.ndarray, truth_xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    d = np.linalg.norm(found_xy[:, None, :] - truth_xy[None, :, :], axis=2)
    return d.argmin(axis=1), d.min(axis=1)


def test_touching_coins_of_the_break_each_get_their_own_candidate() -> None:
    pieces = [(n, tuple(xy)) for n, xy in break_arrangement()]
    image, calibration = board_with(pieces)
    view = BoardRectifier().view(image, calibration)
    found = view.to_board(search_candidates(view).xy_px)
    truth = np.array([xy for _, xy in pieces])
    _, gap = nearest(truth, found)
    assert np.all(gap < 2.0), f"missed pieces: {truth[gap >= 2.0]}"


@pytest.mark.parametrize("tilt", [0.0, 0.15])
def test_classical_detector_finds_and_names_every_piece(tilt: float) -> None:
    pieces = [(n, tuple(xy)) for n, xy in break_arrangement()] + SCATTER
    image, calibration = board_with(pieces, tilt=tilt, seed=3)
    detector: Detector = ClassicalDetector()
    found = detector.detect(image, calibration)
    truth = np.array([xy for _, xy in pieces])
    index, gap = nearest(found.xy_mm, truth)
    assert len(found) == len(pieces)
    assert np.all(gap < 1.5)
    assert sorted(index.tolist()) == list(range(len(pieces)))
    assert [CLASS_NAMES[c] for c in found.class_id] == [pieces[i][0] for i in index]


def test_an_empty_board_gives_nothing_but_the_known_centre_circle_confusion() -> None:
    image, calibration = board_with([])
    found = ClassicalDetector().detect(image, calibration)
    # The baseline's documented weakness: the red centre circle looks like the queen.
    assert np.all(np.linalg.norm(found.xy_mm, axis=1) < 3.0)
