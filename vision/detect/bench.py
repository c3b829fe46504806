"""Per-frame cost of detection + tracking on one core, beside the decode of the same frames.

    python -m vision.detect.bench [VIDEO] [--frames 300] [--passes 3]

Decodes the first `--frames` frames of the video (default: the sample match video) once to
time decoding alone, then times the detector (ONNX, one thread) and the tracker on those
same decoded frames, and prints both per frame and their ratio, measured in one run; then,
on the same frames again, the detector's stages alone (rectification, evening out the light,
network, peaks).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from calibration.camera import Calibration
from vision.io import open_source
from vision.track.tracker import Tracker

T = TypeVar("T")
DEFAULT_VIDEO = Path(__file__).resolve().parents[2] / "samples" / "sample-board.mp4"


def _timed(work: Callable[[], T]) -> tuple[T, float, float]:
    """What `work` returns, its wall time and the process's CPU time over it (s)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("video", type=Path, nargs="?", default=DEFAULT_VIDEO)
    parser.add_argument("--truth", type=Path, help="for the calibration (default: VIDEO's .truth.json)")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--passes", type=int, default=3, help="repeat each measurement, keep the fastest")
    parser.add_argument("--model", help="an ONNX model file (default: the committed one)")
    args = parser.parse_args(argv)
    import cv2

    from vision.detect.centres import find_peaks
    from vision.detect.onnx_detector import OnnxDetector

    cv2.setNumThreads(1)
    truth_path = args.truth or args.video.with_name(args.video.name.replace(".mp4", ".truth.json"))
    truth = json.loads(truth_path.read_text())
    calibration = Calibration.from_dict(truth["cameras"][0]["calibration"])

    def decode() -> list[tuple[int, float, np.ndarray]]:
        decoded = []
        source = open_source(args.video)
        try:
            for frame in source:
                decoded.append((frame.index, frame.time_s, frame.bgr()))
                if len(decoded) >= args.frames:
                    break
        finally:
            source.close()
        return decoded

    # Each measurement is repeated and its fastest pass kept: on a shared machine the other
    # passes measure the neighbours. CPU time (all of this process's threads) is given beside
    # the wall time; decoding lets FFmpeg use its threads, so its CPU time is its cost.
    decode_passes = [_timed(decode) for _ in range(args.passes)]
    frames = decode_passes[0][0]
    n = len(frames)
    decode_wall, decode_cpu = min((wall, cpu) for _, wall, cpu in decode_passes)

    # Its detections go to a tracker.
    model = {"model_path": Path(args.model)} if args.model else {}
    detector = OnnxDetector(**model, for_tracking=True)
    detector.detect(frames[0][2], calibration)  # builds the rectification maps once

    def detect_and_track() -> tuple[np.ndarray, np.ndarray]:
        tracker = Tracker()
        times = np.zeros((n, 2))
        for k, (index, time_s, image) in enumerate(frames):
            t0 = time.perf_counter()
            found = detector.detect(image, calibration)
            t1 = time.perf_counter()
            tracker.update(found, index, time_s)
            times[k] = (t1 - t0, time.perf_counter() - t1)
        return times

    def stages() -> np.ndarray:
        times = np.zeros((n, 4))
        for k, (_, _, image) in enumerate(frames):
            t0 = time.perf_counter()
            view = detector.rectifier.view(image, calibration)
            t1 = time.perf_counter()
            evened = detector.network_input(view, whole=True)
            t2 = time.perf_counter()
            heat, offsets = detector.heat_maps(evened)
            t3 = time.perf_counter()
            find_peaks(heat, offsets, detector.stride, detector.peak_floor)
            times[k] = (t1 - t0, t2 - t1, t3 - t2, time.perf_counter() - t3)
        return times

    runs = [_timed(detect_and_track) for _ in range(args.passes)]
    per_frame, wall, cpu = min(runs, key=lambda run: run[1])
    stage_times = min((_timed(stages)[0] for _ in range(args.passes)), key=lambda t: float(t.sum()))
    total = per_frame.sum(axis=1)
    figures = {
        "video": str(args.video),
        "frames": n,
        "passes": args.passes,
        "load_average": round(os.getloadavg()[0], 2),
        "decode_ms_per_frame": round(1000 * decode_wall / n, 2),
        "decode_cpu_ms_per_frame": round(1000 * decode_cpu / n, 2),
        "detect_ms_per_frame": round(1000 * float(per_frame[:, 0].mean()), 2),
        "track_ms_per_frame": round(1000 * float(per_frame[:, 1].mean()), 3),
        "detect_and_track_ms_per_frame": round(1000 * wall / n, 2),
        "detect_and_track_cpu_ms_per_frame": round(1000 * cpu / n, 2),
        "detect_and_track_p95_ms": round(1000 * float(np.percentile(total, 95)), 2),
        "ratio_to_decode": round(wall / decode_wall, 2),
        "stages_ms_per_frame": {
            name: round(1000 * float(value), 2)
            for name, value in zip(
                ("rectify", "light", "network", "peaks"), stage_times.mean(axis=0), strict=True
            )
        },
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
