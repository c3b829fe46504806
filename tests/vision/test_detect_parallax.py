"""The parallax of a piece's top face, against the generator's camera model."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import Calibration, nominal_camera_matrix
from calibration.geometry import HALF_SURFACE_MM, PIECE_THICKNESS_MM
from samples.render.camera import sample_pose
from samples.render.styles import ANY_STYLE, resolve_style
from vision.detect.parallax import Viewpoint

POINTS = np.array([[0.0, 0.0], [340.0, 340.0], [-340.0, 200.0], [120.0, -350.0], [-300.0, -300.0]])


def generator_pose(seed: int):
    rng = np.random.default_rng(seed)
    return sample_pose(resolve_style(ANY_STYLE, rng), rng, (1280, 720))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_top_face_shows_where_the_camera_puts_it(seed: int) -> None:
    pose = generator_pose(seed)
    calibration = pose.calibration()
    # Where the camera sees each face, mapped onto the surface as the rectified view maps it.
    seen = calibration.image_to_board(pose.project(POINTS, PIECE_THICKNESS_MM))
    viewpoint = Viewpoint.of(calibration)
    assert np.abs(seen - POINTS).max() > 1.0  # the effect is real at the corners
    np.testing.assert_allclose(viewpoint.base_to_face(POINTS), seen, atol=0.02)
    np.testing.assert_allclose(viewpoint.face_to_base(seen), POINTS, atol=0.02)


def test_with_the_nominal_camera_matrix_the_correction_still_helps() -> None:
    for seed in range(1, 9):
        pose = generator_pose(seed)
        exact = pose.calibration()
        k = nominal_camera_matrix(exact.image_size)
        nominal = Calibration(exact.image_size, k, exact.dist_coeffs, exact.homography)
        seen = exact.image_to_board(pose.project(POINTS, PIECE_THICKNESS_MM))
        corrected = Viewpoint.of(nominal).face_to_base(seen)
        before = np.linalg.norm(seen - POINTS, axis=1).max()
        after = np.linalg.norm(corrected - POINTS, axis=1).max()
        assert after < 0.5 * before


def test_an_implausible_camera_is_left_uncorrected() -> None:
    # A camera 100 mm over the board, looking straight down: no overhead rig is that low.
    k = nominal_camera_matrix((1280, 720))
    low = Calibration((1280, 720), k, np.zeros(5), k @ np.diag([1.0, 1.0, 100.0]))
    viewpoint = Viewpoint.of(low)
    assert not np.isfinite(viewpoint.height_mm)
    np.testing.assert_array_equal(viewpoint.face_to_base(POINTS), POINTS)
    # The same camera 1.5 m up is plausible and corrects away from the point under it.
    high = Calibration((1280, 720), k, np.zeros(5), k @ np.diag([1.0, 1.0, 1500.0]))
    corner = Viewpoint.of(high).face_to_base(np.array([[HALF_SURFACE_MM, 0.0]]))
    expected = HALF_SURFACE_MM * (1500.0 - PIECE_THICKNESS_MM) / 1500.0
    np.testing.assert_allclose(corner, [[expected, 0.0]], atol=1e-6)
