"""Per-frame cost of detection + tracking on one core, beside the decode of the same frames.

    python -m vision.detect.bench [VIDEO] [--frames 300]

Decodes the first `--frames` frames of the video (default: the sample match video) once to
time decoding alone, then times the detector (ONNX, one thread) and the tracker on those
same decoded frames, and prints both per frame and their ratio, measured in one run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from calibration.camera import Calibration
from vision.io import open_source
from vision.track.tracker import Tracker

DEFAULT_VIDEO = Path(__file__).resolve().parents[2] / "samples" / "sample-board.mp4"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("video", type=Path, nargs="?", default=DEFAULT_VIDEO)
    parser.add_argument("--truth", type=Path, help="for the calibration (default: VIDEO's .truth.json)")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--model", help="an ONNX model file (default: the committed one)")
    args = parser.parse_args(argv)
    import cv2

    from vision.detect.onnx_detector import OnnxDetector

    cv2.setNumThreads(1)
    truth_path = args.truth or args.video.with_name(args.video.name.replace(".mp4", ".truth.json"))
    truth = json.loads(truth_path.read_text())
    calibration = Calibration.from_dict(truth["cameras"][0]["calibration"])

    frames = []
    start = time.perf_counter()
    source = open_source(args.video)
    try:
        for frame in source:
            frames.append((frame.index, frame.time_s, frame.bgr()))
            if len(frames) >= args.frames:
                break
    finally:
        source.close()
    decode_s = time.perf_counter() - start

    detector = OnnxDetector(model_path=args.model) if args.model else OnnxDetector()
    detector.detect(frames[0][2], calibration)  # builds the rectification maps once
    tracker = Tracker()
    detect_times, track_times = [], []
    for index, time_s, image in frames:
        t0 = time.perf_counter()
        found = detector.detect(image, calibration)
        t1 = time.perf_counter()
        tracker.update(found, index, time_s)
        t2 = time.perf_counter()
        detect_times.append(t1 - t0)
        track_times.append(t2 - t1)
    n = len(frames)
    total = np.array(detect_times) + np.array(track_times)
    figures = {
        "video": str(args.video),
        "frames": n,
        "decode_ms_per_frame": round(1000 * decode_s / n, 2),
        "detect_ms_per_frame": round(1000 * float(np.mean(detect_times)), 2),
        "track_ms_per_frame": round(1000 * float(np.mean(track_times)), 3),
        "detect_and_track_ms_per_frame": round(1000 * float(np.mean(total)), 2),
        "detect_and_track_p95_ms": round(1000 * float(np.percentile(total, 95)), 2),
        "ratio_to_decode": round(float(np.mean(total)) / (decode_s / n), 2),
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
