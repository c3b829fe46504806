"""Strokes: the break (VII), turn of play (VIII), the queen (XV), dues and penalties (XIV).

`rule_stroke` rules one `stroke` event; when it ends the board it hands over to
`rules.board_end` (IX, 102-112).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.board_end import end_of_board
from rules.context import Context, Result, settle_dues
from rules.state import (
    QUEEN_ON_BOARD,
    BoardOutcome,
    BoardState,
    Colour,
    Queen,
    evolve,
)

BREAK_CHANCES = 3  # ICF 45(a): the first attempt and "a maximum of two more chances"
# The `improper` reason of a break made before the umpire called 'Play' (ICF 47).
EARLY_BREAK = "before_play"


@dataclass(frozen=True)
class Stroke:
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


def count_items(items: Sequence[str], what: str) -> int:
    return items.count(what)


def _check_items(ctx: Context, board: BoardState, event: Any) -> None:
    pocketed = tuple(getattr(event, "pocketed", ()) or ())
    overboard = tuple(getattr(event, "overboard", ()) or ())
    for colour in ("white", "black"):
        gone = count_items(pocketed, colour)
        left = board.on_board(colour)
        if gone > left:
            raise ctx.error(
                f"{gone} {colour} pocketed but only {left} {colour} on the board "
                f"(a {9 - left + gone}{_ordinal(9 - left + gone)} {colour} coin cannot be pocketed)",
                "pocketed",
            )
        if gone + count_items(overboard, colour) > left:
            raise ctx.error(
                f"more {colour} coins pocketed and overboard than the {left} on the board", "overboard"
            )
    queens = count_items(pocketed, "queen") + count_items(overboard, "queen")
    if queens > 1:
        raise ctx.error("there is only one queen", "pocketed")
    if queens and board.queen.where != "on_board":
        field = "pocketed" if "queen" in pocketed else "overboard"
        raise ctx.error(
            f"the queen is not on the board ({board.queen.describe(ctx.table.side_names)})", field
        )
    if count_items(pocketed, "striker") + count_items(overboard, "striker") > 1:
        raise ctx.error("there is only one striker", "pocketed")


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def rule_stroke(ctx: Context, board: BoardState, event: Any) -> Result:
    _check_items(ctx, board, event)
    table, ruleset = ctx.table, ctx.ruleset
    player = getattr(event, "player", None) or board.turn
    side = table.side_of[player]
    pocketed = tuple(getattr(event, "pocketed", ()) or ())
    overboard = tuple(getattr(event, "overboard", ()) or ())
    improper_reason = getattr(event, "improper", None)
    laws: list[str] = []
    words: list[str] = []

    if board.toss_for_break:
        # 56(b): whoever won the toss for the extra board breaks it, with white (43).
        if player != board.turn:
            side_now = table.side_of[player]
            board = evolve(board, breaker=player, white_side=side_now, turn=player)
            laws += ruleset.cite_or_icf("56(b)")
            words.append(f"{player} breaks the extra board, chosen by the toss")
        board = evolve(board, toss_for_break=False)

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
    stroke = Stroke(
        player=player,
        side=side,
        own=own,
        opp="black" if own == "white" else "white",
        n_own=count_items(pocketed, own),
        n_opp=count_items(pocketed, "black" if own == "white" else "white"),
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


def _out_of_turn(ctx: Context, board: BoardState, player: str) -> Result:
    """ICF 51: the offender loses the board by his coins and the queen then on the board."""
    side = ctx.table.side_of[player]
    winner = 1 - side
    coins = board.on_board(board.colour_of(side))
    queen = ctx.ruleset.queen_in_loss(ctx.score(winner)) if board.queen.where == "on_board" else 0
    outcome = BoardOutcome(
        winner=winner, queen=queen, coins=coins, how="stroke out of turn", laws=ctx.ruleset.cite("51")
    )
    text = (
        f"{player} played out of turn ({board.turn} had the turn): "
        f"{ctx.table.side_names[side]} loses the board by {coins} coins"
        + (f" and the queen ({queen})" if queen else "")
    )
    return Result(board, player, ctx.ruleset.cite("51"), text, False, outcome=outcome)


def _rule_break(
    ctx: Context,
    board: BoardState,
    stroke: Stroke,
    touched: bool,
    improper_reason: str | None,
    laws: list[str],
    words: list[str],
) -> Result:
    """VII: the break and its chances."""
    ruleset, table = ctx.ruleset, ctx.table
    nxt = table.next_player(stroke.player)
    if not touched:
        if stroke.striker or stroke.improper:
            why = "pocketed the striker" if stroke.striker else f"improper stroke ({improper_reason})"
            laws += ruleset.cite("45(c)")
            words.append(f"break attempt {why} without touching a coin: turn lost, no due or penalty")
            new = evolve(board, turn=nxt, break_attempts=0, strokes_in_turn=0)
            return Result(new, stroke.player, tuple(laws), "; ".join(words), False)
        attempts = board.break_attempts + 1
        if attempts < BREAK_CHANCES:
            laws += ruleset.cite("45(a)")
            words.append(
                f"break not made (no coin touched): chance {attempts + 1} of {BREAK_CHANCES} "
                f"for {stroke.player}"
            )
            new = evolve(board, break_attempts=attempts, strokes_in_turn=0)
            return Result(new, stroke.player, tuple(laws), "; ".join(words), True)
        laws += ruleset.cite("45(b)")
        words.append(f"break not made in {BREAK_CHANCES} chances: the right to break passes to {nxt}")
        new = evolve(board, turn=nxt, break_attempts=0, strokes_in_turn=0)
        return Result(new, stroke.player, tuple(laws), "; ".join(words), False)

    board = evolve(board, broken=True, break_attempts=0)
    laws += ruleset.cite("44")
    if stroke.improper:
        # 45(c): an improper break loses the turn "however, due/penalty shall not be
        # applicable": what the breaker pocketed of his own, and the queen, go back.
        # 47: a break made before the umpire calls 'Play' is a foul as well: one coin more.
        early = improper_reason == EARLY_BREAK and ruleset.has("47")
        if early:
            laws += ruleset.cite("47", "64(a)")
            words.append(
                "break made before 'Play' was called: a foul; what the breaker pocketed of his own "
                "and the queen go back with one coin more; turn lost"
            )
        else:
            laws += ruleset.cite("45(c)")
            words.append(f"improper break ({improper_reason}): turn lost, no due or penalty")
        counts = {"white": board.white_on_board, "black": board.black_on_board}
        counts[stroke.own] -= stroke.n_own
        counts[stroke.opp] -= stroke.n_opp
        new = board.with_counts(counts["white"], counts["black"])
        if stroke.n_opp:
            new = mark_pocketed(new, 1 - stroke.side)
        new, more_laws, more_words = settle_dues(
            ctx,
            new,
            {stroke.side: 1} if early else {},
            {stroke.own: stroke.n_own},
            stroke.queen,
            stroke.side,
            stroke.player,
        )
        new = evolve(new, turn=table.next_player(stroke.player), strokes_in_turn=0)
        if not new.pending.empty:
            more_words.append(new.pending.describe())
        return Result(new, stroke.player, tuple(laws + more_laws), "; ".join(words + more_words), False)
    words.append("break made")
    return _rule_play(ctx, board, stroke, laws, words)


def mark_pocketed(board: BoardState, side: int) -> BoardState:
    if board.ever_pocketed[side]:
        return board
    flags = (True, board.ever_pocketed[1]) if side == 0 else (board.ever_pocketed[0], True)
    return evolve(board, ever_pocketed=flags)


def _rule_play(ctx: Context, board: BoardState, s: Stroke, laws: list[str], words: list[str]) -> Result:
    """A stroke after the break: end of board (IX, 102-112), queen (XV), dues (XIV), turn (VIII)."""
    ruleset, table = ctx.ruleset, ctx.table
    own_before, opp_before = board.on_board(s.own), board.on_board(s.opp)
    own_after, opp_after = own_before - s.n_own, opp_before - s.n_opp
    queen_before = board.queen
    stray_queen = queen_before.where == "awaiting_cover" and queen_before.side != s.side
    if stray_queen:
        # Only a stroke out of turn (allowed by ECC 31) meets another side's uncovered queen.
        queen_before = QUEEN_ON_BOARD
        laws += ruleset.cite("96")
        words.append("the queen was not covered: back to the centre")

    own_last = s.n_own > 0 and own_after == 0
    opp_last = s.n_opp > 0 and opp_after == 0
    if own_last or opp_last:
        outcome = end_of_board(ctx, board, s, queen_before, own_after, opp_after, own_last, opp_last)
        if outcome is not None:
            counts = {s.own: own_after, s.opp: opp_after}
            new = board.with_counts(counts["white"], counts["black"])
            laws += list(outcome.laws)
            words.append(outcome.how)
            return Result(new, s.player, tuple(laws), "; ".join(words), False, outcome=outcome)

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
        else:
            # 48: pocketing the queen by right (92) keeps the turn, to cover it in the next
            # stroke (15), even when an opponent's coin fell with it: that coin counts as
            # pocketed, as it does beside an own coin (75). 125(a) stops a player whose
            # stroke pocketed only the opponent's coins.
            queen = Queen("awaiting_cover", s.side)
            cont = True
            laws += ruleset.cite("92", "95(c)", "48") if nine_on_board else ruleset.cite("92", "48")
            also = " with the opponent's coin, which counts as pocketed" if s.n_opp else ""
            words.append(f"queen pocketed{also}: to be covered in the next stroke; turn continues")
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
            laws += ruleset.cite("15", "48")
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

    queen_out = queen_out or stray_queen
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
    new, due_laws, due_words = settle_dues(
        ctx, new, owed, returned, queen_out, board.queen.side if stray_queen else s.side, s.player
    )
    laws += due_laws
    words += due_words
    if not new.pending.empty:
        words.append(new.pending.describe())
    return Result(new, s.player, tuple(laws), "; ".join(words), cont)


def _coins(n: int, what: str) -> str:
    return f"{n} {what}" + ("s" if n != 1 else "")
