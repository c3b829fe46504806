"""The rim measure tells the striker from a carromman by size, on a dim board too."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.geometry import nearest_pocket, pocket_centre
from models.detector.scenes import load_still
from vision.detect.base import BoardView
from vision.detect.onnx_detector import OnnxDetector
from vision.detect.parallax import Viewpoint
from vision.detect.rim import STRIKER_MIN_RIM_MM, rim_radii_mm, rims


@pytest.mark.parametrize("style", ["warm-lamp", "club"])
def test_the_striker_reads_larger_than_every_coin(style: str) -> None:
    scene = load_still(30010, layout="sparse", hands=0, style=style)
    lying = [p for p in scene.pieces if p.visible > 0.99 and not p.moving and p.condition == "open"]
    faces = Viewpoint.of(scene.calibration).base_to_face(np.array([p.xy_mm for p in lying]))
    view = OnnxDetector().rectifier.view(scene.image_bgr, scene.calibration)
    rims = rim_radii_mm(view, faces)
    is_striker = np.array([p.name == "striker" for p in lying])
    assert is_striker.sum() == 1 and (~is_striker).sum() >= 3
    assert rims[is_striker][0] >= STRIKER_MIN_RIM_MM
    assert (rims[~is_striker] < STRIKER_MIN_RIM_MM).all()


def test_no_centres_no_radii() -> None:
    view = OnnxDetector().rectifier.view(np.zeros((720, 1280, 3), np.uint8), load_still(30010).calibration)
    assert rim_radii_mm(view, np.zeros((0, 2))).shape == (0,)


_VIEWS = Path(__file__).parents[1] / "data" / "rim"


def _recorded_view(name: str) -> tuple[BoardView, np.ndarray]:
    """A crop of the rectified view the recorder measured a pale-striker candidate on, as the
    view it was part of, and the candidate's face (board mm)."""
    import cv2

    meta = json.loads((_VIEWS / "views.json").read_text())[name]
    image = cv2.imread(str(_VIEWS / name), cv2.IMREAD_COLOR)
    view = BoardView(image, meta["px_per_mm"], meta["half_extent_mm"], tuple(meta["origin_px"]))
    return view, np.array([meta["face_mm"]])


def test_a_coin_between_the_cushion_a_hole_and_a_coin_is_sized_as_a_coin() -> None:
    # Development video 9182 (a `warm-lamp` board): a pale white lying by the cushion, a
    # pocket's hole on one side and a black coin on the other, its own rim faint. Over every
    # ray the sharpest change was those edges, striker-sized, and with the striker in a hand
    # the white was taken for it: a stroke was made of nothing, the white "pocketed".
    view, face = _recorded_view("white-by-cushion-9182.png")
    assert rims(view, face)[0][0] >= STRIKER_MIN_RIM_MM  # every ray: the edges
    assert rim_radii_mm(view, face)[0] < STRIKER_MIN_RIM_MM


def test_the_striker_at_a_corner_s_mouth_still_reads_the_striker_s_size() -> None:
    # Development video 9116: the striker come to rest at a corner's mouth, 21 mm from the
    # cushion and over the hole's edge; rays left out whole where they met the edge (rather
    # than followed up to it) read it 17.8 mm, under the striker's size, and lost it.
    view, face = _recorded_view("striker-at-mouth-9116.png")
    assert rim_radii_mm(view, face)[0] >= STRIKER_MIN_RIM_MM


def test_nothing_is_sized_over_a_pocket_s_hole() -> None:
    view, face = _recorded_view("striker-at-mouth-9116.png")
    hole = pocket_centre(nearest_pocket(face[0]))
    assert np.isnan(rim_radii_mm(view, hole[None])[0])
