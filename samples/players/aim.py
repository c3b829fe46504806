"""Shot choice: which coin to send into which pocket, from where, how hard, how well.

A player looks at every (target, pocket, striker position) on the base lines, keeps the
direct shots whose paths are clear (the striker to the contact point, the coin to the
pocket), prefers thin cut angles and short distances, and plays the best one with noise
that the skill sets. The speed is worked out backwards from the pocket: the coin should
reach the hole slowly enough to drop (see PhysicsParams.drop_time_s), the collision's
momentum transfer (mass ratio and restitution) gives the striker's speed at contact, and
friction over the striker's path gives the speed it must leave the base line with.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np

from calibration.geometry import (
    HALF_SURFACE_MM,
    POCKET_RADIUS_MM,
    STRIKER_RADIUS_MM,
    Seat,
    pocket_centres,
    seat_normal,
    striker_legal_range,
)
from samples.physics.params import PhysicsParams
from samples.physics.pieces import PieceSet
from samples.players.placement import is_free, is_legal, legal_positions

# How fast the coin should arrive at the pocket (mm/s): slow enough to drop, fast enough
# to get there despite a small error in speed.
ARRIVAL_SPEED_MM_S = 450.0
MAX_STRIKE_MM_S = 6500.0
MIN_STRIKE_MM_S = 400.0
# Cuts thinner than this are not attempted (cos of ~70 degrees).
MIN_CUT_COS = 0.34
# A shot must go forward, away from the player's own frame edge (law 130 positions the
# striker; playing backwards needs a thumb shot, which these players do not make).
MIN_FORWARD = 0.15
_ALONG_SAMPLES = 25


@dataclass(frozen=True)
class Shot:
    striker_xy: np.ndarray  # where the striker is placed
    velocity: np.ndarray  # (2,) mm/s the striker leaves with, noise included
    target: int | None  # the piece aimed at (None: a safety or a blind shot)
    pocket: int | None  # index into geometry.POCKETS


@dataclass(frozen=True)
class Skill:
    """0 (beginner) .. 1 (champion): the spread of the aim and of the speed."""

    level: float = 0.6

    @property
    def angle_sigma_rad(self) -> float:
        return np.radians(0.25 + (1.0 - self.level) * 2.5)

    @property
    def speed_sigma(self) -> float:
        return 0.04 + (1.0 - self.level) * 0.16


@lru_cache(maxsize=8)
def _candidate_starts(seat: Seat) -> tuple[np.ndarray, ...]:
    """Legal striker spots spread along the seat's base lines (they never change)."""
    lo, hi, along_max = striker_legal_range(seat)
    alongs = np.linspace(-along_max, along_max, _ALONG_SAMPLES)
    return tuple(p for p in legal_positions(seat, alongs, (lo + hi) / 2.0) if is_legal(seat, p))


def _path_clear(start: np.ndarray, end: np.ndarray, radius: float, xy: np.ndarray, radii: np.ndarray) -> bool:
    """True when a disc of `radius` can slide from start to end without meeting any other."""
    if len(xy) == 0:
        return True
    seg = end - start
    length2 = float(seg @ seg)
    if length2 == 0.0:
        return True
    t = np.clip(((xy - start) @ seg) / length2, 0.0, 1.0)
    closest = start + t[:, None] * seg
    gaps = np.linalg.norm(xy - closest, axis=1) - (radii + radius)
    return bool(np.all(gaps > 0.5))


def _noisy(velocity: np.ndarray, skill: Skill, rng: np.random.Generator) -> np.ndarray:
    angle = rng.normal(0.0, skill.angle_sigma_rad)
    scale = max(0.3, 1.0 + rng.normal(0.0, skill.speed_sigma))
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * velocity[0] - s * velocity[1], s * velocity[0] + c * velocity[1]]) * scale


def _bank_point(
    start: np.ndarray, ghost: np.ndarray, axis: int, side: float, limit: float, params: PhysicsParams
) -> np.ndarray | None:
    """Where on the cushion at coordinate[axis] = side * limit the striker must bounce to
    reach `ghost`, allowing for the cushion's restitution (normal speed scaled by e, the
    tangential by the slide loss)."""
    other = 1 - axis
    a = side * limit - start[axis]
    g = side * limit - ghost[axis]
    if a * side <= 0.0 or g * side <= 0.0:
        return None
    ratio = params.cushion_tangent_keep / params.cushion_restitution
    along = (abs(a) * ghost[other] + ratio * abs(g) * start[other]) / (abs(a) + ratio * abs(g))
    point = np.zeros(2)
    point[axis] = side * limit
    point[other] = along
    return point


def _cushion_factor(incoming: np.ndarray, axis: int, params: PhysicsParams) -> float:
    """Speed kept through a cushion bounce for a unit incoming direction."""
    normal = incoming[axis]
    tangent = incoming[1 - axis]
    return float(np.hypot(params.cushion_restitution * normal, params.cushion_tangent_keep * tangent))


def plan_shot(
    pieces: PieceSet,
    xy_mm: np.ndarray,
    on_board: np.ndarray,
    seat: Seat,
    targets: list[int],
    skill: Skill,
    rng: np.random.Generator,
    params: PhysicsParams,
) -> tuple[int | None, int | None, np.ndarray, np.ndarray]:
    """The best clear shot: (target, pocket, striker position, ideal velocity).

    Direct shots first; when none is clear, shots off one cushion (how players reach coins
    behind their base line). Without any: a firm shot at the nearest target (or the board
    centre), which at least moves coins about; the rules judge whatever happens.
    """
    s = pieces.striker
    others = [i for i in range(pieces.count) if on_board[i] and i != s]
    decel = params.deceleration_mm_s2
    starts = _candidate_starts(seat)
    free = [p for p in starts if is_free(p, STRIKER_RADIUS_MM, xy_mm[others], pieces.radius_mm[others])]
    forward = -seat_normal(seat)
    holes = pocket_centres()
    gain = (1.0 + params.striker_coin_restitution) * pieces.mass_g[s] / (pieces.mass_g[s] + pieces.mass_g[0])
    limit = HALF_SURFACE_MM - STRIKER_RADIUS_MM
    best: tuple[float, int, int, np.ndarray, np.ndarray] | None = None
    for banks in (False, True):
        for t in targets:
            if not on_board[t]:
                continue
            rest = [i for i in others if i != t]
            rest_xy, rest_r = xy_mm[rest], pieces.radius_mm[rest]
            for k, hole in enumerate(holes):
                to_hole = hole - xy_mm[t]
                coin_run = float(np.linalg.norm(to_hole)) - POCKET_RADIUS_MM / 2.0
                u = to_hole / np.linalg.norm(to_hole)
                if not _path_clear(
                    xy_mm[t], hole - u * POCKET_RADIUS_MM, pieces.radius_mm[t], rest_xy, rest_r
                ):
                    continue
                ghost = xy_mm[t] - u * (pieces.radius_mm[t] + STRIKER_RADIUS_MM)
                coin_speed = np.sqrt(ARRIVAL_SPEED_MM_S**2 + 2.0 * decel * coin_run)
                walls = [(axis, side) for axis in (0, 1) for side in (-1.0, 1.0)] if banks else [None]
                for start in free:
                    for wall in walls:
                        legs = [start, ghost]
                        if wall is not None:
                            point = _bank_point(start, ghost, wall[0], wall[1], limit, params)
                            if point is None:
                                continue
                            legs = [start, point, ghost]
                        first = legs[1] - legs[0]
                        if float(first @ forward) / max(float(np.linalg.norm(first)), 1e-9) < MIN_FORWARD:
                            continue
                        last = legs[-1] - legs[-2]
                        cut = float(last @ u) / max(float(np.linalg.norm(last)), 1e-9)
                        if cut < MIN_CUT_COS:
                            continue
                        if not all(
                            _path_clear(a, b, STRIKER_RADIUS_MM, rest_xy, rest_r) for a, b in pairwise(legs)
                        ):
                            continue
                        speed = coin_speed / (gain * cut)
                        run = 0.0
                        for a, b in reversed(list(pairwise(legs))):
                            length = float(np.linalg.norm(b - a))
                            speed = float(np.sqrt(speed**2 + 2.0 * decel * length))
                            run += length
                            if a is not start:  # a cushion bounce at `a` on the way to `b`
                                incoming = (a - legs[0]) / max(float(np.linalg.norm(a - legs[0])), 1e-9)
                                speed /= _cushion_factor(incoming, wall[0], params)
                        if speed > MAX_STRIKE_MM_S:
                            continue
                        # Harder to pot: thin cuts, long runs, banks; plus a little taste.
                        score = (1.0 - cut) * 3.0 + (run + coin_run) / 700.0 + rng.uniform(0.0, 0.3)
                        if best is None or score < best[0]:
                            direction = first / np.linalg.norm(first)
                            best = (score, t, k, start, direction * max(speed, MIN_STRIKE_MM_S))
        if best is not None:
            return best[1], best[2], best[3], best[4]
    start = free[rng.integers(len(free))] if free else starts[len(starts) // 2]
    aims = [t for t in targets if on_board[t]]
    goal = min(aims, key=lambda t: float(np.linalg.norm(xy_mm[t] - start))) if aims else None
    point = xy_mm[goal] if goal is not None else np.zeros(2)
    direction = point - start
    direction /= np.linalg.norm(direction)
    if float(direction @ forward) < MIN_FORWARD:  # behind the player: straight up the board
        direction = forward
    return goal, None, start, direction * rng.uniform(1500.0, 3000.0)
