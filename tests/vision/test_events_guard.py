"""The recorded log stays scorable: events the laws refuse are corrected or dropped, noted."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from vision.events.guard import ADJUSTED, EngineGuard


def started() -> EngineGuard:
    guard = EngineGuard("icf")
    guard.start({"S": "Asha", "N": "Ben"}, "Asha", doubles=False)
    return guard


def test_an_acceptable_event_passes_unchanged() -> None:
    guard = started()
    event = {"type": "stroke", "player": "Asha", "pocketed": ["white"], "touched": True}
    assert guard.admit(event) == event


def test_a_queen_placed_that_was_never_owed_is_left_out_and_noted() -> None:
    guard = started()
    guard.admit({"type": "stroke", "player": "Asha", "pocketed": [], "touched": True})
    admitted = guard.admit({"type": "placed", "items": ["queen"]})
    assert admitted is not None and admitted["items"] == []
    assert "queen" in admitted["evidence"][ADJUSTED][0]


def test_a_tenth_coin_pocketed_is_left_out() -> None:
    guard = started()
    admitted = guard.admit({"type": "stroke", "player": "Asha", "pocketed": ["white"] * 10, "touched": True})
    assert admitted is not None and admitted["pocketed"] == ["white"] * 9
    assert admitted["evidence"][ADJUSTED]


def test_a_bad_ruleset_is_refused_at_once() -> None:
    with pytest.raises(RulesError):
        EngineGuard("no-such-rules")
