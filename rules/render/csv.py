"""The score card as CSV: one row per board, the ICF card's columns for each side.

Law XIX's card gives each side a Queen, a No. of C/m and a Grand Total column, with the
board's points entered for the winner and nil (0 here) for the other side. The first side
is the one that broke the match's first board, as in the report's `sides`.
"""

from __future__ import annotations

import csv
import io

from rules.report import BoardResult, MatchReport


def _side_columns(side: str) -> list[str]:
    return [f"{side} queen", f"{side} c/m", f"{side} extra", f"{side} points", f"{side} grand total"]


def _side_values(board: BoardResult, side: str) -> list[int]:
    won = board.winner == side
    return [
        board.queen if won else 0,
        board.coins if won else 0,
        board.extra if won else 0,
        board.points if won else 0,
        board.totals.get(side, 0),
    ]


def render_csv(report: MatchReport) -> str:
    first, second = report.sides
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = ["game", "board", "break by", "white", "winner"]
    writer.writerow([*head, *_side_columns(first), *_side_columns(second), "replayed"])
    for game in report.games:
        for board in game.boards:
            writer.writerow(
                [
                    game.number,
                    board.number,
                    board.break_by,
                    board.white,
                    board.winner or "",
                    *_side_values(board, first),
                    *_side_values(board, second),
                    "yes" if board.replayed else "no",
                ]
            )
    return out.getvalue()
