"""Seeded random legal match logs, for property tests and the benchmark.

The generator plays a match through the engine: before each stroke it asks the state what is
on the board (so a stroke never pockets a coin that is not there, nor the queen twice) and
draws what falls. Now and then it adds the other kinds of event (a foul, a placing that
leaves a due off, a forgo, a replayed board, a stroke out of turn under ECC). The log is
whatever the dice gave: it is legal, not good carrom.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.engine import apply, new_match
from rules.log import MatchLog, parse_log
from rules.rulesets import ICF, Ruleset
from rules.state import MatchState

SINGLES_SEATS = {"S": "Asha", "N": "Ben"}
DOUBLES_SEATS = {"S": "Asha", "E": "Chen", "N": "Ben", "W": "Dev"}


@dataclass(frozen=True)
class Dice:
    """How often things happen, per stroke."""

    pocket_own: float = 0.35  # at least one own coin falls
    pocket_opp: float = 0.08
    queen: float = 0.08  # the queen falls when it is on the board
    striker: float = 0.06
    improper: float = 0.03
    overboard: float = 0.02
    miss_break: float = 0.1  # a break attempt that touches nothing
    foul: float = 0.01  # a foul event before the stroke
    forgo: float = 0.2  # the entitled player forgoes what is owed
    short_placing: float = 0.05  # a `placed` event that leaves something off (83, 96)
    replay: float = 0.002
    out_of_turn: float = 0.0


CALM = Dice()
# Long boards: few coins fall, so a 3-game match runs to hundreds of strokes.
SLOW = Dice(pocket_own=0.2, pocket_opp=0.03, queen=0.04, striker=0.03, improper=0.02)
# Everything that can go wrong, often: strokes out of turn, fouls, improper strokes.
ROUGH = Dice(
    pocket_opp=0.15, queen=0.12, striker=0.12, improper=0.1, overboard=0.06, foul=0.03,
    short_placing=0.15, replay=0.005, out_of_turn=0.01,
)  # fmt: skip


def _stroke(rng: random.Random, state: MatchState, dice: Dice) -> dict[str, Any]:
    board = state.board
    if board is None:
        raise ValueError("the match is over")
    player = board.turn
    own = state.colour_of(player)
    opp = "black" if own == "white" else "white"
    left = {"white": board.white_on_board, "black": board.black_on_board}
    if not board.broken and rng.random() < dice.miss_break:
        return {"type": "stroke", "pocketed": [], "touched": False}
    pocketed: list[str] = []
    if left[own] and rng.random() < dice.pocket_own:
        pocketed += [own] * min(left[own], 1 + int(rng.random() < 0.3) + int(rng.random() < 0.1))
    if left[opp] and rng.random() < dice.pocket_opp:
        pocketed.append(opp)
    queen_on = board.queen.where == "on_board"
    if queen_on and rng.random() < dice.queen:
        pocketed.append("queen")
        queen_on = False
    if rng.random() < dice.striker:
        pocketed.append("striker")
    rng.shuffle(pocketed)
    overboard: list[str] = []
    if rng.random() < dice.overboard:
        candidates = [c for c in ("white", "black") if left[c] - pocketed.count(c) > 0]
        if queen_on:
            candidates.append("queen")
        candidates.append("striker")
        item = rng.choice(candidates)
        if item != "striker" or "striker" not in pocketed:
            overboard.append(item)
    event: dict[str, Any] = {"type": "stroke", "pocketed": pocketed}
    if overboard:
        event["overboard"] = overboard
    if rng.random() < dice.improper:
        event["improper"] = rng.choice(["push", "thumbing", "elbow", "striker_position"])
    if rng.random() < dice.out_of_turn:
        others = [name for name in state.table.order if name != player]
        event["player"] = rng.choice(others)
    return event


def random_events(
    seed: int,
    *,
    doubles: bool = False,
    ruleset: Ruleset = ICF,
    dice: Dice = CALM,
    max_events: int = 20_000,
) -> tuple[dict[str, Any], ...]:
    """The events of one random legal match (played to its end unless `max_events` stops it)."""
    from rules.log import parse_log as _parse  # the same validation a file gets

    rng = random.Random(seed)
    seats = DOUBLES_SEATS if doubles else SINGLES_SEATS
    state = new_match(seats, "Asha", doubles=doubles, ruleset=ruleset)
    events: list[dict[str, Any]] = []

    def push(event: dict[str, Any]) -> None:
        nonlocal state
        model = _parse(
            {"schema": "carrom-match-log/1", "seats": seats, "first_break": "Asha",
             "event": "doubles" if doubles else "singles", "events": [event]}
        ).events[0]  # fmt: skip
        state, _ = apply(state, model)
        events.append(event)

    while not state.over and len(events) < max_events:
        board = state.board
        if board is None:
            break
        if board.broken and rng.random() < dice.replay:
            push({"type": "replay"})
            continue
        if board.broken and rng.random() < dice.foul:
            offender = rng.choice(state.table.order)
            push({"type": "foul", "player": offender, "reason": "touched_a_coin"})
            continue
        push(_stroke(rng, state, dice))
        if state.over or state.board is None:
            break
        owed = state.to_place()
        if owed.empty:
            continue
        if owed.placer is not None and (owed.white or owed.black) and rng.random() < dice.forgo:
            push({"type": "forgo", "player": owed.placer})
        elif rng.random() < dice.short_placing:
            items = ["white"] * max(owed.white - 1, 0) + ["black"] * owed.black
            push({"type": "placed", "items": items})
    return tuple(events)


def random_log(
    seed: int,
    *,
    doubles: bool = False,
    ruleset: Ruleset = ICF,
    dice: Dice = CALM,
    max_events: int = 20_000,
) -> MatchLog:
    """A random legal match log (`carrom-match-log/1`), the same for the same arguments."""
    events = random_events(seed, doubles=doubles, ruleset=ruleset, dice=dice, max_events=max_events)
    return parse_log(
        {
            "schema": "carrom-match-log/1",
            "rules": ruleset.name if ruleset.name in ("icf", "ecc", "basic") else "icf",
            "event": "doubles" if doubles else "singles",
            "seats": DOUBLES_SEATS if doubles else SINGLES_SEATS,
            "first_break": "Asha",
            "events": list(events),
        }
    )
