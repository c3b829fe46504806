"""Score a match log: `score_log(log) -> MatchReport`, the ICF score card as data (XIX).

A fold of the engine over the log's events: one ruling per event, grouped into boards and
games as the engine decided them. A board's `points` = `queen` + `coins` + `extra` after the
per-board cap (55); `totals` are the running game totals after it (the Grand Total column).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.engine import Ruling, apply, start
from rules.log import MatchLog
from rules.report import BoardResult, GameResult, MatchReport, StrokeRuling, ToPlace
from rules.rulesets import Ruleset, resolve_ruleset
from rules.state import BoardState, FinishedBoard, GameState, MatchState, Table


def score_log(log: MatchLog, ruleset: Ruleset | str | None = None) -> MatchReport:
    """The match report of a parsed log, under `ruleset`: a Ruleset or a built-in name
    (default: the log's own `rules`, which must then be a built-in name; a log naming a
    variant file is scored with the Ruleset its caller read from that file).
    """
    rules = resolve_ruleset(ruleset if ruleset is not None else log.rules)
    state = start(log, rules)
    rulings: list[Ruling] = []
    for event in log.events:
        state, ruling = apply(state, event)
        rulings.append(ruling)
    return build_report(state, rulings)


def build_report(state: MatchState, rulings: Sequence[Ruling]) -> MatchReport:
    """The report of a match state reached through `rulings` (all of them, from the start)."""
    table = state.table
    by_game: dict[int, list[Ruling]] = {}
    for ruling in rulings:
        by_game.setdefault(ruling.game, []).append(ruling)
    games = list(state.games)
    if state.game is not None:
        games.append(state.game)
    game_results = [_game(table, game, by_game.get(game.number, [])) for game in games]
    # A game with no event yet (the next one, just started) is not on the card.
    game_results = [
        g for g, game in zip(game_results, games, strict=True) if game.over or by_game.get(game.number)
    ]
    names = table.side_names
    return MatchReport(
        rules=table.ruleset.name,
        sides=names,
        winner=names[state.winner] if state.winner is not None else None,
        games=tuple(game_results),
    )


def _game(table: Table, game: GameState, rulings: Sequence[Ruling]) -> GameResult:
    names = table.side_names
    buckets: list[list[Ruling]] = [[]]
    for ruling in rulings:
        buckets[-1].append(ruling)
        if ruling.board_end is not None or ruling.game_end is not None:
            buckets.append([])
    boards = [_board(table, finished, bucket) for finished, bucket in zip(game.boards, buckets, strict=False)]
    if game.board is not None and len(buckets) > len(game.boards) and buckets[len(game.boards)]:
        boards.append(_board_in_play(table, game, game.board, buckets[len(game.boards)]))
    return GameResult(
        number=game.number,
        winner=names[game.winner] if game.winner is not None else None,
        points={names[side]: game.totals[side] for side in (0, 1)},
        boards=tuple(boards),
    )


def _strokes(rulings: Sequence[Ruling]) -> tuple[StrokeRuling, ...]:
    return tuple(
        StrokeRuling(
            index=r.index,
            player=r.player,
            turn_continues=r.turn_continues,
            to_place=ToPlace(white=r.to_place.white, black=r.to_place.black, queen=r.to_place.queen),
            laws=r.laws,
            ruling=r.text,
        )
        for r in rulings
    )


def _board(table: Table, finished: FinishedBoard, rulings: Sequence[Ruling]) -> BoardResult:
    names = table.side_names
    outcome = finished.outcome
    return BoardResult(
        number=finished.number,
        break_by=finished.breaker,
        white=names[finished.white_side],
        winner=names[outcome.winner] if outcome.winner is not None else None,
        queen=outcome.queen,
        coins=outcome.coins,
        extra=outcome.extra,
        points=outcome.points,
        totals={names[side]: finished.totals[side] for side in (0, 1)},
        replayed=outcome.replayed,
        strokes=_strokes(rulings),
    )


def _board_in_play(
    table: Table, game: GameState, board: BoardState, rulings: Sequence[Ruling]
) -> BoardResult:
    """A board the log stops in the middle of: no winner yet."""
    names = table.side_names
    return BoardResult(
        number=board.number,
        break_by=board.breaker,
        white=names[board.white_side],
        winner=None,
        totals={names[side]: game.totals[side] for side in (0, 1)},
        strokes=_strokes(rulings),
    )
