"""Calibration accuracy on generator stills: `python -m calibration.eval --seeds A-B [--style S]`.

For each seed, renders a still (random style unless `--style` names one; random pose,
distortion, coins, hands), calibrates it and measures the error against the truth camera
over a grid spread across the whole playing surface (board mm, up to the four-fold
symmetry: S is a convention). Reports the success rate, wrong calibrations accepted
(median error > 5 mm), the median and 95th percentile of the error pooled over every grid
point of every accepted still, the fit time, and all of it per style, with the rejection
reasons.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from calibration import geometry as g
from calibration.calibrate import calibrate_image
from calibration.camera import Calibration
from calibration.errors import CalibrationError

WRONG_MM = 5.0
GRID_STEPS = 15
GRID_HALF_MM = g.HALF_SURFACE_MM - 20.0  # the grid reaches to 20 mm from the surface's edges
GRID = np.array(
    [
        [x, y]
        for x in np.linspace(-GRID_HALF_MM, GRID_HALF_MM, GRID_STEPS)
        for y in np.linspace(-GRID_HALF_MM, GRID_HALF_MM, GRID_STEPS)
    ]
)


def surface_error_mm(found: Calibration, truth: Calibration) -> np.ndarray:
    """Per grid point, how far the fit puts the board point the truth sees there."""
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


@dataclass
class Tally:
    stills: int = 0
    errors: list[np.ndarray] = field(default_factory=list)
    wrong: int = 0
    rejected: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    times: list[float] = field(default_factory=list)

    @property
    def accepted(self) -> int:
        return self.stills - sum(self.rejected.values())

    def line(self, name: str) -> str:
        pooled = np.concatenate(self.errors) if self.errors else np.array([np.nan])
        rate = self.accepted / max(self.stills, 1)
        return (
            f"{name:<11} {self.accepted:>4}/{self.stills:<4} {rate:7.1%}  wrong {self.wrong}  "
            f"median {np.median(pooled):.2f} mm  95th {np.percentile(pooled, 95):.2f} mm"
        )


def _reason(message: str) -> str:
    """A rejection message without its figures, to count alike reasons together."""
    return message.split("(")[0].split(":")[0].strip()[:70]


def main(argv: list[str] | None = None) -> int:
    from samples.render.stills import render_still
    from samples.render.styles import style_names

    parser = argparse.ArgumentParser(prog="python -m calibration.eval")
    parser.add_argument("--seeds", default="1000-1299", help="inclusive range A-B (default 1000-1299)")
    parser.add_argument(
        "--style", default=None, choices=style_names(), help="render every still in this style"
    )
    parser.add_argument("--verbose", action="store_true", help="one line per still on stderr")
    args = parser.parse_args(argv)
    seeds = parse_seeds(args.seeds)
    overall = Tally()
    by_style: dict[str, Tally] = defaultdict(Tally)
    overrides = {} if args.style is None else {"style": args.style}
    for seed in seeds:
        image, truth = render_still(seed, **overrides)
        style = truth["style"]
        tallies = (overall, by_style[style])
        for t in tallies:
            t.stills += 1
        start = time.perf_counter()
        try:
            result = calibrate_image(image)
        except CalibrationError as exc:
            for t in tallies:
                t.rejected[_reason(str(exc))] += 1
            if args.verbose:
                print(f"{seed} {style}: rejected: {exc}", file=sys.stderr)
            continue
        elapsed = time.perf_counter() - start
        err = surface_error_mm(result.calibration, Calibration.from_dict(truth["camera"]))
        wrong = bool(np.median(err) > WRONG_MM)
        for t in tallies:
            t.times.append(elapsed)
            if wrong:
                t.wrong += 1
            else:
                t.errors.append(err)
        if args.verbose:
            flag = "  WRONG" if wrong else ""
            print(
                f"{seed} {style}: median {np.median(err):.2f} mm, 95th {np.percentile(err, 95):.2f} mm, "
                f"reported {result.reprojection_error_mm:.2f} mm, {1000 * elapsed:.0f} ms{flag}",
                file=sys.stderr,
            )
    print(f"stills: {len(seeds)} (seeds {args.seeds}, style {args.style or 'random'})")
    print(f"success rate: {overall.accepted / len(seeds):.1%} ({overall.accepted}/{len(seeds)})")
    print(f"wrong calibrations accepted (median > {WRONG_MM} mm): {overall.wrong}")
    pooled = np.concatenate(overall.errors) if overall.errors else np.array([np.nan])
    print(
        f"error over the surface ({len(GRID)} points per still, pooled): "
        f"median {np.median(pooled):.2f} mm, 95th {np.percentile(pooled, 95):.2f} mm"
    )
    if overall.times:
        print(f"fit time (this machine, as it runs): median {1000 * np.median(overall.times):.0f} ms")
    print("per style:")
    for name in sorted(by_style):
        print("  " + by_style[name].line(name))
    for why, count in sorted(overall.rejected.items(), key=lambda kv: -kv[1]):
        print(f"  rejected {count}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
