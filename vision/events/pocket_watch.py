"""Pocketings seen from the detections themselves, frame to frame, without track identities.

While twenty pieces scatter at the break a tracker swaps identities, and a swapped track
carries the wrong colour into a pocket or loses the piece that fell. What the laws need is
only which colour went into which pocket, and that survives swaps of pieces of one colour:
so each colour's detections are matched to the previous frame's detections of that colour
alone (minimum total distance, within the reach of a struck piece), and a detection that
finds no successor while heading into a pocket's mouth is a piece falling in. A piece of
that colour seen again at that pocket soon after (a rattle, a detection missed for a frame)
takes the event back. What the board holds at rest before and after the stroke decides how
many of these events are believed (`strokes._reconcile`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.geometry import COIN_RADIUS_MM, POCKET_RADIUS_MM, POCKETS, on_playing_surface, pocket_centres
from vision.detections import CLASS_NAMES, Detections

# A struck piece moves at most this fast (a hard break: 4 to 5 m/s; the striker up to 8).
MAX_SPEED_MM_S = 8000.0
# Matching slack on top of the distance a piece can cover between two looks.
MATCH_MARGIN_MM = 30.0
# A piece whose path over the next look comes this close to a pocket's centre fell in (its
# centre over the hole's edge, plus a detection's error).
CAPTURE_MM = POCKET_RADIUS_MM + 0.5 * COIN_RADIUS_MM
# A piece that vanished while lying this close to a pocket's centre, however slowly it moved,
# dropped in (it crept over the rim).
MOUTH_MM = POCKET_RADIUS_MM + COIN_RADIUS_MM
# A piece of that colour appearing this close to that pocket within `REAPPEAR_S` after a
# drop was the same piece, seen again (a rattle out, a missed detection).
REAPPEAR_MM = POCKET_RADIUS_MM + 4.0 * COIN_RADIUS_MM
REAPPEAR_S = 1.0
# How far ahead along its path a vanished piece is followed (two looks at 30 fps: a fast
# piece vanishes short of the pocket it falls into).
LOOKAHEAD_FRAMES = 2.0
# A piece in the air over the frame jumped off a hard hit and is still flying this fast; a
# detection lying still past the surface's edge (the frame's print, a pocket's rim) that
# flickers off has not flown anywhere.
FLIGHT_SPEED_MM_S = 300.0


@dataclass(frozen=True)
class Drop:
    """A piece of `item` that vanished at frame `frame`: into `pocket`, or (pocket None) in the
    air past the edge of the surface."""

    item: str
    pocket: str | None
    frame: int
    time_s: float
    xy: tuple[float, float]


@dataclass
class PocketWatch:
    drops: list[Drop] = field(default_factory=list)
    _previous: Detections | None = None
    _velocity: np.ndarray | None = None  # per previous detection, mm/s (0 when unmatched)
    _previous_time: float = 0.0

    def reset(self) -> None:
        self.drops = []
        self._previous = None
        self._velocity = None

    def update(self, frame_index: int, time_s: float, detections: Detections) -> None:
        previous, velocity = self._previous, self._velocity
        current_velocity = np.zeros((len(detections), 2))
        if previous is not None and velocity is not None and time_s > self._previous_time:
            dt = time_s - self._previous_time
            for class_id in range(len(CLASS_NAMES)):
                before = np.flatnonzero(previous.class_id == class_id)
                now = np.flatnonzero(detections.class_id == class_id)
                self._match_class(
                    class_id, before, now, previous, velocity, detections, current_velocity, dt,
                    frame_index, time_s,
                )  # fmt: skip
        self._previous, self._velocity, self._previous_time = detections, current_velocity, time_s

    def _match_class(
        self,
        class_id: int,
        before: np.ndarray,
        now: np.ndarray,
        previous: Detections,
        velocity: np.ndarray,
        detections: Detections,
        current_velocity: np.ndarray,
        dt: float,
        frame_index: int,
        time_s: float,
    ) -> None:
        item = CLASS_NAMES[class_id]
        predicted = previous.xy_mm[before] + velocity[before] * dt
        matched_before: set[int] = set()
        matched_now: set[int] = set()
        if len(before) and len(now):
            distance = np.linalg.norm(predicted[:, None, :] - detections.xy_mm[now][None, :, :], axis=2)
            reach = MATCH_MARGIN_MM + MAX_SPEED_MM_S * dt
            cost = np.where(distance <= reach, distance, 1e9)
            for r, c in zip(*linear_sum_assignment(cost), strict=True):
                if cost[r, c] >= 1e9:
                    continue
                matched_before.add(int(r))
                matched_now.add(int(c))
                i, j = before[r], now[c]
                current_velocity[j] = (detections.xy_mm[j] - previous.xy_mm[i]) / dt
        for r, i in enumerate(before):
            if r not in matched_before:
                drop = _where_it_went(previous.xy_mm[i], velocity[i], dt)
                if drop is not None:
                    pocket, xy = drop
                    self.drops.append(Drop(item, pocket, frame_index, time_s, xy))
        for c, j in enumerate(now):
            if c not in matched_now:
                self._seen_again(item, detections.xy_mm[j], time_s)

    def _seen_again(self, item: str, xy: np.ndarray, time_s: float) -> None:
        """A piece of `item` appeared: if it is at a pocket where one of its colour dropped a
        moment ago, that drop is taken back."""
        centres = pocket_centres()
        for k in range(len(self.drops) - 1, -1, -1):
            drop = self.drops[k]
            if drop.item != item or time_s - drop.time_s > REAPPEAR_S:
                continue
            if drop.pocket is None:
                near = float(np.hypot(xy[0] - drop.xy[0], xy[1] - drop.xy[1])) <= REAPPEAR_MM
            else:
                centre = centres[POCKETS.index(drop.pocket)]
                near = float(np.hypot(xy[0] - centre[0], xy[1] - centre[1])) <= REAPPEAR_MM
            if near:
                del self.drops[k]
                return


def _where_it_went(
    xy: np.ndarray, velocity: np.ndarray, dt: float
) -> tuple[str | None, tuple[float, float]] | None:
    """(pocket, last seen) for a piece gone from view: the pocket its path ran into or whose
    mouth it lay in, or pocket None when it was last seen in the air past the surface's edge;
    None if neither (hidden, missed, or gone where the watch cannot tell)."""
    centres = pocket_centres()
    steps = np.linspace(0.0, LOOKAHEAD_FRAMES * dt, 9)
    path = xy[None, :] + steps[:, None] * velocity[None, :]
    distance = np.linalg.norm(path[:, None, :] - centres[None, :, :], axis=2)
    closest = distance.min(axis=0)
    k = int(np.argmin(closest))
    seen = (float(xy[0]), float(xy[1]))
    # A corner pocket's hole reaches past the surface's edge: a piece seen over it is falling
    # in, not flying over the frame.
    if closest[k] <= CAPTURE_MM or float(np.linalg.norm(xy - centres[k])) <= MOUTH_MM:
        return POCKETS[k], seen
    if not on_playing_surface(xy):
        if float(np.hypot(*velocity)) < FLIGHT_SPEED_MM_S:
            return None  # lying still out there: not a piece of the game
        return None, seen  # its centre was past the surface's edge: in the air, over the frame
    return None
