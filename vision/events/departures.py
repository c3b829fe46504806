"""A piece leaving the board (`ItemEvent`: into a pocket or off it) and what can be told of
one from where it was last seen: at its pocket's mouth, near its pocket, another seen going at
the same pocket about then. The stroke segmenter (vision.events.strokes) makes them, the
reconciliation with the counts at rest (vision.events.reconcile) weighs them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from calibration.geometry import POCKET_RADIUS_MM, STRIKER_RADIUS_MM, pocket_centre

# A disappearing moving piece this close to a pocket centre went in (the tracker missed it).
POCKET_CAPTURE_MM = POCKET_RADIUS_MM + STRIKER_RADIUS_MM
# The tracker and the pocket watch saw the same departure when they place it this close in time.
SAME_DEPARTURE_S = 0.2
# A piece back in view this soon after a drop near a pocket was missed by the detector, not
# pocketed.
REAPPEAR_S = 1.0
# A piece lost this close to a pocket while the board moved most likely went into it (used
# after every pocketing actually seen).
POCKET_GUESS_MM = 4.0 * POCKET_RADIUS_MM


@dataclass(frozen=True)
class ItemEvent:
    """One piece going into a pocket (pocket set) or off the board (pocket None)."""

    item: str
    pocket: str | None
    frame: int
    time_s: float
    track_id: int
    xy: tuple[float, float]
    guess: bool = False  # inferred from where a lost piece was, not seen going in
    # A track's departure: when its piece was last seen (None: not known).
    last_seen_s: float | None = None


def seen_within(event: ItemEvent, distance_mm: float) -> bool:
    """Whether a pocketing was last seen within `distance_mm` of its pocket's centre (or where
    it was is not known: a tracker without positions for pieces gone)."""
    assert event.pocket is not None
    if not np.all(np.isfinite(event.xy)):
        return True
    return float(np.linalg.norm(np.array(event.xy) - pocket_centre(event.pocket))) <= distance_mm


def at_its_pocket(event: ItemEvent) -> bool:
    """Whether a departure was last seen near the pocket it is given (or went off the board;
    or where it was is not known)."""
    return event.pocket is None or seen_within(event, POCKET_GUESS_MM)


def at_its_mouth(event: ItemEvent) -> bool:
    """Whether a pocketing was seen at its pocket's mouth, not guessed or projected there
    from a piece lost further off (or where it was is not known)."""
    return event.pocket is not None and not event.guess and seen_within(event, POCKET_CAPTURE_MM)


def at_its_pocket_about_then(event: ItemEvent, others: Iterable[ItemEvent], within_s: float) -> bool:
    """Whether any of `others` left by `event`'s pocket within `within_s` of it: the same
    departure seen twice (a sinking piece's last look over the hole read as another colour, or
    the piece matched afresh as it sank), or seen two ways."""
    return any(o.pocket == event.pocket and abs(o.time_s - event.time_s) <= within_s for o in others)


def unmatched(candidates: list[ItemEvent], events: list[ItemEvent], item: str) -> list[ItemEvent]:
    """Candidates of `item` that none of `events` already accounts for (the same pocket, about
    the same time)."""
    return [c for c in candidates if c.item == item and not at_its_pocket_about_then(c, events, REAPPEAR_S)]


def near_any(xy: tuple[float, float] | np.ndarray, points_mm: np.ndarray, distance_mm: float) -> bool:
    """Whether `xy` lies within `distance_mm` of any row of `points_mm`."""
    return (
        bool(len(points_mm)) and float(np.linalg.norm(points_mm - np.asarray(xy), axis=1).min()) < distance_mm
    )
