"""A small hand-made timeline: the renderer's own test and benchmark input.

It needs no physics: the break arrangement, a hand placing the striker and flicking it,
the striker running up the board, one coin knocked into the NE pocket. Real matches come
from samples.match; this keeps the renderer testable on its own.
"""

from __future__ import annotations

import math

import numpy as np

from calibration import geometry as g
from samples.timeline import HandPose, ObjectState, Timeline

IDS = tuple([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + ["Q", "S"])
CLASSES = tuple(["white"] * 9 + ["black"] * 9 + ["queen", "striker"])


def toy_timeline(seconds: float = 4.0, fps: float = 30.0, oversample: int = 4, seed: int = 0) -> Timeline:
    rng = np.random.default_rng(seed)
    rate = fps * oversample
    t_count = int(round(seconds * rate))
    n = len(IDS)
    xy = np.full((t_count, n, 2), np.nan, np.float32)
    state = np.full((t_count, n), int(ObjectState.IN_POCKET), np.uint8)
    pocket_of = np.full((t_count, n), -1, np.int8)
    whites, blacks = iter(range(9)), iter(range(9, 18))
    for item, pos in g.break_arrangement("S"):
        i = 18 if item == "queen" else next(whites) if item == "white" else next(blacks)
        xy[:, i] = pos
        state[:, i] = int(ObjectState.ON_BOARD)
    striker = n - 1
    inward_min, inward_max, _ = g.striker_legal_range("S")
    start = g.seat_to_board("S", float(rng.uniform(-100, 100)), (inward_min + inward_max) / 2)
    times = np.arange(t_count) / rate
    strike_t = seconds * 0.35
    hands: list[tuple[HandPose, ...]] = []
    skin = int(rng.integers(4))
    # Striker: placed, then runs north decelerating (1.5 m/s, 2 m/s^2) and stops 560 mm on.
    for k, t in enumerate(times):
        if t < strike_t:
            pos = start
            hand = HandPose(
                "S",
                (float(start[0]), float(start[1] - g.STRIKER_RADIUS_MM)),
                math.pi / 2,
                "strike",
                0.2,
                skin,
            )
            hands.append((hand,))
        else:
            dt = min(t - strike_t, 0.75)
            pos = start + np.array([0.0, 1500.0 * dt - 1000.0 * dt * dt])
            hands.append(())
        xy[k, striker] = pos
        state[k, striker] = int(ObjectState.ON_BOARD)
    # One coin (W1) slides to the NE pocket after the strike, falls and is gone.
    coin = 0
    origin = xy[0, coin].astype(float)
    target = g.pocket_centre("NE")
    travel = float(np.linalg.norm(target - origin))
    direction = (target - origin) / travel
    for k, t in enumerate(times):
        if t <= strike_t + 0.2:
            continue
        dt = t - strike_t - 0.2
        s = min(travel, 1500.0 * dt)
        xy[k, coin] = origin + direction * s
        if s >= travel:
            fall_t = dt - travel / 1500.0
            if fall_t < 0.3:
                state[k, coin] = int(ObjectState.FALLING)
            else:
                state[k, coin] = int(ObjectState.IN_POCKET)
                xy[k, coin] = np.nan
            pocket_of[k, coin] = g.POCKETS.index("NE")
    radius = np.array([g.STRIKER_RADIUS_MM if c == "striker" else g.COIN_RADIUS_MM for c in CLASSES])
    return Timeline(rate, oversample, IDS, CLASSES, xy, state, pocket_of, tuple(hands), radius)
