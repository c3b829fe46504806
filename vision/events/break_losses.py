"""Where the break's carrommen that the counts miss and no believed sighting accounts for went:
into a pocket, when something was seen that says so (`pocketed_unseen_at_break`), before the
rest are taken to have jumped off the board (law 65).

The break bursts the pack: pieces fly in all directions at once, several may reach one pocket
within a few frames, and the reconciliation with the counts (vision.events.reconcile) takes
reports at one pocket within a second of each other for the same piece seen twice. Once it
has believed all it could and the counts still want a colour, these leads, each seen on the
development videos, say a piece went in rather than off.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from calibration.geometry import (
    COIN_CUSHION_STOP_MM,
    POCKET_CENTRE_OFFSET_MM,
    POCKET_RADIUS_MM,
    nearest_pocket,
    pocket_centre,
)
from vision.events.departures import REAPPEAR_S, SAME_DEPARTURE_S, ItemEvent

# A coin's centre this close to where the cushion stops it lies against the cushion (the
# positions read off the detections wander a few mm).
CUSHION_CONTACT_MM = 10.0
# A coin running along a cushion reaches the corner's pocket if it gets there this soon at
# the speed it was last seen running along it (a corner's jaws take a coin sliding down the
# cushion; the development videos' two such coins would have got there in 0.12 and 0.22 s;
# of those lost by a cushion that did jump off, one would have taken 6 s, and one, 11 mm off
# the cushion, ran along it at 6.4 m/s: `SLIDE_MAX_MM_S`).
SLIDE_REACH_S = 0.5
# ... sliding there, not flying: a coin running this slowly, along the cushion and into it,
# does not take off over the frame (held-out video 88013, `phone`, development data since: a
# black lost against the west cushion running along it at 0.7 m/s, but into it at 3.8 m/s,
# had flown off; it was taken for pocketed in the corner 290 mm on).
SLIDE_MAX_MM_S = 2000.0

# When a track was last seen: (frame, time, xy, velocity), as the stroke segmenter keeps it.
LastSeen = tuple[int, float, tuple[float, float], tuple[float, float]]


def pocketed_unseen_at_break(
    missing: dict[str, int],
    kept: list[ItemEvent],
    unbelieved: list[ItemEvent],
    watched: list[ItemEvent],
    in_holes: list[ItemEvent],
    last_seen: dict[int, LastSeen],
    at_the_strike: set[int],
) -> list[ItemEvent]:
    """Pocketings for carrommen of `missing` (per colour: gone, by the counts, and not
    accounted for by `kept`) that were seen going in after all:

    - seen over a pocket's hole where no believed pocketing was about then (development video
      66006: a white that flew into a corner at 4.3 m/s, seen in its hole 12 frames before
      another white went in there, was taken for that one seen early), or only one whose piece
      was seen on the surface after it (`_on_the_surface_after`);
    - a track that lay on the board at the strike, lost heading into a pocket after every piece
      believed to go in there had last been seen: another piece (held-out video 70012,
      development data since: three whites into one corner in 4 frames, the third lost 75 mm
      out at 1.9 m/s);
    - a track lost against a cushion, running along it into the corner's pocket
      (`SLIDE_REACH_S`; development video 68000 and held-out video 70007: a black sliding down the cushion
      at 0.9 and 0.7 m/s, lost 100 and 150 mm from the corner; its path "ran off" the surface
      into the cushion).

    `unbelieved`: the tracker's departures not kept; `watched`: the pocket watch's departures;
    `in_holes`: the detector's sightings over the holes; `at_the_strike`: tracks lying on the
    board when the break was struck."""
    wanted = Counter({item: n for item, n in missing.items() if n > 0})
    found: list[ItemEvent] = []

    def take(event: ItemEvent) -> None:
        if wanted[event.item] > 0 and event not in found:
            wanted[event.item] -= 1
            found.append(event)

    strikers = [
        e for e in (*watched, *unbelieved) if e.item == "striker" and e.pocket is not None and not e.guess
    ]
    for sighting in in_holes:
        if sighting in kept or any(
            k.pocket == sighting.pocket
            and abs(k.time_s - sighting.time_s) <= SAME_DEPARTURE_S
            and not _on_the_surface_after(k, sighting)
            for k in kept
        ):
            continue
        if any(
            s.pocket == sighting.pocket and abs(s.time_s - sighting.time_s) <= REAPPEAR_S for s in strikers
        ):
            continue  # the striker going in, read as a coin over the hole
        take(sighting)

    def last_look_s(event: ItemEvent) -> float:
        seen = last_seen.get(event.track_id)
        return seen[1] if seen is not None else event.time_s

    for event in unbelieved:
        if event.pocket is None or event.guess or event.track_id not in at_the_strike:
            continue
        there = [k for k in (*kept, *found) if k.pocket == event.pocket]
        if all(last_look_s(k) < last_look_s(event) for k in there):
            take(event)

    for event in unbelieved:
        if event.pocket is not None or not event.guess or event.track_id not in last_seen:
            continue
        _, _, xy, velocity = last_seen[event.track_id]
        corner = _corner_slid_into(np.asarray(xy, dtype=float), np.asarray(velocity, dtype=float))
        if corner is not None:
            take(ItemEvent(event.item, corner, event.frame, event.time_s, event.track_id, xy, guess=True))
    return found


def _on_the_surface_after(kept: ItemEvent, sighting: ItemEvent) -> bool:
    """Whether a believed pocketing's piece was last seen with its centre on the surface, off
    the hole's edge, in a look after a sighting over that pocket's hole: another piece, since
    one falling in does not climb back onto the mouth (held-out video 83011, `club`,
    development data since: two whites into one corner three frames apart at the break, one
    seen over the hole, the other last seen 26 mm from the pocket's centre two looks later;
    taken for one piece, the second white was ruled jumped off the board). A drop's frame is
    the first look without its piece."""
    if kept.pocket is None or np.hypot(*np.subtract(kept.xy, pocket_centre(kept.pocket))) <= POCKET_RADIUS_MM:
        return False
    if kept.last_seen_s is not None:
        return kept.last_seen_s > sighting.time_s
    return kept.frame - 1 > sighting.frame


def _corner_slid_into(xy: np.ndarray, velocity: np.ndarray) -> str | None:
    """The corner pocket a coin at `xy` against a cushion, sliding along it at `velocity`,
    reaches within `SLIDE_REACH_S`; None if it lies off the cushions, runs too fast to be
    sliding, or gets nowhere so soon."""
    for across in (0, 1):
        if abs(xy[across]) < COIN_CUSHION_STOP_MM - CUSHION_CONTACT_MM:
            continue
        along = 1 - across
        if velocity[along] == 0.0 or float(np.hypot(*velocity)) > SLIDE_MAX_MM_S:
            continue
        corner = np.empty(2)
        corner[across] = np.sign(xy[across]) * POCKET_CENTRE_OFFSET_MM
        corner[along] = np.sign(velocity[along]) * POCKET_CENTRE_OFFSET_MM
        reach_s = (corner[along] - xy[along]) / velocity[along]
        if 0.0 <= reach_s <= SLIDE_REACH_S:
            return str(nearest_pocket(corner))
    return None
