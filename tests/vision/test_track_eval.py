"""The tracking evaluation's per-class recall of pieces lying still on video frames."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calibration.geometry import COIN_RADIUS_MM
from vision.detections import BLACK, STRIKER, WHITE, Detections
from vision.track.eval import ClearMot, MotMetrics, RecallBySpeed, VideoRecall
from vision.tracks import TrackFrame, TrackState


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


def test_a_piece_is_counted_by_speed_as_found_taken_for_another_piece_or_missed() -> None:
    """A pale striker read as a white coin is told from one not found at all, in the band of
    how fast it moved; each class is counted apart."""
    by_speed = RecallBySpeed()
    at = np.array([0.0, -250.0])
    as_striker = Detections(np.array([[2.0, -250.0]]), np.array([STRIKER]), np.full(1, 0.9))
    as_white = Detections(np.array([[3.0, -252.0]]), np.array([WHITE]), np.full(1, 0.6))
    too_far = Detections(np.array([[0.0, -235.0]]), np.array([STRIKER]), np.full(1, 0.9))
    by_speed.frame(at, STRIKER, 0.0, as_striker)  # lying still, found
    by_speed.frame(at, STRIKER, 5.0, as_white)  # still, read as a white
    by_speed.frame(at, STRIKER, 200.0, Detections.merge([as_white, as_striker]))  # by hand: found
    by_speed.frame(at, STRIKER, 900.0, too_far)  # in flight, 15 mm off: missed
    by_speed.frame(at, STRIKER, 3000.0, Detections.empty())  # fast: missed
    by_speed.frame(at, WHITE, 900.0, as_white)  # a white coin in flight, found
    figures = by_speed.figures()
    striker = figures["striker"]
    assert striker["still"] == {"looks": 2, "found": 0.5, "other_class": 0.5, "missed": 0.0}
    assert striker["by_hand"] == {"looks": 1, "found": 1.0, "other_class": 0.0, "missed": 0.0}
    assert striker["in_flight"]["missed"] == 1.0 and striker["fast"]["missed"] == 1.0
    assert figures["white"] == {"in_flight": {"looks": 1, "found": 1.0, "other_class": 0.0, "missed": 0.0}}
    assert "black" not in figures
    both = RecallBySpeed()
    both.add(by_speed)
    both.add(by_speed)
    assert both.figures()["striker"]["still"]["looks"] == 4


@st.composite
def _tracked_frames(draw: st.DrawFn) -> list[tuple[np.ndarray, np.ndarray, TrackFrame]]:
    """A few pieces over a few frames, and tracks that follow them with errors: positions off
    by up to twice the gate, pieces missed, tracks swapped between pieces, false tracks."""
    pieces = draw(st.integers(1, 5))
    start = np.array(
        draw(
            st.lists(st.tuples(st.floats(-300, 300), st.floats(-300, 300)), min_size=pieces, max_size=pieces)
        )
    )
    # Discs do not overlap: two pieces at one spot make a tie that two correct CLEAR-MOT counts
    # may break either way (a track on that spot pairs with either piece).
    gaps = np.linalg.norm(start[:, None] - start[None, :], axis=2)[np.triu_indices(pieces, 1)]
    assume(bool(np.all(gaps >= 2 * COIN_RADIUS_MM)))
    frames = []
    for k in range(draw(st.integers(1, 8))):
        truth_xy = start + 7.0 * k
        on = np.array(draw(st.lists(st.booleans(), min_size=pieces, max_size=pieces)))
        ids, xy = [], []
        for piece in range(pieces):
            if draw(st.booleans()):  # a track on this piece
                ids.append(draw(st.integers(0, 6)))
                xy.append(truth_xy[piece] + draw(st.tuples(st.floats(-40, 40), st.floats(-40, 40))))
        for _ in range(draw(st.integers(0, 2))):  # false tracks anywhere
            ids.append(draw(st.integers(7, 9)))
            xy.append(draw(st.tuples(st.floats(-350, 350), st.floats(-350, 350))))
        ids_array = np.array(ids, np.int64)
        _, first = np.unique(ids_array, return_index=True)  # a track is in one place at a time
        keep = np.sort(first)
        n = len(keep)
        tracks = TrackFrame(
            k, k / 30.0, ids_array[keep], np.zeros(n, np.int64), np.array(xy, float).reshape(-1, 2)[keep],
            np.zeros((n, 2)), np.full(n, int(TrackState.AT_REST), np.int8), np.full(n, -1, np.int8),
            np.ones(n, np.float32),
        )  # fmt: skip
        frames.append((truth_xy[on], np.flatnonzero(on), tracks))
    return frames


@settings(max_examples=60, deadline=None)
@given(_tracked_frames())
def test_clear_mot_counts_as_py_motmetrics_does(frames) -> None:
    ours, theirs = ClearMot(), MotMetrics()
    theirs.start("video")
    for truth_xy, truth_ids, tracks in frames:
        ours.frame(truth_xy, truth_ids, tracks)
        theirs.frame(truth_xy, truth_ids, tracks)
    mine, reference = ours.figures(), theirs.figures()
    for name in ("truths", "misses", "false_tracks", "identity_switches"):
        assert mine[name] == reference[name], name
    if mine["truths"]:
        assert mine["mota"] == pytest.approx(reference["mota"])
