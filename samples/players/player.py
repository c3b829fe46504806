"""A simulated player: sits at a seat, places the striker, aims, strikes, breaks.

What the player may aim at (own colour, the queen) comes from the rules engine through the
caller; the player only turns it into a striker position and a velocity.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.geometry import STRIKER_RADIUS_MM, Seat, striker_legal_range
from samples.physics.params import PhysicsParams
from samples.physics.pieces import PieceSet
from samples.physics.vec import norm
from samples.players.aim import Shot, Skill, _noisy, plan_shot
from samples.players.placement import illegal_placement, is_free, is_legal, legal_placement

# The break (law 41 arrangement): a firm straight shot at the pack, 4.5 to 6.5 m/s.
BREAK_SPEED_MM_S = (4500.0, 6500.0)


@dataclass(frozen=True)
class Player:
    name: str
    seat: Seat
    skill: Skill = field(default_factory=Skill)
    illegal_placement_rate: float = 0.0  # chance a stroke is taken from an illegal position
    skin: int = 0  # the renderer's skin tone index for this player's hands


@dataclass(frozen=True)
class PlannedStroke:
    shot: Shot
    legal_position: bool  # law 130 measured by calibration.geometry at the chosen spot


def _others(pieces: PieceSet, xy_mm: np.ndarray, on_board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep = [i for i in range(pieces.count) if on_board[i] and i != pieces.striker]
    return xy_mm[keep], pieces.radius_mm[keep]


def _placement(
    player: Player,
    preferred: np.ndarray,
    pieces: PieceSet,
    xy_mm: np.ndarray,
    on_board: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    others_xy, others_r = _others(pieces, xy_mm, on_board)
    if rng.random() < player.illegal_placement_rate:
        return illegal_placement(player.seat, rng, others_xy, others_r)
    if is_legal(player.seat, preferred) and is_free(preferred, STRIKER_RADIUS_MM, others_xy, others_r):
        return preferred
    return legal_placement(player.seat, rng, others_xy, others_r)


def plan_stroke(
    player: Player,
    pieces: PieceSet,
    xy_mm: np.ndarray,
    on_board: np.ndarray,
    targets: list[int],
    rng: np.random.Generator,
    params: PhysicsParams,
) -> PlannedStroke:
    """Choose the shot, place the striker (legally unless this stroke is one of the
    player's careless ones) and add the skill's noise to the strike."""
    target, pocket, start, velocity = plan_shot(
        pieces, xy_mm, on_board, player.seat, targets, player.skill, rng, params
    )
    placed = _placement(player, start, pieces, xy_mm, on_board, rng)
    if not np.allclose(placed, start):
        # Re-aim from where the striker really is, at the same point the shot was aimed.
        aim_point = start + velocity / max(norm(velocity), 1e-9) * 200.0
        direction = aim_point - placed
        velocity = direction / norm(direction) * norm(velocity)
    shot = Shot(placed, _noisy(velocity, player.skill, rng), target, pocket)
    return PlannedStroke(shot, is_legal(player.seat, placed))


def plan_break(
    player: Player, pieces: PieceSet, xy_mm: np.ndarray, on_board: np.ndarray, rng: np.random.Generator
) -> PlannedStroke:
    """The break: the striker near the middle of the base line, struck hard at the pack."""
    _, _, along_max = striker_legal_range(player.seat)
    others_xy, others_r = _others(pieces, xy_mm, on_board)
    start = legal_placement(
        player.seat, rng, others_xy, others_r, along=float(rng.uniform(-0.4, 0.4) * along_max)
    )
    if rng.random() < player.illegal_placement_rate:
        start = illegal_placement(player.seat, rng, others_xy, others_r)
    aim = rng.normal(0.0, 6.0, size=2)  # at the queen, give or take a coin's width
    direction = (aim - start) / norm(aim - start)
    speed = rng.uniform(*BREAK_SPEED_MM_S)
    shot = Shot(start, _noisy(direction * speed, player.skill, rng), pieces.queen, None)
    return PlannedStroke(shot, is_legal(player.seat, start))
