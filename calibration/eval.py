"""Calibration accuracy on generator stills: `python -m calibration.eval --seeds A-B`.

For each seed, renders a still (random style, pose, distortion, coins, hands), calibrates it
and measures the error against the truth camera over a grid spread across the whole playing
surface (board mm, up to the four-fold symmetry: S is a convention). Reports the success
rate, wrong calibrations accepted (median error > 5 mm), median and 95th percentile errors.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from calibration import geometry as g
from calibration.calibrate import calibrate_image
from calibration.camera import Calibration
from calibration.errors import CalibrationError

WRONG_MM = 5.0
GRID_STEPS = 15
GRID = np.array(
    [[x, y] for x in np.linspace(-350, 350, GRID_STEPS) for y in np.linspace(-350, 350, GRID_STEPS)]
)
assert np.all(np.abs(GRID) <= g.HALF_SURFACE_MM)


def surface_error_mm(found: Calibration, truth: Calibration) -> np.ndarray:
    seen = found.image_to_board(truth.board_to_image(GRID))
    best = None
    for quarter in range(4):
        c, s = np.cos(quarter * np.pi / 2), np.sin(quarter * np.pi / 2)
        err = np.linalg.norm(seen - GRID @ np.array([[c, s], [-s, c]]), axis=1)
        if best is None or np.median(err) < np.median(best):
            best = err
    assert best is not None
    return best


def parse_seeds(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> int:
    from samples.render.stills import render_still

    parser = argparse.ArgumentParser(prog="python -m calibration.eval")
    parser.add_argument("--seeds", default="1000-1299", help="inclusive range A-B (default 1000-1299)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    errors, failures, wrong, times = [], [], 0, []
    seeds = parse_seeds(args.seeds)
    for seed in seeds:
        image, truth = render_still(seed)
        start = time.perf_counter()
        try:
            result = calibrate_image(image)
        except CalibrationError as exc:
            failures.append((seed, truth["style"], str(exc)))
            if args.verbose:
                print(f"{seed} {truth['style']}: rejected: {exc}", file=sys.stderr)
            continue
        times.append(time.perf_counter() - start)
        err = surface_error_mm(result.calibration, Calibration.from_dict(truth["camera"]))
        if np.median(err) > WRONG_MM:
            wrong += 1
        else:
            errors.append(err)
        if args.verbose:
            print(f"{seed} {truth['style']}: median {np.median(err):.2f} mm", file=sys.stderr)
    n = len(seeds)
    accepted = n - len(failures)
    all_err = np.concatenate(errors) if errors else np.array([np.nan])
    print(f"stills: {n} (seeds {args.seeds})")
    print(f"success rate: {accepted / n:.1%} ({accepted}/{n})")
    print(f"wrong calibrations accepted (median > {WRONG_MM} mm): {wrong}")
    print(
        f"landmark error over the surface: median {np.median(all_err):.2f} mm, 95th {np.percentile(all_err, 95):.2f} mm"
    )
    if times:
        print(f"fit time: median {1000 * np.median(times):.0f} ms")
    reasons: dict[str, int] = {}
    for _seed, _style, why in failures:
        key = why.split("(")[0].split(":")[0][:60]
        reasons[key] = reasons.get(key, 0) + 1
    for why, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print(f"  rejected {count}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
