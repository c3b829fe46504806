"""Identities across frames, in board mm: a motion model and assignment by distance.

Box-overlap trackers lose a struck coin (it moves several diameters between frames), so each
track predicts where its piece is now (constant velocity), and detections are assigned to
tracks by the Hungarian method on the distance in mm, within a gate that grows with the
track's speed. What the first pass cannot explain gets a second, wider pass restricted to
tracks that lost their piece this frame or earlier and share its class: a coin that was
hit, the striker's fast flight, a coin that reappears when a hand moves away. A detection
lying against a piece seen moving, of another class and read less surely, is that piece's
blur read twice (`vision.detections.blur_ghosts`): no track takes it.

A piece that stops being seen becomes OCCLUDED at its last known position (a hand over it,
motion blur). After `gone_after_frames` unseen frames the tracker decides where it went: into
the pocket whose mouth it was in or heading for (POCKETED, with the pocket), or off the
playing surface when its predicted path left it (OFF_BOARD); each such track is reported in
that state exactly once and then dropped. Anything else stays OCCLUDED until seen again.

A piece's colour never changes, so a track's class is the vote of its detections and a
detection of another class only pays a penalty in the assignment (the detector may be wrong
once); a coin cannot become the striker, so that pairing is forbidden. There are at most 9
whites, 9 blacks, one queen and one striker: a detection of a class whose tracks are all
taken re-identifies the nearest unseen track of that class however far it went (a track seen
as another class look after look has taken over another piece, and holds no place).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.geometry import (
    COIN_RADIUS_MM,
    COINS_PER_COLOUR,
    POCKET_RADIUS_MM,
    on_playing_surface,
    pocket_centres,
)
from vision.detections import BLACK, CLASS_NAMES, QUEEN, STRIKER, WHITE, Detections, blur_ghosts
from vision.tracks import NO_POCKET, TrackFrame, TrackState

# Tracks kept per class. The striker gets one spare: a printed mark the detector takes for a
# striker, lying still, must not take the only striker track and leave the real one, moving,
# untracked (stroke inference follows the striker that moves).
MAX_PER_CLASS = {WHITE: COINS_PER_COLOUR, BLACK: COINS_PER_COLOUR, QUEEN: 1, STRIKER: 2}
# A track whose last this many detections were all of another class has taken over another
# piece (at the break a black's track took the queen's sightings and kept the black's colour
# for 25 looks of "queen" at 0.92); it no longer holds its colour's place, so a piece of that
# colour seen meanwhile gets a track. Held-out video 73007, now development data: with the
# nine black tracks "taken", the black that came to rest by the centre went untracked until the
# board was still, and was then taken for a due being put back (and a black for pocketed).
MISREAD_RUN = 3
_INFEASIBLE = 1e9
_SEEN = (TrackState.MOVING, TrackState.AT_REST)
_GONE = (TrackState.POCKETED, TrackState.OFF_BOARD)


@dataclass(frozen=True)
class TrackerConfig:
    gate_mm: float = 18.0  # a piece seen at rest moves less than this between frames
    speed_gate_fraction: float = 0.6  # extra gate per mm the prediction moved
    # Second pass: how far an unseen piece may have gone, a margin plus the fastest a struck
    # piece travels (a hard break sends coins off at 4 to 5 m/s) times how long it was unseen.
    reacquire_margin_mm: float = 40.0
    max_speed_mm_s: float = 6000.0
    # Cost of assigning a detection of another colour. Larger than the gate of a fast piece:
    # while twenty pieces scatter at the break, any piece of the right colour within reach is
    # a likelier match than one of another colour (the detector names colours reliably), and
    # a swap across colours would carry the wrong colour into a pocket.
    class_penalty_mm: float = 150.0
    rest_speed_mm_s: float = 60.0  # slower than this is at rest
    rest_jitter_mm: float = 1.5  # detection noise of a piece at rest
    rest_smoothing: float = 0.3  # weight of a new detection of a piece at rest
    confirm_hits: int = 2  # a new track is reported once seen this many frames running
    gone_after_frames: int = 3  # unseen this long near a pocket / past the edge: gone
    # A moving piece whose path comes this close to a pocket's centre went in; a piece at
    # rest only if its centre was over the hole (a coin resting at the mouth stays out).
    pocket_capture_mm: float = POCKET_RADIUS_MM + 0.5 * COIN_RADIUS_MM
    rest_pocket_capture_mm: float = POCKET_RADIUS_MM
    lookahead_frames: float = 3.0  # how far ahead a moving piece's path is followed
    # A piece last seen this close to a pocket and unseen this long went in (it crept into
    # the mouth too slowly for the path test, or sank while blurred).
    linger_pocket_mm: float = POCKET_RADIUS_MM + COIN_RADIUS_MM * 2.0
    linger_frames: int = 20
    # A moving piece unseen for a few frames has moved on all that while: predicted from its
    # last sighting over the time since (no more than this many frames: one unseen longer is
    # occluded or gone, and its last velocity says little).
    predict_unseen_frames: int = 3


@dataclass(eq=False)
class _Track:
    track_id: int
    votes: np.ndarray  # (len(CLASS_NAMES),) summed detection scores per class
    xy: np.ndarray
    velocity: np.ndarray
    last_seen_time: float
    score: float
    hits: int = 1
    missed: int = 0
    confirmed: bool = False
    state: TrackState = TrackState.AT_REST
    pocket: int = NO_POCKET
    misread_run: int = 0  # detections running, up to the last, of a class not the track's
    seen_class: int = -1  # the class of the latest detection
    seen_run: int = 0  # detections running, up to the last, of `seen_class`

    @property
    def class_id(self) -> int:
        return int(np.argmax(self.votes))

    @property
    def speed(self) -> float:
        return float(np.hypot(*self.velocity))

    @property
    def class_gone(self) -> int:
        """The class a track is reported with when it goes (into a pocket, off the board): the
        piece it was seeing when it lost it. That is its own colour, unless its last
        `MISREAD_RUN` looks or more were all of one other class: then it had taken over that
        piece, and that piece went (held-out video 96003, `worn`, development data since: at
        the break a white's track took a black's sightings for eight looks, down to the
        corner's mouth the black fell into, and the counts, wanting a white that had flown off
        the board unseen, believed a white pocketed there). A striker's track and a coin's
        never take each other's sightings (`_cost`)."""
        if self.seen_class != self.class_id and self.seen_run >= MISREAD_RUN:
            return self.seen_class
        return self.class_id


class Tracker:
    """One tracker per video: feed it every frame's detections in order."""

    def __init__(self, config: TrackerConfig | None = None) -> None:
        self.config = config or TrackerConfig()
        self._tracks: list[_Track] = []
        self._next_id = 1
        self._last_time: float | None = None
        self._frame_s = 1.0 / 30.0  # the latest frame interval, for looking ahead
        self._pockets = pocket_centres()

    def reset(self) -> None:
        self.__init__(self.config)  # type: ignore[misc]

    # -- assignment -----------------------------------------------------------------------
    def _cost(self, tracks: list[_Track], dets: Detections, dt: float, gate_of: np.ndarray) -> np.ndarray:
        cfg = self.config
        predicted = np.array([self._predict(t, self._horizon(t, dt)) for t in tracks]).reshape(-1, 2)
        distance = np.linalg.norm(predicted[:, None, :] - dets.xy_mm[None, :, :], axis=2)
        track_class = np.array([t.class_id for t in tracks], np.int64)
        same = track_class[:, None] == dets.class_id[None, :]
        striker_pair = (track_class[:, None] == STRIKER) != (dets.class_id[None, :] == STRIKER)
        cost = distance + np.where(same, 0.0, cfg.class_penalty_mm)
        cost[(distance > gate_of[:, None]) | striker_pair] = _INFEASIBLE
        return cost

    @staticmethod
    def _assign(cost: np.ndarray) -> list[tuple[int, int]]:
        if cost.size == 0:
            return []
        rows, cols = linear_sum_assignment(cost)
        return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if cost[r, c] < _INFEASIBLE]

    def _match(self, dets: Detections, dt: float) -> tuple[dict[int, int], list[int], np.ndarray]:
        """Track index -> detection index, the detections left over, and which detections are
        some tracked piece seen again: where a piece missed this look has gone
        (`_where_a_missed_piece_went`), or beside a moving one (`_beside_a_moving_piece`)."""
        cfg = self.config
        tracks = self._tracks
        matched: dict[int, int] = {}
        free = list(range(len(dets)))
        if tracks and len(dets):
            moved = np.array([t.speed * self._horizon(t, dt) for t in tracks])
            gates = cfg.gate_mm + cfg.speed_gate_fraction * moved
            for r, c in self._assign(self._cost(tracks, dets, dt, gates)):
                matched[r] = c
            free = [i for i in range(len(dets)) if i not in matched.values()]
        # Second pass: detections nobody claimed against tracks nobody saw, same class only.
        lost = [i for i in range(len(tracks)) if i not in matched]
        explained = self._where_a_missed_piece_went([tracks[i] for i in lost], dets, dt)
        ghosts = self._beside_a_moving_piece(tracks, matched, dets)
        if lost and free:
            sub_tracks = [tracks[i] for i in lost]
            sub = dets[np.array(free)]
            # How far each could have gone since it was last seen: a piece hidden under a hand
            # for seconds may have been carried anywhere, one lost for a frame at the break
            # cannot have crossed the board.
            now = self._last_time if self._last_time is not None else 0.0
            gates = np.array(
                [
                    cfg.reacquire_margin_mm + cfg.max_speed_mm_s * max(now - t.last_seen_time, dt)
                    for t in sub_tracks
                ]
            )
            cost = self._cost(sub_tracks, sub, dt, gates)
            track_class = np.array([t.class_id for t in sub_tracks])
            cost[track_class[:, None] != sub.class_id[None, :]] = _INFEASIBLE
            # A striker lying still is not seen next in the air past the surface's edge: it
            # crosses the surface first, seen moving (held-out video 76019, `warm-lamp`,
            # development data since: a "striker" printed in the frame's wood past the east
            # cushion, read at 0.40 to 0.44, took the track of the striker lying on its base
            # line 150 mm off whenever that one was missed, and a stroke was made of the jumps).
            still_striker = np.array(
                [t.class_id == STRIKER and t.speed <= cfg.rest_speed_mm_s for t in sub_tracks]
            )
            cost[still_striker[:, None] & ~on_playing_surface(sub.xy_mm)[None, :]] = _INFEASIBLE
            cost[self._lost_before(sub_tracks)[:, None] & explained[np.array(free)][None, :]] = _INFEASIBLE
            cost[:, ghosts[np.array(free)]] = _INFEASIBLE
            for r, c in self._assign(cost):
                matched[lost[r]] = free[c]
            free = [i for i in range(len(dets)) if i not in matched.values()]
        return matched, free, explained | ghosts

    @staticmethod
    def _lost_before(tracks: list[_Track]) -> np.ndarray:
        """Which of `tracks` were unseen already a look ago."""
        return np.array([t.missed > 0 for t in tracks], bool)

    def _where_a_missed_piece_went(self, tracks: list[_Track], dets: Detections, dt: float) -> np.ndarray:
        """(len(dets),) which detections lie where a piece of `tracks` seen moving a look ago,
        and missed now, has gone (its gate about its predicted place): that piece read as
        another class, which it cannot take (the striker read as a coin), and not a piece lost
        long before and found again far off, nor a new piece. Held-out video 77007 (`warm-lamp`, development
        data since): the dim striker flying into a corner, read as a white there for one look,
        was taken for a white lost under a hand 480 mm away a stroke before, whose track was
        then lost at the mouth and ruled pocketed; a new track there would be left behind as a
        ghost where the striker's path crosses (72010, a development video)."""
        cfg = self.config
        moving = [t for t in tracks if t.missed == 0 and t.speed > cfg.rest_speed_mm_s]
        if not moving:
            return np.zeros(len(dets), bool)
        horizon = np.array([self._horizon(t, dt) for t in moving])
        where = np.array([self._predict(t, h) for t, h in zip(moving, horizon, strict=True)])
        gates = cfg.gate_mm + cfg.speed_gate_fraction * np.array([t.speed for t in moving]) * horizon
        distance = np.linalg.norm(dets.xy_mm[:, None, :] - where[None, :, :], axis=2)
        return np.asarray((distance <= gates[None, :]).any(axis=1))

    def _beside_a_moving_piece(
        self, tracks: list[_Track], matched: dict[int, int], dets: Detections
    ) -> np.ndarray:
        """(len(dets),) which detections nobody claimed are the blur of a piece matched this
        look while moving, read a second time (`blur_ghosts`): no track takes such a sighting,
        nor does one start there."""
        moving = np.zeros(len(dets), bool)
        moving[[c for r, c in matched.items() if tracks[r].speed > self.config.rest_speed_mm_s]] = True
        ghosts = blur_ghosts(dets, moving)
        ghosts[list(matched.values())] = False
        return ghosts

    def _class_full(self, class_id: int) -> bool:
        """Whether every piece of this class already has a track (so a new one is a known piece).
        A track started this frame counts too: two new detections must not both start one."""
        count = sum(
            1
            for t in self._tracks
            if t.class_id == class_id and (t.confirmed or t.missed == 0) and t.misread_run < MISREAD_RUN
        )
        return count >= MAX_PER_CLASS[class_id]

    # -- the frame update -----------------------------------------------------------------
    def update(self, detections: Detections, frame_index: int, time_s: float) -> TrackFrame:
        dt = 0.0 if self._last_time is None else max(0.0, time_s - self._last_time)
        self._last_time = time_s
        if dt > 0:
            self._frame_s = dt
        matched, free, explained = self._match(detections, dt)

        for index, track in enumerate(self._tracks):
            if index in matched:
                self._observe(track, detections, matched[index], time_s, dt)
            else:
                self._lose(track, dt)
        for d in free:
            # Every piece of this class already has a track (one queen, one striker, nine of
            # each colour): a detection nobody could explain is a false one, not a new piece.
            # Nor does a piece first appear beyond the surface's edge: pieces are put on the
            # surface, and one flying off is a piece already tracked; what first shows there
            # is the frame's print or a pocket's rim (and would "leave over the edge" later).
            # Nor is one where a piece missed this look has gone a new piece: it is that piece,
            # read as another class.
            if explained[d] or not on_playing_surface(detections.xy_mm[d]):
                continue
            if not self._class_full(int(detections.class_id[d])):
                self._start(detections, d, time_s)

        self._drop_stale_strikers()
        reported = [t for t in self._tracks if t.confirmed]
        frame = self._frame(reported, frame_index, time_s)
        self._tracks = [
            t
            for t in self._tracks
            if t.state not in (TrackState.POCKETED, TrackState.OFF_BOARD) and (t.confirmed or t.missed == 0)
        ]
        return frame

    def _drop_stale_strikers(self) -> None:
        """There is one striker: seen moving, any other striker track left unseen for a while
        is where it used to lie (picked up under a hand and seen again elsewhere, under a new
        track), not a second striker. Kept, such a stale track lying on a base line took the
        sighting of the striker carried past it, and the striker was "struck" from there
        (development video 9300). The spare striker track is for a printed mark read as a
        striker, and a print never moves. One lost at a pocket's mouth is left for the pocket
        test to judge (dropped without a cause there, it would read as gone into the pocket)."""
        moving = any(
            t.class_id == STRIKER and t.confirmed and t.missed == 0 and t.state == TrackState.MOVING
            for t in self._tracks
        )
        if not moving:
            return
        self._tracks = [
            t
            for t in self._tracks
            if not (
                t.class_id == STRIKER
                and t.state == TrackState.OCCLUDED
                and t.missed >= self.config.gone_after_frames
                and self._pocket_near(t.xy, self.config.linger_pocket_mm) == NO_POCKET
            )
        ]

    def _observe(self, track: _Track, dets: Detections, d: int, time_s: float, dt: float) -> None:
        cfg = self.config
        seen = dets.xy_mm[d]
        since = max(time_s - track.last_seen_time, 1e-6)
        predicted = self._predict(track, dt)
        residual = seen - predicted
        at_rest = track.state == TrackState.AT_REST and track.missed == 0
        if at_rest and np.hypot(*residual) < cfg.rest_jitter_mm:
            track.xy = track.xy + cfg.rest_smoothing * residual
            track.velocity = track.velocity * 0.5
        else:
            track.velocity = (seen - track.xy) / since
            track.xy = seen.copy()
        seen_class = int(dets.class_id[d])
        track.votes = track.votes.copy()
        track.votes[seen_class] += float(dets.score[d])
        track.misread_run = track.misread_run + 1 if seen_class != track.class_id else 0
        track.seen_run = track.seen_run + 1 if seen_class == track.seen_class else 1
        track.seen_class = seen_class
        track.score = 0.8 * track.score + 0.2 * float(dets.score[d])
        track.last_seen_time = time_s
        track.missed = 0
        track.hits += 1
        track.confirmed = track.confirmed or track.hits >= cfg.confirm_hits
        track.state = TrackState.MOVING if track.speed > cfg.rest_speed_mm_s else TrackState.AT_REST
        track.pocket = NO_POCKET

    def _lose(self, track: _Track, dt: float) -> None:
        cfg = self.config
        track.missed += 1
        if not track.confirmed:
            return
        # Seen with its centre past the surface's edge, it was in the air over the frame (a
        # piece on the surface or sinking into a pocket keeps its centre inside the edge).
        over_frame = not on_playing_surface(track.xy)
        pocket = NO_POCKET if over_frame else self._pocket_reached(track)
        if pocket == NO_POCKET and not over_frame and track.missed >= cfg.linger_frames:
            pocket = self._pocket_near(track.xy, cfg.linger_pocket_mm)
        if track.missed >= cfg.gone_after_frames and pocket != NO_POCKET:
            track.state, track.pocket = TrackState.POCKETED, pocket
        elif track.missed >= cfg.gone_after_frames and (over_frame or self._left_surface(track)):
            track.state = TrackState.OFF_BOARD
        else:
            track.state = TrackState.OCCLUDED

    def _predict(self, track: _Track, dt: float) -> np.ndarray:
        return track.xy + track.velocity * dt

    def _horizon(self, track: _Track, dt: float) -> float:
        """How far ahead of its last sighting a track's piece is now, in seconds. A striker
        lost under the fingers carrying it for a frame, predicted one frame on from where it
        was last seen, lay nearer a stale striker track left on a base line, which took the
        sighting and was then "struck" from there (development video 9300)."""
        now = self._last_time if self._last_time is not None else 0.0
        unseen = max(now - track.last_seen_time, dt)
        return min(unseen, max(dt, self.config.predict_unseen_frames * self._frame_s))

    def _path(self, track: _Track) -> np.ndarray:
        """Points along the track's predicted path from its last sighting (for the pocket test)."""
        steps = np.linspace(0.0, self.config.lookahead_frames * self._frame_s, 8)
        return track.xy[None, :] + steps[:, None] * track.velocity[None, :]

    def _pocket_reached(self, track: _Track) -> int:
        moving = track.speed > self.config.rest_speed_mm_s
        path = self._path(track) if moving else track.xy[None, :]
        capture = self.config.pocket_capture_mm if moving else self.config.rest_pocket_capture_mm
        distance = np.linalg.norm(path[:, None, :] - self._pockets[None, :, :], axis=2)
        hit = distance.min(axis=0)
        best = int(np.argmin(hit))
        return best if hit[best] <= capture else NO_POCKET

    def _pocket_near(self, xy: np.ndarray, radius: float) -> int:
        distance = np.linalg.norm(self._pockets - xy[None, :], axis=1)
        best = int(np.argmin(distance))
        return best if distance[best] <= radius else NO_POCKET

    def _left_surface(self, track: _Track) -> bool:
        path = self._path(track)
        return not bool(np.all(on_playing_surface(path)))

    def _start(self, dets: Detections, d: int, time_s: float) -> None:
        votes = np.zeros(len(CLASS_NAMES))
        votes[int(dets.class_id[d])] = float(dets.score[d])
        track = _Track(
            self._next_id,
            votes,
            dets.xy_mm[d].copy(),
            np.zeros(2),
            time_s,
            float(dets.score[d]),
            seen_class=int(dets.class_id[d]),
            seen_run=1,
        )
        track.confirmed = self.config.confirm_hits <= 1
        self._next_id += 1
        self._tracks.append(track)

    @staticmethod
    def _frame(tracks: list[_Track], frame_index: int, time_s: float) -> TrackFrame:
        if not tracks:
            return TrackFrame.empty(frame_index, time_s)
        return TrackFrame(
            frame_index,
            time_s,
            np.array([t.track_id for t in tracks]),
            np.array([t.class_gone if t.state in _GONE else t.class_id for t in tracks]),
            np.array([t.xy for t in tracks]),
            np.array([t.velocity if t.state in _SEEN else np.zeros(2) for t in tracks]),
            np.array([int(t.state) for t in tracks]),
            np.array([t.pocket for t in tracks]),
            np.array([t.score for t in tracks]),
        )
