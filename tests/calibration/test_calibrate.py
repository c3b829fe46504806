"""Board calibration on generator stills (exact truth), non-board pictures, the CLI, the monitor."""

from __future__ import annotations

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.calibrate import CalibrationResult, calibrate_image
from calibration.camera import Calibration
from calibration.errors import CalibrationError, NoBoardFound
from calibration.monitor import BoardMonitor, turned_like
from vision.cli import main

render_still = pytest.importorskip("samples.render.stills").render_still

GOOD_SEED = 6  # a still the first version calibrates; more seeds are measured by calibration.eval
# Harder stills (development seeds; calibration.eval measures held-out ones):
CLUB = (21, {"style": "club"})  # no red circles, short corner marks, worn, tilted
ARM_OVER_A_SIDE = (1031, {})  # an arm lies along one side's base lines, a hand over another
PHONE_EXTREME = (30, {"style": "phone", "fill": 0.98, "tilt_deg": 15.0, "k1": -0.3})
GRID = np.array([[x, y] for x in np.linspace(-350, 350, 11) for y in np.linspace(-350, 350, 11)])


def board_error_mm(found: Calibration, truth: Calibration) -> np.ndarray:
    """Error over the playing surface, up to the four-fold symmetry (S is a convention)."""
    seen = found.image_to_board(truth.board_to_image(GRID))
    errors = []
    for quarter in range(4):
        c, s = np.cos(quarter * np.pi / 2), np.sin(quarter * np.pi / 2)
        errors.append(np.linalg.norm(seen - GRID @ np.array([[c, s], [-s, c]]), axis=1))
    return min(errors, key=np.median)


@pytest.fixture(scope="module")
def still() -> tuple[np.ndarray, Calibration]:
    image, truth = render_still(GOOD_SEED)
    return image, Calibration.from_dict(truth["camera"])


def test_fit_matches_truth_within_a_millimetre(still):
    image, truth = still
    result = calibrate_image(image)
    error = board_error_mm(result.calibration, truth)
    assert np.median(error) < 0.8
    assert np.percentile(error, 95) < 2.0
    assert result.reprojection_error_mm < 1.0 and result.landmarks


def _fits(seed: int, overrides: dict) -> tuple[CalibrationResult, dict, np.ndarray]:
    image, truth = render_still(seed, **overrides)
    result = calibrate_image(image)
    return result, truth, board_error_mm(result.calibration, Calibration.from_dict(truth["camera"]))


def test_board_without_red_circles_or_arrows_calibrates():
    _result, truth, error = _fits(*CLUB)
    assert not truth["board"]["red_fill"] and truth["board"]["arrows"] != "arc"
    assert np.median(error) < 0.8 and np.percentile(error, 95) < 2.0


def test_arm_over_the_markings_of_one_side_still_calibrates():
    _result, truth, error = _fits(*ARM_OVER_A_SIDE)
    assert truth["hands"]
    assert np.median(error) < 0.8 and np.percentile(error, 95) < 2.0


def test_strong_barrel_distortion_tilt_and_a_board_filling_the_picture():
    result, _truth, error = _fits(*PHONE_EXTREME)
    assert np.median(error) < 0.8 and np.percentile(error, 95) < 2.0
    # Straight lines look curved: the lens term is fitted, not left at zero.
    assert result.calibration.dist_coeffs[0] < -0.1


def test_result_reports_its_error_and_several_landmark_kinds(still):
    image, _truth = still
    result = calibrate_image(image)
    kinds = {name.split("_")[0] + "_" + name.split("_")[1] for name in result.landmarks}
    assert {"base_line", "base_circle"} <= kinds and len(kinds) >= 3
    assert 0.0 < result.reprojection_error_mm <= result.p95_error_mm < 2.0
    assert result.calibration.landmarks == result.landmarks


def test_a_board_mostly_hidden_is_rejected_not_guessed(still):
    """With only one side's lines in view the board cannot be pinned down: no fit."""
    image, truth = still
    hidden = image.copy()
    keep = truth.board_to_image(
        np.array([[-400.0, -420.0], [400.0, -420.0], [400.0, -250.0], [-400.0, -250.0]])
    )
    mask = np.full(image.shape[:2], 255, np.uint8)
    cv2.fillPoly(mask, [np.round(keep).astype(np.int32)], 0)
    hidden[mask > 0] = (60, 70, 80)
    with pytest.raises(CalibrationError):
        calibrate_image(hidden)


def test_south_is_the_side_nearest_the_bottom_edge(still):
    image, _truth = still
    cal = calibrate_image(image).calibration
    sides = {
        s: cal.board_to_image(np.array([[0.0, -370.0], [370.0, 0.0], [0.0, 370.0], [-370.0, 0.0]]))[i]
        for i, s in enumerate("SENW")
    }
    assert max(sides, key=lambda s: sides[s][1]) == "S"
    top = calibrate_image(image, south="top").calibration
    assert (
        top.board_to_image(np.array([[0.0, -370.0]]))[0, 1]
        < top.board_to_image(np.array([[0.0, 370.0]]))[0, 1]
    )


@pytest.mark.parametrize(
    "picture",
    [
        np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8),
        np.full((480, 640, 3), 170, np.uint8),
        cv2.GaussianBlur(np.random.default_rng(2).integers(0, 256, (480, 640, 3), dtype=np.uint8), (0, 0), 8),
    ],
)
def test_non_board_pictures_are_rejected(picture):
    with pytest.raises(CalibrationError):
        calibrate_image(picture)


def test_cli_writes_outputs_and_rejects_non_boards(still, tmp_path, capsys):
    image, truth = still
    cv2.imwrite(str(tmp_path / "board.png"), image)
    assert main(["calibrate", str(tmp_path / "board.png"), "--out", str(tmp_path / "out")]) == 0
    document = json.loads((tmp_path / "out" / "calibration.json").read_text())
    assert document["schema"] == "carrom-calibration/1"
    assert np.median(board_error_mm(Calibration.from_dict(document), truth)) < 0.8
    assert (tmp_path / "out" / "overlay.png").exists() and (tmp_path / "out" / "board.png").exists()
    cv2.imwrite(str(tmp_path / "plain.png"), np.full((300, 400, 3), 200, np.uint8))
    assert main(["calibrate", str(tmp_path / "plain.png"), "--out", str(tmp_path / "none")]) == 2
    assert "no carrom board found" in capsys.readouterr().err
    assert not (tmp_path / "none" / "calibration.json").exists()


def test_monitor_notices_a_bump_not_a_still_board(still):
    image, truth = still
    result = calibrate_image(image)
    monitor = BoardMonitor(result.calibration, image)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert not monitor.check(gray)
    # A hand-sized dark patch over a part of the board is not a move.
    covered = gray.copy()
    centre = np.round(truth.board_to_image(np.array([[0.0, -250.0]]))[0]).astype(int)
    cv2.circle(covered, tuple(int(v) for v in centre), 60, 40, -1)
    assert not monitor.check(covered)
    bump = np.float32([[1, 0, 5], [0, 1, 3]])
    moved = cv2.warpAffine(image, bump, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    assert monitor.check(cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY))
    refit = monitor.refit(moved)
    assert not monitor.check(cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY))
    shifted = refit.calibration.board_to_image(GRID) - result.calibration.board_to_image(GRID)
    assert np.allclose(np.median(shifted, axis=0), [5, 3], atol=0.5)


def test_a_refit_naming_the_sides_a_quarter_turned_is_turned_back_to_the_fit_it_replaces(still):
    # A re-fit after a bump names the sides by the picture's edges; the camera moved a
    # little, the board did not turn (held-out video 71018: re-fitted a quarter turned, and the
    # players' strikes came from sides nobody sat at).
    image, _ = still
    before = calibrate_image(image).calibration
    shift = np.array([[1.0, 0.0, 4.0], [0.0, 1.0, -3.0], [0.0, 0.0, 1.0]])
    quarter = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    for turns in range(4):
        homography = shift @ before.homography @ np.linalg.matrix_power(quarter, turns)
        refit = CalibrationResult(replace(before, homography=homography), 0.1, (), 0.2)
        turned = turned_like(refit, before).calibration
        moved = turned.board_to_image(GRID) - before.board_to_image(GRID)
        assert np.allclose(np.median(moved, axis=0), [4.0, -3.0], atol=0.5), turns


def test_a_refit_takes_the_fit_closer_to_the_markings_warm_or_cold(still, monkeypatch):
    # Held-out video 71018 (`warm-lamp`, development data since): at its bump the warm start
    # from the old fit settled on the wrong edges, 4 to 33 mm off across the board yet 0.26 mm
    # from them; the cold fit was 0.5 mm off, 0.14 mm from its markings. Pieces going into the
    # south corners were then read past the edge, "overboard".
    import calibration.calibrate as calibration_module
    import calibration.monitor as monitor_module

    image, _ = still
    before = calibrate_image(image).calibration
    bump = np.float32([[1, 0, 5], [0, 1, 3]])
    moved = cv2.warpAffine(image, bump, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    cold = calibrate_image(moved)
    stretch = np.diag([1.05, 1.0, 1.0])  # 5% too long one way: 17 mm at the surface's edge
    astray = CalibrationResult(
        replace(before, homography=before.homography @ stretch), 2.0 * cold.reprojection_error_mm, (), 1.0
    )
    monkeypatch.setattr(monitor_module, "refine", lambda *args, **kwargs: astray)
    refit = BoardMonitor(before, image).refit(moved)
    assert np.median(board_error_mm(refit.calibration, cold.calibration)) < 0.1
    # Closer to the markings than the cold fit, the warm one is kept; and when the cold fit
    # fails (hands over the markings), the warm one stands.
    close = replace(astray, reprojection_error_mm=0.5 * cold.reprojection_error_mm)
    monkeypatch.setattr(monitor_module, "refine", lambda *args, **kwargs: close)
    refit = BoardMonitor(before, image).refit(moved)
    assert np.median(board_error_mm(refit.calibration, astray.calibration)) < 0.1

    def no_board(image_bgr):
        raise CalibrationError("the markings are covered")

    monkeypatch.setattr(calibration_module, "calibrate_image", no_board)
    monkeypatch.setattr(monitor_module, "refine", lambda *args, **kwargs: astray)
    refit = BoardMonitor(before, image).refit(moved)
    assert np.median(board_error_mm(refit.calibration, astray.calibration)) < 0.1


def test_no_board_found_is_a_calibration_error():
    assert issubclass(NoBoardFound, CalibrationError)
