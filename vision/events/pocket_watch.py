"""Pocketings seen from the detections themselves, frame to frame, without track identities.

While twenty pieces scatter at the break a tracker swaps identities, and a swapped track
carries the wrong colour into a pocket or loses the piece that fell. What the laws need is
only which colour went into which pocket, and that survives swaps of pieces of one colour:
so each colour's detections are matched to the previous frame's detections of that colour
alone (minimum total distance, within the reach of a struck piece), and a detection that
finds no successor while heading into a pocket's mouth is a piece falling in. A piece of
that colour seen again at that pocket soon after (a rattle, a detection missed for a frame)
takes the event back. What the board holds at rest before and after the stroke decides how
many of these events are believed (`reconcile.reconcile_departures`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.geometry import (
    COIN_CUSHION_STOP_MM,
    COIN_RADIUS_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    STRIKER_RADIUS_MM,
    nearest_pocket,
    on_playing_surface,
    pocket_centre,
    pocket_centres,
    pocket_distance_mm,
)
from vision.detections import CLASS_NAMES, STRIKER, Detections, blur_ghosts

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
# Matching a colour's detections frame to frame may also leave a piece that would be over a
# pocket's hole by the next look unmatched (it fell in) and take a detection as new, at these
# costs (mm, as a distance). Two coins of one colour running into one pocket a few frames
# apart (a break on development video 9119) were otherwise matched crosswise, the first to
# fall paired with the second and the second with a third coming in, and one drop was seen
# where two were made. Any other piece is left unmatched only with nothing within its reach.
VANISH_INTO_POCKET_COST_MM = 0.0
APPEAR_COST_MM = MATCH_MARGIN_MM
# A piece in the air over the frame jumped off a hard hit and is still flying this fast; a
# detection lying still past the surface's edge (the frame's print, a pocket's rim) that
# flickers off has not flown anywhere.
FLIGHT_SPEED_MM_S = 300.0
# A piece whose centre is this far from a pocket's centre, past the surface's edge, is beyond
# the hole, over the frame's rail (a detection's error on top of the hole's radius).
PAST_HOLE_MM = POCKET_RADIUS_MM + 0.25 * COIN_RADIUS_MM
# A detection first seen this far inside a pocket's hole edge, not followed in from the board,
# is a falling piece's last look read as another colour (the break on the embedded sample: a
# white sinking into a pocket read as a black 18 mm from its centre) or the dark hole itself:
# when it goes, nothing has dropped. A piece lying at the mouth is found there too, up to 5 mm
# in (`vision.detect.onnx_detector.OVER_HOLE_MM`), but was followed in as it crept there.
BORN_IN_HOLE_MM = POCKET_RADIUS_MM - 2.0
# Colours a piece seen over a pocket's hole is believed in: a white coin or the queen there is
# one falling in (on the 10 development videos 9100-9109, 72 of 80 whites that fell in were
# seen in the hole at the detector's threshold, and 1 sighting of 204 was no white: the
# striker, read as one, falling). A black there is far more often the dark hole itself (1,889
# confident sightings to 3), and so is a "striker".
SEEN_FALLING = ("white", "queen")
# A piece sinking into the dark scores lower with every frame: over a hole, a white or the
# queen this likely is taken (9100-9109, 9120, 9121: whites that fell in seen at 0.40, 88 of 98;
# at 0.30, 94, and 2 more sightings of no white). With session 33's detector, on 60
# development boards (the truth's camera), white sightings over a hole at 0.25 to 0.30 were a
# white falling in 48 times of 51 (held-out video 76016, development data since: a white
# struck from rest 90 mm off a corner, seen once on its way at 0.39 and in the hole at 0.27
# and 0.26, was not taken for pocketed, though the counts said it was gone).
FALLING_MIN_SCORE = 0.25
# A detection of a piece's colour this close to where it was last seen is the piece, still there.
STILL_THERE_MM = 3.0
# A piece that appeared at a pocket as another of its colour dropped in, and then moved this
# much further from the pocket, ran out of it: it was the same piece, bounced back.
BOUNCE_AWAY_MM = 3.0
# A piece gone between two looks, not on a path into a pocket, may still have been seen on its
# way, blurred below the detector's threshold by its speed (development video 9160: a black
# lying by a cushion, struck at 2.6 m/s into the corner pocket 160 mm off between two looks,
# seen once in between as a peak of 0.25). A faint peak of its colour on nothing found, a coin's
# radius or more nearer a pocket than where it was, whose line from there runs into that pocket
# within the lookahead, is where it went: a lead, believed only after every other sighting. Only
# for a colour not seen falling over the hole (`SEEN_FALLING`): a white gone unseen there most
# likely did not go in (development video 9132: a white last seen heading for a corner, missed
# at rest after, was taken into that pocket by its faint peak on the way). Not
# one at a pocket's mouth: faint peaks there are mostly the hole's dark edge (on the development
# videos 9100-9139, black peaks 14-26 mm from a pocket's centre: 329 looks at a black, 1,058 at
# none).
FAINT_LEAD_MIN_MM = COIN_RADIUS_MM
# A piece of a colour not believed over the holes (`SEEN_FALLING`: a black there is mostly the
# dark hole) that vanished running at a pocket this near its centre, and was then seen over
# that pocket's hole within `DARK_LEAD_S`, the hole not read as its colour in the
# `DARK_FRESH_S` before, is a lead too (held-out video 84001, `phone`, development data since:
# the board's last black, driven at a corner ahead of a white, was lost 65 mm from its centre,
# its look taken by the white behind it, and read over the hole at 0.73 a look later and at
# 0.63 and 0.45 after; no departure was seen, the black "vanished", and the board's result
# was lost). A black seen there with no black lost on its way is the hole, as before.
DARK_LEAD_MM = REAPPEAR_MM
DARK_COLOURS = ("black",)
DARK_LEAD_S = 0.25
DARK_FRESH_S = 0.5
# Running, not lying: a piece lying by a pocket is seen again where it lay.
DARK_LEAD_MIN_SPEED_MM_S = 100.0
# A piece lying this near a pocket's centre can be knocked in between two looks, never seen
# moving: the piece that hit it is then found against where it lay (within contact, plus a
# detection's error and a look's travel), moving at least this fast.
KNOCKED_FROM_MM = MOUTH_MM + 2.0 * COIN_RADIUS_MM
# Or further out, as far as a piece knocked this fast (a hard stroke's) runs in a look: along
# a line into the pocket it can be in the hole, or blurred on its way there, by the next look
# (held-out video 86013, `worn`, development data since: a black lying against a cushion
# 122 mm from a corner's centre, knocked along it at 2.3 m/s, gone at the next look and never
# read in the hole).
KNOCK_SPEED_MM_S = 4000.0
CONTACT_SLACK_MM = 8.0
# A knocked piece runs away from where the hitter met it on its path between the two looks,
# not from where the hitter is found (held-out video 87019, `warm-lamp`, development data
# since: the striker ran past a black at 2.3 m/s and was found beyond it, the black knocked
# up the board, the line from the striker pointing down). A piece lying pressed against a
# cushion (its edge this near it: a detection's error) knocked into it cannot go that way and
# runs along it instead (87019's black, against the east cushion 106 mm from a corner's
# centre, was in the corner's hole at the next look).
PINNED_SLACK_MM = 4.0
KNOCKER_MIN_SPEED_MM_S = 100.0
_NEVER = 1e9  # the cost of a pairing that cannot be
_CENTRES = pocket_centres()


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
    # Pieces seen over a pocket's hole (`SEEN_FALLING` colours): one per piece, at its first
    # sighting there. A fast coin at the break can go from the pack into a pocket between two
    # looks, never seen on its way, and still be seen in the hole as it falls.
    in_holes: list[Drop] = field(default_factory=list)
    # Pieces gone from view whose faint peak was seen further on, heading into a pocket.
    faint_leads: list[Drop] = field(default_factory=list)
    _in_hole_last_s: dict[tuple[str, str], float] = field(default_factory=dict)
    _previous: Detections | None = None
    _velocity: np.ndarray | None = None  # per previous detection, mm/s (0 when unmatched)
    _born_in_hole: np.ndarray | None = None  # per previous detection: first seen in a hole
    # Per previous detection: appeared that look beside a moving piece, its blur read again
    # (`blur_ghosts`): no piece lay there to be knocked in.
    _ghost: np.ndarray | None = None
    # Per previous detection: the drop it may be the piece of, bounced off the pocket's jaws
    # (it appeared at that pocket as the drop was made), or None.
    _bounce_of: list[Drop | None] | None = None
    # Such pieces lost from view a look later, each with the drop, where and when it was last
    # seen, and how fast the dropped piece ran at the pocket (`_bounced_unseen`).
    _bounces_unseen: list[tuple[Drop, np.ndarray, float, float]] = field(default_factory=list)
    _drop_speed: dict[Drop, float] = field(default_factory=dict)
    # Pieces of colours not believed over the holes, gone from view unexplained: (item, where
    # last seen, its velocity then, when it was missed), for `DARK_LEAD_S`.
    _lost_running: list[tuple[str, np.ndarray, np.ndarray, float]] = field(default_factory=list)
    # When a colour not believed over the holes was last seen over each pocket's hole.
    _dark_in_hole_last_s: dict[tuple[str, str], float] = field(default_factory=dict)
    _previous_time: float = 0.0

    def reset(self) -> None:
        self.drops = []
        self.in_holes = []
        self.faint_leads = []
        self._in_hole_last_s = {}
        self._previous = None
        self._velocity = None
        self._born_in_hole = None
        self._ghost = None
        self._bounce_of = None
        self._bounces_unseen = []
        self._drop_speed = {}
        self._lost_running = []
        self._dark_in_hole_last_s = {}

    def update(
        self, frame_index: int, time_s: float, detections: Detections, faint: Detections | None = None
    ) -> None:
        """`faint`: the frame's peaks under the detector's threshold, if it reports them."""
        previous, velocity, born = self._previous, self._velocity, self._born_in_hole
        current_velocity = np.zeros((len(detections), 2))
        current_born = pocket_distance_mm(detections.xy_mm) < BORN_IN_HOLE_MM
        current_bounce: list[Drop | None] = [None] * len(detections)
        current_followed = np.zeros(len(detections), bool)
        # Per current detection, the last look's detection it was matched to (-1: none).
        current_from = np.full(len(detections), -1, dtype=np.int64)
        ghost = self._ghost
        followed = previous is not None and velocity is not None and born is not None and ghost is not None
        # Kept only while a sighting over a hole could still lead from them (bounded however
        # long the video, whether or not the detector reports the holes).
        self._lost_running = [lost for lost in self._lost_running if time_s - lost[3] <= DARK_LEAD_S]
        if followed and time_s > self._previous_time:
            dt = time_s - self._previous_time
            bounce = self._bounce_of or [None] * len(previous)
            unexplained_of: dict[int, np.ndarray] = {}
            for class_id in range(len(CLASS_NAMES)):
                before = np.flatnonzero(previous.class_id == class_id)
                now = np.flatnonzero(detections.class_id == class_id)
                unexplained_of[class_id] = self._match_class(
                    class_id, before, now, previous, velocity, born, bounce, detections,
                    current_velocity, current_born, current_bounce, current_followed, current_from, dt,
                    frame_index, time_s,
                )  # fmt: skip
            # Every colour matched first: the piece that knocked another may be of any.
            for class_id, unexplained in unexplained_of.items():
                unexplained = unexplained[~ghost[unexplained]]
                gone_xy = previous.xy_mm[unexplained]
                unexplained = unexplained[
                    self._knocked_in(class_id, gone_xy, detections, current_velocity, dt, frame_index, time_s)
                ]
                looks = (previous, velocity, detections, current_velocity, current_from)
                knocker_lost = [
                    self._knocked_in_by_the_one_lost(k, *looks, dt, frame_index, time_s) for k in unexplained
                ]
                unexplained = unexplained[~np.array(knocker_lost, bool)]
                if not len(unexplained) or CLASS_NAMES[class_id] in SEEN_FALLING:
                    continue
                if faint is not None:
                    unexplained = unexplained[
                        self._follow_faint(
                            class_id, previous.xy_mm[unexplained], detections, faint, dt, frame_index, time_s
                        )
                    ]
                if CLASS_NAMES[class_id] in DARK_COLOURS:
                    self._lost_running.extend(
                        (CLASS_NAMES[class_id], previous.xy_mm[k].copy(), velocity[k].copy(), time_s)
                        for k in unexplained
                    )
        self._ghost = blur_ghosts(detections, _knockers(current_velocity)) & ~current_followed
        self._previous, self._velocity, self._previous_time = detections, current_velocity, time_s
        self._born_in_hole, self._bounce_of = current_born, current_bounce

    def last_going_s(self, since_s: float) -> float:
        """When a piece was last seen going into a pocket or off the board (a drop, or a
        sighting over a hole), from `since_s` on; `since_s` if none was."""
        return max((d.time_s for d in (*self.drops, *self.in_holes) if d.time_s >= since_s), default=since_s)

    def take_since(self, since_s: float) -> tuple[list[Drop], list[Drop], list[Drop]]:
        """The drops, sightings in the holes and faint leads from `since_s` on (a stroke's), all
        noted so far let go."""
        drops, in_holes, leads = (
            [d for d in noted if d.time_s >= since_s]
            for noted in (self.drops, self.in_holes, self.faint_leads)
        )
        self.drops, self.in_holes, self.faint_leads = [], [], []
        self._bounces_unseen, self._drop_speed = [], {}
        return drops, in_holes, leads

    def saw_in_holes(self, frame_index: int, time_s: float, over_holes: Detections) -> None:
        """Note the pieces seen over the pockets' holes in this frame. A piece stays in view
        there for a few frames as it falls: sightings of one colour at one pocket each within
        `REAPPEAR_S` of the one before are the same piece, noted once."""
        self._lost_running = [lost for lost in self._lost_running if time_s - lost[3] <= DARK_LEAD_S]
        for xy, class_id, score in zip(over_holes.xy_mm, over_holes.class_id, over_holes.score, strict=True):
            item = CLASS_NAMES[int(class_id)]
            if score < FALLING_MIN_SCORE:
                continue
            if item in DARK_COLOURS:
                self._dark_lead(item, nearest_pocket(xy), frame_index, time_s)
            if item not in SEEN_FALLING:
                continue
            pocket = nearest_pocket(xy)
            last = self._in_hole_last_s.get((item, pocket))
            self._in_hole_last_s[(item, pocket)] = time_s
            if last is None or time_s - last > REAPPEAR_S:
                self.in_holes.append(Drop(item, pocket, frame_index, time_s, (float(xy[0]), float(xy[1]))))

    def _match_class(
        self,
        class_id: int,
        before: np.ndarray,
        now: np.ndarray,
        previous: Detections,
        velocity: np.ndarray,
        born: np.ndarray,
        bounce: list[Drop | None],
        detections: Detections,
        current_velocity: np.ndarray,
        current_born: np.ndarray,
        current_bounce: list[Drop | None],
        current_followed: np.ndarray,
        current_from: np.ndarray,
        dt: float,
        frame_index: int,
        time_s: float,
    ) -> np.ndarray:
        """Match one colour's detections to the last look's, noting drops; returns which of
        the last look's detections (indices) are pieces gone from view that went into no pocket
        and over no edge, as far as the watch can tell."""
        item = CLASS_NAMES[class_id]
        back = self._back_where_they_lay(item, detections.xy_mm[now], frame_index, time_s)
        current_followed[now[back]] = True
        now = now[~back]
        predicted = previous.xy_mm[before] + velocity[before] * dt
        matched_before: set[int] = set()
        matched_now: set[int] = set()
        paired_off = np.zeros(len(now))  # per current detection, how far off its pair's prediction
        if len(before) and len(now):
            distance = np.linalg.norm(predicted[:, None, :] - detections.xy_mm[now][None, :, :], axis=2)
            reach = MATCH_MARGIN_MM + MAX_SPEED_MM_S * dt
            # Rows: the previous detections, then one "appeared" row per current detection;
            # columns: the current detections, then one "vanished" column per previous one.
            nb, nn = len(before), len(now)
            cost = np.full((nb + nn, nn + nb), _NEVER)
            cost[:nb, :nn] = np.where(distance <= reach, distance, _NEVER)
            # Cheap only for a piece at a pocket (as near as one seen again there is taken for
            # the piece that dropped) that would be over its hole by now: one further off, its
            # next sighting off the prediction, bounced off a cushion or was given a wild
            # velocity by a wrong match among the break's scattering coins.
            over_hole = (pocket_distance_mm(predicted) <= CAPTURE_MM) & (
                pocket_distance_mm(previous.xy_mm[before]) <= REAPPEAR_MM
            )
            cost[np.arange(nb), nn + np.arange(nb)] = np.where(
                over_hole, VANISH_INTO_POCKET_COST_MM, reach + APPEAR_COST_MM
            )
            cost[nb + np.arange(nn), np.arange(nn)] = APPEAR_COST_MM
            cost[nb:, nn:] = 0.0
            for r, c in zip(*linear_sum_assignment(cost), strict=True):
                if r >= nb or c >= nn or cost[r, c] >= _NEVER:
                    continue
                matched_before.add(int(r))
                matched_now.add(int(c))
                paired_off[c] = distance[r, c]
                i, j = before[r], now[c]
                current_velocity[j] = (detections.xy_mm[j] - previous.xy_mm[i]) / dt
                current_followed[j] = True
                current_from[j] = i
                current_born[j] = born[i]
                self._bounced(bounce[i], previous.xy_mm[i], detections.xy_mm[j])
                current_bounce[j] = _still_at_its_pocket(bounce[i], detections.xy_mm[j], self.drops, time_s)
        gone = before[[r for r in range(len(before)) if r not in matched_before and not born[before[r]]]]
        # One of its colour found where it was is the piece itself, whatever the matching paired
        # it with (development video 9143: a white lying at a pocket's mouth, seen in every
        # frame, "dropped" as a passing one of its colour took its pairing).
        if len(gone) and len(now):
            last_seen, found = previous.xy_mm[gone], detections.xy_mm[now]
            to_now = np.linalg.norm(last_seen[:, None, :] - found[None, :, :], axis=2)
            gone = gone[to_now.min(axis=1) > STILL_THERE_MM]
        # Nor is one gone that is found where it would be by now while that detection was paired
        # with a look at another piece far off its own prediction: the matching swapped them
        # (held-out video 75012, `warm-lamp`, development data since: a white over a corner's
        # mouth, found 5 mm from where it was heading, was "dropped", its sighting paired with
        # a flicker 230 mm off; it dropped again a look later, and the two stood for it and for
        # the white the count wanted at another corner).
        if len(gone) and len(now):
            heading = previous.xy_mm[gone] + velocity[gone] * dt
            to_now = np.linalg.norm(heading[:, None, :] - detections.xy_mm[now][None, :, :], axis=2)
            swapped = (to_now <= COIN_RADIUS_MM) & (paired_off[None, :] > MATCH_MARGIN_MM)
            gone = gone[~swapped.any(axis=1)]
        dropped_now: list[Drop] = []
        unexplained = []
        for k, went in zip(gone, _where_they_went(previous.xy_mm[gone], velocity[gone], dt), strict=True):
            if went is not None and _dropped_again(bounce[k], went[0], self.drops):
                continue
            if went is not None:
                dropped_now.append(Drop(item, went[0], frame_index, time_s, went[1]))
                self._drop_speed[dropped_now[-1]] = float(np.hypot(*velocity[k]))
            else:
                unexplained.append(k)
                if bounce[k] is not None and bounce[k] in self.drops:
                    self._bounces_unseen.append(
                        (
                            bounce[k],
                            previous.xy_mm[k].copy(),
                            time_s - dt,
                            self._drop_speed.get(bounce[k], 0.0),
                        )
                    )
        self.drops.extend(dropped_now)
        # Each drop is one piece: a second piece appearing by that pocket cannot be the first
        # coming back out; and one that is, ran here from where that piece was last seen, which
        # the next look's matching must know (held-out video 88013's break, `phone`,
        # development data since: two blacks, both due over a corner's hole, both found back
        # out; each had been handed the one drop, and at the next look, matched as if still,
        # one was paired with the other's sighting; a drop stood, and the black the counts
        # missed, flown off the board, was "pocketed").
        unclaimed = list(dropped_now)
        for c, j in enumerate(now):
            if c not in matched_now:
                # One that appears over the hole itself is the piece falling (or the dark hole),
                # not one rattled back out (development video 9154: a black that dropped into a
                # corner pocket was seen two frames later 18 mm from its centre, sinking).
                if not current_born[j]:
                    self._bounced_unseen(item, detections.xy_mm[j], time_s)
                    self._seen_again(item, detections.xy_mm[j], frame_index, time_s)
                came_out = _dropped_at(unclaimed, detections.xy_mm[j])
                current_bounce[j] = came_out
                if came_out is not None:
                    unclaimed.remove(came_out)
                    current_velocity[j] = (detections.xy_mm[j] - np.asarray(came_out.xy)) / dt
        return np.array(unexplained, dtype=np.int64)

    def _knocked_in(
        self,
        class_id: int,
        gone_xy: np.ndarray,
        detections: Detections,
        current_velocity: np.ndarray,
        dt: float,
        frame_index: int,
        time_s: float,
    ) -> np.ndarray:
        """Drops for pieces of `class_id` that lay by a pocket (`KNOCKED_FROM_MM`, or a hard
        knock's run in a look, `KNOCK_SPEED_MM_S`) and are gone just as a moving piece is found
        against where they lay, knocked along the line from it into the pocket between two
        looks (development video 9415, `phone`: a black lying 44 mm from a corner's centre, gone
        the moment the striker reached it, seen in the hole only under the detector's
        threshold). Returns which of `gone_xy` were not knocked in."""
        if not len(gone_xy) or not len(detections):
            return np.ones(len(gone_xy), bool)
        radius = _disc_radius_mm(detections)
        left = np.ones(len(gone_xy), bool)
        reach_mm = max(KNOCKED_FROM_MM, POCKET_RADIUS_MM + KNOCK_SPEED_MM_S * dt)
        for n, xy in enumerate(gone_xy):
            pocket = nearest_pocket(xy)
            centre = pocket_centre(pocket)
            against, gap = _running_against(xy, detections, current_velocity)
            knocked = False
            if float(np.hypot(*(xy - centre))) <= reach_mm and against.any():
                hitter = np.flatnonzero(against)[np.argmin(gap[against])]
                step = current_velocity[hitter] * dt
                contact = radius[hitter] + COIN_RADIUS_MM
                knocked = _knocked_into(xy, detections.xy_mm[hitter], step, contact, centre)
            if knocked:
                self.drops.append(
                    Drop(CLASS_NAMES[class_id], pocket, frame_index, time_s, (float(xy[0]), float(xy[1])))
                )
                left[n] = False
        return left

    def _knocked_in_by_the_one_lost(
        self,
        gone: int,
        previous: Detections,
        velocity: np.ndarray,
        detections: Detections,
        current_velocity: np.ndarray,
        current_from: np.ndarray,
        dt: float,
        frame_index: int,
        time_s: float,
    ) -> bool:
        """Whether the last look's piece `gone` (gone unexplained) is the one found against where
        another of its colour lay by a pocket (`KNOCKED_FROM_MM`), the look matched to the lying
        piece, which it knocked in: if so the lying piece drops, and the look is `gone`'s. The
        matching, cheapest, takes a knocker's blurred look landing against where the piece lay
        for that piece barely moved, and the knocker for one gone lying still (held-out video
        93005, `warm-lamp`, development data since: a black 52 mm from a corner's centre was
        knocked in by another driven at it from 33 mm off, read 11 mm from where the first lay;
        two blacks went in, one dropped)."""
        gone_xy = previous.xy_mm[gone]
        class_id = int(previous.class_id[gone])
        reach = MATCH_MARGIN_MM + MAX_SPEED_MM_S * dt
        contact = 2.0 * COIN_RADIUS_MM
        # It was running, or something running is found against where it was: struck. One
        # that flickered out of view lying still knocked nothing.
        struck, _ = _running_against(gone_xy, detections, current_velocity)
        if not (_knockers(velocity[gone : gone + 1])[0] or struck.any()):
            return False
        for j in np.flatnonzero((detections.class_id == class_id) & (current_from >= 0)):
            lay_index = int(current_from[j])
            lay, found = previous.xy_mm[lay_index], detections.xy_mm[j]
            # Found where it lay, it is the lying piece itself.
            from_lay = float(np.hypot(*(found - lay)))
            if from_lay <= STILL_THERE_MM or _knockers(velocity[lay_index : lay_index + 1])[0]:
                continue
            pocket = nearest_pocket(lay)
            centre = pocket_centre(pocket)
            step = found - gone_xy
            run = float(np.hypot(*step))
            if float(np.hypot(*(lay - centre))) > KNOCKED_FROM_MM or not run <= reach:
                continue
            if run < KNOCKER_MIN_SPEED_MM_S * dt or from_lay > contact + CONTACT_SLACK_MM:
                continue
            if not _knocked_into(lay, found, step, contact, centre):
                continue
            lay_xy = (float(lay[0]), float(lay[1]))
            self.drops.append(Drop(CLASS_NAMES[class_id], pocket, frame_index, time_s, lay_xy))
            current_velocity[j] = step / dt
            current_from[j] = gone
            return True
        return False

    def _back_where_they_lay(self, item: str, xy: np.ndarray, frame_index: int, time_s: float) -> np.ndarray:
        """Per look at `item` (rows of `xy`), whether it is found again where a piece of its
        colour taken to drop a moment ago (`REAPPEAR_S`) was last seen (`STILL_THERE_MM`): that
        piece, back in view, whatever the matching would pair it with; its drop is taken back
        (held-out video 93017, `club`, development data since: a black lying on a corner's lip
        was hidden for two looks by a passing hand and taken to drop; seen again where it lay
        as the hand hid another black 133 mm off, it was paired with that one's last look).
        Only a piece that lay still when taken to drop: one running at a mouth goes on, and a
        look by where it was last seen is no proof it lay there (development video 84014's
        break: a white running into a corner's jaws, taken to drop when read off its heading,
        rattled back by its last sighting; its drop taken back, its look before was left
        unpaired to drop, 12 frames before the white that fell in)."""
        back = np.zeros(len(xy), bool)
        if not self.drops:  # most looks: nothing dropped this stroke
            return back
        for n, at in enumerate(xy):
            for k in range(len(self.drops) - 1, -1, -1):
                drop = self.drops[k]
                if drop.item != item or drop.frame == frame_index or time_s - drop.time_s > REAPPEAR_S:
                    continue
                if self._drop_speed.get(drop, 0.0) >= KNOCKER_MIN_SPEED_MM_S:
                    continue
                if float(np.hypot(at[0] - drop.xy[0], at[1] - drop.xy[1])) <= STILL_THERE_MM:
                    del self.drops[k]
                    back[n] = True
                    break
        return back

    def _follow_faint(
        self,
        class_id: int,
        gone_xy: np.ndarray,
        detections: Detections,
        faint: Detections,
        dt: float,
        frame_index: int,
        time_s: float,
    ) -> np.ndarray:
        """Leads (`FAINT_LEAD_MIN_MM`) for pieces of `class_id` gone from `gone_xy`, each faint
        peak used once. Returns which of `gone_xy` got none."""
        unled = np.ones(len(gone_xy), bool)
        peaks = faint.xy_mm[faint.class_id == class_id]
        if len(peaks) and len(detections):
            to_found = np.linalg.norm(peaks[:, None, :] - detections.xy_mm[None, :, :], axis=2)
            peaks = peaks[to_found.min(axis=1) > COIN_RADIUS_MM]
        reach = MATCH_MARGIN_MM + MAX_SPEED_MM_S * dt
        used: set[int] = set()
        for n, xy in enumerate(gone_xy):
            for k, peak in enumerate(peaks):
                step = peak - xy
                if k in used or not FAINT_LEAD_MIN_MM <= float(np.hypot(*step)) <= reach:
                    continue
                pocket = nearest_pocket(peak)
                centre = pocket_centre(pocket)
                from_peak = float(np.hypot(*(peak - centre)))
                closest = _closest_approach_mm(peak[None, :], (step / dt)[None, :], dt)[
                    0, POCKETS.index(pocket)
                ]
                if (
                    from_peak > MOUTH_MM
                    and float(np.hypot(*(xy - centre))) - from_peak >= FAINT_LEAD_MIN_MM
                    and closest <= CAPTURE_MM
                ):
                    used.add(k)
                    peak_xy = (float(peak[0]), float(peak[1]))
                    self.faint_leads.append(Drop(CLASS_NAMES[class_id], pocket, frame_index, time_s, peak_xy))
                    unled[n] = False
                    break
        return unled

    def _dark_lead(self, item: str, pocket: str, frame_index: int, time_s: float) -> None:
        """A piece of `item` (a colour not believed over the holes) seen over `pocket`'s hole:
        a lead (`DARK_LEAD_MM`) if the hole was not read as its colour a moment before and a
        piece of its colour was lost a moment ago running at that pocket near it."""
        last = self._dark_in_hole_last_s.get((item, pocket))
        self._dark_in_hole_last_s[(item, pocket)] = time_s
        if last is not None and time_s - last <= DARK_FRESH_S:
            return
        centre = pocket_centre(pocket)
        for n, (lost_item, xy, velocity, _) in enumerate(self._lost_running):
            speed = float(np.hypot(*velocity))
            if lost_item != item or speed < DARK_LEAD_MIN_SPEED_MM_S:
                continue
            if float(np.hypot(*(centre - xy))) > DARK_LEAD_MM:
                continue
            if _runs_into(xy, velocity / speed, centre):
                del self._lost_running[n]
                self.faint_leads.append(Drop(item, pocket, frame_index, time_s, (float(xy[0]), float(xy[1]))))
                return

    def _bounced(self, drop: Drop | None, before: np.ndarray, now: np.ndarray) -> None:
        """A piece that appeared at a pocket as one of its colour was taken to drop in there,
        and now runs away from the pocket, is that piece, bounced off the pocket's jaws: the
        drop is taken back (development video 9140: a white hit the corner at 1.3 m/s and came
        back out; matched as one piece, its look at the mouth and the next one off the
        prediction cost more than "fell in, and another appeared")."""
        if not _believed_into_a_pocket(drop, self.drops):
            return
        centre = pocket_centre(drop.pocket)
        if np.hypot(*(now - centre)) > np.hypot(*(before - centre)) + BOUNCE_AWAY_MM:
            self.drops.remove(drop)

    def _bounced_unseen(self, item: str, xy: np.ndarray, time_s: float) -> None:
        """A piece of `item` appeared: if the piece that appeared at a pocket as one of its
        colour dropped in there, and was lost from view a look later, is within the dropped
        piece's reach of where it was lost and further from the pocket, it bounced off the
        jaws, as `_bounced` sees when no look is missed: the drop is taken back (held-out
        video 83011, `club`, development data since: a white hit a corner's jaws at 1 m/s at
        the break, came back out 49 mm from the pocket's centre, was missed a look and found
        92 mm out; the drop stood for a second white gone into the next corner)."""
        kept = []
        for drop, lost_xy, lost_s, speed in self._bounces_unseen:
            if drop not in self.drops or time_s - lost_s > REAPPEAR_S:
                continue
            if drop.item == item and drop.pocket is not None:
                centre = pocket_centre(drop.pocket)
                reach = MATCH_MARGIN_MM + speed * (time_s - lost_s)
                if (
                    float(np.hypot(*(xy - lost_xy))) <= reach
                    and np.hypot(*(xy - centre)) > np.hypot(*(lost_xy - centre)) + BOUNCE_AWAY_MM
                ):
                    self.drops.remove(drop)
                    continue
            kept.append((drop, lost_xy, lost_s, speed))
        self._bounces_unseen = kept

    def _seen_again(self, item: str, xy: np.ndarray, frame_index: int, time_s: float) -> None:
        """A piece of `item` appeared: if it is at a pocket where one of its colour dropped a
        moment ago, that drop is taken back. Not a drop of this very frame: the matching
        weighed the two as one piece and found them two. Nor for one seen past the surface's
        edge, over the frame: a piece coming back out of a pocket lands on the surface
        (held-out video 94019, `worn`, development data since: a black knocked along a cushion
        into a corner was seen to drop; eight looks later the frame beside the corner, 59 mm
        from its centre, was read once as a black at 0.41, the drop was taken back, and the
        black was recorded flown off the board there)."""
        on_surface = bool(on_playing_surface(xy))
        for k in range(len(self.drops) - 1, -1, -1):
            drop = self.drops[k]
            if drop.item != item or time_s - drop.time_s > REAPPEAR_S or drop.frame == frame_index:
                continue
            if drop.pocket is None:
                near = float(np.hypot(xy[0] - drop.xy[0], xy[1] - drop.xy[1])) <= REAPPEAR_MM
            elif not on_surface:
                continue
            else:
                centre = pocket_centre(drop.pocket)
                near = float(np.hypot(xy[0] - centre[0], xy[1] - centre[1])) <= REAPPEAR_MM
            if near:
                del self.drops[k]
                return


def _dropped_again(first: Drop | None, pocket: str | None, drops: list[Drop]) -> bool:
    """Whether a piece that appeared at a pocket as one of its colour was taken to drop in
    there (`first`, still believed) is now gone into that same pocket: it is that piece, its
    look over the mouth matched as "fell in, and another appeared" (held-out video 77011,
    `club`, development data since: a white seen at a corner's mouth and a look later 20 mm
    from the centre, sinking, dropped twice; the two stood for it and for the white the count
    wanted at another corner)."""
    return _believed_into_a_pocket(first, drops) and first.pocket == pocket


def _still_at_its_pocket(drop: Drop | None, xy: np.ndarray, drops: list[Drop], time_s: float) -> Drop | None:
    """`drop`, if a piece that appeared at its pocket as it was made, and was followed since, now
    lies in that pocket's mouth (`MOUTH_MM`, within `REAPPEAR_S`) with the drop believed: it is
    that piece, and its going in is the one drop, not a second (held-out video 91019's break,
    `phone`, development data since: a white due over a corner's hole was taken to drop, found
    at the mouth 37 mm off the prediction and followed there a look, then went in; the two
    drops stood for it and for a white gone into the next corner). Not one further out: a
    second piece running about the corner as the first fell in (development video 9119)."""
    if not _believed_into_a_pocket(drop, drops) or time_s - drop.time_s > REAPPEAR_S:
        return None
    return drop if float(np.hypot(*(xy - pocket_centre(drop.pocket)))) <= MOUTH_MM else None


def _believed_into_a_pocket(drop: Drop | None, drops: list[Drop]) -> TypeGuard[Drop]:
    """Whether `drop` is a drop into a pocket that still stands among `drops`."""
    return drop is not None and drop.pocket is not None and drop in drops


def _dropped_at(drops: list[Drop], xy: np.ndarray) -> Drop | None:
    """Of `drops`, the one into a pocket within `REAPPEAR_MM` of `xy` (the nearest), if any."""
    near = [
        (float(np.hypot(*(xy - pocket_centre(d.pocket)))), k)
        for k, d in enumerate(drops)
        if d.pocket is not None
    ]
    near = [(distance, k) for distance, k in near if distance <= REAPPEAR_MM]
    return drops[min(near)[1]] if near else None


def _knockers(velocity: np.ndarray) -> np.ndarray:
    """Which pieces (rows of `velocity`) run fast enough to knock another (`KNOCKER_MIN_SPEED_MM_S`)."""
    return np.hypot(velocity[:, 0], velocity[:, 1]) >= KNOCKER_MIN_SPEED_MM_S


def _disc_radius_mm(detections: Detections) -> np.ndarray:
    """Per detection, the radius of its disc: the striker's or a carromman's."""
    return np.where(detections.class_id == STRIKER, STRIKER_RADIUS_MM, COIN_RADIUS_MM)


def _running_against(
    xy: np.ndarray, detections: Detections, current_velocity: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per detection (its velocity in `current_velocity`), whether it runs fast enough to knock
    (`KNOCKER_MIN_SPEED_MM_S`) and is found against a coin at `xy` (within contact, plus
    `CONTACT_SLACK_MM`); and each one's distance from `xy`."""
    gap = np.linalg.norm(detections.xy_mm - xy, axis=1)
    return _knockers(current_velocity) & (
        gap <= _disc_radius_mm(detections) + COIN_RADIUS_MM + CONTACT_SLACK_MM
    ), gap


def _knocked_into(
    xy: np.ndarray, hitter_xy: np.ndarray, step: np.ndarray, contact_mm: float, centre: np.ndarray
) -> bool:
    """Whether a piece lying at `xy`, met by a hitter found at `hitter_xy` having come `step`
    since the look before, runs into the hole whose centre is `centre`: away from where they
    met (`_where_met`), or along a cushion it is pressed against."""
    met_at = _where_met(hitter_xy, step, xy, contact_mm)
    away = (xy - met_at) / max(float(np.hypot(*(xy - met_at))), 1e-9)
    return _runs_into(xy, _along_a_pinning_cushion(xy, away), centre)


def _where_met(hitter_xy: np.ndarray, step: np.ndarray, xy: np.ndarray, contact_mm: float) -> np.ndarray:
    """Where a hitter found at `hitter_xy`, having come `step` since the look before, first came
    within `contact_mm` of the piece at `xy`; the nearest its path came, if never that near."""
    start = hitter_xy - step
    offset = start - xy
    a = float(np.dot(step, step))
    if a < 1e-9:
        return hitter_xy
    b = float(np.dot(offset, step))
    c = float(np.dot(offset, offset)) - contact_mm**2
    if c <= 0.0:  # already in contact at the look before
        return start
    disc = b * b - a * c
    if disc >= 0.0:
        t = (-b - disc**0.5) / a
        if 0.0 <= t <= 1.0:
            return start + t * step
    return start + float(np.clip(-b / a, 0.0, 1.0)) * step


def _along_a_pinning_cushion(xy: np.ndarray, heading: np.ndarray) -> np.ndarray:
    """`heading` of a piece at `xy` knocked that way, or, where that is into a cushion the
    piece is pressed against (`PINNED_SLACK_MM`), along that cushion."""
    run = heading.astype(float).copy()
    pinned_from = COIN_CUSHION_STOP_MM - PINNED_SLACK_MM
    for axis in (0, 1):
        if abs(float(xy[axis])) >= pinned_from and run[axis] * np.sign(xy[axis]) > 0.0:
            run[axis] = 0.0
    length = float(np.hypot(*run))
    return run / length if length > 1e-9 else heading


def _runs_into(xy: np.ndarray, heading: np.ndarray, centre: np.ndarray) -> bool:
    """Whether the line from `xy` along the unit vector `heading` runs into the hole whose
    centre is `centre`: ahead, and passing within `CAPTURE_MM` of it."""
    along = float(np.dot(centre - xy, heading))
    miss = float(np.hypot(*(centre - xy - along * heading)))
    return along > 0.0 and miss <= CAPTURE_MM


def _closest_approach_mm(xy: np.ndarray, velocity: np.ndarray, dt: float) -> np.ndarray:
    """(N, 4): how near each piece's path (rows of `xy`, `velocity`) comes to each pocket's
    centre within the lookahead (`LOOKAHEAD_FRAMES` looks `dt` apart)."""
    steps = np.linspace(0.0, LOOKAHEAD_FRAMES * dt, 9)
    path = xy[:, None, :] + steps[None, :, None] * velocity[:, None, :]
    return np.linalg.norm(path[:, :, None, :] - _CENTRES[None, None, :, :], axis=3).min(axis=1)


def flying_past_pocket(xy: np.ndarray, velocity: np.ndarray) -> np.ndarray:
    """Per piece (rows of `xy`, `velocity`): seen past the surface's edge beyond its nearest
    pocket's hole (`PAST_HOLE_MM`) and moving away from that pocket at a flight's speed: in the
    air, sailing over the pocket (in the truth of development videos 9308 and 9317 whites
    jumped off the break at 5 to 6 m/s and crossed a corner 38 and 56 mm from the pocket's
    centre: one seen there and then lost would have been taken to drop in). A piece falling
    in is seen over the hole, not past it; the frame's rail stops one that is not in the air."""
    xy, velocity = np.atleast_2d(xy), np.atleast_2d(velocity)
    if not len(xy):
        return np.zeros(0, bool)
    to_centres = xy[:, None, :] - _CENTRES[None, :, :]
    from_centre = to_centres[np.arange(len(xy)), np.argmin(np.linalg.norm(to_centres, axis=2), axis=1)]
    distance = np.linalg.norm(from_centre, axis=1)
    outward = np.einsum("ij,ij->i", velocity, from_centre) / np.maximum(distance, 1e-9)
    return ~on_playing_surface(xy) & (distance > PAST_HOLE_MM) & (outward >= FLIGHT_SPEED_MM_S)


def _where_they_went(
    xy: np.ndarray, velocity: np.ndarray, dt: float
) -> list[tuple[str | None, tuple[float, float]] | None]:
    """Per piece (rows of `xy`, `velocity`), were it gone from view: (pocket, last seen), the
    pocket its path ran into or whose mouth it lay in, or pocket None when it was last seen in
    the air past the surface's edge; None if neither (hidden, missed, or gone where the watch
    cannot tell)."""
    if not len(xy):
        return []
    closest = _closest_approach_mm(xy, velocity, dt)
    k = np.argmin(closest, axis=1)
    rows = np.arange(len(xy))
    # A corner pocket's hole reaches past the surface's edge: a piece seen over it is falling
    # in, not flying over the frame. One seen past the hole, over the frame, flying on away
    # from it, sailed over the pocket.
    into = (closest[rows, k] <= CAPTURE_MM) | (np.linalg.norm(xy - _CENTRES[k], axis=1) <= MOUTH_MM)
    into &= ~flying_past_pocket(xy, velocity)
    # Past the surface's edge and moving: in the air, over the frame. Lying still out there:
    # not a piece of the game.
    flying = ~on_playing_surface(xy) & (np.hypot(velocity[:, 0], velocity[:, 1]) >= FLIGHT_SPEED_MM_S)
    out: list[tuple[str | None, tuple[float, float]] | None] = []
    for n in rows:
        seen = (float(xy[n, 0]), float(xy[n, 1]))
        out.append((POCKETS[int(k[n])], seen) if into[n] else (None, seen) if flying[n] else None)
    return out
