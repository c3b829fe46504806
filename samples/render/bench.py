"""Benchmark: time to render a one-board 720p30 video against the video's own duration.

    python -m samples.render.bench [--seed 1] [--style any] [--toy SECONDS]

Simulates one board (samples.match; `--toy` uses the renderer's own hand-made timeline
instead), renders it with H.264 encoding to a temporary file and prints the wall time
over the duration (target: at most 2.0 on the 2-core CI machine), with the share spent
drawing and encoding measured in the same run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import av

from samples.render.video import render_video


def _timeline(seed: int, toy: float | None, fps: float):
    if toy:
        from samples.render.toy import toy_timeline

        return toy_timeline(seconds=toy, fps=fps, seed=seed), ()
    from samples.match import simulate_match

    sim = simulate_match(seed=seed, boards=1, fps=fps)
    return sim.timeline, tuple(getattr(sim, "bump_frames", ()) or ())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m samples.render.bench", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--style", default="any")
    parser.add_argument(
        "--toy", type=float, default=None, help="seconds of the toy timeline instead of a board"
    )
    args = parser.parse_args(argv)
    fps = 30.0
    t0 = time.perf_counter()
    timeline, bumps = _timeline(args.seed, args.toy, fps)
    simulate_s = time.perf_counter() - t0
    duration = timeline.num_frames / timeline.fps
    encode_s = 0.0
    original_encode = av.video.stream.VideoStream.encode

    def timed_encode(self, frame=None):  # measure the encoder's share without changing it
        nonlocal encode_s
        start = time.perf_counter()
        packets = original_encode(self, frame)
        encode_s += time.perf_counter() - start
        return packets

    av.video.stream.VideoStream.encode = timed_encode
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.mp4"
            t1 = time.perf_counter()
            render_video(
                timeline, path, seed=args.seed, style=args.style, size=(1280, 720), bump_frames=bumps
            )
            render_s = time.perf_counter() - t1
            size_mb = path.stat().st_size / 1e6
    finally:
        av.video.stream.VideoStream.encode = original_encode
    print(
        f"video: {timeline.num_frames} frames, {duration:.1f} s at {timeline.fps:g} fps, "
        f"1280x720, {size_mb:.2f} MB"
    )
    print(f"simulate: {simulate_s:.2f} s")
    print(f"render+encode: {render_s:.1f} s  (encode {encode_s:.1f} s, draw {render_s - encode_s:.1f} s)")
    print(f"ratio render/duration: {render_s / duration:.2f}  (target <= 2.0)")
    print(f"per frame: {1000 * render_s / max(timeline.num_frames, 1):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
