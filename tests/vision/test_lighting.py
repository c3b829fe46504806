"""Evening out a dim lamp's light before the network looks (vision.detect.lighting)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera import board_to_rectified
from calibration.geometry import COIN_RADIUS_MM, HALF_SURFACE_MM, pocket_centre
from vision.detect.lighting import MAX_GAIN, READ_EVERY, TARGET_LUMA, SurfaceLight

PX_PER_MM = 0.5
HALF_EXTENT_MM = HALF_SURFACE_MM + 14.0  # the shipped network's view: 384 px


def _board_view(surface_luma: np.ndarray | float, frame_luma: float = 60.0) -> np.ndarray:
    """A rectified view: a plain surface lit as `surface_luma` (a number, or per pixel) inside
    a dark frame, warm-tinted (B < G < R) as under a lamp."""
    size = int(round(2 * HALF_EXTENT_MM * PX_PER_MM))
    coords = (np.arange(size) + 0.5) / PX_PER_MM - HALF_EXTENT_MM
    on_surface = (np.abs(coords)[:, None] <= HALF_SURFACE_MM) & (np.abs(coords)[None, :] <= HALF_SURFACE_MM)
    luma = np.where(on_surface, np.broadcast_to(surface_luma, (size, size)), frame_luma)
    tint = np.array([0.7, 1.0, 1.2])
    return np.clip(luma[..., None] * tint, 0, 255).astype(np.uint8)


def _vignette(centre: float, corner: float) -> np.ndarray:
    """Surface brightness falling from `centre` in the middle to `corner` at the corners."""
    size = int(round(2 * HALF_EXTENT_MM * PX_PER_MM))
    coords = (np.arange(size) + 0.5) / PX_PER_MM - HALF_EXTENT_MM
    r = np.hypot(coords[None, :], coords[:, None]) / (np.sqrt(2) * HALF_SURFACE_MM)
    return centre + (corner - centre) * np.clip(r, 0, 1) ** 2


def _disc(view: np.ndarray, xy_mm: tuple[float, float], bgr: tuple[int, int, int]) -> None:
    ((col, row),) = board_to_rectified(np.array([xy_mm]), PX_PER_MM, HALF_EXTENT_MM)
    cv2.circle(view, (int(round(col)), int(round(row))), int(round(COIN_RADIUS_MM * PX_PER_MM)), bgr, -1)


def _surface_luma(view: np.ndarray, xy_mm: tuple[float, float]) -> float:
    ((col, row),) = board_to_rectified(np.array([xy_mm]), PX_PER_MM, HALF_EXTENT_MM)
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(float)
    r, c = int(round(row)), int(round(col))
    return float(np.median(gray[r - 3 : r + 4, c - 3 : c + 4]))


def _light() -> SurfaceLight:
    return SurfaceLight(PX_PER_MM, HALF_EXTENT_MM)


def test_a_well_lit_board_goes_to_the_network_untouched() -> None:
    light = _light()
    view = _board_view(_vignette(235.0, TARGET_LUMA + 8.0))
    light.observe(view)
    assert light.gain is None
    assert light.evened(view) is view


def test_a_dim_lamps_dark_corners_are_brought_up_to_the_middles_light() -> None:
    light = _light()
    view = _board_view(_vignette(150.0, 60.0))
    light.observe(view)
    evened = light.evened(view)
    near_pocket = tuple(pocket_centre("NE") * 0.8)
    for xy in [(0.0, 0.0), (200.0, -150.0), near_pocket, (-300.0, 300.0)]:
        assert abs(_surface_luma(evened, xy) - TARGET_LUMA) <= 0.08 * TARGET_LUMA, xy
    # Before, the corner had little more than half the target's light.
    assert _surface_luma(view, near_pocket) < 0.6 * TARGET_LUMA


def test_the_tint_and_the_pieces_contrast_are_kept() -> None:
    light = _light()
    view = _board_view(_vignette(120.0, 70.0))
    _disc(view, (250.0, 250.0), (10, 12, 14))  # a black coin in a dark corner
    light.observe(view)
    evened = light.evened(view).astype(float)
    surface = evened[40:50, 192]  # a strip of surface near the top edge's middle
    assert surface[:, 0].mean() < surface[:, 1].mean() < surface[:, 2].mean()  # still warm
    black = board_to_rectified(np.array([(250.0, 250.0)]), PX_PER_MM, HALF_EXTENT_MM)[0].round().astype(int)
    coin = evened[black[1], black[0]]
    assert coin.max() <= 14 * MAX_GAIN + 1  # a black coin stays black
    assert _surface_luma(evened.astype(np.uint8), (250.0, 300.0)) > 4 * coin.mean()


def test_coins_and_a_hand_over_the_surface_do_not_pass_for_darkness() -> None:
    plain = _board_view(100.0)
    crowded = plain.copy()
    for x in np.arange(-120.0, 121.0, 40.0):  # a row of black coins touching, and a dark hand
        _disc(crowded, (x, 0.0), (15, 15, 15))
    crowded[150:190, 260:330] = (40, 50, 60)
    reference, light = _light(), _light()
    reference.observe(plain)
    for _ in range(READ_EVERY * 3):  # the hand stays over the board for three readings of five
        light.observe(crowded if light._views < READ_EVERY * 2 else plain)
    for _ in range(READ_EVERY * 2):
        light.observe(plain)
    assert reference.gain is not None and light.gain is not None
    np.testing.assert_allclose(light.gain, reference.gain, atol=0.02)


def test_the_frame_past_the_surface_is_left_as_it_is() -> None:
    light = _light()
    view = _board_view(_vignette(120.0, 60.0), frame_luma=40.0)
    light.observe(view)
    evened = light.evened(view)
    assert np.array_equal(evened[:5], view[:5])  # the frame's strip at the top of the view
    assert np.array_equal(evened[:, -5:], view[:, -5:])


def test_a_box_of_the_view_is_evened_as_the_whole_view_is() -> None:
    light = _light()
    view = _board_view(_vignette(140.0, 50.0))
    light.observe(view)
    whole = light.evened(view)
    col0, row0, col1, row1 = 64, 128, 224, 320
    box = light.evened(np.ascontiguousarray(view[row0:row1, col0:col1]), (col0, row0))
    assert np.array_equal(box, whole[row0:row1, col0:col1])


def test_a_view_of_another_size_is_refused() -> None:
    with pytest.raises(ValueError, match="384 px"):
        _light().observe(np.zeros((200, 200, 3), np.uint8))


def _dimmed(image: np.ndarray, centre: float, corner: float) -> np.ndarray:
    """The picture under a dimmer lamp whose light falls off towards the picture's corners."""
    rows, cols = image.shape[:2]
    y, x = np.mgrid[0:rows, 0:cols]
    r = np.hypot((x - cols / 2) / (cols / 2), (y - rows / 2) / (rows / 2)) / np.sqrt(2)
    light = centre + (corner - centre) * np.clip(r / 0.6, 0, 1) ** 2
    return np.clip(image * light[..., None], 0, 255).astype(np.uint8)


def _scores(detector, image: np.ndarray, scene) -> np.ndarray:
    """The score of each piece lying in plain view, as found with its own class (0: not)."""
    from vision.detections import CLASS_NAMES

    found = detector.detect(image, scene.calibration)
    scores = []
    for piece in scene.pieces:
        if piece.moving or piece.visible < 0.9:
            continue
        mine = found.class_id == CLASS_NAMES.index(piece.name)
        distance = np.linalg.norm(found.xy_mm[mine] - piece.xy_mm, axis=1) if mine.any() else np.array([1e9])
        scores.append(float(found.score[mine][distance.argmin()]) if distance.min() <= 12.0 else 0.0)
    return np.array(scores)


@pytest.mark.parametrize("seed", [30004, 30006])
def test_pieces_under_a_dim_uneven_lamp_score_as_under_even_light(seed: int) -> None:
    from models.detector.scenes import load_still
    from vision.detect.onnx_detector import OnnxDetector

    scene = load_still(seed)
    dim = _dimmed(scene.image_bgr, 0.8, 0.3)

    def detector(even_light: bool) -> OnnxDetector:
        return OnnxDetector(for_tracking=True, even_light=even_light, min_score=0.05)

    lit = _scores(detector(False), scene.image_bgr, scene)
    as_is = _scores(detector(False), dim, scene)
    evened = _scores(detector(True), dim, scene)
    # Evened, the scores come within 0.02 of the well-lit ones on average, and closer than the
    # dim picture's own (the shipped network of session 32 reads seed 30004's dim picture almost
    # as well as the lit one, 0.011 off: evening has little left to mend there, 0.010 off; on
    # 30006 it takes 0.031 to 0.002).
    assert np.abs(evened - lit).mean() < min(0.02, np.abs(as_is - lit).mean())
    # Nor does it take the weakest piece more than 0.03 below the weakest as the camera gave it
    # (30004 with session 32's file: 0.79 evened, 0.80 dim, 0.82 lit; the threshold is 0.40).
    assert evened.min() >= min(lit.min(), as_is.min()) - 0.03


def test_the_recorder_evens_the_light_only_when_asked() -> None:
    from vision.cli import build_parser
    from vision.commands.score import make_detector

    parser = build_parser()
    assert parser.parse_args(["score", "match.mp4"]).even_light is False
    assert parser.parse_args(["score", "match.mp4", "--even-light"]).even_light is True
    assert make_detector("onnx").even_light is False
    assert make_detector("onnx", even_light=True).even_light is True
