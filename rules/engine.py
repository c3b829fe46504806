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

from rules.errors import LogError
from rules.rulesets import ICF, Ruleset
from rules.state import (
    NOTHING,
    QUEEN_ON_BOARD,
    BoardOutcome,
    BoardState,
    Colour,
    FinishedBoard,
    GameState,
    MatchState,
    Placement,
    Queen,
    Table,
    evolve,
    make_table,
)

BREAK_CHANCES = 3  # ICF 45(a): the first attempt and "a maximum of two more chances"


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


def _new_board(table: Table, number: int, breaker: str) -> BoardState:
    return BoardState(number=number, breaker=breaker, white_side=table.side_of[breaker], turn=breaker)


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
    ctx = _Context(state=state, index=index, kind=kind or "", ruleset=state.table.ruleset)
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


# --- internals --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    state: MatchState
    index: int
    kind: str
    ruleset: Ruleset

    @property
    def table(self) -> Table:
        return self.state.table

    @property
    def game(self) -> GameState:
        game = self.state.game
        if game is None:  # apply() checked this already
            raise LogError("the match is already over", event_index=self.index)
        return game

    def error(self, message: str, field: str) -> LogError:
        return LogError(message, event_index=self.index, event_type=self.kind, field=field)

    def score(self, side: int) -> int:
        return self.game.totals[side]


@dataclass(frozen=True)
class _Result:
    """A handler's answer: the board after the event, and the words of the ruling."""

    board: BoardState
    player: str | None
    laws: tuple[str, ...]
    text: str
    turn_continues: bool
    outcome: BoardOutcome | None = None  # set when the board ends
    game_conceded_by: int | None = None  # side conceding the game
    match_conceded_by: int | None = None


def _commit(ctx: _Context, result: _Result) -> tuple[MatchState, Ruling]:
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
        if board_end is not None and board_end.replayed:
            number, breaker = board.number, board.breaker
        else:
            played = sum(1 for b in boards if not b.outcome.replayed)
            number, breaker = played + 1, breaker_for(table, game.number, played + 1)
        next_board = _new_board(table, number, breaker)
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


def _with_status(ctx: _Context, text: str, board: BoardState) -> str:
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
    ctx: _Context,
    game: GameState,
    totals: tuple[int, int],
    boards: Sequence[FinishedBoard],
    result: _Result,
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
    ctx: _Context, wins: tuple[int, int], games: Sequence[GameState], result: _Result
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


# --- placing -----------------------------------------------------------------------------------


def _placer_for(ctx: _Context, owner_side: int, turn_player: str) -> str:
    """Who places the coins of `owner_side` that became available during `turn_player`'s turn.

    78(b)(i): in doubles the player on the right of the player having the turn; (ii) the player
    himself when he made the opponent's coins available. In singles: the owner's opponent.
    """
    table = ctx.table
    if table.side_of[turn_player] != owner_side:
        return turn_player
    if table.doubles:
        return table.right_of(turn_player)
    return next(name for name in table.order if table.side_of[name] != owner_side)


def _settle_dues(
    ctx: _Context,
    board: BoardState,
    owed: dict[int, int],
    returned: dict[Colour, int],
    queen_out: bool,
    queen_side: int | None,
    turn_player: str,
) -> tuple[BoardState, list[str], list[str]]:
    """Take out what is owed and available (78(a)); the rest stays outstanding (72(c)).

    `returned` are coins just pocketed that go straight back (own coins with the striker,
    by an improper stroke, ...); `owed` are due and penalty coins per side, on top of the
    dues already outstanding. Returns the board with counts and `pending` set.
    """
    laws: list[str] = []
    words: list[str] = []
    counts = {"white": board.white_on_board, "black": board.black_on_board}
    dues = list(board.dues)
    place = {"white": 0, "black": 0}
    placers: dict[str, str | None] = {"white": None, "black": None}
    for colour in ("white", "black"):
        side = board.side_of_colour(colour)
        back = returned.get(colour, 0)
        want = owed.get(side, 0) + dues[side]
        available = 9 - counts[colour] - back
        take = min(want, max(available, 0))
        dues[side] = want - take
        total = back + take
        if total:
            place[colour] = total
            counts[colour] += total
            placers[colour] = _placer_for(ctx, side, turn_player)
        if owed.get(side, 0) and dues[side]:
            laws += ctx.ruleset.cite("72(c)")
            words.append(f"{dues[side]} due outstanding against {ctx.table.side_names[side]}")
        elif board.dues[side] and take and not owed.get(side, 0):
            laws += ctx.ruleset.cite("78(a)")
            words.append(f"outstanding due of {ctx.table.side_names[side]} now taken out")
    if queen_out:
        laws += ctx.ruleset.cite("93")
    pending = Placement(
        white=place["white"],
        black=place["black"],
        queen=queen_out,
        white_by=placers["white"],
        black_by=placers["black"],
        queen_placer=ctx.ruleset.queen_placer if queen_out else None,
    )
    new_board = evolve(
        board,
        white_on_board=counts["white"],
        black_on_board=counts["black"],
        dues=(dues[0], dues[1]),
        pending=pending,
        pending_queen_side=queen_side if queen_out else None,
    )
    return new_board, laws, words


# --- strokes -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Stroke:
    """One stroke's facts from the point of view of the striking side."""

    player: str
    side: int
    own: Colour
    opp: Colour
    n_own: int
    n_opp: int
    queen: bool
    striker: bool
    improper: bool
    overboard: tuple[str, ...]


def _count(items: Sequence[str], what: str) -> int:
    return items.count(what)


def _check_items(ctx: _Context, board: BoardState, event: Any) -> None:
    pocketed = tuple(getattr(event, "pocketed", ()) or ())
    overboard = tuple(getattr(event, "overboard", ()) or ())
    for colour in ("white", "black"):
        gone = _count(pocketed, colour)
        left = board.on_board(colour)
        if gone > left:
            raise ctx.error(
                f"{gone} {colour} pocketed but only {left} {colour} on the board "
                f"(a {9 - left + gone}{_ordinal(9 - left + gone)} {colour} coin cannot be pocketed)",
                "pocketed",
            )
        if gone + _count(overboard, colour) > left:
            raise ctx.error(
                f"more {colour} coins pocketed and overboard than the {left} on the board", "overboard"
            )
    queens = _count(pocketed, "queen") + _count(overboard, "queen")
    if queens > 1:
        raise ctx.error("there is only one queen", "pocketed")
    if queens and board.queen.where != "on_board":
        field = "pocketed" if "queen" in pocketed else "overboard"
        raise ctx.error(
            f"the queen is not on the board ({board.queen.describe(ctx.table.side_names)})", field
        )
    if _count(pocketed, "striker") + _count(overboard, "striker") > 1:
        raise ctx.error("there is only one striker", "pocketed")


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _rule_stroke(ctx: _Context, board: BoardState, event: Any) -> _Result:
    _check_items(ctx, board, event)
    table, ruleset = ctx.table, ctx.ruleset
    player = getattr(event, "player", None) or board.turn
    side = table.side_of[player]
    pocketed = tuple(getattr(event, "pocketed", ()) or ())
    overboard = tuple(getattr(event, "overboard", ()) or ())
    improper_reason = getattr(event, "improper", None)
    laws: list[str] = []
    words: list[str] = []

    if player != board.turn:
        if ruleset.out_of_turn_loses_board:
            return _out_of_turn(ctx, board, player)
        laws += ruleset.cite("51")
        words.append(f"{player} played out of turn ({board.turn} had the turn); the stroke stands")
        board = evolve(board, turn=player, strokes_in_turn=0)

    improper = improper_reason is not None
    if improper and not ruleset.improper_penalised:
        laws += ruleset.cite("improper_unpenalised")
        words.append(f"improper stroke ({improper_reason}) not stopped before it was taken: no penalty")
        improper = False

    touched = bool(getattr(event, "touched", True)) or any(
        item != "striker" for item in (*pocketed, *overboard)
    )
    own = board.colour_of(side)
    stroke = _Stroke(
        player=player,
        side=side,
        own=own,
        opp="black" if own == "white" else "white",
        n_own=_count(pocketed, own),
        n_opp=_count(pocketed, "black" if own == "white" else "white"),
        queen="queen" in pocketed,
        striker="striker" in pocketed,
        improper=improper,
        overboard=overboard,
    )
    if overboard:
        coins = [item for item in overboard if item != "striker"]
        if coins:
            laws += ruleset.cite("65(a)")
            words.append(f"{', '.join(coins)} overboard: placed in the centre circle")
        if "striker" in overboard:
            laws += ruleset.cite("116")

    if not board.broken:
        return _rule_break(ctx, board, stroke, touched, improper_reason, laws, words)
    return _rule_play(ctx, board, stroke, laws, words)


def _out_of_turn(ctx: _Context, board: BoardState, player: str) -> _Result:
    """ICF 51: the offender loses the board by his coins and the queen then on the board."""
    side = ctx.table.side_of[player]
    winner = 1 - side
    coins = board.on_board(board.colour_of(side))
    queen = ctx.ruleset.queen_count(ctx.score(winner)) if board.queen.where == "on_board" else 0
    outcome = BoardOutcome(
        winner=winner, queen=queen, coins=coins, how="stroke out of turn", laws=ctx.ruleset.cite("51")
    )
    text = (
        f"{player} played out of turn ({board.turn} had the turn): "
        f"{ctx.table.side_names[side]} loses the board by {coins} coins"
        + (f" and the queen ({queen})" if queen else "")
    )
    return _Result(board, player, ctx.ruleset.cite("51"), text, False, outcome=outcome)


def _rule_break(
    ctx: _Context,
    board: BoardState,
    stroke: _Stroke,
    touched: bool,
    improper_reason: str | None,
    laws: list[str],
    words: list[str],
) -> _Result:
    """VII: the break and its chances."""
    ruleset, table = ctx.ruleset, ctx.table
    nxt = table.next_player(stroke.player)
    if not touched:
        if stroke.striker or stroke.improper:
            why = "pocketed the striker" if stroke.striker else f"improper stroke ({improper_reason})"
            laws += ruleset.cite("45(c)")
            words.append(f"break attempt {why} without touching a coin: turn lost, no due or penalty")
            new = evolve(board, turn=nxt, break_attempts=0, strokes_in_turn=0)
            return _Result(new, stroke.player, tuple(laws), "; ".join(words), False)
        attempts = board.break_attempts + 1
        if attempts < BREAK_CHANCES:
            laws += ruleset.cite("45(a)")
            words.append(
                f"break not made (no coin touched): chance {attempts + 1} of {BREAK_CHANCES} "
                f"for {stroke.player}"
            )
            new = evolve(board, break_attempts=attempts, strokes_in_turn=0)
            return _Result(new, stroke.player, tuple(laws), "; ".join(words), True)
        laws += ruleset.cite("45(b)")
        words.append(f"break not made in {BREAK_CHANCES} chances: the right to break passes to {nxt}")
        new = evolve(board, turn=nxt, break_attempts=0, strokes_in_turn=0)
        return _Result(new, stroke.player, tuple(laws), "; ".join(words), False)

    board = evolve(board, broken=True, break_attempts=0)
    laws += ruleset.cite("44")
    if stroke.improper:
        # 45(c): an improper break loses the turn "however, due/penalty shall not be
        # applicable": what the breaker pocketed of his own, and the queen, go back.
        laws += ruleset.cite("45(c)")
        words.append(f"improper break ({improper_reason}): turn lost, no due or penalty")
        counts = {"white": board.white_on_board, "black": board.black_on_board}
        counts[stroke.own] -= stroke.n_own
        counts[stroke.opp] -= stroke.n_opp
        new = board.with_counts(counts["white"], counts["black"])
        if stroke.n_opp:
            new = _mark_pocketed(new, 1 - stroke.side)
        new, more_laws, more_words = _settle_dues(
            ctx, new, {}, {stroke.own: stroke.n_own}, stroke.queen, stroke.side, stroke.player
        )
        new = evolve(new, turn=table.next_player(stroke.player), strokes_in_turn=0)
        if not new.pending.empty:
            more_words.append(new.pending.describe())
        return _Result(new, stroke.player, tuple(laws + more_laws), "; ".join(words + more_words), False)
    words.append("break made")
    return _rule_play(ctx, board, stroke, laws, words)


def _mark_pocketed(board: BoardState, side: int) -> BoardState:
    if board.ever_pocketed[side]:
        return board
    flags = (True, board.ever_pocketed[1]) if side == 0 else (board.ever_pocketed[0], True)
    return evolve(board, ever_pocketed=flags)


def _rule_play(ctx: _Context, board: BoardState, s: _Stroke, laws: list[str], words: list[str]) -> _Result:
    """A stroke after the break: end of board (IX, 102-112), queen (XV), dues (XIV), turn (VIII)."""
    ruleset, table = ctx.ruleset, ctx.table
    own_before, opp_before = board.on_board(s.own), board.on_board(s.opp)
    own_after, opp_after = own_before - s.n_own, opp_before - s.n_opp
    queen_before = board.queen
    if queen_before.where == "awaiting_cover" and queen_before.side != s.side:
        # Only a stroke out of turn (allowed by ECC 31) meets another side's uncovered queen.
        queen_before = QUEEN_ON_BOARD
        laws += ruleset.cite("96")
        words.append("the queen was not covered: back to the centre")

    own_last = s.n_own > 0 and own_after == 0
    opp_last = s.n_opp > 0 and opp_after == 0
    if own_last or opp_last:
        outcome = _end_of_board(ctx, board, s, queen_before, own_after, opp_after, own_last, opp_last)
        if outcome is not None:
            counts = {s.own: own_after, s.opp: opp_after}
            new = board.with_counts(counts["white"], counts["black"])
            laws += list(outcome.laws)
            words.append(outcome.how)
            return _Result(new, s.player, tuple(laws), "; ".join(words), False, outcome=outcome)

    # The board goes on: queen (XV), dues and penalties (XIV), turn (VIII).
    ever_own = board.ever_pocketed[s.side]
    nine_on_board = own_before == 9
    returned_own = 0
    due = 0
    queen = queen_before
    queen_out = False
    cont = False
    imp = s.improper
    striker_alone_improper = 2 if ruleset.base != "basic" else 1  # Basic 22(a): one due either way

    if s.queen:  # the queen was on the board and fell in this stroke
        if imp:
            queen_out, returned_own, cont = True, s.n_own, False
            due = 1 + (1 if s.striker else 0)
            if s.striker:
                laws += ruleset.cite("98(b)" if s.n_own else "99(b)")
            else:
                laws += ruleset.cite("64(b)")
            words.append(
                "queen pocketed by an improper stroke: the queen and the coins pocketed go back "
                f"with {due} more; turn lost"
            )
        elif s.striker:
            if s.n_own == 0 and nine_on_board and ruleset.has("95(d)"):
                queen_out, due, cont = True, 1, False
                laws += ruleset.cite("95(d)")
                words.append(
                    "queen pocketed with the striker while all nine coins are on the board: "
                    "queen out, a due; turn lost"
                )
            elif s.n_own:
                queen_out, returned_own, due, cont = True, s.n_own, 1, True
                laws += ruleset.cite("98(a)", "73")
                words.append(
                    "queen and own coins pocketed with the striker: the queen, the coins and a due "
                    "go back; turn continues"
                )
            else:
                queen_out, due = True, 1
                cont = ruleset.has("99(a)")
                laws += ruleset.cite("99(a)", "72(a)", "96")
                words.append(
                    "queen pocketed with the striker: the queen goes back with a due; "
                    + ("turn continues" if cont else "turn lost")
                )
        elif board.dues[s.side] and ruleset.has("95(b)"):
            queen_out, cont = True, False
            laws += ruleset.cite("95(b)")
            words.append("queen pocketed while a due is outstanding: queen out; turn lost")
        elif not ever_own and s.n_own == 0:
            queen_out, cont = True, False
            laws += ruleset.cite("95(a)", "92")
            words.append("queen pocketed before any own coin: queen out; turn lost")
        elif s.n_own == 1 and nine_on_board and ruleset.has("97(b)"):
            queen = Queen("awaiting_cover", s.side)
            cont = True
            laws += ruleset.cite("97(b)", "95(c)")
            words.append(
                "queen and one coin pocketed with all nine on the board: the queen has to be "
                "covered; turn continues"
            )
        elif s.n_own >= 1:
            queen = Queen("covered", s.side)
            cont = True
            laws += ruleset.cite("97(a)", "48")
            words.append("queen pocketed with own coin: queen covered; turn continues")
        elif s.n_opp:
            queen_out, cont = True, False
            laws += ruleset.cite("125(a)", "96")
            words.append(
                "queen pocketed with an opponent's coin: turn lost, so the queen is not covered and goes back"
            )
        else:
            queen = Queen("awaiting_cover", s.side)
            cont = True
            laws += (
                ruleset.cite("92", "95(c)", "48")
                if not ever_own or nine_on_board
                else ruleset.cite("92", "48")
            )
            words.append("queen pocketed: to be covered in the next stroke; turn continues")
    elif queen_before.where == "awaiting_cover":  # this stroke is the chance to cover (15)
        if imp:
            queen_out, returned_own, cont = True, s.n_own, False
            due = 1 + (1 if s.striker else 0)
            if s.striker and s.n_own:
                laws += ruleset.cite("101(b)")
            elif s.striker:
                laws += ruleset.cite("100(b)")
            elif s.n_own:
                laws += ruleset.cite("77(a)", "96")
            else:
                laws += ruleset.cite("64(a)", "96")
            words.append(
                f"improper stroke while covering: the queen goes back, with the coins pocketed and {due} "
                "more; turn lost"
            )
        elif s.striker and s.n_own:
            returned_own, due = s.n_own, 1
            if ruleset.has("101(a)"):
                cont = True
                laws += ruleset.cite("101(a)")
                words.append(
                    "covering with the striker pocketed: own coins and a due go back; the queen must "
                    "be covered in the next stroke; turn continues"
                )
            else:
                queen_out, cont = True, True
                laws += ruleset.cite("73", "96")
                words.append(
                    "striker pocketed with own coins: they go back with a due, so the queen is not "
                    "covered and goes back; turn continues"
                )
        elif s.striker:
            queen_out, due, cont = True, 1, False
            laws += ruleset.cite("100(a)", "72(a)")
            words.append("striker pocketed while covering: the queen goes back with a due; turn lost")
        elif s.n_own:
            queen = Queen("covered", s.side)
            cont = True
            laws += ruleset.cite("96", "48")
            words.append("queen covered; turn continues")
        else:
            queen_out, cont = True, False
            laws += ruleset.cite("96")
            words.append("queen not covered: it goes back to the centre; turn lost")
    else:
        if imp:
            cont = False
            if s.striker:
                returned_own = s.n_own
                due = 2 if s.n_own else striker_alone_improper
                laws += (
                    ruleset.cite("77(b)") if s.n_own else ruleset.cite("72(b)", "76" if s.n_opp else "72(b)")
                )
            elif s.n_own:
                returned_own, due = s.n_own, 1
                laws += ruleset.cite("77(a)")
            elif s.n_opp:
                due = 1
                laws += ruleset.cite("76")
            else:
                due = 1
                laws += ruleset.cite("64(a)")
            words.append(
                f"improper stroke: {_coins(returned_own, 'own coin')} and {due} penalty/due coin(s) out; "
                "turn lost"
                if returned_own
                else f"improper stroke: {due} penalty/due coin(s) out; turn lost"
            )
        elif s.striker:
            due = 1
            if s.n_own:
                returned_own, cont = s.n_own, True
                laws += ruleset.cite("75" if s.n_opp else "73")
                words.append(
                    f"striker pocketed with own coins: {_coins(s.n_own, 'coin')} and a due go back; "
                    "turn continues"
                )
            elif s.n_opp:
                laws += ruleset.cite("74")
                words.append(
                    "striker pocketed with an opponent's coin: the coin counts as pocketed, a due; turn lost"
                )
            else:
                laws += ruleset.cite("72(a)")
                words.append("striker pocketed: a due; turn lost")
        elif s.n_own:
            cont = True
            laws += ruleset.cite("48")
            words.append("pocketed own coin" + ("s" if s.n_own > 1 else "") + "; turn continues")
        elif s.n_opp:
            laws += ruleset.cite("125(b)" if ruleset.has("125(b)") else "48")
            words.append("pocketed only the opponent's coin: it counts as pocketed; turn lost")
        else:
            laws += ruleset.cite("48")
            words.append("nothing pocketed; turn passes")

    # Coins fall, then what must go back is taken out (78(a)).
    counts = {s.own: own_after, s.opp: opp_after}
    pocketed = list(board.ever_pocketed)
    if s.n_own:
        pocketed[s.side] = True
    if s.n_opp:
        pocketed[1 - s.side] = True
    turn = s.player if cont else table.next_player(s.player)
    new = evolve(
        board,
        white_on_board=counts["white"],
        black_on_board=counts["black"],
        queen=QUEEN_ON_BOARD if queen_out else queen,
        ever_pocketed=(pocketed[0], pocketed[1]),
        turn=turn,
        strokes_in_turn=board.strokes_in_turn + 1 if cont else 0,
    )
    owed = {s.side: due} if due else {}
    returned = {s.own: returned_own} if returned_own else {}
    new, due_laws, due_words = _settle_dues(ctx, new, owed, returned, queen_out, s.side, s.player)
    laws += due_laws
    words += due_words
    if not new.pending.empty:
        words.append(new.pending.describe())
    return _Result(new, s.player, tuple(laws), "; ".join(words), cont)


def _coins(n: int, what: str) -> str:
    return f"{n} {what}" + ("s" if n != 1 else "")


def _end_of_board(
    ctx: _Context,
    board: BoardState,
    s: _Stroke,
    queen_before: Queen,
    own_after: int,
    opp_after: int,
    own_last: bool,
    opp_last: bool,
) -> BoardOutcome | None:
    """102-112 and the plain finish (52, 53): the outcome if this stroke ends the board, else None.

    Laws 102-112 speak of the striking player ("he") and his opponent; their (a) clauses rule
    a proper stroke, (b) an improper one. A player who pockets his own last coins along with the
    striker (73) or by an improper stroke (77) without a special law gets them back, and the
    board goes on: then this returns None.
    """
    ruleset, names = ctx.ruleset, ctx.table.side_names
    me, opp = s.side, 1 - s.side
    clause = "(b)" if s.improper else "(a)"
    demand = ruleset.additional_points
    # Additional points "if demanded" (87(b)): for the pocketed striker one point (proper) or two
    # (improper, striker and foul), and one for an improper stroke without the striker.
    striker_extra = (2 if s.improper else 1) if demand else 0
    improper_extra = 1 if (s.improper and demand) else 0

    if s.queen:
        if s.n_own >= 1 and not (s.n_own == 1 and board.on_board(s.own) == 9 and ruleset.has("97(b)")):
            queen_state = "covering_now"
        elif s.n_own == 1:
            queen_state = "covering_now"  # 97(b) would need a cover; the board is over first
        else:
            queen_state = "on_board"  # not coverable: it goes back (95(a), 96)
    elif queen_before.where == "awaiting_cover":
        queen_state = "covering" if s.n_own else "on_board"
    elif queen_before.where == "covered":
        queen_state = "covered_own" if queen_before.side == me else "covered_opp"
    else:
        queen_state = "on_board"

    def lose(law: str, queen: int = 0, coins: int = 0, extra: int = 0, how: str = "") -> BoardOutcome:
        laws = ruleset.cite(law, "52(a)") if ruleset.has(law) else ruleset.cite("52(a)", "53(a)")
        return BoardOutcome(winner=opp, queen=queen, coins=coins, extra=extra, how=how, laws=laws)

    def win(law: str, queen: int = 0, coins: int = 0, extra: int = 0, how: str = "") -> BoardOutcome:
        laws = ruleset.cite(law, "52(a)") if ruleset.has(law) else ruleset.cite("52(a)", "53(a)")
        return BoardOutcome(winner=me, queen=queen, coins=coins, extra=extra, how=how, laws=laws)

    fixed_opp = ruleset.fixed_award(ctx.score(opp))
    fixed_me = ruleset.fixed_award(ctx.score(me))
    mine, theirs = names[me], names[opp]

    if own_last and opp_last:
        if queen_state == "covering_now":
            if s.striker:
                return lose(
                    "109" + clause,
                    queen=fixed_opp,
                    extra=striker_extra,
                    how=f"queen, both last coins and the striker pocketed: {mine} loses the board",
                )
            if s.improper:
                return lose(
                    "104(b)",
                    queen=fixed_opp,
                    extra=improper_extra,
                    how=f"queen and both last coins pocketed by an improper stroke: {theirs} wins",
                )
            return win(
                "104(a)", queen=fixed_me, how=f"queen and both last coins pocketed: {mine} wins the board"
            )
        if queen_state == "covering":
            if s.striker:
                return lose(
                    "109" + clause,
                    queen=fixed_opp,
                    extra=striker_extra,
                    how=f"covering with both last coins and the striker: {mine} loses the board",
                )
            if s.improper:
                return lose(
                    "102(b)",
                    queen=fixed_opp,
                    extra=improper_extra,
                    how=f"covering with both last coins by an improper stroke: {theirs} wins",
                )
            return win(
                "102(a)", queen=fixed_me, how=f"queen covered with both last coins: {mine} wins the board"
            )
        if queen_state == "on_board":
            extra = striker_extra if s.striker else improper_extra
            law = "105" + clause if not s.striker else "108" + clause
            outcome = lose(
                law,
                queen=fixed_opp,
                extra=extra,
                how=f"both last coins pocketed with the queen on the board: {theirs} is awarded the board",
            )
            return evolve(
                outcome, laws=ruleset.cite("105" + clause, *(("108" + clause,) if s.striker else ()), "52(a)")
            )
        if queen_state == "covered_own":
            if s.striker:
                return lose(
                    "110" + clause,
                    extra=1 + striker_extra,
                    how=f"both last coins and the striker pocketed, queen covered by {mine}: "
                    f"{mine} loses by one point",
                )
            if s.improper:
                return lose(
                    "102(b)",
                    queen=fixed_opp,
                    extra=improper_extra,
                    how=f"both last coins pocketed by an improper stroke: {theirs} wins",
                )
            return win(
                "102(a)",
                queen=fixed_me,
                how=f"both last coins pocketed, queen covered by {mine}: {mine} wins the board",
            )
        # covered by the opponent
        if s.striker:
            return lose(
                "112" + clause,
                queen=fixed_opp,
                extra=striker_extra,
                how=f"both last coins and the striker pocketed, queen covered by {theirs}: {mine} loses",
            )
        if s.improper:
            return lose(
                "77(a)",
                queen=ruleset.queen_count(ctx.score(opp)),
                extra=improper_extra,
                how=f"both last coins pocketed by an improper stroke: {theirs} wins",
            )
        return win(
            "52(a)",
            how=f"both last coins pocketed in one stroke, queen covered by {theirs}: {mine} "
            "completes first and wins, with nothing to count",
        )

    if own_last:
        if queen_state == "on_board":
            if s.striker:
                return lose(
                    "108" + clause,
                    queen=fixed_opp,
                    extra=striker_extra,
                    how=f"last coin pocketed with the striker leaving the queen: {mine} loses the board",
                )
            return lose(
                "107" + clause,
                queen=fixed_opp,
                extra=improper_extra,
                how=f"last coin pocketed leaving the queen on the board: {mine} loses the board",
            )
        if s.striker or s.improper:
            return None  # 73/75/77/98/101: the coins go back and the board goes on
        queen_points = (
            ruleset.queen_count(ctx.score(me))
            if queen_state in ("covering_now", "covering", "covered_own")
            else 0
        )
        won_queen = queen_state in ("covering_now", "covering", "covered_own")
        if queen_points:
            queen_law = "53(b)"
        elif won_queen:
            queen_law = "54"  # the winner covered it but has reached the cutoff
        else:
            queen_law = "53(c)" if queen_state == "covered_opp" else "53(a)"
        laws = ruleset.cite("52(a)", "53(a)", queen_law)
        if queen_state in ("covering_now", "covering"):
            laws = ruleset.cite("97(a)" if queen_state == "covering_now" else "96") + laws
        how = f"{mine} pocketed the last coin and wins the board"
        return BoardOutcome(winner=me, queen=queen_points, coins=opp_after, how=how, laws=laws)

    # opp_last only: the opponent's coins are all gone.
    my_coins = own_after
    if queen_state == "on_board":
        q = ruleset.queen_count(ctx.score(opp))
        if s.striker:
            return lose(
                "111" + clause,
                queen=q,
                coins=my_coins,
                extra=striker_extra,
                how=f"opponent's last coin pocketed with the striker leaving the queen: {mine} loses",
            )
        return lose(
            "106" + clause,
            queen=q,
            coins=my_coins,
            extra=improper_extra,
            how=f"opponent's last coin pocketed with the queen on the board: {mine} loses the board",
        )
    if queen_state in ("covering", "covering_now") and ruleset.has("103(a)"):
        q = ruleset.queen_count(ctx.score(opp))
        extra = striker_extra if s.striker else improper_extra
        return lose(
            "103" + clause,
            queen=q,
            coins=my_coins,
            extra=extra,
            how=f"opponent's last coin pocketed while covering the queen: {mine} loses the board",
        )
    queen_points = ruleset.queen_count(ctx.score(opp)) if queen_state == "covered_opp" else 0
    outcome = lose(
        "52(a)",
        queen=queen_points,
        coins=my_coins,
        how=f"{mine} pocketed the opponent's last coin: {theirs} has completed and wins the board",
    )
    return evolve(outcome, laws=ruleset.cite("125(b)", "52(a)", "53(a)"))


# --- events outside strokes --------------------------------------------------------------------


def _rule_placed(ctx: _Context, board: BoardState, event: Any) -> _Result:
    """What was actually placed, against what the last event required (83, 96, 82(b))."""
    ruleset, names = ctx.ruleset, ctx.table.side_names
    items = tuple(getattr(event, "items", ()) or ())
    required = board.pending
    laws: list[str] = []
    words: list[str] = []
    counts = {"white": board.white_on_board, "black": board.black_on_board}
    dues = list(board.dues)
    queen = board.queen
    for colour in ("white", "black"):
        placed = _count(items, colour)
        owed = required.count(colour)
        if placed < owed:
            # 83: what is not placed before the next stroke is forfeited (the coins stay in the
            # pockets; nothing stays outstanding).
            counts[colour] -= owed - placed
            laws += ruleset.cite("83")
            words.append(f"{owed - placed} {colour} not placed: forfeited")
        elif placed > owed:
            available = 9 - counts[colour]
            if placed - owed > available:
                raise ctx.error(
                    f"{placed} {colour} placed but only {owed + available} can be "
                    "(the rest are on the board)",
                    "items",
                )
            counts[colour] += placed - owed
            side = board.side_of_colour(colour)
            paid = min(dues[side], placed - owed)
            dues[side] -= paid
            laws += ruleset.cite("82(b)")
            words.append(
                f"{placed - owed} more {colour} placed than owed: valid once the next stroke is made"
            )
    queen_placed = "queen" in items
    if required.queen and not queen_placed:
        # 96: a queen not taken out before the next stroke is recorded as covered.
        side = (
            board.pending_queen_side
            if board.pending_queen_side is not None
            else ctx.table.side_of[board.turn]
        )
        queen = Queen("covered", side)
        laws += ruleset.cite("96")
        words.append(f"the queen was not put back: recorded as covered by {names[side]}")
    elif queen_placed and not required.queen:
        raise ctx.error(f"the queen was not to be placed ({board.queen.describe(names)})", "items")
    if not words:
        laws += ruleset.cite("78(a)")
        words.append("placed as required")
    new = evolve(
        board,
        white_on_board=counts["white"],
        black_on_board=counts["black"],
        queen=queen,
        dues=(dues[0], dues[1]),
        pending=NOTHING,
        pending_queen_side=None,
    )
    # Placing does not move the turn: whoever had it keeps it.
    return _Result(new, required.placer, tuple(laws), "; ".join(words), True)


def _rule_foul(ctx: _Context, board: BoardState, event: Any) -> _Result:
    """XI: technical foul (63) keeps the turn, foul (64(a)) loses it; one coin out either way."""
    ruleset, table = ctx.ruleset, ctx.table
    player = event.player
    side = table.side_of[player]
    reason = getattr(event, "reason", "")
    at_turn = player == board.turn
    technical = not at_turn or board.strokes_in_turn == 0
    if ruleset.base == "icf" and technical:
        law = "63(a)" if at_turn else "63(b)"
        what = "technical foul"
        turn = board.turn
    else:
        law = "64(a)"
        what = "foul"
        turn = table.next_player(player) if at_turn else board.turn
    # A turn lost while the queen waits for its cover loses the cover too (96).
    queen_out = turn != board.turn and board.queen.where == "awaiting_cover"
    queen_side = board.queen.side
    if queen_out:
        board = evolve(board, queen=QUEEN_ON_BOARD)
    new, due_laws, due_words = _settle_dues(ctx, board, {side: 1}, {}, queen_out, queen_side, board.turn)
    cont = turn == board.turn
    new = evolve(new, turn=turn, strokes_in_turn=new.strokes_in_turn if cont else 0)
    words = [f"{what} by {player} ({reason}): one coin out for placing by the opponent"]
    words.append(
        ("turn continues" if at_turn else f"{turn} keeps the turn") if cont else f"turn passes to {turn}"
    )
    if queen_out:
        due_laws.extend(ruleset.cite("96"))
        words.append("the queen was not covered: it goes back")
    words += due_words
    if not new.pending.empty:
        words.append(new.pending.describe())
    return _Result(new, player, ruleset.cite(law) + tuple(due_laws), "; ".join(words), cont)


def _rule_forgo(ctx: _Context, board: BoardState, event: Any) -> _Result:
    """87(a): the entitled player forgoes the dues/penalties in toto."""
    ruleset, table = ctx.ruleset, ctx.table
    player = event.player
    side = table.side_of[player]
    counts = {"white": board.white_on_board, "black": board.black_on_board}
    owner = 1 - side
    colour = board.colour_of(owner)
    pending_coins = board.pending.count(colour)
    outstanding = board.dues[owner]
    if not pending_coins and not outstanding:
        return _Result(
            board,
            player,
            ruleset.cite("87(a)"),
            f"{player} forgoes placing: nothing was owed",
            True,
        )
    counts[colour] -= pending_coins
    dues = (0, board.dues[1]) if owner == 0 else (board.dues[0], 0)
    pending = evolve(board.pending, **{colour: 0, f"{colour}_by": None})
    if pending.empty:
        pending = NOTHING
    new = evolve(
        board, white_on_board=counts["white"], black_on_board=counts["black"], dues=dues, pending=pending
    )
    owed = pending_coins + outstanding
    text = f"{player} forgoes the {owed} {colour} coin(s) owed by {table.side_names[owner]}"
    return _Result(new, player, ruleset.cite("87(a)", "80"), text, True)


def _loss_by_own_coins(ctx: _Context, board: BoardState, side: int, how: str, law: str) -> BoardOutcome:
    """91: lose the board by his coins (and the queen) lying on the board."""
    winner = 1 - side
    coins = board.on_board(board.colour_of(side))
    queen_free = board.queen.where == "on_board" or (
        board.queen.where == "covered" and board.queen.side == winner
    )
    queen = ctx.ruleset.queen_count(ctx.score(winner)) if queen_free else 0
    return BoardOutcome(winner=winner, queen=queen, coins=coins, how=how, laws=ctx.ruleset.cite(law, "91"))


def _rule_abandon(ctx: _Context, board: BoardState, event: Any) -> _Result:
    side = ctx.table.side_of[event.player]
    how = f"{event.player} left the seat during the board: {ctx.table.side_names[side]} loses the board"
    outcome = _loss_by_own_coins(ctx, board, side, how, "91")
    return _Result(board, event.player, outcome.laws, how, False, outcome=outcome)


def _rule_concede(ctx: _Context, board: BoardState, event: Any) -> _Result:
    side = ctx.table.side_of[event.player]
    name = ctx.table.side_names[side]
    scope = event.scope
    if scope == "board":
        how = f"{name} concedes the board"
        outcome = _loss_by_own_coins(ctx, board, side, how, "139")
        return _Result(board, event.player, ctx.ruleset.cite("139", "91"), how, False, outcome=outcome)
    how = f"{name} concedes the {scope}"
    return _Result(
        board,
        event.player,
        ctx.ruleset.cite("139"),
        how,
        False,
        game_conceded_by=side if scope == "game" else None,
        match_conceded_by=side if scope == "match" else None,
    )


def _rule_replay(ctx: _Context, board: BoardState, event: Any) -> _Result:
    outcome = BoardOutcome(
        winner=None, how="board cancelled and replayed", laws=ctx.ruleset.cite("140", "137"), replayed=True
    )
    return _Result(
        board,
        None,
        outcome.laws,
        "board cancelled: it is replayed with the same break",
        False,
        outcome=outcome,
    )


_HANDLERS = {
    "stroke": _rule_stroke,
    "placed": _rule_placed,
    "foul": _rule_foul,
    "forgo": _rule_forgo,
    "concede": _rule_concede,
    "abandon": _rule_abandon,
    "replay": _rule_replay,
}
