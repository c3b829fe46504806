"""The rules engine: `apply(state, event) -> (state, ruling)`, pure and deterministic.

The engine, not the log, decides whose turn it is, when a board ends, who breaks next, which
colour each side has and what must be placed back. Every ruling names the laws it applied,
numbered as in the ruleset's own text (`Ruleset.cite` translates from the ICF numbers the
code is written against), and says in plain words what happens.

Impossible logs (a 10th white pocketed, an unknown player, a stroke after the match ended)
raise `LogError` naming the event index and field.

Playing a legal match through the engine (what the simulator does)::

    state = new_match({"S": "Asha", "N": "Ben"}, first_break="Asha")
    while not state.match_over:
        turn = state.turn()                    # player, seat, side
        colour = state.colour_of(turn.player)  # "white" for the breaker's side (43)
        left = state.coins_on_board()          # {"white": n, "black": m}; queen: state.queen_status()
        event = StrokeEvent(type="stroke", pocketed=(...))   # rules.log models
        state, ruling = apply(state, event)
        owed = state.to_place()                # Placement: white/black/queen and who places them
        # ruling.board_end / ruling.game_end / ruling.match_end say what just ended.

`state.next_breaker()` names who breaks the next board; `state.dues_outstanding()` what is
owed but not yet available. Coin counts include what `to_place()` requires as already put back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.context import Context, Result
from rules.errors import LogError
from rules.events import rule_abandon, rule_concede, rule_forgo, rule_foul, rule_placed, rule_replay
from rules.rulesets import ICF, Ruleset
from rules.state import (
    NOTHING,
    QUEEN_ON_BOARD,
    BoardOutcome,
    BoardState,
    FinishedBoard,
    GameState,
    MatchState,
    Placement,
    Queen,
    Table,
    evolve,
    make_table,
)
from rules.strokes import rule_stroke


@dataclass(frozen=True)
class Ruling:
    """What the laws make of one event of the log."""

    index: int
    event: str  # the event's type
    player: str | None
    game: int
    board: int
    laws: tuple[str, ...]
    text: str
    turn_continues: bool
    to_place: Placement = NOTHING
    dues_outstanding: tuple[int, int] = (0, 0)
    queen: Queen = QUEEN_ON_BOARD
    next_turn: str | None = None
    board_end: BoardOutcome | None = None
    game_end: GameState | None = None
    match_end: bool = False


# --- starting a match ---------------------------------------------------------------------


def breaker_for(table: Table, game_number: int, board_index: int) -> str:
    """Who breaks the `board_index`-th counted board of a game (49).

    49(a): the toss winner breaks the first board of games 1 and 3, the other player (in
    doubles the next player in turn) the first of game 2; the break then passes alternately,
    and in doubles to the right (49(b)). Replayed boards keep their breaker.
    """
    first = table.first_break if game_number % 2 == 1 else table.next_player(table.first_break)
    breaker = first
    for _ in range(board_index - 1):
        breaker = table.next_player(breaker)
    return breaker


def _new_board(table: Table, number: int, breaker: str, *, toss: bool = False) -> BoardState:
    return BoardState(
        number=number, breaker=breaker, white_side=table.side_of[breaker], turn=breaker, toss_for_break=toss
    )


def _new_game(table: Table, number: int) -> GameState:
    breaker = breaker_for(table, number, 1)
    return GameState(number=number, first_breaker=breaker, board=_new_board(table, 1, breaker))


def new_match(
    seats: dict[str, str], first_break: str, *, doubles: bool = False, ruleset: Ruleset = ICF
) -> MatchState:
    """The state before the first event: game 1, board 1, `first_break` to break with white."""
    table = make_table(seats, first_break, doubles=doubles, ruleset=ruleset)
    return MatchState(table=table, game=_new_game(table, 1))


def start(log: Any, ruleset: Ruleset | None = None) -> MatchState:
    """The initial state for a parsed `MatchLog` (rules.log)."""
    return new_match(dict(log.seats), log.first_break, doubles=log.event == "doubles", ruleset=ruleset or ICF)


# --- the transition -------------------------------------------------------------------------


def apply(state: MatchState, event: Any) -> tuple[MatchState, Ruling]:
    """Rule one event (a `rules.log` event model, or anything with the same attributes)."""
    kind = getattr(event, "type", None)
    index = state.index
    if state.over or state.game is None or state.game.board is None:
        raise LogError("the match is already over", event_index=index, event_type=kind, field="type")
    player = getattr(event, "player", None)
    if player is not None and player not in state.table.side_of:
        raise LogError(
            f"unknown player {player!r} (seated: {', '.join(state.table.order)})",
            event_index=index,
            event_type=kind,
            field="player",
        )
    handler = _HANDLERS.get(kind or "")
    if handler is None:
        raise LogError(f"unknown event type {kind!r}", event_index=index, event_type=kind, field="type")
    ctx = Context(state=state, index=index, kind=kind or "", ruleset=state.table.ruleset)
    board = state.game.board
    if kind not in ("placed", "forgo") and not board.pending.empty:
        # Whatever the last event required is now on the board (or was left off; only a
        # `placed` event can say so).
        board = evolve(board, pending=NOTHING, pending_queen_side=None)
    result = handler(ctx, board, event)
    return _commit(ctx, result)


def replay(log: Any, ruleset: Ruleset | None = None) -> tuple[MatchState, tuple[Ruling, ...]]:
    """Rule a whole log: the final state and one ruling per event."""
    state = start(log, ruleset)
    rulings: list[Ruling] = []
    for event in log.events:
        state, ruling = apply(state, event)
        rulings.append(ruling)
    return state, tuple(rulings)


def _commit(ctx: Context, result: Result) -> tuple[MatchState, Ruling]:
    state, table, game = ctx.state, ctx.table, ctx.game
    board = result.board
    ruling_base = {
        "index": ctx.index,
        "event": ctx.kind,
        "player": result.player,
        "game": game.number,
        "board": board.number,
        "laws": result.laws,
        "text": result.text,
        "turn_continues": result.turn_continues,
        "to_place": board.pending,
        "dues_outstanding": board.dues,
        "queen": board.queen,
    }
    if result.outcome is None and result.game_conceded_by is None and result.match_conceded_by is None:
        game = evolve(game, board=board)
        new_state = evolve(state, game=game, index=ctx.index + 1)
        ruling_base["text"] = _with_status(ctx, result.text, board)
        return new_state, Ruling(**ruling_base, next_turn=board.turn)

    # The board is over (or abandoned with the game or match).
    laws = list(result.laws)
    texts = [result.text]
    totals = game.totals
    boards = game.boards
    if result.outcome is not None:
        outcome = _capped(ctx.ruleset, result.outcome)
        if outcome.winner is not None:
            totals = _add(totals, outcome.winner, outcome.points)
        boards = (*boards, FinishedBoard(board.number, board.breaker, board.white_side, outcome, totals))
        ruling_base["to_place"] = NOTHING  # 55: dues and penalties are written off
        ruling_base["dues_outstanding"] = (0, 0)
        if outcome.points != outcome.raw_points:
            laws += ctx.ruleset.cite("55")
            texts.append(f"capped at {ctx.ruleset.board_cap} points")
        board_end: BoardOutcome | None = outcome
    else:
        # A concession ends the board in play without a result (the game or match goes).
        unfinished = BoardOutcome(winner=None, how="unfinished")
        boards = (*boards, FinishedBoard(board.number, board.breaker, board.white_side, unfinished, totals))
        board_end = None

    winner, how = _game_result(ctx, game, totals, boards, result)
    ended_game = evolve(game, totals=totals, boards=boards, board=None)
    if winner is None and how is None:
        # The game goes on with the next board (a replayed board keeps its number and breaker).
        toss = False
        if board_end is not None and board_end.replayed:
            number, breaker = board.number, board.breaker
        else:
            played = sum(1 for b in boards if not b.outcome.replayed)
            number, breaker = played + 1, breaker_for(table, game.number, played + 1)
            limit = ctx.ruleset.boards_per_game
            if limit is not None and played >= limit:
                # 56(b): level after the last board; an extra board decides, its break by toss.
                toss = True
                laws += ctx.ruleset.cite_or_icf("56(b)")
                texts.append(
                    f"level at {totals[0]}-{totals[1]} after {played} boards: an extra board decides "
                    f"game {game.number}, a toss choosing who breaks"
                )
        next_board = _new_board(table, number, breaker, toss=toss)
        game = evolve(ended_game, board=next_board)
        new_state = evolve(state, game=game, index=ctx.index + 1)
        ruling = Ruling(
            **{**ruling_base, "laws": tuple(laws), "text": "; ".join(texts)},
            next_turn=breaker,
            board_end=board_end,
        )
        return new_state, ruling

    finished = evolve(ended_game, winner=winner, over=True, how=how or "")
    wins = state.wins if winner is None else _add(state.wins, winner, 1)
    laws += ctx.ruleset.cite("56(a)") if result.game_conceded_by is None else ctx.ruleset.cite("139")
    games = (*state.games, finished)
    match_winner, match_how = _match_result(ctx, wins, games, result)
    if match_how is None:
        next_game = _new_game(table, finished.number + 1)
        new_state = evolve(state, game=next_game, games=games, wins=wins, index=ctx.index + 1)
        texts.append(how or "")
        ruling = Ruling(
            **{**ruling_base, "laws": tuple(laws), "text": "; ".join(t for t in texts if t)},
            next_turn=next_game.first_breaker,
            board_end=board_end,
            game_end=finished,
        )
        return new_state, ruling
    laws += ctx.ruleset.cite("57") if result.match_conceded_by is None else ctx.ruleset.cite("139")
    texts += [how or "", match_how]
    new_state = evolve(
        state,
        game=None,
        games=games,
        wins=wins,
        winner=match_winner,
        over=True,
        how=match_how,
        index=ctx.index + 1,
    )
    ruling = Ruling(
        **{**ruling_base, "laws": tuple(laws), "text": "; ".join(t for t in texts if t)},
        next_turn=None,
        board_end=board_end,
        game_end=finished,
        match_end=True,
    )
    return new_state, ruling


def _with_status(ctx: Context, text: str, board: BoardState) -> str:
    """The ruling's words, plus what changed for the players: who plays next, the queen, dues."""
    before = ctx.game.board
    names = ctx.table.side_names
    words = [text]
    if before is not None and board.turn != before.turn:
        words.append(f"{board.turn} to play")
    if before is not None and board.queen != before.queen and board.queen.where != "on_board":
        words.append(board.queen.describe(names))
    if any(board.dues) and (before is None or board.dues != before.dues):
        owed = [f"{names[side]} {board.dues[side]}" for side in (0, 1) if board.dues[side]]
        words.append(f"dues outstanding: {', '.join(owed)}")
    return "; ".join(words)


def _add(pair: tuple[int, int], side: int, amount: int) -> tuple[int, int]:
    return (pair[0] + amount, pair[1]) if side == 0 else (pair[0], pair[1] + amount)


def _capped(ruleset: Ruleset, outcome: BoardOutcome) -> BoardOutcome:
    """55: at most `board_cap` points a board. The card keeps queen, coins and extra as the laws
    give them; only the points credited are capped."""
    points = outcome.raw_points
    if ruleset.board_cap is not None:
        points = min(points, ruleset.board_cap)
    return evolve(outcome, points=points)


def _game_result(
    ctx: Context,
    game: GameState,
    totals: tuple[int, int],
    boards: Sequence[FinishedBoard],
    result: Result,
) -> tuple[int | None, str | None]:
    """(winner side, words) when the game is over after this board; (None, None) otherwise."""
    names = ctx.table.side_names
    ruleset = ctx.ruleset
    if result.match_conceded_by is not None or result.game_conceded_by is not None:
        loser = result.match_conceded_by if result.match_conceded_by is not None else result.game_conceded_by
        return 1 - loser, f"{names[loser]} concedes game {game.number}"
    for side in (0, 1):
        if totals[side] >= ruleset.game_points:
            return side, f"{names[side]} reaches {ruleset.game_points} and wins game {game.number}"
    played = sum(1 for board in boards if not board.outcome.replayed and board.outcome.how != "unfinished")
    limit = ruleset.boards_per_game
    if limit is None or played < limit:
        return None, None
    if totals[0] != totals[1]:
        side = 0 if totals[0] > totals[1] else 1
        extra = played > limit
        what = "the extra board" if extra else f"board {limit}"
        return side, f"{names[side]} leads after {what} and wins game {game.number}"
    if ruleset.extra_board_on_tie:
        return None, None  # 56(b): an extra board decides
    return None, f"game {game.number} drawn after {played} boards"


def _match_result(
    ctx: Context, wins: tuple[int, int], games: Sequence[GameState], result: Result
) -> tuple[int | None, str | None]:
    names = ctx.table.side_names
    if result.match_conceded_by is not None:
        side = 1 - result.match_conceded_by
        return side, f"{names[result.match_conceded_by]} concedes the match; {names[side]} wins"
    for side in (0, 1):
        if wins[side] >= ctx.ruleset.wins_needed:
            return side, f"{names[side]} wins the match {wins[side]}-{wins[1 - side]}"
    if len(games) >= ctx.ruleset.games_per_match:
        if wins[0] == wins[1]:
            return None, f"match drawn {wins[0]}-{wins[1]}"
        side = 0 if wins[0] > wins[1] else 1
        return side, f"{names[side]} wins the match {wins[side]}-{wins[1 - side]}"
    return None, None


_HANDLERS = {
    "stroke": rule_stroke,
    "placed": rule_placed,
    "foul": rule_foul,
    "forgo": rule_forgo,
    "concede": rule_concede,
    "abandon": rule_abandon,
    "replay": rule_replay,
}
