"""Setting pieces down by hand: the break arrangement (law 41) and pieces placed back
inside the outer circle (dues, penalties, the queen) where the engine says they are owed.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import (
    CENTRE_CIRCLE_RADIUS_MM,
    COIN_RADIUS_MM,
    OUTER_CIRCLE_RADIUS_MM,
    Seat,
    break_arrangement,
)
from samples.physics.pieces import PieceSet
from samples.physics.simulate import Layout
from samples.players.placement import is_free
from samples.timeline import ObjectState

_TRIES = 400


def empty_layout(pieces: PieceSet) -> Layout:
    """Nothing on the board: every piece ABSENT."""
    return Layout(
        np.full((pieces.count, 2), np.nan),
        np.full(pieces.count, int(ObjectState.ABSENT), dtype=np.uint8),
        np.full(pieces.count, -1, dtype=np.int8),
    )


def break_layout(pieces: PieceSet, breaker_seat: Seat) -> Layout:
    """The 19 carrommen arranged for the break (law 41), the striker off the board.

    geometry.break_arrangement gives (item, position); whites and blacks take ids in order.
    """
    layout = empty_layout(pieces)
    xy = layout.xy_mm.copy()
    state = layout.state.copy()
    free = {"white": iter(pieces.of_class("white")), "black": iter(pieces.of_class("black"))}
    for item, position in break_arrangement(breaker_seat):
        index = pieces.queen if item == "queen" else next(free[item])
        xy[index] = position
        state[index] = int(ObjectState.ON_BOARD)
    return Layout(xy, state, layout.pocket_of.copy())


def off_centre_circle(xy_mm: np.ndarray, radius: float = COIN_RADIUS_MM) -> bool:
    """True when a disc at `xy_mm` does not cover the centre circle, even partly (law 89(b))."""
    return bool(np.hypot(*np.asarray(xy_mm, float)) > CENTRE_CIRCLE_RADIUS_MM + radius)


def placement_spot(
    pieces: PieceSet,
    layout: Layout,
    piece: int,
    rng: np.random.Generator,
    centre_first: bool,
    keep_off_centre: bool = False,
) -> np.ndarray:
    """Where a piece put back by hand goes: the centre circle for the queen or a jumped coin
    when it is free (laws 65(a), 93, 94: as near the centre as possible), otherwise a free spot
    inside the outer circle, as near the centre as the hand happens to choose.

    `keep_off_centre`: a due or penalty coin, which must not cover the centre circle wholly or
    partly (law 89(b)); it is placed inside the outer circle (law 84) around it.
    """
    on = layout.on_board()
    on[piece] = False
    others_xy = layout.xy_mm[on]
    others_r = pieces.radius_mm[on]
    radius = pieces.radius_mm[piece]
    if centre_first and not keep_off_centre and is_free(np.zeros(2), radius, others_xy, others_r):
        return np.zeros(2)
    reach = OUTER_CIRCLE_RADIUS_MM - COIN_RADIUS_MM - 0.5

    def allowed(spot: np.ndarray) -> bool:
        clear = not keep_off_centre or off_centre_circle(spot, radius + 0.5)
        return clear and is_free(spot, radius, others_xy, others_r)

    for attempt in range(_TRIES):
        # Grow the search outwards: the queen stays near the centre, coins anywhere inside.
        limit = reach * min(1.0, (attempt + 1) / 40.0) if centre_first else reach
        r = limit * np.sqrt(rng.random())
        angle = rng.uniform(0.0, 2.0 * np.pi)
        spot = np.array([r * np.cos(angle), r * np.sin(angle)])
        if allowed(spot):
            return spot
    # A crowded circle: the nearest free spot along a spiral, even if outside the circle.
    for k in range(2000):
        r = 2.0 + k * 0.5
        spot = np.array([r * np.cos(k * 0.7), r * np.sin(k * 0.7)])
        if allowed(spot):
            return spot
    return np.zeros(2)
