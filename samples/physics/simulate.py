"""One stroke of physics: from the strike until every piece is at rest or gone.

The simulator steps at the timeline's sample rate. Inside a step every disc moves in a
straight line and the step is cut at each event (pooltool's event loop, with linear motion
inside a short step instead of exact curved trajectories): find the earliest contact,
advance everything to it, resolve it, repeat. Friction is applied half before and half
after each step, as a constant deceleration mu * g along the velocity, so a disc's path
length matches the exact one to a fraction of a millimetre.

Pocket model: a disc whose centre is over a pocket's hole for `drop_time_s` falls (it
tips over the rim); a fast one crosses the hole before that, hits the frame beside it and
comes back out (a rattle). Overboard: hard impacts may lift the struck coin over the frame
(seeded, rare). A lifted piece is AIRBORNE: it flies in a straight line at a constant
horizontal speed (see PhysicsParams.jump_min_speed_m_s), touches nothing and falls into no
pocket, crosses the surface's edge (the overboard moment) and is OFF_BOARD once its centre
is past the frame's outer edge. Its flight draws nothing from the generator and never
changes how the pieces left on the board move: those follow exactly the paths they would
if the piece had vanished at the impact. Nothing here knows the laws; the stroke result
lists what happened and the rules engine rules on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import (
    FRAME_BREADTH_RANGE_MM,
    HALF_SURFACE_MM,
    POCKET_CENTRE_OFFSET_MM,
    POCKET_RADIUS_MM,
    pocket_centres,
)
from samples.physics.contact import (
    circle_entry_times,
    circle_exit_time,
    cushion_contact_times,
    pair_contact_times,
)
from samples.physics.params import PhysicsParams
from samples.physics.pieces import PieceSet
from samples.physics.vec import dot, norm
from samples.timeline import ObjectState

ON_BOARD = int(ObjectState.ON_BOARD)
FALLING = int(ObjectState.FALLING)
IN_POCKET = int(ObjectState.IN_POCKET)
OFF_BOARD = int(ObjectState.OFF_BOARD)
AIRBORNE = int(ObjectState.AIRBORNE)
# Free slides are advanced in closed form up to this many samples at a time.
MAX_GLIDE_SAMPLES = 24
# A flying piece is OFF_BOARD once its centre is past the frame's outer edge. The physics
# does not know the breadth of the frame a video draws (the renderer picks it in the ICF
# range from its own seed), so it uses the widest allowed: the piece has cleared any frame.
FLIGHT_OUT_MM = HALF_SURFACE_MM + FRAME_BREADTH_RANGE_MM[1]
NORTH = np.array([0.0, 1.0])


@dataclass(frozen=True)
class Layout:
    """Where each piece is between strokes: positions (NaN when not on the board), state
    (samples.timeline.ObjectState) and pocket index (into geometry.POCKETS, else -1)."""

    xy_mm: np.ndarray  # (N, 2) float64
    state: np.ndarray  # (N,) uint8
    pocket_of: np.ndarray  # (N,) int8

    def on_board(self) -> np.ndarray:
        return self.state == ON_BOARD

    def with_piece(self, piece: int, xy_mm: np.ndarray | None, state: int, pocket: int = -1) -> Layout:
        xy = self.xy_mm.copy()
        st = self.state.copy()
        pk = self.pocket_of.copy()
        xy[piece] = np.nan if xy_mm is None else np.asarray(xy_mm, dtype=float)
        st[piece] = state
        pk[piece] = pocket
        return Layout(xy, st, pk)


@dataclass(frozen=True)
class PocketEvent:
    piece: int
    pocket: int  # index into geometry.POCKETS
    fall_sample: int  # the sample at which it tipped into the hole (starts FALLING)
    sample: int  # the first sample at which it is IN_POCKET (gone)


@dataclass(frozen=True)
class OverboardEvent:
    piece: int
    jump_sample: int  # the first sample at which it is AIRBORNE (the impact that lifted it)
    sample: int  # the overboard moment: the first sample its centre is past the surface's edge
    gone_sample: int  # the first sample at which it is OFF_BOARD (past the frame's outer edge)


@dataclass(frozen=True)
class _Flight:
    """A piece in the air: where and when (seconds from the strike) it left the surface."""

    start_xy: np.ndarray
    start_s: float
    velocity: np.ndarray  # mm/s, constant
    jump_sample: int


@dataclass(frozen=True)
class StrokeResult:
    """Samples 0..T-1 at the sample rate; sample 0 is the moment of the strike."""

    xy_mm: np.ndarray  # (T, N, 2) float32, NaN where not on/over the board (AIRBORNE: shown)
    state: np.ndarray  # (T, N) uint8
    pocket_of: np.ndarray  # (T, N) int8
    vel_mm_s: np.ndarray  # (T, N, 2) float32, zero unless on the board and moving
    pocketed: tuple[PocketEvent, ...]  # in the order the pieces fell
    overboard: tuple[OverboardEvent, ...]  # in the order the pieces jumped
    first_contact: int | None  # the first piece the striker touched
    collisions: int
    final: Layout

    @property
    def num_samples(self) -> int:
        return int(self.state.shape[0])


class _Stroke:
    """The mutable state of one stroke in progress (private to `simulate_stroke`)."""

    def __init__(
        self,
        pieces: PieceSet,
        start: Layout,
        velocity: np.ndarray,
        params: PhysicsParams,
        rng: np.random.Generator,
        sample_rate: float,
    ) -> None:
        self.pieces = pieces
        self.params = params
        self.rng = rng
        self.h = 1.0 / sample_rate
        self.fall_samples = max(1, round(params.fall_animation_s * sample_rate))
        self.pos = np.where(np.isnan(start.xy_mm), 0.0, start.xy_mm).astype(float)
        self.vel = np.where(start.on_board()[:, None], np.asarray(velocity, dtype=float), 0.0)
        self.state = start.state.astype(np.uint8).copy()
        self.pocket = start.pocket_of.astype(np.int8).copy()
        self.radius = pieces.radius_mm.astype(float)
        self.mass = pieces.mass_g.astype(float)
        self.limit = HALF_SURFACE_MM - self.radius
        self.holes = pocket_centres()
        self.hole = np.full(pieces.count, -1, dtype=int)  # the hole a centre is over
        self.over_time = np.zeros(pieces.count)
        self.falling: dict[int, tuple[np.ndarray, int]] = {}  # piece -> (start xy, start sample)
        self.pocketed: list[PocketEvent] = []
        self.flights: dict[int, _Flight] = {}
        self.edge_sample: dict[int, int] = {}  # flying piece -> sample it passed the surface's edge
        self.overboard: dict[int, OverboardEvent] = {}  # landed pieces, keyed in the order they jumped
        self.jumped: list[int] = []
        self.now = 0.0  # seconds since the strike of the contact being resolved
        self.first_contact: int | None = None
        self.collisions = 0
        self.sample = 0
        self.decel = params.deceleration_mm_s2
        self.striker = pieces.striker
        for i in np.flatnonzero(self.state == ON_BOARD):
            inside = np.linalg.norm(self.holes - self.pos[i], axis=1) < POCKET_RADIUS_MM
            if inside.any():
                self.hole[i] = int(np.argmax(inside))

    # -- friction --------------------------------------------------------------------
    def _friction(self, dt: float) -> None:
        vel = self.vel
        speed = np.hypot(vel[:, 0], vel[:, 1])
        moving = speed > 0.0
        if not moving.any():
            return
        left = np.maximum(speed[moving] - self.decel * dt, 0.0)
        left[left < self.params.rest_speed_mm_s] = 0.0
        vel[moving] *= (left / speed[moving])[:, None]

    # -- one step with its events ----------------------------------------------------
    def _advance(self, dt: float) -> None:
        events = 0
        corner = POCKET_CENTRE_OFFSET_MM - POCKET_RADIUS_MM
        while True:
            active = np.flatnonzero(self.state == ON_BOARD)
            vel = self.vel[active]
            moving = (vel[:, 0] != 0.0) | (vel[:, 1] != 0.0)
            over = active[self.hole[active] >= 0]
            if not moving.any() and over.size == 0:
                return
            best = dt
            kind: tuple | None = None
            if moving.any():
                pos = self.pos[active]
                rows = np.flatnonzero(moving)
                pairs = pair_contact_times(pos, vel, self.radius[active], rows)
                k = int(np.argmin(pairs))
                if pairs.flat[k] < best:
                    r, j = divmod(k, active.size)
                    best, kind = float(pairs.flat[k]), ("pair", int(active[rows[r]]), int(active[j]))
                mv = active[rows]
                mpos, mvel = pos[rows], vel[rows]
                walls = cushion_contact_times(mpos, mvel, self.limit[mv])
                k = int(np.argmin(walls))
                if walls.flat[k] < best:
                    m, axis = divmod(k, 2)
                    best, kind = float(walls.flat[k]), ("cushion", int(mv[m]), axis)
                # Only pieces that can reach a corner's hole within the step are checked.
                reach = (
                    np.minimum(np.abs(mpos[:, 0]), np.abs(mpos[:, 1])) + np.hypot(mvel[:, 0], mvel[:, 1]) * dt
                )
                near = (reach > corner) & (self.hole[mv] < 0)
                if near.any():
                    entry = circle_entry_times(mpos[near], mvel[near], self.holes, POCKET_RADIUS_MM)
                    k = int(np.argmin(entry))
                    if entry.flat[k] < best:
                        m, hole = divmod(k, len(self.holes))
                        best, kind = float(entry.flat[k]), ("enter", int(mv[near][m]), hole)
            for i in over:
                fall = max(self.params.drop_time_s - self.over_time[i], 0.0)
                if fall < best:
                    best, kind = fall, ("fall", int(i))
                leave = circle_exit_time(self.pos[i], self.vel[i], self.holes[self.hole[i]], POCKET_RADIUS_MM)
                if leave < best:
                    best, kind = leave, ("leave", int(i))
            if best > 0.0:
                self.pos[active] += vel * best
                self.over_time[over] += best
            dt -= best
            if kind is None:
                return
            self.now = self.sample * self.h - dt
            self._resolve(kind)
            events += 1
            if events >= self.params.max_events_per_step:
                self._separate()
                return

    def _resolve(self, kind: tuple) -> None:
        name = kind[0]
        if name == "pair":
            self._collide(kind[1], kind[2])
        elif name == "cushion":
            self._bounce(kind[1], kind[2])
        elif name == "enter":
            self.hole[kind[1]] = kind[2]
            self.over_time[kind[1]] = 0.0
        elif name == "leave":
            self.hole[kind[1]] = -1
            self.over_time[kind[1]] = 0.0
        elif name == "fall":
            i = kind[1]
            self.state[i] = FALLING
            self.pocket[i] = self.hole[i]
            self.falling[i] = (self.pos[i].copy(), self.sample)
            self.vel[i] = 0.0
            self.hole[i] = -1

    def _collide(self, i: int, j: int) -> None:
        normal = self.pos[j] - self.pos[i]
        normal /= norm(normal)
        approach = float(dot(self.vel[i] - self.vel[j], normal))
        if approach <= 0.0:
            return
        with_striker = self.striker in (i, j)
        restitution = (
            self.params.striker_coin_restitution if with_striker else self.params.coin_coin_restitution
        )
        impulse = (1.0 + restitution) * approach / (1.0 / self.mass[i] + 1.0 / self.mass[j])
        self.vel[i] -= impulse / self.mass[i] * normal
        self.vel[j] += impulse / self.mass[j] * normal
        self.collisions += 1
        if with_striker:
            other = j if i == self.striker else i
            if self.first_contact is None:
                self.first_contact = other
            self._maybe_jump(other, approach)

    def _bounce(self, i: int, axis: int) -> None:
        normal_speed = abs(float(self.vel[i, axis]))
        incoming = self.vel[i].copy()
        side = np.sign(self.vel[i, axis]) or np.sign(self.pos[i, axis])
        self.pos[i, axis] = side * self.limit[i]
        self.vel[i, axis] *= -self.params.cushion_restitution
        self.vel[i, 1 - axis] *= self.params.cushion_tangent_keep
        # A disc that jumps here rides up over the frame instead of rebounding: it flies on
        # with the velocity it came in with.
        self._maybe_jump(i, normal_speed, incoming)

    def _maybe_jump(self, i: int, speed_mm_s: float, flight_mm_s: np.ndarray | None = None) -> None:
        """A hard impact (normal speed `speed_mm_s`) may lift piece i off the surface; it then
        flies with `flight_mm_s` (default: its velocity after the impact)."""
        excess = speed_mm_s / 1000.0 - self.params.jump_speed_m_s
        if excess <= 0.0:
            return
        chance = min(self.params.jump_probability_max, excess * self.params.jump_probability_per_m_s)
        if self.rng.random() < chance:
            velocity = (self.vel[i] if flight_mm_s is None else flight_mm_s).astype(float)
            speed = float(np.hypot(*velocity))
            least = self.params.jump_min_speed_m_s * 1000.0
            if speed < least:
                # Too slow to clear the frame soon: keep its direction (or, with none, head
                # straight away from the board's centre; north from the very centre) at the
                # least speed.
                away = self.pos[i] if np.any(self.pos[i] != 0.0) else NORTH
                direction = velocity / speed if speed > 0.0 else away / float(np.hypot(*away))
                velocity = direction * least
            self.state[i] = AIRBORNE
            self.vel[i] = 0.0
            self.hole[i] = -1
            self.flights[i] = _Flight(self.pos[i].copy(), self.now, velocity, self.sample)
            self.jumped.append(i)

    def _separate(self) -> None:
        """Last resort after too many events in one step: push overlapping discs apart."""
        active = np.flatnonzero(self.state == ON_BOARD)
        for a, i in enumerate(active):
            for j in active[a + 1 :]:
                gap = self.pos[j] - self.pos[i]
                dist = norm(gap)
                overlap = self.radius[i] + self.radius[j] - dist
                if overlap > 0.0 and dist > 0.0:
                    push = gap / dist * overlap
                    share = self.mass[j] / (self.mass[i] + self.mass[j])
                    self.pos[i] -= push * share
                    self.pos[j] += push * (1.0 - share)
        self.pos[active] = np.clip(self.pos[active], -self.limit[active, None], self.limit[active, None])

    # -- flying pieces ------------------------------------------------------------------------
    def _fly(self, sample: int) -> None:
        """Move every flying piece to where it is at `sample`; one past the frame's outer
        edge is OFF_BOARD from then on. Positions follow from the flight's start alone, so
        a glide over many samples and single steps put it at exactly the same places."""
        for i, flight in list(self.flights.items()):
            xy = flight.start_xy + flight.velocity * (sample * self.h - flight.start_s)
            reach = float(np.abs(xy).max())
            if reach > HALF_SURFACE_MM and i not in self.edge_sample:
                self.edge_sample[i] = sample
            if reach > FLIGHT_OUT_MM:
                self.state[i] = OFF_BOARD
                del self.flights[i]
                self.overboard[i] = OverboardEvent(i, flight.jump_sample, self.edge_sample.pop(i), sample)
            else:
                self.pos[i] = xy

    def step_flights(self) -> None:
        """One sample on for the flying pieces only, the board standing still: the stroke
        ran into its time cap while a piece was in the air, and the pieces on the board stop
        where the cap left them, as they did before pieces flew."""
        self.sample += 1
        self._fly(self.sample)

    def overboard_events(self) -> tuple[OverboardEvent, ...]:
        return tuple(self.overboard[i] for i in self.jumped if i in self.overboard)

    # -- the animation of falling pieces ---------------------------------------------------
    def _update_falling(self) -> None:
        for i, (start, begun) in list(self.falling.items()):
            progress = (self.sample - begun) / self.fall_samples
            if progress >= 1.0:
                self.state[i] = IN_POCKET
                del self.falling[i]
                self.pocketed.append(PocketEvent(i, int(self.pocket[i]), begun, self.sample))
            else:
                self.pos[i] = start + (self.holes[self.pocket[i]] - start) * progress

    def busy(self) -> bool:
        on = self.state == ON_BOARD
        return bool(np.any(self.vel[on] != 0.0) or np.any(self.hole[on] >= 0) or self.falling or self.flights)

    def event_free_samples(self, limit: int) -> int:
        """How many samples ahead (at most `limit`) no contact can happen: no disc can reach
        another, a cushion or a hole even at its present speed in any direction."""
        if self.falling or limit < 2:
            return 0
        active = np.flatnonzero(self.state == ON_BOARD)
        if np.any(self.hole[active] >= 0):
            return 0
        pos, vel = self.pos[active], self.vel[active]
        speed = np.hypot(vel[:, 0], vel[:, 1])
        moving = speed > 0.0
        if not moving.any():
            return 0
        fast = speed[moving]
        wall = (self.limit[active][moving, None] - np.abs(pos[moving])).min(axis=1)
        hole = np.linalg.norm(pos[moving, None, :] - self.holes[None], axis=-1).min(axis=1) - POCKET_RADIUS_MM
        radius = self.radius[active]
        rows = np.flatnonzero(moving)
        gap = np.linalg.norm(pos[rows, None, :] - pos[None, :, :], axis=-1) - (
            radius[rows, None] + radius[None, :]
        )
        closing = speed[rows, None] + speed[None, :]
        gap[np.arange(rows.size), rows] = np.inf
        horizon = min(float((wall / fast).min()), float((hole / fast).min()), float((gap / closing).min()))
        return int(min(limit, max(horizon / self.h * (1.0 - 1e-9), 0.0)))

    def glide(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """k samples of free sliding, in closed form (what k `step`s would give without
        events): each moving disc decelerates along its straight line."""
        xy, state, pocket, vel = self.snapshot()
        speed = np.hypot(self.vel[:, 0], self.vel[:, 1])
        moving = np.flatnonzero(speed > 0.0)
        unit = self.vel[moving] / speed[moving, None]
        v0 = speed[moving][None, :]
        t = (self.h * np.arange(1, k + 1))[:, None]
        # Sliding stops after v0 / decel; without friction (decel 0) it never does.
        run = np.minimum(t, v0 / self.decel) if self.decel > 0.0 else np.broadcast_to(t, (k, v0.shape[1]))
        travelled = v0 * run - 0.5 * self.decel * run * run
        left = v0 - self.decel * t
        left = np.where(left < self.params.rest_speed_mm_s, 0.0, left)
        xy_k = np.repeat(xy[None], k, 0)
        vel_k = np.repeat(vel[None], k, 0)
        positions = self.pos[moving][None] + unit[None] * travelled[..., None]
        xy_k[:, moving] = positions
        vel_k[:, moving] = unit[None] * left[..., None]
        self.pos[moving] = positions[-1]
        self.vel[moving] = unit * left[-1][:, None]
        state_k = np.repeat(state[None], k, 0)
        flying = list(self.flights)
        for j in range(k):
            self._fly(self.sample + 1 + j)
            for i in flying:
                state_k[j, i] = self.state[i]
                xy_k[j, i] = self.pos[i] if self.state[i] == AIRBORNE else np.nan
        self.sample += k
        return xy_k, state_k, np.repeat(pocket[None], k, 0), vel_k

    def step(self) -> None:
        self.sample += 1
        self._friction(self.h / 2.0)
        self._advance(self.h)
        self._friction(self.h / 2.0)
        self._update_falling()
        self._fly(self.sample)

    def snapshot(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        shown = (self.state == ON_BOARD) | (self.state == FALLING) | (self.state == AIRBORNE)
        xy = np.where(shown[:, None], self.pos, np.nan).astype(np.float32)
        pocket = np.where((self.state == FALLING) | (self.state == IN_POCKET), self.pocket, -1)
        vel = np.where((self.state == ON_BOARD)[:, None], self.vel, 0.0).astype(np.float32)
        return xy, self.state.copy(), pocket.astype(np.int8), vel


def simulate_stroke(
    pieces: PieceSet,
    start: Layout,
    velocity_mm_s: np.ndarray,
    *,
    sample_rate: float,
    rng: np.random.Generator,
    params: PhysicsParams | None = None,
) -> StrokeResult:
    """Simulate from `start` with the given initial velocities (N, 2) until all is at rest.

    Deterministic for the same inputs and the same generator state (the generator is only
    drawn from for overboard jumps). A stroke lasts until everything on the board is at rest
    and every flying piece is off the board.
    """
    stroke = _Stroke(pieces, start, velocity_mm_s, params or PhysicsParams(), rng, sample_rate)
    blocks = [tuple(part[None] for part in stroke.snapshot())]
    cap = int(stroke.params.max_stroke_s * sample_rate)
    while stroke.busy() and stroke.sample < cap:
        free = stroke.event_free_samples(min(MAX_GLIDE_SAMPLES, cap - stroke.sample))
        if free >= 2:
            blocks.append(stroke.glide(free))
        else:
            stroke.step()
            blocks.append(tuple(part[None] for part in stroke.snapshot()))
    while stroke.flights:
        stroke.step_flights()
        blocks.append(tuple(part[None] for part in stroke.snapshot()))
    xy, state, pocket, vel = (np.concatenate(parts) for parts in zip(*blocks, strict=True))
    final_xy = np.where((stroke.state == ON_BOARD)[:, None], stroke.pos, np.nan)
    final = Layout(
        final_xy, stroke.state.copy(), np.where(stroke.state == IN_POCKET, stroke.pocket, -1).astype(np.int8)
    )
    return StrokeResult(
        xy_mm=xy,
        state=state,
        pocket_of=pocket,
        vel_mm_s=vel,
        pocketed=tuple(stroke.pocketed),
        overboard=stroke.overboard_events(),
        first_contact=stroke.first_contact,
        collisions=stroke.collisions,
        final=final,
    )
