"""Faint sightings that continue a piece the tracker follows, and never start one.

A black coin lying still can fade under the detector's threshold where it lies (a black at a
pocket's mouth against the dark hole), and were it dropped it would be taken for gone: into
that pocket, a stroke before it went. A faint peak of its colour where the tracker last saw
it lying, and nothing found there, is that piece still.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import COIN_RADIUS_MM
from vision.detections import CLASS_NAMES, Detections
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
# Only a black: it is the one that fades against the dark hole. A white falling in along the
# cushion was continued by faint white peaks at the mouth as it sank, and counted lying there
# after (development video 9127).
CONTINUED = (CLASS_NAMES.index("black"),)


def continued(
    detections: Detections, faint: Detections, followed: TrackFrame | None, time_s: float
) -> Detections:
    """`detections` (a look at `time_s`) and the faint peaks that continue a black `followed`
    (the tracks as they stood after the last look): within `CONTINUE_MM` of where it would
    be by now, and with nothing found within a coin's radius of them."""
    if followed is None or not len(faint) or not len(followed.track_id):
        return detections
    speed = np.hypot(followed.velocity_mm_s[:, 0], followed.velocity_mm_s[:, 1])
    lying = (
        np.isin(followed.state, (int(TrackState.AT_REST), int(TrackState.MOVING)))
        & (speed <= SLOW_MM_S)
        & np.isin(followed.class_id, CONTINUED)
    )
    if not lying.any():
        return detections
    elapsed = max(0.0, time_s - followed.time_s)
    where = followed.xy_mm[lying] + elapsed * followed.velocity_mm_s[lying]
    classes = followed.class_id[lying]
    gaps = np.linalg.norm(faint.xy_mm[:, None, :] - where[None, :, :], axis=2)
    continues = np.any((gaps <= CONTINUE_MM) & (faint.class_id[:, None] == classes[None, :]), axis=1)
    if len(detections):
        to_found = np.linalg.norm(faint.xy_mm[:, None, :] - detections.xy_mm[None, :, :], axis=2)
        continues &= to_found.min(axis=1) > COIN_RADIUS_MM
    if not continues.any():
        return detections
    return Detections.merge([detections, faint[continues]])
