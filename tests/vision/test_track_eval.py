"""The tracking evaluation's per-class recall of pieces lying still on video frames."""

from __future__ import annotations

import numpy as np

from vision.detections import BLACK, STRIKER, WHITE, Detections
from vision.track.eval import VideoRecall


def test_recall_counts_a_piece_found_only_with_its_own_class_and_near_enough() -> None:
    recall = VideoRecall()
    truth_xy = np.array([[0.0, 0.0], [100.0, 0.0], [0.0, -250.0]])
    truth_class = np.array([WHITE, BLACK, STRIKER])
    found = Detections(
        np.array([[1.0, 1.0], [100.0, 0.0], [0.0, -235.0]]),  # striker 15 mm off: not found
        np.array([WHITE, WHITE, STRIKER]),  # the black named white: not found
        np.full(3, 0.9),
    )
    recall.frame(truth_xy, truth_class, found)
    recall.frame(truth_xy[:1], truth_class[:1], Detections.empty())
    figures = recall.figures()
    assert figures["white"] == {"pieces": 2, "recall": 0.5}
    assert figures["black"] == {"pieces": 1, "recall": 0.0}
    assert figures["striker"] == {"pieces": 1, "recall": 0.0}
    assert "queen" not in figures
