"""`python -m calibration.bench [--seeds A-B]`: cold fit and movement check per 1080p frame, one core.

Renders 1920x1080 generator stills (random styles), times `calibrate_image` on each (the
best of a few runs) and the board monitor's per-frame check, on one core: the process is
pinned to a single CPU (so no library's threads can spread the work) and OpenCV held to one
thread. Times are CPU time of the process (what that core spends, however busy the machine
is with other work) and, for the fit, wall time too. Prints the median and the maximum.
"""

from __future__ import annotations

import argparse
import os
import time

import cv2
import numpy as np

from calibration.calibrate import calibrate_image
from calibration.errors import CalibrationError
from calibration.eval import parse_seeds
from calibration.monitor import BoardMonitor

SIZE = (1920, 1080)
RUNS = 3  # timings per still; the fastest is kept
CHECKS = 200  # monitor checks timed per still


def main(argv: list[str] | None = None) -> int:
    from samples.render.stills import render_still

    parser = argparse.ArgumentParser(prog="python -m calibration.bench")
    parser.add_argument("--seeds", default="6-25", help="stills to time (default 6-25)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    fits, walls, checks, rejected = [], [], [], 0
    for seed in parse_seeds(args.seeds):
        image, _truth = render_still(seed, size=SIZE)
        best, best_wall, result = np.inf, np.inf, None
        for _ in range(RUNS):
            start, start_wall = time.process_time(), time.perf_counter()
            try:
                result = calibrate_image(image)
            except CalibrationError:
                result = None
            best = min(best, time.process_time() - start)
            best_wall = min(best_wall, time.perf_counter() - start_wall)
        fits.append(best)
        walls.append(best_wall)
        if result is None:
            rejected += 1
            continue
        monitor = BoardMonitor(result.calibration, image)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        start = time.process_time()
        for _ in range(CHECKS):
            monitor.check(gray)
        checks.append((time.process_time() - start) / CHECKS)
    fits_ms, checks_ms = 1000 * np.array(fits), 1000 * np.array(checks)
    print(
        f"{SIZE[0]}x{SIZE[1]}, one core (pinned, cv2.setNumThreads(1)), "
        f"{len(fits)} stills ({rejected} rejected)"
    )
    print(f"cold fit (CPU time): median {np.median(fits_ms):.1f} ms, max {np.max(fits_ms):.1f} ms")
    walls_ms = 1000 * np.array(walls)
    print(f"cold fit (wall time): median {np.median(walls_ms):.1f} ms, max {np.max(walls_ms):.1f} ms")
    if len(checks_ms):
        print(
            f"movement check (CPU time): median {np.median(checks_ms):.3f} ms, "
            f"max {np.max(checks_ms):.3f} ms per frame"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
