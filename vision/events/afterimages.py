"""Afterimages: a coin that ran on into a pocket, still "seen" lying at its mouth.

A heavily compressed video (a phone's stream) can keep the picture of a coin in the blocks
where it was a look before it fell in, fading over seconds (held-out video 79019, `phone`,
development data since: a white seen in the corner's hole was detected lying 38 mm from the
pocket's centre at 0.84 falling to 0.21 for 24 s). Its track stops dead there. No coin does:
friction takes 0.4 s and 80 mm to stop one from 0.4 m/s, and one that hits something is
sent on or back. A coin seen stopping dead at a pocket's mouth, its run heading over the
hole, as its colour is seen over that hole, went in; what lies there is its afterimage,
not a coin, until it is gone. The picture may also first be read once the coin has gone,
under a track of its own, lying on the coin's last stretch into the hole
(`left_on_the_run_in`); the same test then applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from calibration.geometry import (
    COIN_RADIUS_MM,
    POCKET_RADIUS_MM,
    Band,
    nearest_pocket,
    pocket_centre,
    point_segment_distance,
)
from vision.events.board import Piece
from vision.events.departures import ItemEvent, near_any
from vision.tracks import TrackState

# A carromman seen this fast a look before it is seen lying where it was stopped dead: from
# 0.4 m/s, friction stops a coin after 80 mm.
DEAD_STOP_FROM_MM_S = 400.0
# A coin that would have stopped the running one lay within contact of where it stopped (a
# coin's width between centres) and a detection's error.
CONTACT_MM = 2.0 * COIN_RADIUS_MM + 4.0
# The picture can also be kept where the coin was a look or two before it was lost, and be
# read there only once the coin has gone (held-out video 88018, `phone`, development data
# since: a white ran along a cushion into a corner, lost 22 mm from its centre; 11 looks
# later a white was read lying 34 mm out on the line it had run, at 0.77, and stayed for 22
# s; counted, it took the pocketing back, and its fading later was taken for a white
# pocketed with a black). The run's last stretch into the pocket, this far out.
RUN_IN_MM = 100.0


@dataclass(frozen=True)
class Afterimage:
    """What a coin of `item` running into `pocket` left lying at `xy` from `frame` on."""

    item: str
    pocket: str
    xy: tuple[float, float]
    frame: int
    time_s: float

    def at(self, item: str, xy: tuple[float, float] | np.ndarray) -> bool:
        """Whether a piece of `item` seen at `xy` is this afterimage (a coin's width apart is
        another coin)."""
        return item == self.item and near_any(
            np.asarray(self.xy), np.asarray(xy).reshape(1, 2), COIN_RADIUS_MM
        )


def stopped_dead(before: Piece, now: Piece, still_mm: float) -> Afterimage | None:
    """The afterimage a carromman seen running as `before`, and lying where it was in the look
    `now`, left (`still_mm` apart at most), when it was fast enough to have been stopped only
    by a collision and its run, had it gone on for as long again, passed over a pocket's hole.
    None otherwise."""
    if (
        before.state != int(TrackState.MOVING)
        or before.speed_mm_s < DEAD_STOP_FROM_MM_S
        or now.state not in (int(TrackState.AT_REST), int(TrackState.MOVING))
        or float(np.linalg.norm(now.position - before.position)) > still_mm
    ):
        return None
    # Looks are frames apart, so the run has a length.
    ahead = before.position + np.asarray(before.velocity, dtype=float) * 2.0 * (now.time_s - before.time_s)
    pocket = nearest_pocket(ahead)
    run = Band(before.xy, (float(ahead[0]), float(ahead[1])), 0.0)
    if float(point_segment_distance(pocket_centre(pocket), run)) > POCKET_RADIUS_MM:
        return None
    return Afterimage(now.item, pocket, now.xy, now.frame, now.time_s)


def left_on_the_run_in(
    first: Piece, now: Piece, pocket: str, run_mm: list[tuple[float, float]], still_mm: float
) -> Afterimage | None:
    """The afterimage a coin of `first.item` that ran into `pocket` along `run_mm` (its
    sightings, the last where it was lost) left, when a track first seen as `first` after the
    strike has lain still since (`now`, `still_mm` apart at most) on that run's last stretch
    (`RUN_IN_MM`), a detection's error off its line. None otherwise."""
    if (
        now.state not in (int(TrackState.AT_REST), int(TrackState.MOVING))
        or float(np.linalg.norm(now.position - first.position)) > still_mm
    ):
        return None
    centre = pocket_centre(pocket)
    stretch = [xy for xy in run_mm if float(np.hypot(xy[0] - centre[0], xy[1] - centre[1])) <= RUN_IN_MM]
    stretch.append((float(centre[0]), float(centre[1])))
    on_it = any(
        float(point_segment_distance(now.position[None, :], Band(a, b, 0.0))[0]) <= COIN_RADIUS_MM
        for a, b in pairwise(stretch)
        if a != b
    )
    return Afterimage(first.item, pocket, now.xy, first.frame, first.time_s) if on_it else None


def went_in(
    afterimage: Afterimage, in_holes: list[ItemEvent], lying_at_strike: np.ndarray, window_s: float
) -> bool:
    """Whether a piece of the afterimage's colour was seen over its pocket's hole within
    `window_s` of the stop, while no carromman lay at the strike where one could have stopped
    it (`lying_at_strike`, (N, 2) mm)."""
    return not near_any(np.asarray(afterimage.xy), lying_at_strike, CONTACT_MM) and any(
        e.item == afterimage.item
        and e.pocket == afterimage.pocket
        and abs(e.time_s - afterimage.time_s) <= window_s
        for e in in_holes
    )
