"""`python -m calibration.bench`: cold fit and movement check per 1080p frame, one core."""

from __future__ import annotations

import time

import cv2
import numpy as np

from calibration.calibrate import calibrate_image
from calibration.errors import CalibrationError
from calibration.monitor import BoardMonitor

SIZE = (1920, 1080)


def main() -> int:
    from samples.render.stills import render_still

    cv2.setNumThreads(1)
    fits, checks = [], []
    for seed in range(6, 200):
        image, _truth = render_still(seed, size=SIZE)
        try:
            start = time.perf_counter()
            result = calibrate_image(image)
            fits.append(time.perf_counter() - start)
        except CalibrationError:
            continue
        monitor = BoardMonitor(result.calibration, image)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        start = time.perf_counter()
        for _ in range(200):
            monitor.check(gray)
        checks.append((time.perf_counter() - start) / 200)
        if len(fits) >= 5:
            break
    print(f"1080p, one core, {len(fits)} stills")
    print(f"cold fit: median {1000 * np.median(fits):.1f} ms, max {1000 * np.max(fits):.1f} ms")
    print(f"movement check: median {1000 * np.median(checks):.3f} ms per frame")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
