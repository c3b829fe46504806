"""Benchmark: score a 3-game match log of at least 600 strokes (target: under 50 ms).

    python -m rules.bench [--repeat 30]

Prints the best and median time of `score_log` (engine + report), of the engine alone
(`replay`), and their ratio, all measured in this one run on the same log.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from rules.engine import replay
from rules.log import MatchLog
from rules.random_play import random_log
from rules.score import score_log

TARGET_STROKES = 600
TARGET_MS = 50.0


def benchmark_log(target: int = TARGET_STROKES) -> tuple[int, MatchLog]:
    """The first seed whose random match runs three games and at least `target` strokes (up to
    5% more)."""
    for seed in range(1_000):
        log = random_log(seed, max_events=3 * target)
        strokes = sum(1 for event in log.events if event.type == "stroke")
        if target <= strokes <= target + target // 20 and len(score_log(log).games) == 3:
            return seed, log
    raise RuntimeError("no seed gave a 3-game match of that length")


def timings(run: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    seed, log = benchmark_log()
    strokes = sum(1 for event in log.events if event.type == "stroke")
    report = score_log(log)
    boards = sum(len(game.boards) for game in report.games)
    games = len(report.games)
    print(f"log: seed {seed}, {len(log.events)} events, {strokes} strokes, {games} games, {boards} boards")
    full = timings(lambda: score_log(log), args.repeat)
    engine = timings(lambda: replay(log), args.repeat)
    for name, times in (("score_log (engine + report)", full), ("replay (engine only)", engine)):
        print(f"{name:30s} best {min(times):7.2f} ms  median {statistics.median(times):7.2f} ms")
    print(f"report building / engine: {statistics.median(full) / statistics.median(engine):.2f}x")
    verdict = "meets" if statistics.median(full) < TARGET_MS else "MISSES"
    print(f"median score_log {verdict} the {TARGET_MS:.0f} ms target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
