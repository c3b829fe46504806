"""A whole simulated match: players strike, the physics moves the pieces, the rules engine
rules on every stroke and says what happens next, and the timeline records it all.

The engine (rules.engine) is the only judge: whose turn it is, what must be placed back and
by whom, when a board, a game or the match ends, who breaks next and which colour each side
plays. This module only acts out what it is told, so every generated match is legal by
construction, and its log scores to exactly the report built alongside it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.geometry import POCKETS, Seat
from rules.engine import Ruling, apply, new_match
from rules.log import LOG_SCHEMA, ConcedeEvent, PlacedEvent, StrokeEvent
from rules.rulesets import resolve_ruleset
from rules.score import build_report
from rules.state import MatchState
from samples.match.builder import TimelineBuilder
from samples.match.choreography import Pace, place_pieces, position_striker, set_up_board, stroke_hands
from samples.physics.params import PhysicsParams
from samples.physics.pieces import PieceSet, standard_pieces
from samples.physics.simulate import simulate_stroke
from samples.players.aim import Skill
from samples.players.arrange import break_layout, placement_spot
from samples.players.player import Player, plan_break, plan_stroke
from samples.timeline import ObjectState, Timeline

SINGLES_SEATS: dict[str, str] = {"S": "Asha", "N": "Ben"}
DOUBLES_SEATS: dict[str, str] = {"S": "Asha", "E": "Chen", "N": "Ben", "W": "Dev"}
# The umpire reaches in from a side no singles player sits at.
UMPIRE_SEAT: Seat = "E"
UMPIRE_SKIN = 5
DEFAULT_OVERSAMPLE = 4
# A board that drags on this long is conceded by the player then to strike (law 139), so a
# simulation always ends; at medium skill boards take 20 to 60 strokes.
MAX_STROKES_PER_BOARD = 150


@dataclass(frozen=True)
class StrokeRecord:
    event_index: int
    game: int
    board: int
    player: str
    seat: Seat
    break_shot: bool
    striker_start_mm: tuple[float, float]
    legal_position: bool
    first_frame: int
    last_frame: int
    touched: bool
    aimed_at: str | None  # the piece id the player meant to pot (None: no clear shot)
    aimed_pocket: str | None
    pocketed: tuple[dict[str, Any], ...]  # {"item", "id", "pocket", "frame"} in the order they fell
    # {"item", "id", "frame", "jump_frame", "gone_frame"} in the order they jumped: `frame`
    # the overboard moment (centre past the surface's edge), `jump_frame` the first frame
    # AIRBORNE, `gone_frame` the first OFF_BOARD (past the frame's outer edge)
    overboard: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class PlacementRecord:
    event_index: int | None  # the log's `placed` event; None for overboard pieces (law 65)
    reason: str  # "dues" (the engine's to_place) or "overboard"
    placer: str
    seat: Seat
    items: tuple[dict[str, Any], ...]  # {"id", "item", "xy_mm", "frame"}


@dataclass(frozen=True)
class BoardRecord:
    game: int
    board: int
    breaker: str
    first_frame: int
    last_frame: int
    strokes: int
    winner: str | None


@dataclass(frozen=True)
class MatchSimulation:
    seed: int
    timeline: Timeline
    match_log: dict[str, Any]  # carrom-match-log/1
    report: dict[str, Any]  # carrom-match-report/1, the engine's report of `match_log`
    strokes: tuple[StrokeRecord, ...]
    placements: tuple[PlacementRecord, ...]
    boards: tuple[BoardRecord, ...]
    bump_frames: tuple[int, ...]  # frames at which the camera is bumped (the renderer moves it)
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Seconds spent in the physics, the players' planning and in total, wall clock and CPU
    # time of this process (for samples.bench; not part of the truth, not reproducible).
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def truth_dict(self) -> dict[str, Any]:
        from samples.truth import match_truth

        return match_truth(self)


class _Match:
    """The running state of one simulation (private to simulate_match)."""

    def __init__(self, seed: int, builder: TimelineBuilder, state: MatchState, players: dict[str, Player],
                 rng: np.random.Generator, params: PhysicsParams, pace: Pace) -> None:  # fmt: skip
        self.seed = seed
        self.builder = builder
        self.state = state
        self.players = players
        self.rng = rng
        self.params = params
        self.pace = pace
        self.pieces: PieceSet = builder.pieces
        self.events: list[Any] = []
        self.rulings: list[Ruling] = []
        self.strokes: list[StrokeRecord] = []
        self.placements: list[PlacementRecord] = []
        self.boards: list[BoardRecord] = []
        self.pocketed_at: dict[int, int] = {}  # piece -> sample it went in (latest first out)
        self.board_start = 0
        self.board_strokes = 0
        self.timings = {"physics_s": 0.0, "physics_cpu_s": 0.0, "planning_s": 0.0}

    # -- the engine ----------------------------------------------------------------------------
    def rule(self, event: Any) -> Ruling:
        self.state, ruling = apply(self.state, event)
        self.events.append(event)
        self.rulings.append(ruling)
        return ruling

    def seat_of(self, name: str) -> Seat:
        return UMPIRE_SEAT if name not in self.players else self.state.seat_of(name)

    def skin_of(self, name: str) -> int:
        return self.players[name].skin if name in self.players else UMPIRE_SKIN

    # -- one stroke -------------------------------------------------------------------------------
    def targets(self, player: str) -> list[int]:
        """What the player aims at: own colour, and the queen once worth going for."""
        pieces, layout, state = self.pieces, self.builder.layout, self.state
        on = layout.on_board()
        own = [i for i in pieces.of_class(state.colour_of(player)) if on[i]]
        side = state.table.side_of[player]
        board = state.board
        queen_free = state.queen_on_board() and bool(on[pieces.queen])
        wants_queen = board is not None and (board.ever_pocketed[side] or len(own) <= 2)
        if queen_free and (wants_queen or not own):
            own.append(pieces.queen)
        return own

    def stroke(self) -> Ruling:
        state, pieces, builder, rng = self.state, self.pieces, self.builder, self.rng
        turn = state.turn()
        board = state.board
        if board is None:
            raise RuntimeError("no board in play: the match loop struck after the match ended")
        player = dataclasses.replace(self.players[turn.player], seat=turn.seat)
        layout = builder.layout
        on = layout.on_board()
        on[pieces.striker] = False
        started = time.perf_counter()
        if not board.broken:
            planned = plan_break(player, pieces, layout.xy_mm, on, rng)
        else:
            planned = plan_stroke(
                player, pieces, layout.xy_mm, on, self.targets(turn.player), rng, self.params
            )
        shot = planned.shot
        planned_at = time.perf_counter()
        self.timings["planning_s"] += planned_at - started
        position_striker(builder, turn.seat, player.skin, shot.striker_xy, shot.velocity, rng, self.pace)
        velocity = np.zeros((pieces.count, 2))
        velocity[pieces.striker] = shot.velocity
        physics_at, physics_cpu = time.perf_counter(), time.process_time()
        result = simulate_stroke(
            pieces, builder.layout, velocity, sample_rate=builder.sample_rate, rng=rng, params=self.params
        )
        self.timings["physics_s"] += time.perf_counter() - physics_at
        self.timings["physics_cpu_s"] += time.process_time() - physics_cpu
        hands = stroke_hands(builder, turn.seat, player.skin, shot.striker_xy, shot.velocity, rng, self.pace)
        strike = builder.stroke(result, hands[: result.num_samples])
        builder.hold(len(hands) - result.num_samples, hands[result.num_samples :])
        last_frame = builder.frame_of(strike + result.num_samples - 1)
        pocketed = []
        for event in result.pocketed:
            self.pocketed_at[event.piece] = strike + event.sample
            pocketed.append({
                "item": pieces.classes[event.piece],
                "id": pieces.ids[event.piece],
                "pocket": POCKETS[event.pocket],
                "frame": builder.frame_of(strike + event.sample),
            })  # fmt: skip
        # `frame`: the overboard moment, the frame whose exposure ends with the piece's centre
        # past the surface's edge (what a recorder can see and puts in its log); the truth
        # also has the frames it was lifted (AIRBORNE) and cleared the frame (OFF_BOARD).
        overboard = [
            {
                "item": pieces.classes[e.piece],
                "id": pieces.ids[e.piece],
                "frame": builder.frame_of(strike + e.sample),
            }
            for e in result.overboard
        ]
        flights = [
            {
                **entry,
                "jump_frame": builder.frame_of(strike + e.jump_sample),
                "gone_frame": builder.frame_of(strike + e.gone_sample),
            }
            for entry, e in zip(overboard, result.overboard, strict=True)
        ]
        builder.hold(builder.seconds(float(rng.uniform(*self.pace.settle))))
        touched = result.first_contact is not None
        evidence = {
            "first_frame": builder.frame_of(strike),
            "last_frame": last_frame,
            "striker_start_mm": [round(float(v), 2) for v in shot.striker_xy],
            "striker_side": turn.seat,
            "pocketed": pocketed,
            "overboard": overboard,
            "legal_position": planned.legal_position,
        }
        event = StrokeEvent(
            type="stroke",
            player=turn.player,
            pocketed=tuple(p["item"] for p in pocketed),
            overboard=tuple(o["item"] for o in overboard),
            touched=touched,
            improper=None if planned.legal_position else "striker_position",
            evidence=evidence,
        )
        index = len(self.events)
        ruling = self.rule(event)
        self.strokes.append(
            StrokeRecord(
                event_index=index,
                game=ruling.game,
                board=ruling.board,
                player=turn.player,
                seat=turn.seat,
                break_shot=not board.broken,
                striker_start_mm=(float(shot.striker_xy[0]), float(shot.striker_xy[1])),
                legal_position=planned.legal_position,
                first_frame=evidence["first_frame"],
                last_frame=last_frame,
                touched=touched,
                aimed_at=None if shot.target is None else pieces.ids[shot.target],
                aimed_pocket=None if shot.pocket is None else POCKETS[shot.pocket],
                pocketed=tuple(pocketed),
                overboard=tuple(flights),
            )
        )
        self.board_strokes += 1
        if ruling.board_end is None and ruling.game_end is None and not ruling.match_end:
            self.return_overboard(result.overboard, turn.player)
        if any(e.piece == pieces.striker for e in result.overboard):
            builder.set_piece(pieces.striker, None, ObjectState.ABSENT)
        return ruling

    # -- putting pieces back ------------------------------------------------------------------------
    def return_overboard(self, overboard: Sequence[Any], striker_player: str) -> None:
        """Law 65: the umpire puts jumped coins and the queen in the centre circle, the
        queen first; nothing in the log (the laws require it, the engine counts on it)."""
        pieces = [e.piece for e in overboard if e.piece != self.pieces.striker]
        pieces.sort(key=lambda i: i != self.pieces.queen)
        if pieces:
            self.put_back(pieces, "umpire", "overboard", None)

    def put_back(
        self, pieces: list[int], placer: str, reason: str, event_index: int | None
    ) -> list[dict[str, Any]]:
        builder = self.builder
        spots = []
        for piece in pieces:
            layout = builder.layout.with_piece(piece, None, int(ObjectState.ABSENT))
            for earlier, spot in spots:
                layout = layout.with_piece(earlier, spot, int(ObjectState.ON_BOARD))
            # Dues and penalties go inside the outer circle but off the centre circle (89(b));
            # the queen and jumped coins go into the centre circle (65(a), 93).
            is_due = reason == "dues" and piece != self.pieces.queen
            spot = placement_spot(
                self.pieces, layout, piece, self.rng, centre_first=True, keep_off_centre=is_due
            )
            spots.append((piece, spot))
        seat = self.seat_of(placer)
        landed = place_pieces(builder, seat, self.skin_of(placer), spots, self.rng, self.pace)
        items = [
            {
                "id": self.pieces.ids[piece],
                "item": self.pieces.classes[piece],
                "xy_mm": [round(float(spot[0]), 2), round(float(spot[1]), 2)],
                "frame": builder.frame_of(sample),
            }
            for (piece, spot), sample in zip(spots, landed, strict=True)
        ]
        self.placements.append(PlacementRecord(event_index, reason, placer, seat, tuple(items)))
        return items

    def _in_pocket(self, cls: str, count: int) -> list[int]:
        layout = self.builder.layout
        gone = [i for i in self.pieces.of_class(cls) if layout.state[i] == ObjectState.IN_POCKET]
        gone.sort(key=lambda i: -self.pocketed_at.get(i, -1))
        return gone[:count]

    def place_owed(self) -> None:
        """What the engine says must go back (dues, penalties, the queen), by whom it says."""
        owed = self.state.to_place()
        if owed.empty:
            return
        items: list[dict[str, Any]] = []
        if owed.queen:
            # ICF 93: the umpire; the self-umpired texts leave it to the players.
            placer = owed.queen_placer or "umpire"
            if placer != "umpire" and placer not in self.players:
                placer = self.state.turn().player
            items += self.put_back(self._in_pocket("queen", 1), placer, "dues", len(self.events))
        for colour in ("white", "black"):
            coins = self._in_pocket(colour, owed.count(colour))
            if coins:
                # ICF 78: the owner's opponent (in doubles the one on the striker's right).
                placer = owed.placer_of(colour)
                if placer not in self.players:
                    placer = self.state.turn().player
                items += self.put_back(coins, placer, "dues", len(self.events))
        evidence = {"placed": items}
        self.rule(PlacedEvent(type="placed", items=tuple(i["item"] for i in items), evidence=evidence))

    # -- boards ------------------------------------------------------------------------------------
    def end_board(self, ruling: Ruling, game: int, board: int, breaker: str) -> None:
        builder = self.builder
        outcome = ruling.board_end
        winner = None
        if outcome is not None and outcome.winner is not None:
            winner = self.state.table.side_names[outcome.winner]
        self.boards.append(
            BoardRecord(game, board, breaker, builder.frame_of(self.board_start),
                        builder.frame_of(max(builder.samples - 1, 0)), self.board_strokes, winner)
        )  # fmt: skip

    def new_board(self) -> None:
        turn = self.state.turn()
        target = break_layout(self.pieces, turn.seat)
        set_up_board(self.builder, turn.seat, self.skin_of(turn.player), target, self.rng, self.pace)
        self.pocketed_at.clear()
        self.board_start = self.builder.samples
        self.board_strokes = 0


def _check_arguments(
    boards: int, fps: float, oversample: int, event: str, illegal_rate: float, max_strokes: int
) -> None:
    if boards < 1:
        raise ValueError(f"boards: at least 1, got {boards}")
    if fps <= 0 or oversample < 1:
        raise ValueError(f"fps must be positive and oversample at least 1, got {fps} and {oversample}")
    if event not in ("singles", "doubles"):
        raise ValueError(f"event: singles or doubles, got {event!r}")
    if not 0.0 <= illegal_rate <= 1.0:
        raise ValueError(f"illegal_placement_rate: a probability in 0..1, got {illegal_rate}")
    if max_strokes < 1:
        raise ValueError(f"max_strokes_per_board: at least 1, got {max_strokes}")


def simulate_match(
    seed: int,
    boards: int = 1,
    fps: float = 30.0,
    oversample: int = DEFAULT_OVERSAMPLE,
    event: str = "singles",
    skill: float | Sequence[float] = 0.6,
    illegal_placement_rate: float = 0.0,
    finish_game: bool = False,
    ruleset: str = "icf",
    camera_bumps_s: Sequence[float] = (),
    max_strokes_per_board: int = MAX_STROKES_PER_BOARD,
    params: PhysicsParams | None = None,
    pace: Pace | None = None,
) -> MatchSimulation:
    """Simulate `boards` boards of a match (or more, to the end of the game, with
    `finish_game`; never past the end of the match). Everything is drawn from `seed`.

    `skill` is one level (0..1) for every player or one per player in seat order S, E, N, W.
    `camera_bumps_s` are times (seconds) at which the renderer should bump the camera.
    """
    began, began_cpu = time.perf_counter(), time.process_time()
    _check_arguments(boards, fps, oversample, event, illegal_placement_rate, max_strokes_per_board)
    rng = np.random.default_rng(seed)
    seats = dict(DOUBLES_SEATS if event == "doubles" else SINGLES_SEATS)
    names = [seats[s] for s in ("S", "E", "N", "W") if s in seats]
    levels = [float(skill)] * len(names) if np.isscalar(skill) else [float(v) for v in skill]  # type: ignore[arg-type]
    if len(levels) != len(names) or not all(0.0 <= v <= 1.0 for v in levels):
        raise ValueError(f"skill: one level in 0..1 or {len(names)} (one per player), got {skill}")
    skins = rng.permutation(UMPIRE_SKIN)[: len(names)]
    players = {
        name: Player(name, seat, Skill(level), illegal_placement_rate, int(skin))
        for (seat, name), level, skin in zip(
            [(s, seats[s]) for s in ("S", "E", "N", "W") if s in seats], levels, skins, strict=True
        )
    }
    first_break = names[int(rng.integers(len(names)))]
    state = new_match(seats, first_break, doubles=event == "doubles", ruleset=resolve_ruleset(ruleset))
    pieces = standard_pieces()
    builder = TimelineBuilder(pieces, fps * oversample, oversample, break_layout(pieces, state.turn().seat))
    builder.hold(builder.seconds(1.0))
    match = _Match(seed, builder, state, players, rng, params or PhysicsParams(), pace or Pace())
    boards_done = 0
    while not match.state.over:
        board = match.state.board
        game = match.state.game_number
        if board is None:  # the engine ended the match
            break
        if match.board_strokes >= max_strokes_per_board:
            ruling = match.rule(ConcedeEvent(type="concede", player=match.state.turn().player, scope="board"))
        else:
            ruling = match.stroke()
        ended = ruling.board_end is not None or ruling.game_end is not None or ruling.match_end
        if not ended:
            match.place_owed()
            continue
        match.end_board(ruling, game, board.number, board.breaker)
        boards_done += 1
        if match.state.over or (boards_done >= boards and (not finish_game or ruling.game_end is not None)):
            break
        match.new_board()
    builder.hold(builder.seconds(1.0))
    builder.pad_to_frame()
    timeline = builder.timeline()
    log = {
        "schema": LOG_SCHEMA,
        "rules": ruleset,
        "event": event,
        "seats": seats,
        "first_break": first_break,
        "events": [e.model_dump(mode="json", exclude_none=True) for e in match.events],
    }
    report = build_report(match.state, match.rulings).to_data()
    bumps = tuple(
        sorted({min(int(round(t * fps)), timeline.num_frames - 1) for t in camera_bumps_s if t >= 0})
    )
    return MatchSimulation(
        seed=seed,
        timeline=timeline,
        match_log=log,
        report=report,
        strokes=tuple(match.strokes),
        placements=tuple(match.placements),
        boards=tuple(match.boards),
        bump_frames=bumps,
        players={
            p.name: {
                "seat": p.seat,
                "skill": p.skill.level,
                "skin": p.skin,
                "illegal_placement_rate": p.illegal_placement_rate,
            }
            for p in players.values()
        },
        timings={
            **match.timings,
            "total_s": time.perf_counter() - began,
            "total_cpu_s": time.process_time() - began_cpu,
        },
    )


__all__ = ["BoardRecord", "MatchSimulation", "PlacementRecord", "StrokeRecord", "simulate_match"]
