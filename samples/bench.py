"""Benchmark of the match simulator: `python -m samples.bench [--boards N] [--seed S]`.

Simulates N single boards (seeds S..S+N-1) and prints, per board and on average: seconds of
physics, seconds of the whole simulation (wall clock, and CPU time of this process, which a
busy machine inflates less) (players, physics, choreography, rules engine,
timeline), strokes per board and the length of video the board makes; and the ratio of
video time to simulation time, all measured in this one run.
"""

from __future__ import annotations

import argparse

import numpy as np

from samples.match import simulate_match


def _line(label: str, row: tuple) -> str:
    strokes, phys, total, cpu_phys, cpu_total, video, pocketed, overboard = row
    return (
        f"{label:>4}  {strokes:7.1f}  {phys:9.3f}  {total:7.3f}  {cpu_phys:8.3f}  {cpu_total:9.3f}"
        f"  {video:7.1f}  {pocketed:8.1f}  {overboard:9.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m samples.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8, help="boards to simulate (one per seed)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--skill", type=float, default=0.6)
    args = parser.parse_args(argv)
    rows = []
    print("seed  strokes  physics_s  total_s  cpu_phys  cpu_total  video_s  pocketed  overboard")
    for seed in range(args.seed, args.seed + args.boards):
        sim = simulate_match(seed, boards=1, fps=args.fps, skill=args.skill)
        video_s = sim.timeline.num_frames / sim.timeline.fps
        strokes = len(sim.strokes)
        pocketed = sum(len(s.pocketed) for s in sim.strokes)
        overboard = sum(len(s.overboard) for s in sim.strokes)
        t = sim.timings
        row = (
            strokes,
            t["physics_s"],
            t["total_s"],
            t["physics_cpu_s"],
            t["total_cpu_s"],
            video_s,
            pocketed,
            overboard,
        )
        rows.append(row)
        print(_line(f"{seed:4d}", row))
    data = np.array(rows, dtype=float)
    mean = data.mean(axis=0)
    print(_line("mean", tuple(mean)))
    print(f"physics per stroke: {1000 * data[:, 1].sum() / data[:, 0].sum():.1f} ms wall, "
          f"{1000 * data[:, 3].sum() / data[:, 0].sum():.1f} ms CPU")  # fmt: skip
    print(f"video seconds per simulated second (wall): {data[:, 5].sum() / data[:, 2].sum():.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
