import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera import (
    Calibration,
    board_to_rectified,
    nominal_camera_matrix,
    rectified_to_board,
)
from calibration.errors import CalibrationFileError


def _calibration(k1: float = -0.12) -> Calibration:
    homography = np.array([[0.9, 0.05, 640.0], [0.03, -0.85, 360.0], [1e-5, 4e-5, 1.0]])
    return Calibration(
        (1280, 720), nominal_camera_matrix((1280, 720)), np.array([k1, 0.03, 0, 0, 0]), homography
    )


@settings(max_examples=50, deadline=None)
@given(st.floats(-370, 370), st.floats(-370, 370), st.floats(-0.2, 0.1))
def test_board_image_round_trip(x, y, k1):
    calib = _calibration(k1)
    back = calib.image_to_board(calib.board_to_image(np.array([[x, y]])))
    assert np.allclose(back, [[x, y]], atol=1e-3)


def test_json_round_trip_and_bad_schema():
    calib = _calibration()
    again = Calibration.from_dict(calib.to_dict())
    assert np.allclose(again.homography, calib.homography)
    assert np.allclose(again.dist_coeffs, calib.dist_coeffs)
    with pytest.raises(CalibrationFileError, match="schema"):
        Calibration.from_dict({"schema": "other"})


def test_rectified_coordinates_round_trip():
    pts = np.array([[0.0, 0.0], [370.0, -370.0], [-12.5, 200.0]])
    px = board_to_rectified(pts, 2.0, 440.0)
    assert np.allclose(rectified_to_board(px, 2.0, 440.0), pts)
    assert np.allclose(board_to_rectified([[0.0, 0.0]], 2.0, 440.0), [[879.5, 879.5]])
