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
