"""End-to-end throughput of `carrom score` against plain decoding, and memory over a long video.

    python -m vision.bench [--video FILE] [--loops N]

Measured in one run on the same file: decode-only throughput (PyAV, frames not converted;
and OpenCV's VideoCapture, which also converts to BGR: the faster is the reference), then the
whole pipeline (calibration, camera monitor, motion gate, detector, tracker, stroke
inference, log writing; review images off). The ratio is pipeline fps / decode fps.

Memory: the pipeline is run over the file looped `--loops` times (one continuous source),
the resident set size sampled as it goes; its growth per minute of video is fitted and
extrapolated to one hour. With no --video, the first `--seconds` of a simulated match are
rendered first at 1920x1080, 30 fps, H.264.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.io import Frame, VideoFileSource

if TYPE_CHECKING:
    from vision.pipeline import RecordingStatus

# The target: end-to-end throughput at least this share of plain decoding.
TARGET_SHARE = 0.70


def rss_mb() -> float:
    """Current resident set size (Linux /proc), in MB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def decode_fps_pyav(path: Path) -> tuple[float, int]:
    source = VideoFileSource(path)
    start = time.perf_counter()
    n = 0
    for _ in source:
        n += 1
    source.close()
    return n / (time.perf_counter() - start), n


def decode_fps_opencv(path: Path) -> float:
    import cv2

    capture = cv2.VideoCapture(str(path))
    start = time.perf_counter()
    n = 0
    while True:
        ok, _ = capture.read()
        if not ok:
            break
        n += 1
    capture.release()
    return n / (time.perf_counter() - start)


class LoopedSource:
    """One file played `loops` times as a single continuous source (for the memory test)."""

    def __init__(self, path: Path, loops: int) -> None:
        first = VideoFileSource(path)
        self.path, self.loops = path, loops
        self.name = f"{path} x{loops}"
        self.fps, self.size = first.fps, first.size
        self.frame_count = (first.frame_count or 0) * loops or None
        self.stopped_reason: str | None = None
        first.close()
        self.samples: list[tuple[float, float]] = []  # (video seconds, RSS MB)

    def __iter__(self) -> Iterator[Frame]:
        offset = 0
        for _ in range(self.loops):
            source = VideoFileSource(self.path)
            last = -1
            for frame in source:
                frame.index += offset
                frame.time_s = frame.index / self.fps
                last = frame.index
                if frame.index % 150 == 0:
                    self.samples.append((frame.time_s, rss_mb()))
                yield frame
            source.close()
            offset = last + 1

    def close(self) -> None:
        pass


@dataclass
class PipelineRun:
    status: RecordingStatus  # frames read and detected, strokes, seconds per stage of the loop
    elapsed_s: float
    # How many detected frames the network ran over the whole board ("full"), over parts
    # ("part"), or not at all ("none").
    work: dict[str, int]
    # Of the detection stage, the board's rectification and the network's passes.
    seconds_by_step: dict[str, float]

    @property
    def fps(self) -> float:
        return self.status.frames_read / self.elapsed_s

    def ms_per_frame(self) -> str:
        """Where a frame's time went, in ms per frame read."""
        per = 1000.0 / max(1, self.status.frames_read)
        parts = []
        for stage, seconds in self.status.seconds_by_stage.items():
            text = f"{stage} {seconds * per:.2f}"
            if stage == "detection" and self.seconds_by_step:
                steps = ", ".join(f"{step} {s * per:.2f}" for step, s in self.seconds_by_step.items())
                text += f" (of which {steps})"
            parts.append(text)
        return "; ".join(parts)


def run_pipeline(source: object, camera: object | None = None) -> PipelineRun:
    """The whole pipeline over `source`, timed."""
    from vision.commands.score import make_detector
    from vision.events import MatchRecorder, SeatAssigner
    from vision.pipeline import Pipeline
    from vision.track import Tracker

    if camera is None:
        pipeline = Pipeline(MatchRecorder(SeatAssigner()), make_detector("auto"), Tracker())
    else:  # the rendered video's own camera instead of calibration (and no camera monitor)
        pipeline = Pipeline(
            MatchRecorder(SeatAssigner()),
            make_detector("auto"),
            Tracker(),
            calibrate=lambda image: camera,
            watch_camera=False,
        )
    start = time.perf_counter()
    status = pipeline.run(source)  # type: ignore[arg-type]
    elapsed = time.perf_counter() - start
    detector = getattr(pipeline.detector, "detector", pipeline.detector)  # inside changed_part's
    return PipelineRun(
        status,
        elapsed,
        getattr(pipeline.detector, "work_counts", {}),
        dict(getattr(detector, "seconds_by_step", {})),
    )


def make_video(directory: Path, seed: int, seconds: float) -> tuple[Path, dict]:
    """The first `seconds` of a simulated match rendered at 1920x1080, 30 fps, H.264."""
    from samples.match import simulate_match
    from samples.render.video import render_video
    from samples.timeline import Timeline

    timeline = simulate_match(seed, boards=1).timeline
    n = min(timeline.num_samples, int(seconds * timeline.fps) * timeline.oversample)
    cut = Timeline(
        timeline.sample_rate,
        timeline.oversample,
        timeline.ids,
        timeline.classes,
        timeline.xy_mm[:n],
        timeline.state[:n],
        timeline.pocket_of[:n],
        timeline.hands[:n],
        timeline.radius_mm,
    )
    path = directory / f"bench-{seed}-1080p30.mp4"
    truth = render_video(cut, path, seed=seed, size=(1920, 1080))
    return path, truth


def calibration_available() -> bool:
    try:
        import calibration.calibrate  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--video", type=Path, default=None, help="a 1080p30 H.264 file (default: render one)")
    parser.add_argument("--loops", type=int, default=3, help="plays of the file for the memory test")
    parser.add_argument("--seed", type=int, default=9001, help="seed of the rendered video")
    parser.add_argument("--seconds", type=float, default=40.0, help="length of the rendered video")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        camera = None
        if args.video is not None:
            video = args.video
        else:
            video, truth = make_video(Path(tmp), args.seed, args.seconds)
            if not calibration_available():
                from calibration.camera import Calibration

                camera = Calibration.from_dict(truth["cameras"][0]["calibration"])
                print("calibration.calibrate is not available: the rendered camera stands in (no monitor)")
        first = VideoFileSource(video)
        size = f"{first.size[0]}x{first.size[1]}"
        print(f"video: {video} {size} @ {first.fps:.2f} fps, {first.frame_count} frames")
        first.close()
        pyav_fps, frames = decode_fps_pyav(video)
        opencv_fps = decode_fps_opencv(video)
        decode = max(pyav_fps, opencv_fps)
        run = run_pipeline(VideoFileSource(video), camera)
        print(f"decode only: PyAV {pyav_fps:.1f} fps, OpenCV {opencv_fps:.1f} fps (reference {decode:.1f})")
        print(
            f"pipeline:    {run.fps:.1f} fps ({run.status.frames_detected}/{frames} frames detected, "
            f"{run.status.strokes} strokes) = {run.fps / decode:.0%} of decode"
        )
        if run.work:
            print(
                f"network:     over the whole board on {run.work.get('full', 0)} frames, over the parts "
                f"that changed on {run.work.get('part', 0)}, not at all on {run.work.get('none', 0)}"
            )
        # The target (70% of decoding) leaves this much wall time a frame, decoding included.
        print(
            f"ms a frame:  {1000.0 / run.fps:.2f} in all, against {1000.0 / (TARGET_SHARE * decode):.2f} "
            f"at {TARGET_SHARE:.0%} of decode and {1000.0 / decode:.2f} to decode alone: {run.ms_per_frame()}"
        )
        looped = LoopedSource(video, args.loops)
        run_pipeline(looped, camera)
        samples = np.array(looped.samples)
        if len(samples) >= 4:
            half = samples[len(samples) // 2 :]  # after warm-up: models, maps, first calibration
            slope = float(np.polyfit(half[:, 0], half[:, 1], 1)[0]) if len(half) >= 2 else 0.0
            hour = float(samples[-1, 1]) + max(0.0, slope) * (3600.0 - float(samples[-1, 0]))
            print(
                f"memory:      RSS {samples[0, 1]:.0f} -> {samples[-1, 1]:.0f} MB "
                f"over {samples[-1, 0]:.0f} s "
                f"of video; growth {slope * 60:.2f} MB/min; one hour extrapolated {hour:.0f} MB; "
                f"peak RSS {peak_rss_mb():.0f} MB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
