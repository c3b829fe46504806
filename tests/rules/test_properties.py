"""Properties of the engine over random legal logs (rules.random_play), for every ruleset."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import apply, start
from rules.log import parse_log
from rules.random_play import CALM, ROUGH, Dice, random_log
from rules.rulesets import BASIC, ECC, ICF, Ruleset
from rules.score import score_log

RULESETS = st.sampled_from([ICF, ECC, BASIC])
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


DICE = st.sampled_from([CALM, ROUGH])


def _log(seed: int, doubles: bool, ruleset: Ruleset, dice: Dice = CALM):
    return random_log(seed, doubles=doubles, ruleset=ruleset, dice=dice, max_events=1500)


@SETTINGS
@given(seed=st.integers(0, 10**6), doubles=st.booleans(), ruleset=RULESETS, dice=DICE)
def test_coins_are_conserved(seed: int, doubles: bool, ruleset: Ruleset, dice: Dice) -> None:
    """Nine of each colour and one queen: every stroke moves exactly what fell and what went back."""
    log = _log(seed, doubles, ruleset, dice)
    state = start(log, ruleset)
    for event in log.events:
        before = state.board
        state, ruling = apply(state, event)
        after = state.board
        if after is None or before is None or ruling.board_end is not None or ruling.game_end is not None:
            continue
        for colour in ("white", "black"):
            # A board in play has coins of both colours: a side whose last coin is gone has
            # completed (52(a)), whether it fell or stayed in the pocket unplaced (83, 87(a)).
            assert 1 <= after.on_board(colour) <= 9, (event, ruling.text)
            if event.type == "stroke" and ruling.board_end is None:
                fell = event.pocketed.count(colour)
                expected = before.on_board(colour) - fell + ruling.to_place.count(colour)
                assert after.on_board(colour) == expected, (event, ruling.text)
        queen_places = [after.queen.where == "on_board", after.queen.where in ("awaiting_cover", "covered")]
        assert sum(queen_places) == 1
        if event.type == "stroke" and "queen" in event.pocketed:
            assert ruling.to_place.queen == (after.queen.where == "on_board")


@SETTINGS
@given(seed=st.integers(0, 10**6), doubles=st.booleans(), ruleset=RULESETS, dice=DICE)
def test_boards_capped_and_totals_never_fall(seed: int, doubles: bool, ruleset: Ruleset, dice: Dice) -> None:
    report = score_log(_log(seed, doubles, ruleset, dice), ruleset)
    for game in report.games:
        running = dict.fromkeys(report.sides, 0)
        for board in game.boards:
            raw = board.queen + board.coins + board.extra
            cap = ruleset.board_cap
            assert board.points == (raw if cap is None else min(raw, cap))
            if cap is not None:
                assert board.points <= cap
            if board.winner is not None:
                running[board.winner] += board.points
            for side in report.sides:
                assert board.totals[side] >= 0
            assert board.totals == running
        assert game.points == running


@SETTINGS
@given(seed=st.integers(0, 10**6), doubles=st.booleans(), ruleset=RULESETS, dice=DICE)
def test_a_game_ends_exactly_when_the_laws_say(
    seed: int, doubles: bool, ruleset: Ruleset, dice: Dice
) -> None:
    """56: a game ends on reaching the target, or after the last board with a leader."""
    report = score_log(_log(seed, doubles, ruleset, dice), ruleset)

    def over(totals: dict[str, int], counted: int) -> bool:
        if max(totals.values()) >= ruleset.game_points:
            return True
        if ruleset.boards_per_game is None or counted < ruleset.boards_per_game:
            return False
        return len(set(totals.values())) == 2 or not ruleset.extra_board_on_tie

    for game in report.games:
        counted = 0
        ends = []
        for board in game.boards:
            counted += not board.replayed and board.winner is not None
            ends.append(not board.replayed and board.winner is not None and over(board.totals, counted))
        finished = game.winner is not None or (game is not report.games[-1]) or report.winner is not None
        if finished:
            assert ends[-1] and not any(ends[:-1])
        else:
            assert not any(ends)
    assert len(report.games) <= ruleset.games_per_match


@SETTINGS
@given(seed=st.integers(0, 10**6), doubles=st.booleans(), ruleset=RULESETS, dice=DICE)
def test_replaying_a_log_is_deterministic(seed: int, doubles: bool, ruleset: Ruleset, dice: Dice) -> None:
    log = _log(seed, doubles, ruleset, dice)
    first = score_log(log, ruleset)
    again = score_log(parse_log(json.loads(log.model_dump_json(by_alias=True, exclude_none=True))), ruleset)
    assert first == again
    assert _log(seed, doubles, ruleset, dice) == log
