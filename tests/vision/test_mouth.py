"""Black coins lying over a pocket's hole, found by the dark's shape (vision.detect.mouth)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera import board_to_rectified
from calibration.geometry import (
    COIN_RADIUS_MM,
    HALF_SURFACE_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    pocket_centre,
)
from vision.detect.base import BoardView
from vision.detect.mouth import SCORE, mouth_blacks_mm
from vision.detect.parallax import Viewpoint
from vision.detections import CLASS_NAMES, Detections

PX_PER_MM = 0.5
HALF_EXTENT_MM = HALF_SURFACE_MM + 14.0
SIZE = int(round(2 * HALF_EXTENT_MM * PX_PER_MM))
WOOD = (120, 170, 205)  # BGR, a well-lit board
FRAME = (40, 60, 90)  # a dark wooden frame
BLACK_COIN = (30, 30, 34)
# A coin lying along the east cushion by the NE pocket, 24 mm from its centre: overhanging the
# hole, as on development video 9334.
AT_MOUTH_MM = np.array([HALF_SURFACE_MM - COIN_RADIUS_MM - 1.0, 0.0])
AT_MOUTH_MM[1] = pocket_centre("NE")[1] - np.sqrt(24.0**2 - (AT_MOUTH_MM[0] - pocket_centre("NE")[0]) ** 2)


def board(scale: int = 8, light: float = 1.0) -> np.ndarray:
    """A rectified board drawn `scale` times finer, then shrunk to the view's size (so that
    edges blur as the rectification's do): wood, frame, four dark holes."""
    size = SIZE * scale
    image = np.zeros((size, size, 3), np.uint8)
    image[:] = FRAME
    corners = np.array([[-HALF_SURFACE_MM, HALF_SURFACE_MM], [HALF_SURFACE_MM, -HALF_SURFACE_MM]])
    low, high = (board_to_rectified(corners, PX_PER_MM * scale, HALF_EXTENT_MM) + 0.5).astype(int)
    cv2.rectangle(
        image,
        tuple(int(v) for v in low),
        tuple(int(v) for v in high),
        tuple(int(c * light) for c in WOOD),
        -1,
    )
    for pocket in POCKETS:
        disc(image, pocket_centre(pocket), POCKET_RADIUS_MM, (12, 12, 14), scale)
    return image


def disc(
    image: np.ndarray, centre_mm: np.ndarray, radius_mm: float, colour: tuple[int, int, int], scale: int = 8
) -> None:
    ((col, row),) = board_to_rectified(np.asarray(centre_mm, float)[None], PX_PER_MM * scale, HALF_EXTENT_MM)
    cv2.circle(
        image,
        (int(round(col)), int(round(row))),
        int(round(radius_mm * PX_PER_MM * scale)),
        colour,
        -1,
        cv2.LINE_AA,
    )


def view_of(fine: np.ndarray) -> BoardView:
    return BoardView(cv2.resize(fine, (SIZE, SIZE), interpolation=cv2.INTER_AREA), PX_PER_MM, HALF_EXTENT_MM)


def blacks(view: BoardView) -> np.ndarray:
    """(N, 2): the blacks found at the mouths the view holds."""
    found = [xy for xy in mouth_blacks_mm(view).values() if xy is not None]
    return np.array(found, dtype=float).reshape(-1, 2)


def test_an_empty_board_has_no_coin_at_any_mouth() -> None:
    assert blacks(view_of(board())).shape == (0, 2)


def test_a_black_overhanging_a_hole_is_found_where_it_lies() -> None:
    fine = board()
    disc(fine, AT_MOUTH_MM, COIN_RADIUS_MM, BLACK_COIN)
    (found,) = blacks(view_of(fine))
    assert np.hypot(*(found - AT_MOUTH_MM)) <= 3.0  # the view's pixel is 2 mm


@pytest.mark.parametrize("pocket", POCKETS)
def test_every_pocket_is_looked_at(pocket: str) -> None:
    fine = board()
    centre = pocket_centre(pocket)  # type: ignore[arg-type]
    towards_middle = -np.sign(centre) / np.sqrt(2.0)
    at = centre + 25.0 * towards_middle
    disc(fine, at, COIN_RADIUS_MM, BLACK_COIN)
    (found,) = blacks(view_of(fine))
    assert np.hypot(*(found - at)) <= 3.0


def test_the_red_queen_or_a_white_at_a_mouth_is_not_a_black() -> None:
    for colour in ((40, 40, 200), (230, 235, 240)):
        fine = board()
        disc(fine, AT_MOUTH_MM, COIN_RADIUS_MM, colour)
        assert blacks(view_of(fine)).shape == (0, 2)


def test_a_black_clear_of_the_hole_is_left_to_the_network() -> None:
    fine = board()
    disc(fine, pocket_centre("NE") - [60.0, 60.0], COIN_RADIUS_MM, BLACK_COIN)
    assert blacks(view_of(fine)).shape == (0, 2)


def test_a_dark_blot_too_big_for_a_coin_is_not_one() -> None:
    """A dark sleeve or a shadow over the mouth: dark all round, no coin's disc."""
    fine = board()
    disc(fine, AT_MOUTH_MM, 2.5 * COIN_RADIUS_MM, BLACK_COIN)
    assert blacks(view_of(fine)).shape == (0, 2)


def test_a_lamp_too_dim_to_tell_the_hole_from_the_wood_finds_nothing() -> None:
    fine = board(light=0.25)
    disc(fine, AT_MOUTH_MM, COIN_RADIUS_MM, BLACK_COIN)
    assert blacks(view_of(fine)).shape == (0, 2)


def test_a_box_of_the_view_answers_as_the_whole_view_where_it_holds_the_mouth() -> None:
    fine = board()
    disc(fine, AT_MOUTH_MM, COIN_RADIUS_MM, BLACK_COIN)
    whole = view_of(fine)
    corner = BoardView(whole.image_bgr[:128, 256:].copy(), PX_PER_MM, HALF_EXTENT_MM, (256, 0))
    in_corner = mouth_blacks_mm(corner)
    assert list(in_corner) == ["NE"]
    np.testing.assert_array_equal(in_corner["NE"], mouth_blacks_mm(whole)["NE"])
    # A box that cuts through the mouth's surround does not guess.
    cut = BoardView(whole.image_bgr[:128, 352:].copy(), PX_PER_MM, HALF_EXTENT_MM, (352, 0))
    assert mouth_blacks_mm(cut) == {}


def test_on_video_a_black_is_taken_at_a_mouth_once_it_lies_there_two_looks_running() -> None:
    """A black falling into a pocket bulges the dark at the mouth for a look as it passes
    (development video 62004): on video only one found there in the last look too is taken.
    A single picture has no last look: what it shows is taken."""
    from vision.detect.onnx_detector import OnnxDetector

    fine = board()
    disc(fine, AT_MOUTH_MM, COIN_RADIUS_MM, BLACK_COIN)
    lying, empty = view_of(fine), view_of(board())
    overhead = Viewpoint(np.zeros(2), np.inf)
    none = Detections.empty()
    video = OnnxDetector(for_tracking=True)
    views = (empty, lying, empty, lying, lying)
    looks = [video._with_mouth_blacks(none, view, overhead, look) for look, view in enumerate(views)]
    assert [len(found) for found in looks] == [0, 0, 0, 0, 1]
    taken = looks[-1]
    assert int(taken.class_id[0]) == CLASS_NAMES.index("black") and float(taken.score[0]) == SCORE
    # Two parts of one frame holding the pocket are one look, not two running.
    once = OnnxDetector(for_tracking=True)
    assert [len(once._with_mouth_blacks(none, lying, overhead, 7)) for _ in range(2)] == [0, 0]
    assert len(once._with_mouth_blacks(none, lying, overhead, 8)) == 1
    assert len(OnnxDetector()._with_mouth_blacks(none, lying, overhead, 0)) == 1
    # One the network found there already is not found twice.
    near = Detections(
        AT_MOUTH_MM[None] + [2.0, 0.0], np.array([CLASS_NAMES.index("black")]), np.array([0.45])
    )
    assert len(OnnxDetector()._with_mouth_blacks(near, lying, overhead, 0)) == 1
