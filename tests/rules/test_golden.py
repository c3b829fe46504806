"""Golden match: samples/logs/sample-match.yaml scored by the engine against its score card
worked out by hand from the ICF laws (tests/data/sample-match.card.yaml)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from rules.log import MatchLog, parse_log_text
from rules.report import MatchReport

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "samples" / "logs" / "sample-match.yaml"
CARD = ROOT / "tests" / "data" / "sample-match.card.yaml"
BOARD_FIGURES = ("number", "break_by", "white", "winner", "queen", "coins", "extra", "points", "totals")
CAP = 12  # law 55
GAME_POINTS = 25  # law 56a


@pytest.fixture(scope="module")
def card() -> dict:
    return yaml.safe_load(CARD.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def log() -> MatchLog:
    return parse_log_text(LOG.read_text(encoding="utf-8"), str(LOG))


@pytest.fixture(scope="module")
def report(log: MatchLog) -> MatchReport:
    score = pytest.importorskip(
        "rules.score", reason="the rules engine (rules/score.py, R1) is not committed yet"
    )
    return score.score_log(log)


def test_the_hand_card_adds_up(card: dict) -> None:
    """The card's own arithmetic: a check on the hand computation, independent of the engine."""
    games_won = dict.fromkeys(card["sides"], 0)
    for game in card["games"]:
        running = dict.fromkeys(card["sides"], 0)
        for board in game["boards"]:
            assert board["points"] == min(CAP, board["queen"] + board["coins"] + board["extra"]), board
            running[board["winner"]] += board["points"]
            assert board["totals"] == running, board
            # Nobody reaches 25 before the last board of a game (56a).
            if board is not game["boards"][-1]:
                assert max(running.values()) < GAME_POINTS
        assert game["points"] == running
        assert max(running.values()) >= GAME_POINTS
        assert game["winner"] == max(running, key=running.__getitem__)
        games_won[game["winner"]] += 1
    assert games_won[card["winner"]] == 2 == max(games_won.values())


def test_the_hand_card_follows_the_break_order(card: dict, log: MatchLog) -> None:
    """Breaks alternate in a game (49a-i); game 2 opens with the other player, game 3 with the first."""
    first, second = log.first_break, next(p for p in log.players if p != log.first_break)
    openers = [first, second, first]
    for game, opener in zip(card["games"], openers, strict=True):
        other = second if opener == first else first
        for board in game["boards"]:
            expected = opener if board["number"] % 2 == 1 else other
            assert board["break_by"] == expected
            assert board["white"] == expected  # the breaker has white (43)


def test_the_hand_card_covers_every_event_once(card: dict, log: MatchLog) -> None:
    covered = [
        i
        for game in card["games"]
        for board in game["boards"]
        for i in range(board["events"][0], board["events"][1] + 1)
    ]
    assert covered == list(range(len(log.events)))


def test_engine_sides_and_winner(report: MatchReport, card: dict) -> None:
    assert report.rules == "icf"
    assert list(report.sides) == card["sides"]
    assert report.winner == card["winner"]
    assert [game.number for game in report.games] == [game["number"] for game in card["games"]]


@pytest.mark.parametrize("game_number", [1, 2, 3])
def test_engine_game_matches_the_hand_card(report: MatchReport, card: dict, game_number: int) -> None:
    expected = card["games"][game_number - 1]
    game = report.games[game_number - 1]
    assert (game.number, game.winner, game.points) == (
        expected["number"],
        expected["winner"],
        expected["points"],
    )
    assert len(game.boards) == len(expected["boards"])
    for board, want in zip(game.boards, expected["boards"], strict=True):
        got = {field: getattr(board, field) for field in BOARD_FIGURES}
        assert got == {field: want[field] for field in BOARD_FIGURES}, (
            f"game {game_number} board {want['number']}"
        )
        assert not board.replayed
        indices = [stroke.index for stroke in board.strokes]
        first, last = want["events"]
        assert indices == list(range(first, last + 1)), f"game {game_number} board {want['number']} rulings"


def _law_key(law: str) -> str:
    """ "72(a)", "72 (a)" and "72a" name the same law."""
    return "".join(ch for ch in law if ch.isalnum()).lower()


def test_key_rulings_cite_the_laws_worked_out_by_hand(report: MatchReport, card: dict) -> None:
    boards = [board for game in report.games for board in game.boards]
    strokes = {stroke.index: stroke for board in boards for stroke in board.strokes}
    for index, want in card["rulings"].items():
        stroke = strokes[index]
        cited = {_law_key(law) for law in stroke.laws}
        missing = [law for law in want["laws"] if _law_key(str(law)) not in cited]
        assert not missing, f"event {index}: {stroke.ruling!r} cites {list(stroke.laws)}, not {missing}"
        if "to_place" in want:
            assert stroke.to_place.model_dump() == want["to_place"], f"event {index}"


def test_evidence_does_not_change_the_card(log: MatchLog, report: MatchReport) -> None:
    """The rules ignore `evidence`: the sample scores the same without it or with other evidence."""
    from rules.score import score_log

    def with_evidence(make: Callable[[int], dict | None]) -> MatchLog:
        events = tuple(event.model_copy(update={"evidence": make(i)}) for i, event in enumerate(log.events))
        return log.model_copy(update={"events": events})

    bare = with_evidence(lambda i: None)
    noisy = with_evidence(lambda i: {"frame": i})
    assert any(event.evidence for event in log.events)
    assert score_log(bare) == report == score_log(noisy)


def test_every_ruling_cites_a_law_and_says_what_happens(report: MatchReport) -> None:
    strokes = [stroke for game in report.games for board in game.boards for stroke in board.strokes]
    assert strokes
    for stroke in strokes:
        assert stroke.laws, stroke
        assert stroke.ruling.strip(), stroke
