"""Training frames from the generator's match videos (models.detector.video_frames): which
frames are picked, and the truth each piece is given."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np

from models.detector import video_frames as vf
from models.detector.views import render_view
from samples.timeline import ObjectState

SAMPLE = Path(__file__).resolve().parents[2] / "samples"


def _arrays(frames: int, pieces: int) -> dict[str, np.ndarray]:
    return {
        "xy_mm": np.zeros((frames, pieces, 2)),
        "state": np.full((frames, pieces), int(ObjectState.ON_BOARD), np.int16),
        "visible": np.ones((frames, pieces)),
    }


def test_half_the_frames_picked_show_the_striker_moving_in_plain_view() -> None:
    arrays = _arrays(300, 2)
    # The striker (piece 1) lies still, is under a hand for a while, then slides at 600 mm/s.
    arrays["visible"][100:150, 1] = 0.5
    arrays["xy_mm"][200:, 1, 0] = 20.0 * np.arange(100)
    picked = vf.pick_frames(arrays, 1, 30.0, np.random.default_rng(0))
    assert len(picked) == vf.FRAMES_PER_VIDEO and picked == sorted(set(picked))
    moving = [f for f in picked if f > 200]
    assert len(moving) >= vf.FRAMES_PER_VIDEO // 2
    assert 0 not in picked  # no frame before it to tell its speed by


def test_frames_of_fast_carrommen_are_picked_besides_and_leave_the_others_as_they_were() -> None:
    arrays = _arrays(300, 3)
    arrays["xy_mm"][200:, 1, 0] = 20.0 * np.arange(100)  # the striker slides at 600 mm/s
    # A coin (piece 2) flies at 2.4 m/s over frames 250-259, then lies still.
    arrays["xy_mm"][250:260, 2, 1] = 80.0 * np.arange(1, 11)
    arrays["xy_mm"][260:, 2, 1] = 800.0
    without = vf.pick_frames(arrays, 1, 30.0, np.random.default_rng(0))
    picked = vf.pick_frames(arrays, 1, 30.0, np.random.default_rng(0), carrommen=[0, 2])
    assert set(without) <= set(picked)
    fast = [f for f in picked if f not in without]
    assert fast and all(250 <= f <= 259 for f in fast)
    assert len(fast) == min(vf.FAST_FRAMES_PER_VIDEO, 10 - len(set(without) & set(range(250, 260))))
    # A coin only under a hand when it moves fast (not in plain view) gives no such frame.
    arrays["visible"][250:260, 2] = 0.5
    assert vf.pick_frames(arrays, 1, 30.0, np.random.default_rng(0), carrommen=[0, 2]) == without


def test_a_moving_piece_is_taken_at_the_middle_of_its_smear_and_a_falling_one_is_left_open() -> None:
    # The truth is the last of a frame's four exposure samples: the smear's middle lies 1.5
    # samples (0.375 of a frame's travel) back from it.
    arrays = _arrays(3, 4)
    arrays["xy_mm"][1] = [[0.0, 0.0], [100.0, 0.0], [300.0, 300.0], [10.0, 10.0]]
    arrays["xy_mm"][2] = [[0.0, 0.0], [150.0, 0.0], [320.0, 320.0], [10.0, 10.0]]
    arrays["state"][2, 2] = int(ObjectState.FALLING)
    arrays["state"][2, 3] = int(ObjectState.HELD)
    pieces = vf.frame_pieces(arrays, ["white", "striker", "black", "queen"], 2, 30.0)
    still, striker, falling, held = pieces
    assert still.condition == "open" and not still.moving
    assert striker.condition == "moving" and np.allclose(striker.xy_mm, [131.25, 0.0])
    assert falling.condition == "falling" and held.condition == "held"
    # A piece gone from the board (in a pocket: no position) is not in the picture's truth.
    arrays["xy_mm"][2, 0] = np.nan
    assert len(vf.frame_pieces(arrays, ["white", "striker", "black", "queen"], 2, 30.0)) == 3


def test_the_frames_of_a_match_video_come_with_the_truth_of_their_own_frame(tmp_path: Path) -> None:
    shutil.copy(SAMPLE / "sample-board.mp4", tmp_path / "match.mp4")
    shutil.copy(SAMPLE / "sample-board.truth.json", tmp_path / "truth.json")
    scenes = vf.video_scenes(tmp_path)
    assert vf.FRAMES_PER_VIDEO < len(scenes) <= vf.FRAMES_PER_VIDEO + vf.FAST_FRAMES_PER_VIDEO
    assert all(s.image_bgr.shape == (720, 1280, 3) for s in scenes)
    moving = [s for s in scenes if any(p.name == "striker" and p.moving for p in s.pieces)]
    assert len(moving) >= vf.FRAMES_PER_VIDEO // 2
    # Every black coin lying in plain view lands on a dark disc in the view the network is
    # trained on (the board's wood is light), the truth of its own frame.
    blacks = 0
    for scene in scenes:
        view = render_view(scene, jitter=False)
        grey = cv2.cvtColor(view.image_bgr, cv2.COLOR_BGR2GRAY)
        board = float(np.median(grey))
        lying = [p for p in scene.pieces if p.condition != "held"]
        for piece, uv in zip(lying, view.uv, strict=True):
            if piece.name == "black" and piece.condition == "open" and piece.visible >= 0.9:
                u, v = np.round(uv).astype(int)
                assert float(np.median(grey[v - 2 : v + 3, u - 2 : u + 3])) < board - 60
                blacks += 1
    assert blacks > 20
