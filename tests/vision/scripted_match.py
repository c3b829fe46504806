"""A tiny scripted match, written as a `samples.timeline.Timeline` with its exact truth.

Stroke inference is tested on timelines whose every stroke, pocketing and placement is
known exactly because the script says so: the striker is put down by hand, nudged, struck
at a coin that runs into a pocket, picked up again; coins are placed back by hand. The
motions are straight lines at constant speed: crude physics, exact truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.geometry import (
    BASE_LINE_MID_MM,
    COIN_RADIUS_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    STRIKER_RADIUS_MM,
    Seat,
    break_arrangement,
    pocket_centre,
    seat_normal,
    seat_to_board,
)
from samples.physics.params import PhysicsParams
from samples.timeline import HandPose, ObjectState, Timeline

IDS = tuple([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + ["Q", "S"])
CLASSES = tuple(["white"] * 9 + ["black"] * 9 + ["queen", "striker"])


@dataclass
class TruthStroke:
    seat: Seat
    striker_start: tuple[float, float]
    pocketed: list[tuple[str, str]] = field(default_factory=list)  # (item, pocket)
    overboard: list[str] = field(default_factory=list)
    touched: bool = True
    new_board: bool = False


@dataclass
class TruthPlacement:
    items: list[str]


class ScriptedMatch:
    def __init__(self, fps: float = 30.0, oversample: int = 1) -> None:
        self.fps = fps
        self.oversample = oversample
        n = len(IDS)
        self.xy = np.full((n, 2), np.nan)
        self.state = np.full(n, int(ObjectState.ABSENT), np.uint8)
        self.pocket = np.full(n, -1, np.int8)
        self.hands: tuple[HandPose, ...] = ()
        self._xy: list[np.ndarray] = []
        self._state: list[np.ndarray] = []
        self._pocket: list[np.ndarray] = []
        self._hands: list[tuple[HandPose, ...]] = []
        self.strokes: list[TruthStroke] = []
        self.placements: list[TruthPlacement] = []
        self._new_board = False
        self._pending: list[str] = []

    # -------------------------------------------------------------- time
    def _sample(self) -> None:
        for _ in range(self.oversample):
            self._xy.append(self.xy.astype(np.float32).copy())
            self._state.append(self.state.copy())
            self._pocket.append(self.pocket.copy())
            self._hands.append(self.hands)

    def wait(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds * self.fps))):
            self._sample()

    def index(self, object_id: str) -> int:
        return IDS.index(object_id)

    def move(self, targets: dict[str, tuple[np.ndarray, float]]) -> None:
        """Move objects in straight lines at constant speeds (mm/s) until all arrive."""
        starts = {k: self.xy[self.index(k)].copy() for k in targets}
        durations = {k: float(np.linalg.norm(np.asarray(t) - starts[k])) / v for k, (t, v) in targets.items()}
        frames = max(1, int(np.ceil(max(durations.values()) * self.fps)))
        for f in range(1, frames + 1):
            t = f / self.fps
            for k, (target, _) in targets.items():
                u = 1.0 if durations[k] == 0 else min(1.0, t / durations[k])
                self.xy[self.index(k)] = starts[k] + u * (np.asarray(target) - starts[k])
            self._sample()

    def slide(self, object_id: str, target: np.ndarray) -> None:
        """Slide an object from rest to `target` in a straight line, braked by the board's
        friction all the way (the generator's): set off as fast as stops it there."""
        k = self.index(object_id)
        start = self.xy[k].copy()
        distance = float(np.linalg.norm(np.asarray(target) - start))
        duration = float(np.sqrt(2.0 * distance / PhysicsParams().deceleration_mm_s2))
        frames = max(1, int(np.ceil(duration * self.fps)))
        for f in range(1, frames + 1):
            u = 1.0 if duration == 0.0 else 1.0 - (1.0 - min(1.0, f / self.fps / duration)) ** 2
            self.xy[k] = start + u * (np.asarray(target) - start)
            self._sample()

    # -------------------------------------------------------------- scenes
    def new_board(self, breaker_seat: Seat = "S") -> None:
        """Clear the board and set out the law-41 arrangement by hand."""
        self.state[:] = int(ObjectState.ABSENT)
        self.xy[:] = np.nan
        self.pocket[:] = -1
        self._pending = []
        self.wait(0.5)
        counters = {"white": 0, "black": 0, "queen": 0}
        for item, xy in break_arrangement(breaker_seat):
            counters[item] += 1
            oid = "Q" if item == "queen" else f"{item[0].upper()}{counters[item]}"
            k = self.index(oid)
            self.xy[k] = xy
            self.state[k] = int(ObjectState.ON_BOARD)
        self.hands = (HandPose(breaker_seat, (0.0, 0.0), _angle_from(breaker_seat), "place"),)
        self.wait(0.5)
        self.hands = ()
        self.wait(0.5)
        self._new_board = True

    def place(
        self,
        object_id: str,
        xy: tuple[float, float],
        seat: Seat = "N",
        speed: float = 300.0,
        from_mm: float = 120.0,
    ) -> None:
        """Put a carromman back by hand (held over the board `from_mm` towards `seat`, carried
        in at `speed`, then set down)."""
        k = self.index(object_id)
        self.xy[k] = np.asarray(xy) + seat_normal(seat) * from_mm
        self.state[k] = int(ObjectState.HELD)
        self.pocket[k] = -1
        self.hands = (HandPose(seat, tuple(self.xy[k]), _angle_from(seat), "place"),)
        self.move({object_id: (np.asarray(xy, dtype=float), speed)})
        self.state[k] = int(ObjectState.ON_BOARD)
        self.hands = (
            HandPose(seat, tuple(np.asarray(xy) + seat_normal(seat) * 30.0), _angle_from(seat), "place"),
        )
        self.wait(0.3)
        self.hands = ()
        self.wait(0.3)
        self._pending.append(CLASSES[k])

    def put_striker(
        self, seat: Seat, along: float, inward_offset: float = 0.0, nudge_mm: float = 12.0
    ) -> None:
        """The striker is brought by hand, put on the base lines and nudged into place."""
        k = self.index("S")
        spot = seat_to_board(seat, along, BASE_LINE_MID_MM + inward_offset)
        self.xy[k] = spot + seat_normal(seat) * 100.0
        self.state[k] = int(ObjectState.HELD)
        self.hands = (HandPose(seat, tuple(spot + seat_normal(seat) * 150.0), _angle_from(seat)),)
        self.move({"S": (spot + seat_normal(seat) * 0.0 + _along(seat) * nudge_mm, 250.0)})
        self.state[k] = int(ObjectState.ON_BOARD)
        self.wait(0.3)
        self.move({"S": (spot, 60.0)})  # the nudge into place: slow
        self.wait(0.4)

    def strike(
        self,
        seat: Seat,
        target: str | None = None,
        pocket: str | None = None,
        striker_pocket: str | None = None,
        overboard: str | None = None,
        speed: float = 2500.0,
        picked_up: bool = True,
        striker_end: tuple[float, float] | None = None,
        rest_s: float = 1.0,
        teeter_s: float = 0.0,
    ) -> None:
        """The striker leaves its spot; it hits `target`, which runs into `pocket` (or off the
        board), or it misses everything; then everything comes to rest (for `rest_s`) and the
        striker is picked up. `teeter_s`: the target stops over the pocket's mouth, its centre
        a few mm past the hole's edge, and lies there that long before it drops in."""
        s = self.index("S")
        start = self.xy[s].copy()
        truth = TruthStroke(seat, (float(start[0]), float(start[1])), new_board=self._new_board)
        if self._pending:
            self.placements.append(TruthPlacement(self._pending))
            self._pending = []
        self._new_board = False
        self.hands = ()
        if target is None:
            truth.touched = False
            end = start - seat_normal(seat) * 120.0  # stops short of the pieces round the centre
            if striker_end is None:
                self.slide("S", end)
            else:
                self.move({"S": (end, speed)})
        else:
            t = self.index(target)
            aim = self.xy[t] - start
            aim /= np.linalg.norm(aim)
            contact = self.xy[t] - aim * (STRIKER_RADIUS_MM + COIN_RADIUS_MM + 0.5)
            self.move({"S": (contact, speed)})
            if pocket is not None:
                mouth = pocket_centre(pocket)
                run_to = mouth
                if teeter_s > 0.0:
                    towards = (mouth - self.xy[t]) / np.linalg.norm(mouth - self.xy[t])
                    run_to = mouth - towards * (POCKET_RADIUS_MM + 4.0)  # over the hole's edge
                self.move({target: (run_to, speed * 0.6), "S": (contact + aim * 40.0, speed * 0.2)})
                if teeter_s > 0.0:
                    self.wait(teeter_s)
                self.state[t] = int(ObjectState.FALLING)
                self.pocket[t] = POCKETS.index(pocket)
                self.wait(2 / self.fps)
                self.state[t] = int(ObjectState.IN_POCKET)
                self.xy[t] = np.nan
                truth.pocketed.append((CLASSES[t], pocket))
            elif overboard is not None:
                beyond = self.xy[t] + aim * 600.0
                self.move({target: (beyond, speed * 0.6)})
                self.state[t] = int(ObjectState.OFF_BOARD)
                self.xy[t] = np.nan
                truth.overboard.append(CLASSES[t])
            else:
                self.move({target: (self.xy[t] + aim * 60.0, 500.0), "S": (contact + aim * 10.0, 100.0)})
        if striker_pocket is not None:
            self.move({"S": (pocket_centre(striker_pocket), speed * 0.5)})
            self.state[s] = int(ObjectState.FALLING)
            self.pocket[s] = POCKETS.index(striker_pocket)
            self.wait(2 / self.fps)
            self.state[s] = int(ObjectState.IN_POCKET)
            self.xy[s] = np.nan
            truth.pocketed.append(("striker", striker_pocket))
        if striker_end is not None:  # it rebounds and rolls there
            self.move({"S": (np.asarray(striker_end, dtype=float), speed * 0.3)})
        self.wait(rest_s)  # at rest
        self.strokes.append(truth)
        if not picked_up:
            return  # left lying where it stopped
        # The striker is picked up for the next stroke (or fished out of the pocket).
        self.state[s] = int(ObjectState.ABSENT)
        self.xy[s] = np.nan
        self.pocket[s] = -1
        self.wait(0.3)

    def due_put_back(self) -> None:
        """South pockets North's B3 (a due), North misses, and B3 is put back by hand."""
        self.put_striker("S", -60.0)
        self.strike("S", target="B3", pocket="SW")
        self.put_striker("N", 0.0)
        self.strike("N", target=None)
        self.place("B3", (0.0, 40.0))

    def timeline(self) -> Timeline:
        radius = np.array([STRIKER_RADIUS_MM if c == "striker" else COIN_RADIUS_MM for c in CLASSES])
        return Timeline(
            sample_rate=self.fps * self.oversample,
            oversample=self.oversample,
            ids=IDS,
            classes=CLASSES,
            xy_mm=np.stack(self._xy),
            state=np.stack(self._state),
            pocket_of=np.stack(self._pocket),
            hands=tuple(self._hands),
            radius_mm=radius,
        )


def _angle_from(seat: Seat) -> float:
    """A forearm reaching in from `seat`'s side points towards the board centre."""
    inward = -seat_normal(seat)
    return float(np.arctan2(inward[1], inward[0]))


def _along(seat: Seat) -> np.ndarray:
    return seat_to_board(seat, 1.0, 0.0)
