"""Keeping the recorded log scorable: each event is ruled as it is recorded.

A vision mistake can make an event the laws cannot accept (a queen "placed" that was never
owed, a tenth white pocketed, a stroke after the match ended). A recorder must go on and
say so rather than write a log the rules reject as a whole: the event is corrected as
little as possible (the items the laws cannot accept are left out) or dropped, and what was
done is written into its evidence (`recorder_adjusted`). Strict when scoring a log written
by a person; tolerant while recording.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.engine import apply, new_match
from rules.errors import RulesError
from rules.log import Event
from rules.rulesets import Ruleset
from rules.state import MatchState
from vision.rulesets import load_ruleset

_EVENT = TypeAdapter(Event)
ADJUSTED = "recorder_adjusted"


class EngineGuard:
    def __init__(self, rules: str | Ruleset = "icf") -> None:
        # A built-in name, a variant file (read now) or a Ruleset: a bad or unreadable
        # ruleset is a user error at the start, not mid-match.
        self.ruleset = load_ruleset(rules)
        self.state: MatchState | None = None

    def start(self, seats: dict[str, str], first_break: str, doubles: bool) -> None:
        self.state = new_match(seats, first_break, doubles=doubles, ruleset=self.ruleset)

    def admit(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The event as it can be recorded (maybe with items left out), or None to drop it."""
        if self.state is None:
            return event
        for candidate in self._candidates(event):
            try:
                state, _ = apply(self.state, _EVENT.validate_python(candidate))
            except (RulesError, ValidationError):
                continue
            self.state = state
            return candidate
        return None

    def wins_board(self, event: dict[str, Any]) -> bool:
        """Whether the laws would end the board in play with a winner on this event (tried,
        not recorded)."""
        if self.state is None:
            return False
        try:
            _, ruling = apply(self.state, _EVENT.validate_python(event))
        except (RulesError, ValidationError):
            return False
        return ruling.board_end is not None and ruling.board_end.winner is not None

    def _candidates(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        """The event itself, then ever smaller corrections of it."""
        out = [event]
        field = "pocketed" if event["type"] == "stroke" else "items" if event["type"] == "placed" else None
        if field is None:
            return out
        items = list(event.get(field, []))
        for k in range(len(items) - 1, -1, -1):
            fewer = items[:k] + items[k + 1 :]
            out.append(
                _with_note(event, field, fewer, f"{items[k]} left out of {field}: the laws cannot accept it")
            )
        if len(items) > 1:
            out.append(
                _with_note(event, field, [], f"{', '.join(items)} left out of {field}: the laws refuse them")
            )
        if event["type"] == "stroke" and event.get("player") is not None:
            without_player = {k: v for k, v in event.items() if k != "player"}
            out.append(_note(without_player, "player left to the laws (whose turn it is)"))
        return out

    @property
    def turn(self) -> str | None:
        """Whose turn it is by the laws, as far as the recorded events go (None before the
        match is started or between boards)."""
        board = self.state.board if self.state is not None else None
        return board.turn if board is not None else None

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.over


def _with_note(event: dict[str, Any], field: str, items: list[str], note: str) -> dict[str, Any]:
    changed = dict(event)
    changed[field] = items
    return _note(changed, note)


def _note(event: dict[str, Any], note: str) -> dict[str, Any]:
    changed = dict(event)
    evidence = dict(changed.get("evidence") or {})
    evidence[ADJUSTED] = [*evidence.get(ADJUSTED, []), note]
    changed["evidence"] = evidence
    return changed
