"""Generator scenes for training and testing the detector, with per-piece conditions.

Two kinds of scene, both from the generator (samples.render):
- `still`: `render_still(seed)` as it is (break arrangement, game in progress, sparse board,
  hands, pieces dropping into pockets);
- `moving`: the same kind of picture with some pieces in motion during the exposure (the
  renderer integrates a piece over its positions), for the "moving / blurred" condition.

Each true piece is tagged with the condition the figures are reported under: `moving`,
`under_hand` (less than 95% visible), `pocket_mouth` (near a pocket), `break` (in the law-41
arrangement) or `open`. Pieces dropping into a pocket (`falling`) or held above the board
(`held`) are tagged so and are neither required nor counted as false detections.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from calibration import geometry as g
from calibration.camera import Calibration
from models.detector.data import Piece, Scene
from samples.render.styles import ANY_STYLE

MOUTH_DISTANCE_MM = g.POCKET_RADIUS_MM + g.STRIKER_RADIUS_MM + 20.0
UNDER_HAND_VISIBLE = 0.95
# Share of the pieces on the board that move in a `moving` test picture (a still camera's
# 1/60 s smear, models.detector.layouts.SMEAR).
MOVING_FRACTION = 0.5


def parse_seeds(text: str) -> list[int]:
    """ "0-99" or "3,5,8" or a mix: "0-9,20-29"."""
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part[1:]:
            a, b = part.split("-", 1)
            seeds.extend(range(int(a), int(b) + 1))
        else:
            seeds.append(int(part))
    return seeds


def _is_break(objects: list[dict[str, Any]]) -> bool:
    queen = next(o for o in objects if o["class"] == "queen")
    return queen["xy_mm"] is not None and np.hypot(*queen["xy_mm"]) < 1e-6 and queen["state"] == "on_board"


def piece_condition(obj: dict[str, Any], in_break: bool, moving: bool) -> str:
    if obj["state"] in ("falling", "held"):
        return obj["state"]
    if moving:
        return "moving"
    if obj["visible"] < UNDER_HAND_VISIBLE:
        return "under_hand"
    xy = np.array(obj["xy_mm"])
    if np.min(np.linalg.norm(g.pocket_centres() - xy, axis=1)) < MOUTH_DISTANCE_MM:
        return "pocket_mouth"
    if in_break and np.hypot(*xy) <= g.OUTER_CIRCLE_RADIUS_MM:
        return "break"
    return "open"


def _scene_from_truth(seed: int, image: np.ndarray, truth: dict[str, Any], moving: set[int]) -> Scene:
    objects = truth["objects"]
    in_break = _is_break(objects)
    pieces = tuple(
        Piece(
            o["class"],
            np.array(o["xy_mm"], float),
            float(o["visible"]),
            i in moving,
            piece_condition(o, in_break, i in moving),
        )
        for i, o in enumerate(objects)
        if o["xy_mm"] is not None and o["state"] in ("on_board", "falling", "held")
    )
    calibration = Calibration.from_dict(truth["camera"], where=f"seed {seed}")
    return Scene(seed, image, calibration, pieces, "break" if in_break else "open")


def load_still(seed: int, **overrides: Any) -> Scene:
    from samples.render.stills import render_still

    image, truth = render_still(seed, **overrides)
    return _scene_from_truth(seed, image, truth, set())


def load_moving(seed: int) -> Scene:
    """A still in which about half the pieces on the board move during the exposure."""
    import cv2

    from models.detector.layouts import SMEAR, with_motion
    from samples.render.board import render_board
    from samples.render.camera import sample_pose
    from samples.render.scene import FrameRenderer, PieceDraw, sample_scene
    from samples.render.stills import (
        DEFAULT_SIZE,
        OBJECT_CLASSES,
        OBJECT_IDS,
        TEXTURE_PX_PER_MM,
        board_truth,
        objects_truth,
        random_layout,
    )
    from samples.render.styles import resolve_style

    rng = np.random.default_rng([seed, 7])
    style = resolve_style(ANY_STYLE, rng)
    look = sample_scene(style, rng)
    pose = sample_pose(style, rng, DEFAULT_SIZE)
    layout = random_layout(rng, str(rng.choice(["play", "sparse", "break"], p=[0.6, 0.2, 0.2])), 1)
    texture = render_board(look.board, TEXTURE_PX_PER_MM)
    renderer = FrameRenderer(look, texture, pose)
    positions, moving = with_motion(rng, layout, MOVING_FRACTION, SMEAR)
    pieces = [
        PieceDraw(i, OBJECT_CLASSES[i], positions[i], layout.state[i], layout.fall[i])
        for i in range(len(OBJECT_IDS))
    ]
    image, visible = renderer.render(pieces, layout.hands, frame_index=int(rng.integers(100)))
    _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, look.sensor.jpeg_quality])
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = {
        "camera": pose.to_dict(),
        "board": board_truth(look.board),
        "objects": objects_truth(layout, visible),
    }
    # A moving piece that leaves the surface mid-exposure is not a fair test; keep it out.
    for i in list(moving):
        if not bool(g.on_playing_surface(layout.xy_mm[i], 0.0)):
            moving.discard(i)
    return _scene_from_truth(seed, image, truth, moving)


TRAINING_SCENES_PER_LOOK = 4


def training_scenes(seed: int, style_name: str = ANY_STYLE) -> list[Scene]:
    """The training mix: four pictures of one board, lamp and camera (drawing the board and
    warping it for a camera is most of a picture's cost; the pieces and hands are cheap):
    a still as `render_still` draws it, a crowded board (touching clusters, pocket mouths,
    hands over pieces), and two exposures with pieces moving, one smeared as a still camera
    smears them and one in the video renderer's four sub-frames."""
    import cv2

    from models.detector.layouts import SMEAR, VIDEO_SUBFRAMES, crowded_layout, with_motion
    from samples.render.board import render_board
    from samples.render.camera import sample_pose
    from samples.render.scene import FrameRenderer, PieceDraw, sample_scene
    from samples.render.stills import (
        DEFAULT_SIZE,
        OBJECT_CLASSES,
        OBJECT_IDS,
        TEXTURE_PX_PER_MM,
        objects_truth,
        random_layout,
    )
    from samples.render.styles import resolve_style

    rng = np.random.default_rng([seed, 11])
    style = resolve_style(style_name, rng)
    look = sample_scene(style, rng)
    pose = sample_pose(style, rng, DEFAULT_SIZE)
    renderer = FrameRenderer(look, render_board(look.board, TEXTURE_PX_PER_MM), pose)
    plans = [
        (random_layout(rng, None, 2), 0.0, SMEAR),
        (crowded_layout(rng), 0.15, SMEAR),
        (random_layout(rng, str(rng.choice(["play", "break"], p=[0.7, 0.3])), 2), 0.5, SMEAR),
        (random_layout(rng, str(rng.choice(["play", "break"], p=[0.6, 0.4])), 2), 0.6, VIDEO_SUBFRAMES),
    ]
    scenes = []
    for k, (layout, fraction, exposure) in enumerate(plans):
        positions, moving = with_motion(rng, layout, fraction, exposure)
        pieces = [
            PieceDraw(i, OBJECT_CLASSES[i], positions[i], layout.state[i], layout.fall[i])
            for i in range(len(OBJECT_IDS))
        ]
        image, visible = renderer.render(pieces, layout.hands, frame_index=int(rng.integers(100)))
        _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, look.sensor.jpeg_quality])
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        truth = {"camera": pose.to_dict(), "objects": objects_truth(layout, visible)}
        scenes.append(_scene_from_truth(seed * TRAINING_SCENES_PER_LOOK + k, image, truth, moving))
    return scenes
