"""Small builders for match logs in the rules tests: a log is a list of plain event dicts."""

from __future__ import annotations

from typing import Any

from rules.engine import Ruling, replay
from rules.log import MatchLog, parse_log
from rules.rulesets import Ruleset
from rules.score import score_log
from rules.state import MatchState

SINGLES = {"S": "Asha", "N": "Ben"}
DOUBLES = {"S": "Asha", "E": "Chen", "N": "Ben", "W": "Dev"}


def stroke(*pocketed: str, **fields: Any) -> dict[str, Any]:
    return {"type": "stroke", "pocketed": list(pocketed), **fields}


def miss(**fields: Any) -> dict[str, Any]:
    """A stroke that touches a coin and pockets nothing: the turn passes."""
    return {"type": "stroke", "pocketed": [], **fields}


def make_log(
    events: list[dict[str, Any]],
    *,
    seats: dict[str, str] | None = None,
    first_break: str = "Asha",
    rules: str = "icf",
) -> MatchLog:
    seats = seats or SINGLES
    return parse_log(
        {
            "schema": "carrom-match-log/1",
            "rules": rules,
            "event": "doubles" if len(seats) == 4 else "singles",
            "seats": seats,
            "first_break": first_break,
            "events": events,
        }
    )


def run(
    events: list[dict[str, Any]], ruleset: Ruleset | None = None, **kw: Any
) -> tuple[MatchState, tuple[Ruling, ...]]:
    log = make_log(events, **kw)
    return replay(log, ruleset)


def last(events: list[dict[str, Any]], ruleset: Ruleset | None = None, **kw: Any) -> Ruling:
    """The ruling on the last event."""
    return run(events, ruleset, **kw)[1][-1]


def report(events: list[dict[str, Any]], ruleset: Ruleset | str | None = None, **kw: Any):
    return score_log(make_log(events, **kw), ruleset)


# Openings: the breaker (Asha, white) pockets k whites at the break and keeps the turn.
def white_opening(k: int) -> list[dict[str, Any]]:
    return [stroke(*(["white"] * k))]


def to_ben_with(white_pocketed: int, black_pocketed: int) -> list[dict[str, Any]]:
    """Asha pockets `white_pocketed` whites, misses; Ben pockets `black_pocketed` blacks (Ben to play)."""
    events: list[dict[str, Any]] = []
    events.append(stroke(*(["white"] * white_pocketed)) if white_pocketed else miss())
    if white_pocketed:
        events.append(miss())
    if black_pocketed:
        events.append(stroke(*(["black"] * black_pocketed)))
    return events


def position(white_left: int, black_left: int, queen: str = "on_board") -> list[dict[str, Any]]:
    """Events that leave Asha (white) to play with these coins left on the board.

    `queen`: "on_board", "asha" / "ben" (covered by that player), or "asha_awaiting" (Asha has
    just pocketed it and must cover in this stroke).
    """
    whites = ["white"] * (9 - white_left)
    blacks = ["black"] * (9 - black_left)
    events: list[dict[str, Any]] = []
    asha_first = whites + (["queen"] if queen == "asha" else [])
    events.append(stroke(*asha_first) if asha_first else miss())
    if asha_first:
        events.append(miss())
    ben_first = blacks + (["queen"] if queen == "ben" else [])
    events.append(stroke(*ben_first) if ben_first else miss())
    if ben_first:
        events.append(miss())
    if queen == "asha_awaiting":
        events.append(stroke("queen"))
    return events


def asha_leads(points: int = 24) -> list[dict[str, Any]]:
    """Two boards of game 1 that put Asha on 24 and Ben on 0; board 3 follows, Asha to break.

    Board 1: Asha breaks, covers the queen with two whites (97(b)) and clears: 9 + 3 = 12.
    Board 2: Ben breaks and misses; Asha (black) does the same: 12 more.
    """
    if points != 24:
        raise ValueError("only 24 is built")
    return [
        stroke("queen", "white", "white"),
        stroke(*(["white"] * 7)),
        miss(),
        stroke("queen", "black", "black"),
        stroke(*(["black"] * 7)),
    ]
