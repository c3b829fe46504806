"""Stills: the picture shows what the truth says, exactly, for every style."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import geometry as g
from calibration.camera import Calibration
from samples.render.stills import OBJECT_IDS, render_still
from samples.render.styles import STYLES

CLEAN = {"noise_sigma": 0.0, "jpeg": False, "hands": 0}
# A flying piece changes the picture within its smear (at most 8.7 m/s over 1/100 s: 87 mm,
# half of it each side of its centre), its own radius, the parallax of its height and its
# shadow's offset: well within this of its centre.
FLYING_CHANGE_MM = 120.0


def _pixel(image: np.ndarray, calibration: Calibration, point_mm: np.ndarray) -> np.ndarray:
    """Mean BGR of the 3x3 pixels around where a board point appears."""
    x, y = np.round(calibration.board_to_image(point_mm)[0]).astype(int)
    return image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(0)


def _covered(truth: dict, point_mm: np.ndarray, radius: float) -> bool:
    for obj in truth["objects"]:
        if (
            obj["xy_mm"] is not None
            and np.linalg.norm(np.array(obj["xy_mm"]) - point_mm) < obj["radius_mm"] + radius
        ):
            return True
    return False


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_printed_markings_are_where_the_truth_camera_puts_them(seed: int) -> None:
    image, truth = render_still(seed, style="tournament", **CLEAN)
    cal = Calibration.from_dict(truth["camera"])
    assert truth["board"]["red_fill"]
    checked = 0
    for centre in np.concatenate([g.all_base_circle_centres(), np.zeros((1, 2))]):
        if _covered(truth, centre, g.BASE_CIRCLE_RADIUS_MM):
            continue
        b, gr, r = _pixel(image, cal, centre[None])
        assert r > gr + 40 and r > b + 40, f"base/centre circle at {centre} is not red: {(b, gr, r)}"
        checked += 1
        # Just outside the ring there is wood again, brighter than the ink ring itself.
        ring = _pixel(image, cal, (centre + [g.BASE_CIRCLE_RADIUS_MM - 0.75, 0.0])[None]).mean()
        wood = _pixel(image, cal, (centre + [g.BASE_CIRCLE_RADIUS_MM + 4.0, 0.0])[None]).mean()
        assert wood > ring
    assert checked >= 5
    for pocket in g.pocket_centres():
        if not _covered(truth, pocket, g.POCKET_RADIUS_MM):
            assert _pixel(image, cal, pocket[None]).mean() < 70


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_pieces_are_where_the_truth_says(seed: int) -> None:
    image, truth = render_still(seed, style="tournament", layout="play", **CLEAN)
    cal = Calibration.from_dict(truth["camera"])
    seen = 0
    for obj in truth["objects"]:
        if obj["state"] != "on_board":
            continue
        assert obj["visible"] == 1.0  # no hands, whole surface in the frame
        bgr = _pixel(image, cal, np.array([obj["xy_mm"]]))
        if obj["class"] == "black":
            assert bgr.mean() < 90, (obj, bgr)
        elif obj["class"] == "queen":
            assert bgr[2] > bgr[1] + 50, (obj, bgr)
        else:
            assert bgr.mean() > 110, (obj, bgr)
        seen += 1
    assert seen >= 2


def test_truth_camera_loads_as_a_calibration_and_matches_the_renderer() -> None:
    _, truth = render_still(7, style="phone")
    cal = Calibration.from_dict(truth["camera"])
    assert cal.image_size == (1280, 720)
    assert cal.has_distortion
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * g.HALF_SURFACE_MM
    px = cal.board_to_image(corners)
    assert np.all((px >= 0) & (px < [1280, 720]))
    back = cal.image_to_board(px)
    np.testing.assert_allclose(back, corners, atol=0.05)
    for obj in truth["objects"]:
        if obj["xy_mm"] is not None:
            np.testing.assert_allclose(
                cal.board_to_image(np.array([obj["xy_mm"]]))[0], obj["xy_px"], atol=0.01
            )


def test_same_seed_same_picture_other_seed_other_picture() -> None:
    a, ta = render_still(11, size=(640, 360))
    b, tb = render_still(11, size=(640, 360))
    c, _ = render_still(12, size=(640, 360))
    assert np.array_equal(a, b) and ta == tb
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_every_style_renders_with_complete_truth(style: str) -> None:
    image, truth = render_still(3, style=style, size=(800, 600))
    assert image.shape == (600, 800, 3) and image.dtype == np.uint8
    assert truth["style"] == style
    assert [o["id"] for o in truth["objects"]] == list(OBJECT_IDS)
    for obj in truth["objects"]:
        assert 0.0 <= obj["visible"] <= 1.0
        assert (obj["xy_mm"] is None) == (obj["state"] in ("in_pocket", "absent", "off_board"))
    assert image.std() > 10  # a picture, not a blank


def test_a_hand_on_the_striker_hides_part_of_it() -> None:
    for seed in range(40):
        _, truth = render_still(seed, size=(640, 360))
        if any(h["kind"] == "strike" for h in truth["hands"]):
            striker = truth["objects"][-1]
            assert striker["id"] == "S"
            assert 0.0 <= striker["visible"] < 1.0
            return
    pytest.fail("no still with a striking hand in 40 seeds")


@pytest.mark.parametrize(("k1", "tilt"), [(-0.3, 15.0), (0.05, 15.0), (-0.15, 0.0)])
def test_strong_lens_and_tilt_keep_the_board_where_the_truth_says(k1: float, tilt: float) -> None:
    image, truth = render_still(8, style="tournament", k1=k1, k2=0.05, tilt_deg=tilt, fill=1.0, **CLEAN)
    cal = Calibration.from_dict(truth["camera"])
    assert cal.dist_coeffs[0] == pytest.approx(k1)
    for pocket in g.pocket_centres():
        if not _covered(truth, pocket, g.POCKET_RADIUS_MM):
            assert _pixel(image, cal, pocket[None]).mean() < 70
    # Just inside each pocket's rim (on the side of the board centre) it is dark; a few mm
    # further towards the centre it is the playing surface.
    for pocket in g.pocket_centres():
        to_centre = -pocket / np.linalg.norm(pocket)
        inside = pocket + to_centre * (g.POCKET_RADIUS_MM - 4.0)
        outside = pocket + to_centre * (g.POCKET_RADIUS_MM + 5.0)
        if _covered(truth, outside, 1.0) or _covered(truth, inside, 1.0):
            continue
        assert _pixel(image, cal, inside[None]).mean() + 40 < _pixel(image, cal, outside[None]).mean()


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_piece_flying_overboard_is_drawn_above_everything_and_changes_nothing_else(seed: int) -> None:
    plain, plain_truth = render_still(seed, style="tournament", layout="play", **CLEAN)
    image, truth = render_still(seed, style="tournament", layout="play", flying=1.0, **CLEAN)
    flying = [o for o in truth["objects"] if o["state"] == "airborne"]
    assert len(flying) == 1
    (piece,) = flying
    was = next(o for o in plain_truth["objects"] if o["id"] == piece["id"])
    assert was["state"] == "in_pocket"  # a piece that was off the board, caught in the air
    reach = g.HALF_SURFACE_MM + truth["board"]["frame_breadth_mm"]
    assert np.all(np.abs(piece["xy_mm"]) <= reach)  # over the surface or the frame
    assert piece["visible"] == 1.0  # no hands: nothing hides it, not even the frame
    others = [o for o in truth["objects"] if o["id"] != piece["id"]]
    assert others == [o for o in plain_truth["objects"] if o["id"] != piece["id"]]
    # The picture changes only around it (its smear and its shadow), not elsewhere.
    changed = np.argwhere(np.abs(image.astype(int) - plain).sum(axis=2) > 0)
    cal = Calibration.from_dict(truth["camera"])
    centre = cal.board_to_image(np.array([piece["xy_mm"]]))[0]
    px_per_mm = (
        np.linalg.norm(cal.board_to_image(np.array([piece["xy_mm"]]) + [10.0, 0.0])[0] - centre) / 10.0
    )
    far = np.linalg.norm(changed[:, ::-1] - centre, axis=1) / px_per_mm
    assert changed.size and far.max() < 120.0  # mm: the smear (at most ~90 mm) and the shadow


def test_flying_pieces_are_off_unless_asked_for() -> None:
    for seed in range(10):
        _, truth = render_still(seed, size=(320, 180))
        assert all(o["state"] != "airborne" for o in truth["objects"])
