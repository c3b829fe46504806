"""The rim measure tells the striker from a carromman by size, on a dim board too."""

from __future__ import annotations

import numpy as np
import pytest

from models.detector.scenes import load_still
from vision.detect.onnx_detector import OnnxDetector
from vision.detect.parallax import Viewpoint
from vision.detect.rim import STRIKER_MIN_RIM_MM, rim_radii_mm


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
