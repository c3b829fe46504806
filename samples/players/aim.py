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
from samples.physics.vec import dot, norm
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


def _clear(
    starts: np.ndarray, ends: np.ndarray, radius: float, xy: np.ndarray, radii: np.ndarray
) -> np.ndarray:
    """(S,) True where a disc of `radius` can slide from starts[s] to ends[s] without
    meeting any of the discs at `xy` (one segment per row)."""
    if len(xy) == 0:
        return np.ones(len(starts), dtype=bool)
    seg = ends - starts
    length2 = np.maximum((seg * seg).sum(axis=1), 1e-12)
    t = np.clip(((xy[None] - starts[:, None]) * seg[:, None]).sum(axis=-1) / length2[:, None], 0.0, 1.0)
    closest = starts[:, None] + t[..., None] * seg[:, None]
    gaps = np.linalg.norm(xy[None] - closest, axis=-1) - (radii + radius)[None]
    return np.all(gaps > 0.5, axis=1)


def _noisy(velocity: np.ndarray, skill: Skill, rng: np.random.Generator) -> np.ndarray:
    angle = rng.normal(0.0, skill.angle_sigma_rad)
    scale = max(0.3, 1.0 + rng.normal(0.0, skill.speed_sigma))
    c, s = np.cos(angle), np.sin(angle)
    return np.array([c * velocity[0] - s * velocity[1], s * velocity[0] + c * velocity[1]]) * scale


def _bank_points(
    starts: np.ndarray, ghost: np.ndarray, axis: int, side: float, limit: float, params: PhysicsParams
) -> tuple[np.ndarray, np.ndarray]:
    """Where on the cushion at coordinate[axis] = side * limit the striker must bounce to
    go from each start to `ghost`, allowing for the cushion's restitution (normal speed
    scaled by e, the tangential by the slide loss); and where such a bounce exists."""
    other = 1 - axis
    a = side * limit - starts[:, axis]
    g = side * limit - ghost[axis]
    ok = (a * side > 0.0) & (g * side > 0.0)
    ratio = params.cushion_tangent_keep / params.cushion_restitution
    along = (np.abs(a) * ghost[other] + ratio * abs(g) * starts[:, other]) / (np.abs(a) + ratio * abs(g))
    points = np.empty_like(starts)
    points[:, axis] = side * limit
    points[:, other] = along
    return points, ok


def _cushion_factor(incoming: np.ndarray, axis: int, params: PhysicsParams) -> np.ndarray:
    """(S,) speed kept through a cushion bounce for unit incoming directions (S, 2)."""
    return np.hypot(
        params.cushion_restitution * incoming[:, axis], params.cushion_tangent_keep * incoming[:, 1 - axis]
    )


def _unit(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    length = np.maximum(np.linalg.norm(v, axis=-1), 1e-9)
    return v / length[..., None], length


@dataclass(frozen=True)
class _Pot:
    """One way to pot `target` into `pocket`: where the striker must meet it and how fast
    the coin must leave, plus the pieces that could be in the way."""

    target: int
    pocket: int
    ghost: np.ndarray  # the striker's centre at the moment of contact
    line: np.ndarray  # unit vector, coin to pocket
    coin_run: float
    coin_speed: float
    obstacles_xy: np.ndarray
    obstacles_r: np.ndarray


def _pots(
    pieces: PieceSet, xy_mm: np.ndarray, others: list[int], targets: list[int], decel: float
) -> list[_Pot]:
    """Every (target, pocket) whose coin path to the pocket is clear."""
    pots = []
    for t in targets:
        rest = [i for i in others if i != t]
        rest_xy, rest_r = xy_mm[rest], pieces.radius_mm[rest]
        for k, hole in enumerate(pocket_centres()):
            line, to_hole = _unit(hole - xy_mm[t])
            coin_end = (hole - line * POCKET_RADIUS_MM)[None]
            if not _clear(xy_mm[t][None], coin_end, pieces.radius_mm[t], rest_xy, rest_r)[0]:
                continue
            coin_run = float(to_hole) - POCKET_RADIUS_MM / 2.0
            ghost = xy_mm[t] - line * (pieces.radius_mm[t] + STRIKER_RADIUS_MM)
            speed = float(np.sqrt(ARRIVAL_SPEED_MM_S**2 + 2.0 * decel * coin_run))
            pots.append(_Pot(t, k, ghost, line, coin_run, speed, rest_xy, rest_r))
    return pots


def _routes(
    spots: np.ndarray, pot: _Pot, wall: tuple[int, float] | None, forward: np.ndarray, gain: float,
    params: PhysicsParams,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """For each striker spot, the difficulty of playing `pot` straight (wall None) or off
    one cushion, and the strike velocity it needs; difficulty inf where it cannot be done."""
    n = len(spots)
    ghost = np.repeat(pot.ghost[None], n, 0)
    if wall is None:
        turn, ok = ghost, np.ones(n, dtype=bool)
    else:
        limit = HALF_SURFACE_MM - STRIKER_RADIUS_MM
        turn, ok = _bank_points(spots, pot.ghost, wall[0], wall[1], limit, params)
    first, run1 = _unit(turn - spots)
    last, run2 = _unit(ghost - turn) if wall is not None else (first, np.zeros(n))
    cut = dot(last, pot.line)
    ok &= (dot(first, forward) >= MIN_FORWARD) & (cut >= MIN_CUT_COS)
    for a, b in [(spots, turn)] + ([(turn, ghost)] if wall is not None else []):
        if ok.any():
            ok[ok] = _clear(a[ok], b[ok], STRIKER_RADIUS_MM, pot.obstacles_xy, pot.obstacles_r)
    # Backwards from the pocket: the coin's speed, the striker's at contact (momentum
    # transfer along the line of centres), through the cushion, back to the base line.
    speed = np.sqrt(
        (pot.coin_speed / (gain * np.maximum(cut, 1e-3))) ** 2 + 2.0 * params.deceleration_mm_s2 * run2
    )
    if wall is not None:
        speed = speed / _cushion_factor(first, wall[0], params)
    speed = np.sqrt(speed**2 + 2.0 * params.deceleration_mm_s2 * run1)
    ok &= speed <= MAX_STRIKE_MM_S
    # Harder to pot: thin cuts and long runs.
    difficulty = (1.0 - cut) * 3.0 + (run1 + run2 + pot.coin_run) / 700.0
    return np.where(ok, difficulty, np.inf), first * np.maximum(speed, MIN_STRIKE_MM_S)[:, None]


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
    starts = _candidate_starts(seat)
    free = [p for p in starts if is_free(p, STRIKER_RADIUS_MM, xy_mm[others], pieces.radius_mm[others])]
    forward = -seat_normal(seat)
    gain = (1.0 + params.striker_coin_restitution) * pieces.mass_g[s] / (pieces.mass_g[s] + pieces.mass_g[0])
    spots = np.array(free).reshape(-1, 2)
    aims = [t for t in targets if on_board[t]]
    pots = _pots(pieces, xy_mm, others, aims, params.deceleration_mm_s2) if len(spots) else []
    cushions: list[tuple[int, float] | None] = [(axis, side) for axis in (0, 1) for side in (-1.0, 1.0)]
    for walls in ([None], cushions):
        best: tuple[float, _Pot, np.ndarray, np.ndarray] | None = None
        for pot in pots:
            for wall in walls:
                difficulty, velocity = _routes(spots, pot, wall, forward, gain, params)
                # A little taste per player: equal shots are not always chosen alike.
                score = difficulty + rng.uniform(0.0, 0.3, len(spots))
                j = int(np.argmin(score))
                if np.isfinite(score[j]) and (best is None or score[j] < best[0]):
                    best = (float(score[j]), pot, spots[j], velocity[j])
        if best is not None:
            return best[1].target, best[1].pocket, best[2], best[3]
    start = free[rng.integers(len(free))] if free else starts[len(starts) // 2]
    goal = min(aims, key=lambda t: norm(xy_mm[t] - start)) if aims else None
    point = xy_mm[goal] if goal is not None else np.zeros(2)
    direction = point - start
    direction /= norm(direction)
    if float(dot(direction, forward)) < MIN_FORWARD:  # behind the player: straight up the board
        direction = forward
    return goal, None, start, direction * rng.uniform(1500.0, 3000.0)
