"""Where the players' hands are: poses along smooth paths from the frame edge and back.

A forearm enters over the frame on its seat's side; its pose is the fingertip and the arm's
direction from a shoulder point behind the frame (samples.timeline.HandPose).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from calibration.geometry import FRAME_BREADTH_MM, HALF_SURFACE_MM, Seat, board_to_seat, seat_to_board
from samples.timeline import HandPose

# A seated player's shoulder: about 30 cm behind the frame, a little to the right of the
# middle (most players strike with the right hand).
SHOULDER_BACK_MM = 300.0
SHOULDER_RIGHT_MM = 120.0
# Where a hand waits just off the board, over the frame's outer edge.
REST_OUT_MM = HALF_SURFACE_MM + FRAME_BREADTH_MM + 40.0


@lru_cache(maxsize=8)
def shoulder(seat: Seat) -> np.ndarray:
    return seat_to_board(seat, SHOULDER_RIGHT_MM, HALF_SURFACE_MM + FRAME_BREADTH_MM + SHOULDER_BACK_MM)


def pose(seat: Seat, tip: np.ndarray, kind: str, skin: int, spread: float = 0.0) -> HandPose:
    arm = np.asarray(tip, dtype=float) - shoulder(seat)
    angle = math.atan2(float(arm[1]), float(arm[0]))
    return HandPose(seat, (float(tip[0]), float(tip[1])), angle, kind, spread, skin)


def rest_point(seat: Seat, near: np.ndarray) -> np.ndarray:
    """The off-board point a hand comes from and goes back to, in line with `near`."""
    along = float(board_to_seat(seat, np.asarray(near, dtype=float))[0])
    return seat_to_board(seat, float(np.clip(along, -250.0, 250.0)), REST_OUT_MM)


def ease(n: int) -> np.ndarray:
    """n fractions from just above 0 to 1, smooth at both ends (a hand's motion)."""
    if n <= 0:
        return np.zeros(0)
    t = np.arange(1, n + 1) / n
    return t * t * (3.0 - 2.0 * t)


def path(start: np.ndarray, end: np.ndarray, n: int) -> np.ndarray:
    """(n, 2) points moving smoothly from start (excluded) to end (included)."""
    s = np.asarray(start, dtype=float)
    e = np.asarray(end, dtype=float)
    return s + ease(n)[:, None] * (e - s)
