"""Perfect (or deliberately imperfect) tracks made straight from a simulation timeline.

Stroke inference consumes `vision.tracks.TrackFrame`s. Feeding it tracks made from the
simulator's own timeline measures the events stage on its own, apart from detection and
tracking, and lets it be developed and tested before a detector exists. Imperfections a
real tracker shows can be added, each seeded: position noise, dropped detections (a piece
reported OCCLUDED for a frame) and hands covering pieces (OCCLUDED while a forearm lies
over them).

A track keeps its id while its object stays on or over the board; an object that comes
back (a coin placed back after being pocketed, the striker put down again) gets a new id,
as a tracker would give it. A piece flying off the board (AIRBORNE) is tracked MOVING while
it is over the playing surface and reported OFF_BOARD, once, in the first frame its centre
is past the surface's edge (the overboard moment of the truth), as a tracker that follows
it over the edge would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.geometry import COIN_RADIUS_MM, HALF_SURFACE_MM, STRIKER_RADIUS_MM, pocket_centres
from samples.timeline import HandPose, ObjectState, Timeline
from vision.detections import CLASS_NAMES
from vision.tracks import NO_POCKET, TrackFrame, TrackState

# A forearm seen from above: a capsule from the fingertip back towards the player's side.
# Sizes of an adult hand and forearm, not of the board.
HAND_HALF_WIDTH_MM = 45.0
FOREARM_LENGTH_MM = 450.0
# Below this speed a piece is reported at rest (trackers smooth; 20 mm/s is under a pixel
# per frame at usual scales).
REST_SPEED_MM_S = 20.0
# A piece with less than this share of its disc in view is not seen (a detector needs most
# of a coin's rim).
MIN_VISIBLE = 0.5


@dataclass(frozen=True)
class OracleNoise:
    """Imperfections to add; all zero gives exact tracks."""

    position_mm: float = 0.0  # standard deviation of the reported position
    dropout_rate: float = 0.0  # chance per piece per frame of being reported OCCLUDED
    hand_occlusion: bool = True  # pieces wholly under a forearm are OCCLUDED


def hand_covers(hand: HandPose, xy: np.ndarray, radius: float) -> np.ndarray:
    """(N,) True where a disc of `radius` at each (N, 2) point lies wholly under the forearm."""
    tip = np.asarray(hand.tip_mm, dtype=float)
    direction = np.array([np.cos(hand.angle), np.sin(hand.angle)])
    elbow = tip - direction * FOREARM_LENGTH_MM
    seg = tip - elbow
    t = np.clip(((xy - elbow) @ seg) / float(seg @ seg), 0.0, 1.0)
    distance = np.linalg.norm(xy - (elbow + t[:, None] * seg), axis=1)
    return distance + radius <= HAND_HALF_WIDTH_MM


def oracle_track_frames(
    timeline: Timeline,
    noise: OracleNoise | None = None,
    seed: int = 0,
    frame_step: int = 1,
    visible: np.ndarray | None = None,
) -> Iterator[TrackFrame]:
    """One TrackFrame per video frame (every `frame_step`-th), at the end of its exposure.

    `visible` (frames, objects), when given (a rendered video's truth), decides occlusion
    instead of the forearm model: a piece less than `MIN_VISIBLE` visible is OCCLUDED.
    """
    noise = noise or OracleNoise()
    rng = np.random.default_rng(seed)
    n = len(timeline.ids)
    class_ids = np.array([CLASS_NAMES.index(c) for c in timeline.classes], dtype=np.int64)
    radius = (
        timeline.radius_mm
        if len(timeline.radius_mm) == n
        else np.where(class_ids == CLASS_NAMES.index("striker"), STRIKER_RADIUS_MM, COIN_RADIUS_MM)
    )
    dt = frame_step / timeline.fps
    next_id = 1
    track_of = np.full(n, -1, np.int64)  # current track id per object, -1 when not tracked
    reported = np.full((n, 2), np.nan)  # last reported position (for OCCLUDED)
    previous_true = np.full((n, 2), np.nan)
    for frame in range(0, timeline.num_frames, frame_step):
        s = frame * timeline.oversample + timeline.oversample - 1
        xy = timeline.xy_mm[s].astype(np.float64)
        states = timeline.state[s]
        hands = timeline.hands[s] if s < len(timeline.hands) else ()
        covered = np.zeros(n, bool)
        if visible is not None and noise.hand_occlusion:
            covered = visible[frame] < MIN_VISIBLE
        elif noise.hand_occlusion and hands:
            finite = np.where(np.isfinite(xy), xy, 1e6)
            for hand in hands:
                covered |= hand_covers(hand, finite, radius)
        rows: list[_Row] = []
        over_surface = np.all(np.abs(xy) <= HALF_SURFACE_MM, axis=1)  # False where NaN
        for k in range(n):
            state = int(states[k])
            flying_over = state == int(ObjectState.AIRBORNE) and over_surface[k]
            tracked = state in (int(ObjectState.ON_BOARD), int(ObjectState.HELD)) or flying_over
            if tracked and np.all(np.isfinite(xy[k])):
                if track_of[k] < 0:
                    track_of[k] = next_id
                    next_id += 1
                    previous_true[k] = xy[k]
                velocity = (xy[k] - previous_true[k]) / dt
                previous_true[k] = xy[k]
                if state == int(ObjectState.HELD):
                    track_state = TrackState.HELD
                elif covered[k] or (noise.dropout_rate and rng.random() < noise.dropout_rate):
                    track_state = TrackState.OCCLUDED
                else:
                    speed = float(np.hypot(*velocity))
                    track_state = TrackState.MOVING if speed > REST_SPEED_MM_S else TrackState.AT_REST
                if track_state == TrackState.OCCLUDED and np.all(np.isfinite(reported[k])):
                    shown = reported[k]
                else:
                    shown = xy[k] + (rng.normal(0.0, noise.position_mm, 2) if noise.position_mm else 0.0)
                    reported[k] = shown
                rows.append(_Row(int(track_of[k]), int(class_ids[k]), shown, velocity, track_state))
            elif track_of[k] >= 0:
                # The object left the board this frame: say how once, then forget the track.
                if state in (int(ObjectState.FALLING), int(ObjectState.IN_POCKET)):
                    pocket = int(timeline.pocket_of[s, k])
                    rows.append(
                        _Row(
                            int(track_of[k]),
                            int(class_ids[k]),
                            reported[k],
                            state=TrackState.POCKETED,
                            pocket=pocket,
                        )
                    )
                elif state in (int(ObjectState.OFF_BOARD), int(ObjectState.AIRBORNE)):
                    # Gone over the frame, or flying past the surface's edge: overboard.
                    rows.append(
                        _Row(int(track_of[k]), int(class_ids[k]), reported[k], state=TrackState.OFF_BOARD)
                    )
                track_of[k] = -1
                reported[k] = np.nan
        yield _frame(frame, frame / timeline.fps, rows)


@dataclass(frozen=True)
class _Row:
    track_id: int
    class_id: int
    xy: np.ndarray
    velocity: np.ndarray = field(default_factory=lambda: np.zeros(2))
    state: TrackState = TrackState.AT_REST
    pocket: int = NO_POCKET


def _frame(index: int, time_s: float, rows: list[_Row]) -> TrackFrame:
    if not rows:
        return TrackFrame.empty(index, time_s)
    return TrackFrame(
        index,
        time_s,
        np.array([r.track_id for r in rows]),
        np.array([r.class_id for r in rows]),
        np.array([r.xy for r in rows]),
        np.array([r.velocity for r in rows]),
        np.array([int(r.state) for r in rows]),
        np.array([r.pocket for r in rows]),
        np.ones(len(rows), np.float32),
    )


def timeline_from_truth(truth: dict[str, Any]) -> tuple[Timeline, np.ndarray]:
    """A rendered video's truth (carrom-synth-truth/1) back as a one-sample-per-frame timeline,
    with the per-frame visible fractions. The pocket of a falling piece is the nearest one."""
    from samples.render.truth import object_tracks

    arrays = object_tracks(truth)
    xy = arrays["xy_mm"].astype(np.float32)
    state = arrays["state"].clip(0).astype(np.uint8)
    ids = tuple(o["id"] for o in truth["objects"])
    classes = tuple(o["class"] for o in truth["objects"])
    radius = np.array([float(o["radius_mm"]) for o in truth["objects"]])
    gone = np.isin(state, [int(ObjectState.FALLING), int(ObjectState.IN_POCKET)])
    pocket_of = np.full(state.shape, -1, np.int8)
    # Carry the last on-board position forward so a piece that vanished into a pocket gets the
    # pocket it was at.
    last = np.full((len(ids), 2), np.nan)
    centres = pocket_centres()
    for f in range(len(state)):
        seen = np.isfinite(xy[f]).all(axis=1)
        last[seen] = xy[f][seen]
        for k in np.flatnonzero(gone[f]):
            if np.isfinite(last[k]).all():
                pocket_of[f, k] = int(np.argmin(np.linalg.norm(centres - last[k], axis=1)))
    fps = float(truth["video"]["fps"])
    timeline = Timeline(
        fps, 1, ids, classes, xy, state, pocket_of, tuple(() for _ in range(len(state))), radius
    )
    return timeline, arrays["visible"]
