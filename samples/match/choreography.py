"""The pauses between strokes, acted out by hand: positioning the striker, putting pieces
back, setting up the board. Durations are drawn from `Pace` with the match's generator."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import STRIKER_RADIUS_MM, Seat, seat_along
from samples.match.builder import Hands, TimelineBuilder
from samples.match.hands import path, pose, rest_point
from samples.physics.simulate import Layout
from samples.physics.vec import norm
from samples.players.placement import is_free
from samples.timeline import ObjectState

Range = tuple[float, float]


@dataclass(frozen=True)
class Pace:
    """Seconds each gesture takes (drawn uniformly from each range). Real players take
    longer; synthetic footage keeps the gestures and drops the idle time."""

    reach: Range = (0.3, 0.5)  # a hand going to the striker where it lies
    carry: Range = (0.4, 0.7)  # the striker carried to the base line
    adjust: Range = (0.25, 0.6)  # sliding it along the line to the chosen spot
    aim: Range = (0.3, 0.8)  # still, fingers behind the striker
    follow: Range = (0.1, 0.2)  # the flick's follow-through
    withdraw: Range = (0.3, 0.5)  # the hand leaving the board
    settle: Range = (0.2, 0.5)  # everything at rest before anyone moves
    place: Range = (0.45, 0.7)  # one coin or the queen carried in and put down
    collect: Range = (0.08, 0.14)  # one piece taken off the board after a board ends
    arrange: Range = (0.12, 0.2)  # one piece set down for the break


def _n(builder: TimelineBuilder, rng: np.random.Generator, span: Range) -> int:
    return builder.seconds(float(rng.uniform(*span)))


def position_striker(
    builder: TimelineBuilder,
    seat: Seat,
    skin: int,
    spot: np.ndarray,
    direction: np.ndarray,
    rng: np.random.Generator,
    pace: Pace,
) -> None:
    """From wherever the striker is to `spot` on the player's base line, aimed along
    `direction`; the board is otherwise untouched."""
    s = builder.pieces.striker
    layout = builder.layout
    spot = np.asarray(spot, dtype=float)
    slide_from = spot + seat_along(seat) * rng.uniform(-12.0, 12.0)
    others = layout.on_board()
    others[s] = False
    if not is_free(slide_from, STRIKER_RADIUS_MM, layout.xy_mm[others], builder.pieces.radius_mm[others]):
        slide_from = spot  # no room to slide in: set it straight down
    if layout.state[s] == ObjectState.ON_BOARD:
        where = layout.xy_mm[s].copy()
        reach = path(rest_point(seat, where), where, _n(builder, rng, pace.reach))
        builder.hold(len(reach), [(pose(seat, p, "reach", skin, 0.5),) for p in reach])
        start = where
    else:
        builder.set_piece(s, None, ObjectState.ABSENT)
        start = rest_point(seat, spot)
    carry = path(start, slide_from, _n(builder, rng, pace.carry))
    builder.move(s, carry, ObjectState.HELD, [(pose(seat, p, "strike", skin, 0.3),) for p in carry])
    slide = path(slide_from, spot, _n(builder, rng, pace.adjust))
    builder.move(s, slide, ObjectState.ON_BOARD, [(pose(seat, p, "strike", skin, 0.2),) for p in slide])
    unit = np.asarray(direction, dtype=float) / max(norm(direction), 1e-9)
    behind = spot - unit * (STRIKER_RADIUS_MM + 14.0)
    aim = path(slide[-1], behind, _n(builder, rng, pace.aim))
    builder.hold(len(aim), [(pose(seat, p, "strike", skin, 0.0),) for p in aim])


def stroke_hands(
    builder: TimelineBuilder,
    seat: Seat,
    skin: int,
    spot: np.ndarray,
    direction: np.ndarray,
    rng: np.random.Generator,
    pace: Pace,
) -> list[Hands]:
    """The striking hand during a stroke: a short follow-through, then back off the board."""
    unit = np.asarray(direction, dtype=float) / max(norm(direction), 1e-9)
    behind = spot - unit * (STRIKER_RADIUS_MM + 14.0)
    through = path(behind, spot - unit * 4.0, _n(builder, rng, pace.follow))
    away = path(through[-1], rest_point(seat, spot), _n(builder, rng, pace.withdraw))
    hands: list[Hands] = [(pose(seat, p, "strike", skin, 0.0),) for p in through]
    hands += [(pose(seat, p, "reach", skin, 0.3),) for p in away]
    return hands


def place_pieces(
    builder: TimelineBuilder,
    seat: Seat,
    skin: int,
    placements: list[tuple[int, np.ndarray]],
    rng: np.random.Generator,
    pace: Pace,
) -> list[int]:
    """Carry each (piece, spot) in from the seat's side and put it down; returns, per piece,
    the sample at which it lies on the board."""
    landed: list[int] = []
    for piece, spot in placements:
        builder.set_piece(piece, None, ObjectState.ABSENT)
        start = rest_point(seat, spot)
        carry = path(start, spot, _n(builder, rng, pace.place))
        builder.move(
            piece, carry[:-1], ObjectState.HELD, [(pose(seat, p, "place", skin, 0.4),) for p in carry[:-1]]
        )
        builder.set_piece(piece, spot, ObjectState.ON_BOARD)
        landed.append(builder.samples)
        away = path(spot, start, _n(builder, rng, pace.withdraw))
        builder.hold(len(away), [(pose(seat, p, "reach", skin, 0.6),) for p in away])
    return landed


def set_up_board(
    builder: TimelineBuilder, seat: Seat, skin: int, target: Layout, rng: np.random.Generator, pace: Pace
) -> None:
    """Clear the board and lay out `target` (the law 41 arrangement) piece by piece."""
    layout = builder.layout
    for piece in range(builder.pieces.count):
        if layout.state[piece] == ObjectState.ON_BOARD:
            where = layout.xy_mm[piece].copy()
            n = _n(builder, rng, pace.collect)
            builder.hold(n, [(pose(seat, where, "place", skin, 0.5),)] * n)
        builder.set_piece(piece, None, ObjectState.ABSENT)
    order = [i for i in range(builder.pieces.count) if target.state[i] == ObjectState.ON_BOARD]
    for piece in order:
        spot = target.xy_mm[piece]
        n = _n(builder, rng, pace.arrange)
        builder.hold(n, [(pose(seat, spot, "place", skin, 0.3),)] * n)
        builder.set_piece(piece, spot, ObjectState.ON_BOARD)
    n = _n(builder, rng, pace.withdraw)
    builder.hold(
        n, [(pose(seat, p, "reach", skin, 0.5),) for p in path(np.zeros(2), rest_point(seat, np.zeros(2)), n)]
    )
