"""The fit's camera model and robust solver, and the landmark model, without pictures."""

import numpy as np
import pytest

from calibration import geometry as g
from calibration.camera import Calibration, nominal_camera_matrix
from calibration.landmarks import EDGE, fine_landmarks
from calibration.model import CameraModel, Observations, fit

SIZE = (1280, 720)
TRUE_H = np.array([[0.95, 0.08, 640.0], [0.05, -0.9, 360.0], [2e-5, 4e-5, 1.0]])


def _observations(true: CameraModel, rng: np.random.Generator, noise_px: float = 0.0) -> Observations:
    """Every landmark sample, seen where `true` puts it, slid along its curve (a search
    along the normal does not know where along the curve it is)."""
    lms = fine_landmarks()
    pts = np.concatenate([lm.points for lm in lms])
    normals = np.concatenate([lm.normals for lm in lms])
    tangent = np.stack([normals[:, 1], -normals[:, 0]], axis=1)
    seen = true.project(pts + rng.uniform(-0.5, 0.5, (len(pts), 1)) * tangent)
    seen += rng.normal(0.0, noise_px, seen.shape)
    index = np.concatenate([np.full(len(lm), i) for i, lm in enumerate(lms)])
    return Observations(pts, normals, seen, index)


def test_model_round_trips_through_a_calibration():
    model = CameraModel.from_homography(SIZE, TRUE_H, -0.2, 0.03)
    again = CameraModel.from_calibration(model.calibration())
    pts = np.array([[0.0, 0.0], [300.0, -200.0], [-370.0, 370.0]])
    assert np.allclose(again.project(pts), model.project(pts), atol=1e-6)
    # The same projection as the stored calibration's.
    assert np.allclose(model.calibration().board_to_image(pts), model.project(pts), atol=1e-3)


def test_a_calibration_about_another_focal_length_is_re_expressed_exactly():
    k = nominal_camera_matrix(SIZE)
    k[0, 0] = k[1, 1] = 0.7 * k[0, 0]  # a wide lens
    cal = Calibration(SIZE, k, np.array([-0.3, 0.08, 0.0, 0.0, 0.0]), TRUE_H)
    model = CameraModel.from_calibration(cal)
    pts = np.array([[0.0, 0.0], [300.0, -200.0], [-370.0, 370.0], [360.0, 360.0]])
    assert np.allclose(model.project(pts), cal.board_to_image(pts), atol=1e-3)


def test_fit_recovers_the_camera_and_lens_from_curve_points_despite_outliers():
    rng = np.random.default_rng(3)
    true = CameraModel.from_homography(SIZE, TRUE_H, -0.25, 0.02)
    obs = _observations(true, rng, noise_px=0.2)
    # A tenth of the points are lures: 5 to 15 mm off their curve.
    bad = rng.random(len(obs)) < 0.1
    found = obs.found_px.copy()
    off = rng.uniform(5.0, 15.0, int(bad.sum())) * rng.choice([-1.0, 1.0], int(bad.sum()))
    found[bad] = true.project(obs.model_mm[bad] + off[:, None] * obs.normal_mm[bad])
    obs = Observations(obs.model_mm, obs.normal_mm, found, obs.landmark)
    start = CameraModel.from_homography(
        SIZE, TRUE_H @ np.array([[1.01, 0.0, 3.0], [0.0, 0.99, -2.0], [0, 0, 1]])
    )
    model = start
    for _ in range(3):  # the callers re-search between fits; here the points stay
        result = fit(model, obs)
        model = result.model
    grid = np.array([[x, y] for x in np.linspace(-350, 350, 8) for y in np.linspace(-350, 350, 8)])
    px_error = np.linalg.norm(model.project(grid) - true.project(grid), axis=1)
    assert px_error.max() < 0.3
    assert model.k1 == pytest.approx(-0.25, abs=0.03)
    assert not result.inlier[bad].any() and result.inlier[~bad].mean() > 0.95


def test_ink_spread_is_estimated_not_mistaken_for_geometry():
    """The thick lines' edges seen 0.7 mm outside their outline (blur, ink): the fit's
    offset takes it up and the camera stays where it is."""
    rng = np.random.default_rng(4)
    true = CameraModel.from_homography(SIZE, TRUE_H, -0.1, 0.0)
    obs = _observations(true, rng)
    lms = fine_landmarks()
    group = np.array([lms[i].spread_group for i in obs.landmark])
    sign = np.array([lms[i].spread_sign for i in obs.landmark])
    moved_mm = obs.model_mm + (0.7 * sign * (group == 1))[:, None] * obs.normal_mm
    found = true.project(moved_mm)
    obs = Observations(obs.model_mm, obs.normal_mm, found, obs.landmark, group, sign)
    model = CameraModel.from_homography(SIZE, TRUE_H)
    for _ in range(3):
        result = fit(model, obs)
        model = result.model
    assert result.spread_mm[0] == pytest.approx(0.7, abs=0.05)
    grid = np.array([[x, y] for x in np.linspace(-350, 350, 8) for y in np.linspace(-350, 350, 8)])
    assert np.abs(model.project(grid) - true.project(grid)).max() < 0.1


def test_landmarks_are_the_geometry_modules_markings():
    """The thick line's edges are its band's edges, the thin line its centre line, the
    circles where geometry puts them; every sample on the playing surface."""
    lms = {lm.name: lm for lm in fine_landmarks()}
    outer, inner = g.base_lines("S")
    inward = lambda lm: -lm.points[:, 1]  # noqa: E731 - S seat: the distance in from its side
    assert np.allclose(inward(lms["base_line_S_outer"]), -outer.start[1] + outer.thickness / 2)
    assert np.allclose(inward(lms["base_line_S_inner"]), -outer.start[1] - outer.thickness / 2)
    assert np.allclose(inward(lms["base_line_S_thin"]), -inner.start[1])
    for seat in g.SEATS:
        for end, centre in zip(("left", "right"), g.base_circle_centres(seat), strict=True):
            lm = lms[f"base_circle_{seat}_{end}"]
            assert np.allclose(np.linalg.norm(lm.points - centre, axis=1), g.BASE_CIRCLE_RADIUS_MM)
            assert lm.profile == EDGE and not lm.darker_along_normal  # darker inside
    for lm in lms.values():
        assert g.on_playing_surface(lm.points).all()
        assert np.allclose(np.linalg.norm(lm.normals, axis=1), 1.0)


def test_calibration_from_the_fit_uses_the_nominal_camera():
    model = CameraModel.from_homography(SIZE, TRUE_H, -0.2, 0.05)
    cal = model.calibration(0.3, ("base_line_S_outer",))
    assert isinstance(cal, Calibration)
    assert np.allclose(cal.camera_matrix, nominal_camera_matrix(SIZE))
    assert cal.dist_coeffs[0] == pytest.approx(-0.2) and cal.landmarks == ("base_line_S_outer",)


def test_snap_keeps_a_side_an_earlier_pass_found(monkeypatch):
    """A hand over one side's thin line: the wide first pass finds three sides, the narrower
    passes only two. The side found first keeps its points (and the snap goes on) instead
    of being dropped or left to the lens and perspective terms."""
    from calibration import calibrate

    true = CameraModel.from_homography(SIZE, TRUE_H, -0.05, 0.0)
    passes: list[float] = []

    def fake_snap(_gray, model, search, _scale, with_frame=False):
        passes.append(search)
        sides = (0, 1, 2) if with_frame else (0, 1)
        pts, normals, index = [], [], []
        for side in sides:
            seat = g.SEATS[side]
            for along in np.linspace(-180.0, 180.0, 6):
                pts.append(g.seat_to_board(seat, along, g.OUTER_BASE_LINE_EDGE_MM))
                normals.append(-g.seat_normal(seat))
                index.append(side)
        pts_mm = np.array(pts)
        return Observations(pts_mm, np.array(normals), true.project(pts_mm), np.array(index)), None

    monkeypatch.setattr(calibrate, "snap_base_lines", fake_snap)
    start = CameraModel.from_homography(
        SIZE, TRUE_H @ np.array([[1.03, 0.0, 8.0], [0.0, 0.98, -6.0], [0, 0, 1]])
    )
    snapped = calibrate._snap(np.zeros((10, 10), np.float32), 1.0, start)
    assert passes == list(calibrate.SNAP_PASSES_MM)
    assert snapped is not None
    # The N side's line, seen in the first pass only, is where the truth has it.
    north = fake_snap(None, None, 0.0, None, with_frame=True)[0]
    from calibration.model import residuals_mm

    assert np.abs(residuals_mm(snapped, north)).max() < 0.3
