"""Score card renderers (law XIX) on a hand-built report: JSON, CSV and the printable HTML card."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.render import RENDERERS, render_csv, render_html, render_json
from rules.report import MatchReport

CARD = Path(__file__).resolve().parents[1] / "data" / "sample-match.card.yaml"


def report_from_card(sides: tuple[str, str] = ("Asha", "Ben")) -> MatchReport:
    """The golden card as a report, with two made-up rulings per board (no engine involved).

    `sides` renames the two players, to check that names are escaped everywhere.
    """
    card = yaml.safe_load(CARD.read_text(encoding="utf-8"))
    rename = dict(zip(card["sides"], sides, strict=True))

    def named(value: str | None) -> str | None:
        return rename.get(value, value) if value is not None else None

    games = []
    for game in card["games"]:
        boards = []
        for board in game["boards"]:
            first, last = board["events"]
            strokes = [
                {
                    "index": first,
                    "player": named(board["break_by"]),
                    "turn_continues": True,
                    "laws": ["44", "48"],
                    "ruling": "break made; pocketed own coin & the turn continues",
                },
                {
                    "index": last,
                    "player": named(board["winner"]),
                    "turn_continues": False,
                    "to_place": {"white": 1, "black": 0, "queen": True},
                    "laws": ["52a"],
                    "ruling": "last coin pocketed <board over>",
                },
            ]
            fields = {key: value for key, value in board.items() if key != "events"}
            fields |= {
                "break_by": named(board["break_by"]),
                "white": named(board["white"]),
                "winner": named(board["winner"]),
                "totals": {named(side): total for side, total in board["totals"].items()},
                "strokes": strokes,
            }
            boards.append(fields)
        points = {named(side): total for side, total in game["points"].items()}
        games.append(
            {"number": game["number"], "winner": named(game["winner"]), "points": points, "boards": boards}
        )
    return MatchReport.model_validate(
        {"rules": "icf", "sides": list(sides), "winner": named(card["winner"]), "games": games}
    )


@pytest.fixture(scope="module")
def report() -> MatchReport:
    return report_from_card()


def test_json_is_the_report_document(report: MatchReport) -> None:
    data = json.loads(render_json(report))
    assert data == report.to_data()
    assert data["schema"] == "carrom-match-report/1"
    assert MatchReport.model_validate(data) == report


def test_csv_has_one_row_per_board_with_each_sides_card_columns(report: MatchReport) -> None:
    rows = list(csv.DictReader(io.StringIO(render_csv(report))))
    boards = [(game, board) for game in report.games for board in game.boards]
    assert len(rows) == len(boards) == 12
    for row, (game, board) in zip(rows, boards, strict=True):
        assert (int(row["game"]), int(row["board"])) == (game.number, board.number)
        assert row["break by"] == board.break_by and row["winner"] == board.winner
        loser = next(side for side in report.sides if side != board.winner)
        assert int(row[f"{board.winner} points"]) == board.points
        assert int(row[f"{board.winner} queen"]) == board.queen
        assert int(row[f"{board.winner} c/m"]) == board.coins
        assert int(row[f"{loser} points"]) == int(row[f"{loser} queen"]) == int(row[f"{loser} c/m"]) == 0
        for side in report.sides:
            assert int(row[f"{side} grand total"]) == board.totals[side]


def test_csv_quotes_awkward_names() -> None:
    report = report_from_card(("Asha, Jr.", 'Ben "Striker"'))
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert "Asha, Jr. grand total" in rows[0]
    assert rows[1][2] == "Asha, Jr."


def test_html_is_self_contained_and_printable(report: MatchReport) -> None:
    page = render_html(report)
    assert page.startswith("<!DOCTYPE html>")
    assert "<style>" in page and "@media print" in page
    assert not re.search(r"<script|<link|\ssrc=", page)
    for heading in ("Board No.", "Break by", "Queen", "No. of C/m", "Grand Total"):
        assert heading in page


def test_html_has_a_card_row_and_an_opening_list_of_rulings_per_board(report: MatchReport) -> None:
    page = render_html(report)
    assert page.count("<table class='card'>") == 3
    assert page.count("<details>") == 12
    assert page.count("<li value=") == 24
    assert "law 44, 48" in page and "law 52a" in page
    # The last board of game 3 closes on 26 : 10 in the Grand Total columns.
    assert "Game won by Asha</td><td colspan='3'>26</td><td colspan='3'>10</td>" in page


def test_html_has_the_icf_cards_heading_and_signature_fields(report: MatchReport) -> None:
    page = render_html(report)
    assert "<th>Event</th><td>Singles</td>" in page
    assert "<th>First break by</th><td>Asha</td>" in page
    for blank in ("Championship / tournament", "Round", "Umpire", "C/B no."):
        assert f"<th>{blank}</th><td></td>" in page
    assert "<b>Match won by Asha</b> (2 &ndash; 1)" in page
    assert "Loser&rsquo;s signature" in page and "Umpire&rsquo;s signature" in page
    doubles = render_html(report_from_card(("Asha & Ben", "Chen & Dev")))
    assert "<th>Event</th><td>Doubles</td>" in doubles


def test_html_notes_the_cap_and_additional_points(report: MatchReport) -> None:
    page = render_html(report)
    assert page.count("capped at 12") == 1
    assert "1 additional" in page


def test_html_escapes_names_and_rulings() -> None:
    page = render_html(report_from_card(("<script>alert(1)</script>", "Ben & <b>Co</b>")))
    assert "<script>" not in page and "<b>Co</b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Ben &amp; &lt;b&gt;Co&lt;/b&gt;" in page
    assert "last coin pocketed &lt;board over&gt;" in page


def test_html_links_strokes_to_review_material(report: MatchReport) -> None:
    page = render_html(report, stroke_links={0: "review/stroke-0000.png", 8: "https://example.org/s?a=1&b=2"})
    assert "<a href='review/stroke-0000.png'>review</a>" in page
    assert "<a href='https://example.org/s?a=1&amp;b=2'>review</a>" in page
    assert page.count(">review</a>") == 2


def test_html_drops_links_that_could_run_code(report: MatchReport) -> None:
    page = render_html(report, stroke_links={0: "javascript:alert(1)", 8: "data:text/html,<b>x</b>"})
    assert "javascript:" not in page and "data:text" not in page


def test_html_marks_replayed_boards_and_unfinished_matches(report: MatchReport) -> None:
    game = report.games[0]
    replayed = game.boards[0].model_copy(update={"replayed": True, "winner": None})
    unfinished = report.model_copy(
        update={"winner": None, "games": (game.model_copy(update={"boards": (replayed,), "winner": None}),)}
    )
    page = render_html(unfinished)
    assert "<tr class='replayed'>" in page
    assert "Replayed: game 1 board 1" in page
    assert "match won by not decided" in page and "Game won by not finished" in page


class _TagBalance(HTMLParser):
    """Fails on a closing tag that does not close the innermost open element."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), doubles=st.booleans())
def test_renderers_agree_with_any_scored_random_match(seed: int, doubles: bool) -> None:
    """Whatever the engine reports, each card shows every board once with the report's figures."""
    random_play = pytest.importorskip("rules.random_play", reason="R1's random logs are not committed yet")
    from rules.score import score_log

    report = score_log(random_play.random_log(seed, doubles=doubles))
    boards = [(game, board) for game in report.games for board in game.boards]

    assert MatchReport.model_validate(json.loads(render_json(report))) == report

    rows = list(csv.DictReader(io.StringIO(render_csv(report))))
    assert len(rows) == len(boards)
    for row, (game, board) in zip(rows, boards, strict=True):
        assert (int(row["game"]), int(row["board"])) == (game.number, board.number)
        for side in report.sides:
            assert int(row[f"{side} grand total"]) == board.totals.get(side, 0)
            assert int(row[f"{side} points"]) == (board.points if board.winner == side else 0)

    page = render_html(report)
    checker = _TagBalance()
    checker.feed(page)
    checker.close()
    assert checker.open == []
    assert page.count("<details>") == sum(1 for _, board in boards if board.strokes)
    assert page.count("<li value=") == sum(len(board.strokes) for _, board in boards)
    assert page.count("<table class='card'>") == len(report.games)


def test_every_renderer_is_registered() -> None:
    assert set(RENDERERS) == {"json", "csv", "html"}
