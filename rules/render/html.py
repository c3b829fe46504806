"""The score card as one printable, self-contained HTML page (inline CSS, no scripts).

Laid out like the ICF score card (law XIX): per game a table with Board No., Break by, and
for each side Queen, No. of C/m and Grand Total, the board's points entered for its winner
and "Nil" for the other side. Each board opens (<details>) to its strokes, the ruling on
each and the laws cited. Every name and ruling is escaped; a stroke may carry a link to
review material (images the video pipeline adds) given as `stroke_links`.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from urllib.parse import urlsplit

from rules.report import BoardResult, GameResult, MatchReport, StrokeRuling

# Only links that cannot run code in the reader's browser.
_SAFE_SCHEMES = frozenset({"", "http", "https", "file"})

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
.meta { color: #444; margin-top: 0; }
table.card { border-collapse: collapse; margin: 0.5em 0 1.5em; width: 100%; }
.card th, .card td { border: 1px solid #555; padding: 0.25em 0.5em; text-align: center; }
.card th { background: #eee; }
.card td.name { text-align: left; }
.card tr.replayed td { color: #777; text-decoration: line-through; }
.card td.strokes { text-align: left; border-top: none; background: #fafafa; }
.card tfoot td { font-weight: bold; }
details summary { cursor: pointer; color: #333; }
ol.strokes { margin: 0.3em 0; padding-left: 2.5em; }
ol.strokes li { margin: 0.15em 0; }
.laws { color: #555; font-size: 0.9em; }
.note { color: #555; font-size: 0.85em; }
table.header { border-collapse: collapse; margin: 0.5em 0 1em; }
.header th { text-align: left; padding: 0.15em 1em 0.15em 0; font-weight: normal; color: #444; }
.header td { padding: 0.15em 1em 0.15em 0; min-width: 12em; border-bottom: 1px dotted #888; }
.sign { display: flex; gap: 3em; margin-top: 2em; }
.sign div { flex: 1; border-top: 1px solid #555; padding-top: 0.2em; color: #444; }
@media print {
  body { margin: 0; }
  details summary { display: none; }
  .card td.strokes { display: none; }
}
"""


def _safe_link(url: str) -> str | None:
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        return None
    return url if scheme in _SAFE_SCHEMES else None


def _nil(value: int) -> str:
    return str(value) if value else "Nil"


def _stroke_item(stroke: StrokeRuling, links: Mapping[int, str]) -> str:
    """One ruling, numbered by its event index in the log; the ruling text itself says
    whether the turn continues and what is to be placed (the report requires it to)."""
    who = escape(stroke.player) if stroke.player else "&mdash;"
    laws = ", ".join(escape(law) for law in stroke.laws)
    cited = f" <span class='laws'>law {laws}</span>" if laws else ""
    link = ""
    url = links.get(stroke.index)
    if url is not None and _safe_link(url) is not None:
        link = f" <a href='{escape(url, quote=True)}'>review</a>"
    return f"<li value='{stroke.index}'><b>{who}</b>: {escape(stroke.ruling)}{cited}{link}</li>"


def _board_note(board: BoardResult) -> str:
    notes = []
    if board.replayed:
        notes.append("replayed")
    if board.extra:
        notes.append(f"{board.extra} additional")
    if board.points < board.queen + board.coins + board.extra:
        notes.append(f"capped at {board.points}")
    return f" <span class='note'>({escape('; '.join(notes))})</span>" if notes else ""


def _board_rows(board: BoardResult, sides: tuple[str, str], links: Mapping[int, str]) -> str:
    break_by = f"<td class='name'>{escape(board.break_by)}{_board_note(board)}</td>"
    cells = [f"<td>{board.number}</td>", break_by]
    for side in sides:
        won = board.winner == side
        cells.append(f"<td>{_nil(board.queen) if won else 'Nil'}</td>")
        cells.append(f"<td>{_nil(board.coins) if won else 'Nil'}</td>")
        cells.append(f"<td>{board.totals.get(side, 0)}</td>")
    row_class = " class='replayed'" if board.replayed else ""
    rows = [f"<tr{row_class}>{''.join(cells)}</tr>"]
    if board.strokes:
        items = "\n".join(_stroke_item(stroke, links) for stroke in board.strokes)
        white = escape(board.white)
        winner = f"won by {escape(board.winner)}" if board.winner else "no winner"
        summary = f"Board {board.number}: {len(board.strokes)} rulings; white: {white}; {winner}"
        rows.append(
            f"<tr><td class='strokes' colspan='8'><details><summary>{summary}</summary>"
            f"<ol class='strokes'>\n{items}\n</ol></details></td></tr>"
        )
    return "\n".join(rows)


def _game_table(game: GameResult, sides: tuple[str, str], links: Mapping[int, str]) -> str:
    first, second = (escape(side) for side in sides)
    head = (
        "<thead><tr><th rowspan='2'>Board No.</th><th rowspan='2'>Break by</th>"
        f"<th colspan='3'>{first}</th><th colspan='3'>{second}</th></tr>"
        "<tr>" + "<th>Queen</th><th>No. of C/m</th><th>Grand Total</th>" * 2 + "</tr></thead>"
    )
    body = "\n".join(_board_rows(board, sides, links) for board in game.boards)
    winner = escape(game.winner) if game.winner else "not finished"
    totals = "".join(f"<td colspan='3'>{game.points.get(side, 0)}</td>" for side in sides)
    foot = f"<tfoot><tr><td colspan='2'>Game won by {winner}</td>{totals}</tr></tfoot>"
    return f"<h2>Game {game.number}</h2>\n<table class='card'>{head}\n<tbody>\n{body}\n</tbody>{foot}</table>"


def _header(report: MatchReport) -> str:
    """The card's heading fields: what the report knows is filled in, the rest left to write."""
    opener = report.games[0].boards[0].break_by if report.games and report.games[0].boards else ""
    event = "Doubles" if any(" & " in side for side in report.sides) else "Singles"
    known = [("Event", event), ("Rules", report.rules), ("First break by", opener)]
    blank = ["Championship / tournament", "Round", "Date", "Match no.", "Umpire", "C/B no."]
    cells = [f"<tr><th>{escape(name)}</th><td>{escape(value)}</td></tr>" for name, value in known]
    cells += [f"<tr><th>{escape(name)}</th><td></td></tr>" for name in blank]
    return f"<table class='header'>{''.join(cells)}</table>"


def _remarks(report: MatchReport) -> str:
    replayed = [
        f"game {game.number} board {board.number}"
        for game in report.games
        for board in game.boards
        if board.replayed
    ]
    return f"<p class='note'>Replayed: {escape(', '.join(replayed))}</p>" if replayed else ""


def render_html(report: MatchReport, stroke_links: Mapping[int, str] | None = None) -> str:
    """The printable score card; `stroke_links` maps a log event index to a review URL."""
    links = stroke_links or {}
    first, second = (escape(side) for side in report.sides)
    title = f"{first} v {second}"
    winner = escape(report.winner) if report.winner else "not decided"
    games_won = {side: sum(1 for game in report.games if game.winner == side) for side in report.sides}
    score = " &ndash; ".join(str(games_won[side]) for side in report.sides)
    tables = "\n".join(_game_table(game, report.sides, links) for game in report.games)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Score card: {title}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>Score card: {title}</h1>
<p class="meta">Rules: {escape(report.rules)} &middot; games {score} &middot; match won by {winner}</p>
{_header(report)}
{tables}
{_remarks(report)}
<p><b>Match won by {winner}</b> ({score})</p>
<div class="sign"><div>Loser&rsquo;s signature</div><div>Umpire&rsquo;s signature</div></div>
</body>
</html>
"""
