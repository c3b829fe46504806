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
