"""Faint sightings that continue a piece the tracker follows, and never start one.

A coin lying still can fade under the detector's threshold where it lies (a black at a
pocket's mouth against the dark hole, the queen on the centre spot), and were it dropped it
would be taken for gone: into a pocket, a stroke before it went, or for good. A faint peak of
its colour where the tracker last saw it lying, and nothing found there, is that piece still.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import COIN_RADIUS_MM, POCKET_RADIUS_MM, STRIKER_RADIUS_MM, pocket_distance_mm
from vision.detections import CLASS_NAMES, STRIKER, Detections
from vision.tracks import TrackFrame, TrackState

# How far from where a followed piece lay its faint peak may be found: the peaks' error at a
# pocket's mouth, and the found peak's before it faded (development video 9112: 7.6 mm apart).
# On the 40 development videos a black lying still at a mouth had a faint peak within 10 mm
# of where it lay in 99.8% of looks; where one had just fallen in, in none of 2,990.
CONTINUE_MM = 10.0
# Only a piece lying still or slowing to rest is continued so, where it would be by now (a
# black creeping to the lip faded at 200 mm/s as it stopped: development video 9112): what
# fades in faster flight is blur, and the pocket watch and the counts at rest weigh that.
SLOW_MM_S = 400.0
# A black anywhere: it is the one that fades against the dark hole. The queen too (development
# video 9153: put back on the centre spot, found at 0.55 to 0.8 for a second, then at 0.37 to
# 0.39 for a minute, and counted gone; 9173, a `warm-lamp` board: come to rest 65 mm from a
# pocket's centre, found at 0.40 to 0.42 and at 0.39 between, taken into the pocket a stroke
# before she went; 65009, `club`: come to rest 29 mm from a corner's centre, overhanging the
# hole, read at 0.39 to 0.41 for a thousand frames, taken into that pocket at the next
# stroke), at a pocket's mouth even by a peak over the hole's edge, as far in as a disc
# hanging half over it is found, though not by one over the hole itself: one falling in shows
# no peak outside the hole (on 60 development boards, 158 of her pocketings, none of hers
# within 30 mm of where she went in after the look she tipped over on), while she may stop
# overhanging the hole by half and hang there (held-out video 73014, now development data:
# slowing along the cushion into a corner's mouth, read at 0.22 to 0.35 from 32 mm out to
# 22 mm from its centre and then still for 200 frames, she was let go as pocketed at once, and
# ruled pocketed a stroke before she went).
CONTINUED = (CLASS_NAMES.index("black"), CLASS_NAMES.index("queen"))
KEPT_OFF_THE_HOLE = (CLASS_NAMES.index("queen"),)
OVERHANGING_MM = POCKET_RADIUS_MM - 0.25 * COIN_RADIUS_MM
# A white only slowing to rest at a pocket's mouth, or lying there (development videos 9404
# and 9409, with a detector that reads pieces at the mouths a little lower: the queen and a
# white slowing to rest 37 and 38 mm from a corner's centre, read at 0.47 to 0.55 as they
# stopped and faintly after, were taken into the pocket), and only while its faint peak lies
# clear of the hole: a disc whose centre is outside the hole's edge lies on the surface and is
# not sinking, and one tipping in shows only the part still over the surface, whose middle
# lies outward of its centre (half a disc's: 4r/3pi, 6.4 mm), so a peak counts as clear only
# half a coin's radius past the edge (a white falling in along the cushion was continued by
# faint white peaks at the mouth, and counted lying there after: development video 9127). Not
# a white elsewhere: faint white peaks lie still where no piece is, between pieces or on a
# print (9127: one at 0.27 for seconds kept a white "lying" on a base line after a false look).
SETTLING_AT_MOUTH = (CLASS_NAMES.index("white"),)
AT_MOUTH_MM = POCKET_RADIUS_MM + 2.0 * COIN_RADIUS_MM
CLEAR_OF_HOLE_MM = POCKET_RADIUS_MM + 0.5 * COIN_RADIUS_MM

# The striker slowing to rest at a pocket's mouth, or lying there: its disc overhanging the
# hole merges with the dark, and the network reads it faintly (held-out video 76004, now
# development data, `warm-lamp`: come to rest 23.5 mm from a corner's centre, read at 0.37 to
# 0.39; lost, its track went into the pocket, a foul that cost the board's result). Its faint
# peak continues it, seen or lost a look or two before (a lost track is not yet gone), while
# its centre lies on the surface, outside the hole's edge: one falling in is not read there.
STRIKER_AT_MOUTH_MM = POCKET_RADIUS_MM + STRIKER_RADIUS_MM
STRIKER_MIN_SCORE = 0.3


def continued(
    detections: Detections, faint: Detections, followed: TrackFrame | None, time_s: float
) -> Detections:
    """`detections` (a look at `time_s`) and the faint peaks that continue a piece `followed`
    (the tracks as they stood after the last look): within `CONTINUE_MM` of where it would
    be by now, and with nothing found within a coin's radius of them."""
    if followed is None or not len(faint) or not len(followed.track_id):
        return detections
    speed = np.hypot(followed.velocity_mm_s[:, 0], followed.velocity_mm_s[:, 1])
    in_view = np.isin(followed.state, (int(TrackState.AT_REST), int(TrackState.MOVING)))
    slowing = in_view & (speed <= SLOW_MM_S)
    lying = slowing & np.isin(followed.class_id, CONTINUED)
    to_pocket = pocket_distance_mm(followed.xy_mm)
    at_mouth = to_pocket <= AT_MOUTH_MM
    settling_at_mouth = slowing & np.isin(followed.class_id, SETTLING_AT_MOUTH) & at_mouth
    striker_at_mouth = (
        (slowing | (followed.state == int(TrackState.OCCLUDED)))
        & (followed.class_id == STRIKER)
        & (to_pocket <= STRIKER_AT_MOUTH_MM)
    )
    if not (lying | settling_at_mouth | striker_at_mouth).any():
        return detections
    elapsed = max(0.0, time_s - followed.time_s)
    where = followed.xy_mm + elapsed * followed.velocity_mm_s
    same_class = faint.class_id[:, None] == followed.class_id[None, :]
    gaps = np.linalg.norm(faint.xy_mm[:, None, :] - where[None, :, :], axis=2)
    near = (gaps <= CONTINUE_MM) & same_class
    from_hole = pocket_distance_mm(faint.xy_mm)
    off_the_hole = ~np.isin(faint.class_id, KEPT_OFF_THE_HOLE) | (from_hole >= OVERHANGING_MM)
    continues = np.any(near[:, lying], axis=1) & off_the_hole
    continues |= np.any(near[:, settling_at_mouth], axis=1) & (from_hole >= CLEAR_OF_HOLE_MM)
    continues |= (
        np.any(near[:, striker_at_mouth], axis=1)
        & (from_hole >= POCKET_RADIUS_MM)
        & (faint.score >= STRIKER_MIN_SCORE)
    )
    if len(detections):
        to_found = np.linalg.norm(faint.xy_mm[:, None, :] - detections.xy_mm[None, :, :], axis=2)
        continues &= to_found.min(axis=1) > COIN_RADIUS_MM
    if not continues.any():
        return detections
    return Detections.merge([detections, faint[continues]])
