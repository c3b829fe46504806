"""Events outside strokes: placing (82, 83, 96), fouls (XI), forgoing (87), leaving the
seat (91), concession (139) and replayed boards (137, 140)."""

from __future__ import annotations

from typing import Any

from rules.board_end import completed_without_a_stroke
from rules.context import Context, Result, settle_dues
from rules.state import (
    NOTHING,
    QUEEN_ON_BOARD,
    BoardOutcome,
    BoardState,
    Queen,
    evolve,
)


def rule_placed(ctx: Context, board: BoardState, event: Any) -> Result:
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
        placed = items.count(colour)
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
    outcome = completed_without_a_stroke(ctx, new, ruleset.cite("83"))
    if outcome is not None:
        words.append(outcome.how)
        return Result(new, required.placer, outcome.laws, "; ".join(words), False, outcome=outcome)
    # Placing does not move the turn: whoever had it keeps it.
    return Result(new, required.placer, tuple(laws), "; ".join(words), True)


def rule_foul(ctx: Context, board: BoardState, event: Any) -> Result:
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
    new, due_laws, due_words = settle_dues(ctx, board, {side: 1}, {}, queen_out, queen_side, board.turn)
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
    return Result(new, player, ruleset.cite(law) + tuple(due_laws), "; ".join(words), cont)


def rule_forgo(ctx: Context, board: BoardState, event: Any) -> Result:
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
        return Result(
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
    outcome = completed_without_a_stroke(ctx, new, ruleset.cite("87(a)", "80"))
    if outcome is not None:
        return Result(new, player, outcome.laws, f"{text}; {outcome.how}", False, outcome=outcome)
    return Result(new, player, ruleset.cite("87(a)", "80"), text, True)


def _loss_by_own_coins(ctx: Context, board: BoardState, side: int, how: str, law: str) -> BoardOutcome:
    """91: lose the board by his coins (and the queen) lying on the board; from the cutoff by
    the coins only. A queen the winner has covered is credited to him as at a finish (53(b))."""
    winner = 1 - side
    coins = board.on_board(board.colour_of(side))
    if board.queen.where == "on_board":
        queen = ctx.ruleset.queen_in_loss(ctx.score(winner))
    elif board.queen.where == "covered" and board.queen.side == winner:
        queen = ctx.ruleset.queen_count(ctx.score(winner))
    else:
        queen = 0
    return BoardOutcome(winner=winner, queen=queen, coins=coins, how=how, laws=ctx.ruleset.cite(law, "91"))


def rule_abandon(ctx: Context, board: BoardState, event: Any) -> Result:
    side = ctx.table.side_of[event.player]
    how = f"{event.player} left the seat during the board: {ctx.table.side_names[side]} loses the board"
    outcome = _loss_by_own_coins(ctx, board, side, how, "91")
    return Result(board, event.player, outcome.laws, how, False, outcome=outcome)


def rule_concede(ctx: Context, board: BoardState, event: Any) -> Result:
    side = ctx.table.side_of[event.player]
    name = ctx.table.side_names[side]
    scope = event.scope
    if scope == "board":
        how = f"{name} concedes the board"
        outcome = _loss_by_own_coins(ctx, board, side, how, "139")
        return Result(board, event.player, ctx.ruleset.cite("139", "91"), how, False, outcome=outcome)
    how = f"{name} concedes the {scope}"
    return Result(
        board,
        event.player,
        ctx.ruleset.cite("139"),
        how,
        False,
        game_conceded_by=side if scope == "game" else None,
        match_conceded_by=side if scope == "match" else None,
    )


def rule_replay(ctx: Context, board: BoardState, event: Any) -> Result:
    outcome = BoardOutcome(
        winner=None, how="board cancelled and replayed", laws=ctx.ruleset.cite("140", "137"), replayed=True
    )
    return Result(
        board,
        None,
        outcome.laws,
        "board cancelled: it is replayed with the same break",
        False,
        outcome=outcome,
    )
