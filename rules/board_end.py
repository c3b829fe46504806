"""The end of a board: who wins and by how much (IX, and XV's cases 102-112)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.context import Context
from rules.state import (
    BoardOutcome,
    BoardState,
    Queen,
    evolve,
)

if TYPE_CHECKING:
    from rules.strokes import Stroke


def end_of_board(
    ctx: Context,
    board: BoardState,
    s: Stroke,
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

    # A text without the law (Basic has no 105, 106, 109-112) is silent on the case: the ICF
    # law decides it, cited as "ICF 105(a)" beside the text's own 52(a).
    def lose(law: str, queen: int = 0, coins: int = 0, extra: int = 0, how: str = "") -> BoardOutcome:
        laws = ruleset.cite_or_icf(law, "52(a)")
        return BoardOutcome(winner=opp, queen=queen, coins=coins, extra=extra, how=how, laws=laws)

    def win(law: str, queen: int = 0, coins: int = 0, extra: int = 0, how: str = "") -> BoardOutcome:
        laws = ruleset.cite_or_icf(law, "52(a)")
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
                outcome,
                laws=ruleset.cite_or_icf("105" + clause, *(("108" + clause,) if s.striker else ()), "52(a)"),
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
            laws = ruleset.cite("97(a)" if queen_state == "covering_now" else "15") + laws
        how = f"{mine} pocketed the last coin and wins the board"
        return BoardOutcome(winner=me, queen=queen_points, coins=opp_after, how=how, laws=laws)

    # opp_last only: the opponent's coins are all gone.
    my_coins = own_after
    if queen_state == "on_board":
        q = ruleset.queen_in_loss(ctx.score(opp))
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
        q = ruleset.queen_in_loss(ctx.score(opp))
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


def completed_without_a_stroke(ctx: Context, board: BoardState, why: tuple[str, ...]) -> BoardOutcome | None:
    """The board's end when a side is left with no coin on the board by what was not put back.

    Coins owed back (dues, penalties, own coins pocketed with the striker, 13) that are not
    placed before the next stroke are forfeited (83), as are those the entitled player forgoes
    (80, 87(a)): they stay in the pockets. A side whose last coins stay there has completed
    pocketing all its coins (52(a)) and the board is over, ruled like a last coin pocketed:
    with the queen still to be won it loses by the queen's points (107(a)); otherwise it wins
    by the opponent's coins left, with the queen if it covered it (53). `why` are the laws that
    kept the coins in the pockets. None while both colours still have coins on the board.
    """
    empty = [colour for colour in ("white", "black") if board.on_board(colour) == 0]
    if not empty:
        return None
    ruleset, names = ctx.ruleset, ctx.table.side_names
    turn_side = ctx.table.side_of[board.turn]
    sides = [board.side_of_colour(colour) for colour in empty]
    me = turn_side if turn_side in sides else sides[0]  # both at once: the side at turn
    opp = 1 - me
    mine = names[me]
    queen = board.queen
    if queen.where != "covered":
        return BoardOutcome(
            winner=opp,
            queen=ruleset.fixed_award(ctx.score(opp)),
            how=f"{mine} has no coin left on the board with the queen not won: {mine} loses the board",
            laws=(*why, *ruleset.cite_or_icf("107(a)", "52(a)")),
        )
    own_queen = queen.side == me
    points = ruleset.queen_count(ctx.score(me)) if own_queen else 0
    queen_law = ("53(b)" if points else "54") if own_queen else "53(c)"
    return BoardOutcome(
        winner=me,
        queen=points,
        coins=board.on_board(board.colour_of(opp)),
        how=f"{mine} has no coin left on the board: {mine} has completed and wins the board",
        laws=(*why, *ruleset.cite("52(a)", "53(a)", queen_law)),
    )
