"""Benchmark of the match simulator: `python -m samples.bench [--boards N] [--seed S]`.

Simulates N single boards (seeds S..S+N-1) and prints, per board and on average: seconds of
physics, seconds of the whole simulation (players, physics, choreography, rules engine,
timeline), strokes per board and the length of video the board makes; and the ratio of
video time to simulation time, all measured in this one run.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from samples.match import simulate_match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m samples.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8, help="boards to simulate (one per seed)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--skill", type=float, default=0.6)
    args = parser.parse_args(argv)
    rows = []
    print("seed  strokes  physics_s  total_s  video_s  pocketed  overboard", file=sys.stdout)
    for seed in range(args.seed, args.seed + args.boards):
        sim = simulate_match(seed, boards=1, fps=args.fps, skill=args.skill)
        video_s = sim.timeline.num_frames / sim.timeline.fps
        strokes = len(sim.strokes)
        pocketed = sum(len(s.pocketed) for s in sim.strokes)
        overboard = sum(len(s.overboard) for s in sim.strokes)
        t = sim.timings
        rows.append((strokes, t["physics_s"], t["total_s"], video_s, pocketed, overboard))
        print(
            f"{seed:4d}  {strokes:7d}  {t['physics_s']:9.3f}  {t['total_s']:7.3f}  {video_s:7.1f}"
            f"  {pocketed:8d}  {overboard:9d}"
        )
    data = np.array(rows, dtype=float)
    mean = data.mean(axis=0)
    print(f"mean  {mean[0]:7.1f}  {mean[1]:9.3f}  {mean[2]:7.3f}  {mean[3]:7.1f}", end="")
    print(f"  {mean[4]:8.1f}  {mean[5]:9.2f}")
    print(f"physics per stroke: {1000 * data[:, 1].sum() / data[:, 0].sum():.1f} ms")
    print(f"video seconds per simulated second: {data[:, 3].sum() / data[:, 2].sum():.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
