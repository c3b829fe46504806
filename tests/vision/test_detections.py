import numpy as np
import pytest

from vision.detections import Detections


def test_mask_indexing_returns_a_copy():
    det = Detections(np.array([[0.0, 1.0], [2.0, 3.0]]), np.array([0, 3]), np.array([0.9, 0.8]))
    sub = det[det.class_id == 3]
    assert len(sub) == 1 and sub.class_names == ["striker"]
    sub.xy_mm[0, 0] = 99.0
    assert det.xy_mm[1, 0] == 2.0


def test_shape_errors_say_expected_and_actual():
    with pytest.raises(ValueError, match=r"class_id must have shape \(2,\), got \(3,\)"):
        Detections(np.zeros((2, 2)), np.zeros(3), np.zeros(2))


def test_empty_merge_and_objects():
    det = Detections.merge([Detections.empty(), Detections(np.array([[1.0, 2.0]]), [2], [0.5])])
    assert len(det) == 1
    assert det.to_objects() == [{"class": "queen", "x_mm": 1.0, "y_mm": 2.0, "score": 0.5}]


def test_a_less_sure_reading_of_another_class_against_a_moving_piece_is_its_blur():
    from vision.detections import BLACK, GHOST_REACH_MM, WHITE, blur_ghosts

    xy = np.array([[0.0, 0.0], [34.0, 0.0], [0.0, GHOST_REACH_MM + 1.0], [-30.0, 0.0], [0.0, -33.0]])
    det = Detections(xy, np.array([BLACK, WHITE, WHITE, BLACK, WHITE]), np.array([0.8, 0.5, 0.5, 0.5, 0.9]))
    moving = np.array([True, False, False, False, False])
    # Against it and less sure: a ghost. Too far, of its class, or surer: a piece.
    assert blur_ghosts(det, moving).tolist() == [False, True, False, False, False]
    assert not blur_ghosts(det, np.zeros(5, bool)).any()
