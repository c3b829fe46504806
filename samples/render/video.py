"""A simulated match (a `Timeline`) rendered to H.264 with its per-frame truth.

The board is drawn once, warped once per camera pose, and every frame composites the
pieces (blurred over the frame's sub-samples), the hands, the lamp and the sensor noise on
a copy. Frame `f`'s exposure is the timeline's samples `f * oversample ...
(f + 1) * oversample - 1`; the truth of a frame (positions, states, hands) is taken at the
end of its exposure, the convention samples.oracle_tracks uses as well.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import cv2
import numpy as np

from samples.render.board import render_board
from samples.render.camera import CameraPose, bump_pose, sample_pose
from samples.render.scene import DRAWN_STATES, FrameRenderer, PieceDraw, SceneLook, sample_scene
from samples.render.stills import board_truth
from samples.render.styles import ANY_STYLE, resolve_style
from samples.render.truth import TruthRecorder
from samples.timeline import ObjectState, Timeline

VIDEO_TEXTURE_PX_PER_MM = 2.0
FALL_SECONDS = 0.3  # how long a piece takes to vanish into a pocket on screen
X264_PRESET = "veryfast"
DRAWN = tuple(int(s) for s in DRAWN_STATES)


@dataclass(frozen=True)
class VideoSetup:
    """Everything random about a video's look, drawn from its seed."""

    look: SceneLook
    poses: tuple[CameraPose, ...]  # the first pose, then one per camera bump
    crf: int


def plan_video(seed: int, style: str, size: tuple[int, int], bumps: int) -> VideoSetup:
    rng = np.random.default_rng(seed)
    chosen = resolve_style(style or ANY_STYLE, rng)
    look = sample_scene(chosen, rng)
    poses = [sample_pose(chosen, rng, size)]
    for _ in range(bumps):
        poses.append(bump_pose(poses[-1], rng))
    return VideoSetup(look, tuple(poses), chosen.crf)


def render_video(
    timeline: Timeline,
    out_path: Path,
    seed: int,
    style: str = ANY_STYLE,
    size: tuple[int, int] = (1280, 720),
    bump_frames: Sequence[int] = (),
    crf: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Write `out_path` (H.264, yuv420p) and return the video's truth (see samples.render.truth)."""
    setup = plan_video(seed, style, size, len(bump_frames))
    texture = render_board(setup.look.board, VIDEO_TEXTURE_PX_PER_MM)
    renderer = FrameRenderer(setup.look, texture, setup.poses[0], seats=striking_seats(timeline))
    fps = timeline.fps
    n_obj = len(timeline.ids)
    recorder = TruthRecorder(timeline)
    recorder.camera(0, setup.poses[0], bump=False)
    bumps = dict(zip(sorted(bump_frames), setup.poses[1:], strict=True))
    fall_frames = max(1, round(FALL_SECONDS * fps))
    falling_for = np.zeros(n_obj, int)
    width, height = size
    container = av.open(str(out_path), mode="w", format="mp4")
    try:
        stream = container.add_stream("libx264", rate=Fraction(fps).limit_denominator(1001))
        stream.width, stream.height = width, height
        stream.pix_fmt = "yuv420p"
        # The rendered frames are a pure function of the seed; x264's bitstream from them is
        # not always byte-identical run to run (seen even single-threaded), so
        # reproducibility is promised for the pictures and the truth, not for the bytes.
        stream.options = {"crf": str(crf if crf is not None else setup.crf), "preset": X264_PRESET}
        for f in range(timeline.num_frames):
            if f in bumps:
                renderer.set_pose(bumps[f])
                recorder.camera(f, bumps[f], bump=True)
            window = timeline.frame_samples(f)
            last = window.stop - 1
            states = timeline.state[last]
            falling_for = np.where(states == int(ObjectState.FALLING), falling_for + 1, 0)
            pieces = []
            for i in range(n_obj):
                state = int(states[i])
                if state not in DRAWN:
                    continue
                xy = timeline.xy_mm[window, i].astype(np.float64)
                drawn = np.isin(timeline.state[window, i], DRAWN) & np.isfinite(xy).all(1)
                if not drawn.any():
                    continue
                fall = min(1.0, falling_for[i] / fall_frames) if state == int(ObjectState.FALLING) else 0.0
                pieces.append(PieceDraw(i, timeline.classes[i], xy[drawn], ObjectState(state), fall))
            hands = timeline.hands[last] if last < len(timeline.hands) else ()
            image, visible = renderer.render(pieces, hands, frame_index=f)
            recorder.frame(f, visible)
            yuv = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420)
            frame = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
            frame.pts = f
            for packet in stream.encode(frame):
                container.mux(packet)
            if progress is not None:
                progress(f + 1, timeline.num_frames)
        for packet in stream.encode():
            container.mux(packet)
    finally:
        container.close()
    return recorder.to_dict(
        video={
            "file": Path(out_path).name,
            "fps": fps,
            "frames": timeline.num_frames,
            "size": [width, height],
            "seed": int(seed),
            "style": setup.look.style,
            "codec": "h264",
        },
        board=board_truth(setup.look.board),
    )


def striking_seats(timeline: Timeline) -> tuple[str, ...]:
    """The sides players strike from (where their bodies are drawn), in seat order."""
    seen = {
        hand.seat
        for hands in timeline.hands[:: timeline.oversample]
        for hand in hands
        if hand.kind == "strike"
    }
    return tuple(seat for seat in ("S", "E", "N", "W") if seat in seen) or ("S", "N")


def stderr_progress(label: str) -> Callable[[int, int], None]:
    """A progress line on stderr, updated every 5 %."""
    state = {"shown": -1}

    def show(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if percent // 5 != state["shown"]:
            state["shown"] = percent // 5
            end = "\n" if done >= total else "\r"
            print(f"{label}: {percent:3d}% ({done}/{total} frames)", end=end, file=sys.stderr, flush=True)

    return show
