"""What is on the board: the pieces the tracker reports, counted by colour, and the shape of
a new board's break arrangement (law 41)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from calibration.geometry import (
    CENTRE_CIRCLE_RADIUS_MM,
    COIN_RADIUS_MM,
    COINS_PER_COLOUR,
    OUTER_CIRCLE_RADIUS_MM,
)
from vision.detections import CLASS_NAMES
from vision.tracks import TrackState

CARROMMEN = ("white", "black", "queen")
# The coins of the two sides (the queen is neither's until covered).
COIN_COLOURS = ("white", "black")
# Where a tracked piece counts as lying on the board (a HELD piece is in someone's fingers).
ON_BOARD_STATES = (int(TrackState.AT_REST), int(TrackState.MOVING), int(TrackState.OCCLUDED))
FULL_SET = Counter({"white": COINS_PER_COLOUR, "black": COINS_PER_COLOUR, "queen": 1})


@dataclass(frozen=True)
class Piece:
    """The last thing the tracker said about one track."""

    track_id: int
    item: str
    xy: tuple[float, float]
    state: int
    speed_mm_s: float
    frame: int
    time_s: float
    velocity: tuple[float, float] = (0.0, 0.0)

    @property
    def on_board(self) -> bool:
        return self.state in ON_BOARD_STATES

    @property
    def position(self) -> np.ndarray:
        return np.array(self.xy)


def item_name(class_id: int) -> str:
    return CLASS_NAMES[int(class_id)]


def carrommen_counts(pieces: dict[int, Piece]) -> Counter[str]:
    """Coins and queen lying on the board, by colour (the striker is not a carromman)."""
    return Counter(p.item for p in pieces.values() if p.on_board and p.item in CARROMMEN)


def arrangement_reach_mm(tolerance_mm: float) -> float:
    """How far from the centre a carromman's centre lies at most in the break arrangement:
    within the outer circle (law 41), give or take `tolerance_mm`."""
    return OUTER_CIRCLE_RADIUS_MM - COIN_RADIUS_MM + tolerance_mm


def is_break_arrangement(pieces: dict[int, Piece], tolerance_mm: float) -> bool:
    """All 19 carrommen on the board, inside the outer circle, the queen in the centre (law 41)."""
    men = [p for p in pieces.values() if p.on_board and p.item in CARROMMEN]
    if Counter(p.item for p in men) != FULL_SET:
        return False
    reach = arrangement_reach_mm(tolerance_mm)
    queen_reach = CENTRE_CIRCLE_RADIUS_MM + tolerance_mm
    for p in men:
        distance = float(np.hypot(*p.xy))
        if distance > reach or (p.item == "queen" and distance > queen_reach):
            return False
    return True
