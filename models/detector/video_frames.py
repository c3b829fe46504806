"""Training pictures from the generator's match videos: whole-board frames as the recorder
sees them, with their truth.

The generator's stills and moving pictures are drawn one at a time and go through H.264 as a
single picture (models.detector.views.h264_round_trip); a match video is coded across frames
at its style's quality, and the recorder reads what that leaves of a pale striker moved by a
hand or in flight. On the development videos the recorder's losses came most from the
striker taken for a white coin or not found on `phone` and `club` boards (`python -m
vision.track.eval`, the striker by speed): frames of those videos, chosen where the striker
is in view, are pictures of exactly that.

Per video `FRAMES_PER_VIDEO` frames: half with the striker in plain view and moving, a quarter
with it lying in plain view, a quarter anywhere in the match; and `FAST_FRAMES_PER_VIDEO` more
with a carromman in plain view moving faster than 1.5 m/s (mostly the break). With session
32's detector the recorder's losses on the development videos came most from those: a white
flying to a pocket at the break read in under half the looks on `warm-lamp` boards, and its
pocketing missed or taken for a coin gone overboard. A piece's truth is where it is
at the end of the frame's exposure (samples.render.video); a moving piece is taken at the
middle of its smear (samples.render.truth.smear_centre), as the generator's moving pictures
place it (models.detector.layouts).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import Calibration
from models.detector.data import Piece, Scene
from vision.track.eval import PLAIN_VIEW, SPEED_BANDS

FRAMES_PER_VIDEO = 16
FAST_FRAMES_PER_VIDEO = 8
# Frames cached by an earlier picking rule are not mixed in (models.detector.cache).
CACHE_KIND = "video-fast"
# What counts as moving, and as in plain view, is what the tracking evaluation counts so: the
# frames picked are those it scores the striker on.
MOVING_MM_S = SPEED_BANDS[0][1]
FAST_MM_S = SPEED_BANDS[2][1]


def pick_frames(
    arrays: dict[str, np.ndarray],
    striker: int,
    fps: float,
    rng: np.random.Generator,
    carrommen: list[int] | None = None,
) -> list[int]:
    """Which frames of a video to learn from (sorted, no repeats). `carrommen`: the columns
    of the coins and the queen, for the frames of fast ones."""
    from samples.timeline import ObjectState

    xy, state, visible = arrays["xy_mm"], arrays["state"], arrays["visible"]
    speed = np.full(xy.shape[:2], np.nan)
    speed[1:] = np.linalg.norm(xy[1:] - xy[:-1], axis=2) * fps
    in_view = (state == int(ObjectState.ON_BOARD)) & (visible >= PLAIN_VIEW)
    in_view[0] = False
    moving = np.flatnonzero(in_view[:, striker] & (speed[:, striker] >= MOVING_MM_S))
    lying = np.flatnonzero(in_view[:, striker] & (speed[:, striker] < MOVING_MM_S))
    anywhere = np.arange(1, len(xy))
    columns = carrommen or []
    fast = np.flatnonzero((in_view[:, columns] & (speed[:, columns] >= FAST_MM_S)).any(axis=1))
    chosen: set[int] = set()
    # The fast frames are drawn last so the others are those the earlier rule picked.
    for pool, want in (
        (moving, FRAMES_PER_VIDEO // 2),
        (lying, FRAMES_PER_VIDEO // 4),
        (anywhere, FRAMES_PER_VIDEO // 4),
        (fast, FAST_FRAMES_PER_VIDEO),
    ):
        free = np.setdiff1d(pool, np.array(sorted(chosen), dtype=np.int64))
        chosen.update(int(f) for f in rng.choice(free, size=min(want, len(free)), replace=False))
    return sorted(chosen)


def frame_pieces(
    arrays: dict[str, np.ndarray], classes: list[str], index: int, fps: float
) -> tuple[Piece, ...]:
    """The pieces over the board in frame `index` with the condition each shows."""
    from samples.render.truth import smear_centre
    from samples.timeline import ObjectState

    xy, before = arrays["xy_mm"][index], arrays["xy_mm"][index - 1]
    pieces = []
    for k, name in enumerate(classes):
        state = int(arrays["state"][index, k])
        visible = float(arrays["visible"][index, k])
        if not np.all(np.isfinite(xy[k])):
            continue
        if state == ObjectState.ON_BOARD:
            moved = bool(np.all(np.isfinite(before[k]))) and (
                float(np.linalg.norm(xy[k] - before[k])) * fps >= MOVING_MM_S
            )
            centre = smear_centre(before[k], xy[k]) if moved else xy[k]
            condition = "moving" if moved else "open"
            pieces.append(Piece(name, np.array(centre, float), visible, moved, condition))
        elif state in (ObjectState.FALLING, ObjectState.AIRBORNE):
            # Sinking into a hole, or flying off over the frame: no one answer fits.
            pieces.append(Piece(name, np.array(xy[k], float), visible, True, "falling"))
        elif state == ObjectState.HELD:
            pieces.append(Piece(name, np.array(xy[k], float), visible, False, "held"))
    return tuple(pieces)


def video_scenes(directory: Path, seed: int = 0) -> list[Scene]:
    """`FRAMES_PER_VIDEO` scenes (and up to `FAST_FRAMES_PER_VIDEO` more) from the video in
    `directory` (match.mp4 and truth.json, as `python -m vision.eval --make` writes them)."""
    from samples.render.truth import camera_at, object_tracks
    from vision.io import open_source

    truth: dict[str, Any] = json.loads((directory / "truth.json").read_text())
    arrays = object_tracks(truth)
    classes = [str(o["class"]) for o in truth["objects"]]
    fps = float(truth["video"]["fps"])
    video_seed = int(truth["video"]["seed"])
    rng = np.random.default_rng([seed, video_seed, 13])
    carrommen = [k for k, name in enumerate(classes) if name in ("white", "black", "queen")]
    wanted = pick_frames(arrays, classes.index("striker"), fps, rng, carrommen)
    scenes = []
    source = open_source(directory / "match.mp4")
    try:
        for frame in source:
            if not wanted or frame.index > wanted[-1]:
                break
            if frame.index not in wanted:
                continue
            calibration = Calibration.from_dict(
                camera_at(truth, frame.index), where=f"{directory} frame {frame.index}"
            )
            pieces = frame_pieces(arrays, classes, frame.index, fps)
            scenes.append(Scene(video_seed, frame.bgr(), calibration, pieces, "video"))
    finally:
        source.close()
    return scenes
