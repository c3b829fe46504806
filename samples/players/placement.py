"""Where a player puts the striker before a stroke (law 130), and deliberate mistakes.

A legal position touches both base lines of the player's side, covers a base circle fully
if it is in one, and stays clear of the arrows; calibration.geometry measures all three.
Positions are drawn at random in the legal band, then checked with
`geometry.striker_placement`, so the player never relies on a shortcut the law does not.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import (
    BASE_CIRCLE_RADIUS_MM,
    STRIKER_RADIUS_MM,
    Seat,
    base_circle_centres,
    board_to_seat,
    seat_to_board,
    striker_legal_range,
    striker_placement,
)

# Keep a hair of clearance from neighbouring pieces so the striker never starts overlapped.
CLEARANCE_MM = 0.5
_TRIES = 200


def is_free(xy: np.ndarray, radius: float, others_xy: np.ndarray, others_radius: np.ndarray) -> bool:
    """True when a disc at `xy` overlaps none of the others (NaN positions are ignored)."""
    if len(others_xy) == 0:
        return True
    gaps = np.linalg.norm(others_xy - xy, axis=1) - (others_radius + radius)
    gaps = gaps[~np.isnan(gaps)]
    return bool(np.all(gaps > CLEARANCE_MM))


def legal_positions(seat: Seat, alongs: np.ndarray, inward: float | None = None) -> np.ndarray:
    """(K, 2) board points at the given along-offsets on the seat's base lines."""
    lo, hi, _ = striker_legal_range(seat)
    mid = (lo + hi) / 2.0 if inward is None else inward
    return np.stack([seat_to_board(seat, float(a), mid) for a in alongs])


def is_legal(seat: Seat, xy: np.ndarray) -> bool:
    return striker_placement(seat, xy).legal


def legal_placement(
    seat: Seat,
    rng: np.random.Generator,
    others_xy: np.ndarray,
    others_radius: np.ndarray,
    along: float | None = None,
) -> np.ndarray:
    """A legal, unobstructed striker position; near `along` when given (the aim wants it).

    Falls back to covering a base circle fully, which law 130 b allows, when coins block
    the whole band.
    """
    lo, hi, along_max = striker_legal_range(seat)
    for attempt in range(_TRIES):
        spread = 2.0 + attempt * 2.0
        a = rng.uniform(-along_max, along_max) if along is None else along + rng.normal(0.0, spread)
        a = float(np.clip(a, -along_max, along_max))
        inward = float(rng.uniform(lo + 1.0, hi - 1.0))
        xy = seat_to_board(seat, a, inward)
        if is_legal(seat, xy) and is_free(xy, STRIKER_RADIUS_MM, others_xy, others_radius):
            return xy
    for centre in base_circle_centres(seat):
        if is_legal(seat, centre) and is_free(centre, STRIKER_RADIUS_MM, others_xy, others_radius):
            return centre
    # Nothing free: take the least obstructed legal spot; the physics separates touching
    # discs on the first contact.
    return seat_to_board(seat, 0.0, (lo + hi) / 2.0)


def illegal_placement(
    seat: Seat, rng: np.random.Generator, others_xy: np.ndarray, others_radius: np.ndarray
) -> np.ndarray:
    """A position a careless player might strike from that breaks law 130: off one of the
    base lines, half over a base circle, or on an arrow."""
    lo, hi, along_max = striker_legal_range(seat)
    for _ in range(_TRIES):
        kind = rng.integers(0, 3)
        if kind == 0:  # misses one base line: too far in or too far out
            inward = hi + rng.uniform(2.0, 10.0) if rng.random() < 0.5 else lo - rng.uniform(2.0, 10.0)
            xy = seat_to_board(seat, float(rng.uniform(-along_max, along_max)), float(inward))
        elif kind == 1:  # partly over a base circle without covering it
            centre = base_circle_centres(seat)[rng.integers(0, 2)]
            along_c, inward_c = board_to_seat(seat, centre)
            offset = rng.uniform(2.0, STRIKER_RADIUS_MM + BASE_CIRCLE_RADIUS_MM - 2.0)
            toward_middle = -np.sign(along_c)
            xy = seat_to_board(seat, float(along_c + toward_middle * offset), float(inward_c))
        else:  # beyond the base circle, onto the arrow's end
            side = 1.0 if rng.random() < 0.5 else -1.0
            along_c = board_to_seat(seat, base_circle_centres(seat)[1])[0]
            xy = seat_to_board(seat, float(side * (along_c + rng.uniform(8.0, 30.0))), float((lo + hi) / 2.0))
        if not is_legal(seat, xy) and is_free(xy, STRIKER_RADIUS_MM, others_xy, others_radius):
            return xy
    return seat_to_board(seat, 0.0, hi + 8.0)
