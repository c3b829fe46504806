"""The board geometry against the ICF equipment text (section A)."""

import numpy as np
import pytest

from calibration import geometry as g


def test_pockets_touch_both_frame_edges():
    for name in g.POCKETS:
        c = g.pocket_centre(name)
        assert np.allclose(np.abs(c) + g.POCKET_RADIUS_MM, g.HALF_SURFACE_MM)


def test_base_circles_close_the_base_lines_and_sit_about_12_7_mm_from_the_next_side():
    s_right = g.base_circle_centres("S")[1]
    e_left = g.base_circle_centres("E")[0]
    # Both circles belong to the SE corner.
    assert s_right[0] > 0 and s_right[1] < 0 and e_left[0] > 0 and e_left[1] < 0
    gap = np.linalg.norm(s_right - e_left) - g.BASE_CIRCLE_DIAMETER_MM
    assert gap == pytest.approx(12.7, abs=1.0)
    # A.4 b: the circle touches the neighbouring side's inner base line, extended.
    assert s_right[0] + g.BASE_CIRCLE_RADIUS_MM == pytest.approx(g.INNER_BASE_LINE_EDGE_MM)


def test_base_lines_are_470_mm_long_within_the_tolerance():
    outer, _inner = g.base_lines("S")
    length = np.linalg.norm(np.subtract(outer.end, outer.start)) + g.BASE_CIRCLE_DIAMETER_MM
    assert length == pytest.approx(g.BASE_LINE_LENGTH_MM, abs=3.0 + 0.5)  # A.4 a: +-3 mm
    assert outer.start[1] == pytest.approx(-g.HALF_SURFACE_MM + g.BASE_LINE_FROM_FRAME_MM + 3.0)


def test_arrows_pass_between_the_base_circles_and_stop_50_mm_from_the_pocket():
    a = g.arrow("NE")
    tip = np.array(a.end)
    gap = np.linalg.norm(tip - g.pocket_centre("NE")) - g.POCKET_RADIUS_MM
    assert gap == pytest.approx(50.0)
    assert np.linalg.norm(np.subtract(a.end, a.start)) == pytest.approx(267.0)
    midpoint = (g.base_circle_centres("N")[0] + g.base_circle_centres("E")[1]) / 2
    assert float(g.point_segment_distance(midpoint, a)) < 1e-9


@pytest.mark.parametrize("seat", g.SEATS)
def test_striker_on_the_middle_of_the_base_lines_is_legal(seat):
    inward_min, inward_max, along_max = g.striker_legal_range(seat)
    for inward in (inward_min + 0.01, (inward_min + inward_max) / 2, inward_max - 0.01):
        for along in (-along_max, 0.0, along_max):
            placement = g.striker_placement(seat, g.seat_to_board(seat, along, inward))
            assert placement.legal, (inward, along, placement)


@pytest.mark.parametrize("seat", g.SEATS)
def test_striker_off_the_base_lines_is_illegal(seat):
    inward_min, inward_max, _ = g.striker_legal_range(seat)
    assert not g.striker_placement(seat, g.seat_to_board(seat, 0.0, inward_min - 0.5)).touches_both_base_lines
    assert not g.striker_placement(seat, g.seat_to_board(seat, 0.0, inward_max + 0.5)).touches_both_base_lines


def test_striker_centred_on_a_base_circle_covers_it_and_half_on_it_does_not():
    centre = g.base_circle_centres("S")[1]
    on = g.striker_placement("S", centre)
    assert on.base_circle_cover_mm is not None and on.base_circle_cover_mm > 0 and on.legal
    half = g.striker_placement("S", centre - [g.BASE_CIRCLE_RADIUS_MM, 0.0])
    assert half.base_circle_cover_mm is not None and not half.legal


def test_striker_past_the_base_circle_touches_the_arrow():
    centre = g.base_circle_centres("S")[1]
    beyond = centre + [12.0, 0.0]
    assert g.striker_placement("S", beyond).arrow_clearance_mm < 0


def test_break_arrangement_is_19_touching_coins_in_the_outer_circle():
    items = g.break_arrangement()
    names = [n for n, _ in items]
    assert names.count("white") == 9 and names.count("black") == 9 and names.count("queen") == 1
    xy = np.array([p for _, p in items])
    d = np.linalg.norm(xy[:, None] - xy[None], axis=-1) + np.eye(len(xy)) * 1e9
    assert d.min() >= g.COIN_DIAMETER_MM - 1e-6
    assert np.all(g.inside_outer_circle(xy))
    assert np.allclose(xy[0], 0.0)  # law 41: the queen occupies the centre circle


def test_seat_round_trip():
    pts = np.array([[10.0, -250.0], [-100.0, 30.0]])
    for seat in g.SEATS:
        along, inward = g.board_to_seat(seat, pts).T
        back = np.stack([g.seat_to_board(seat, a, i) for a, i in zip(along, inward, strict=True)])
        assert np.allclose(back, pts)
