"""What every event handler shares: the event's context, its result, and placing back (XIV).

A handler (`rules.strokes`, `rules.events`) gets a `Context` and the board, and answers a
`Result`; `rules.engine` turns that into the next state and a ruling.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import LogError
from rules.rulesets import Ruleset
from rules.state import (
    NOTHING,
    BoardOutcome,
    BoardState,
    Colour,
    GameState,
    MatchState,
    Placement,
    Table,
    evolve,
)


@dataclass(frozen=True)
class Context:
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
class Result:
    """A handler's answer: the board after the event, and the words of the ruling."""

    board: BoardState
    player: str | None
    laws: tuple[str, ...]
    text: str
    turn_continues: bool
    outcome: BoardOutcome | None = None  # set when the board ends
    game_conceded_by: int | None = None  # side conceding the game
    match_conceded_by: int | None = None


# --- placing -----------------------------------------------------------------------------------


def placer_for(ctx: Context, owner_side: int, turn_player: str) -> str:
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


def settle_dues(
    ctx: Context,
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
    if not (owed or returned or queen_out or board.dues[0] or board.dues[1]):
        # Most strokes: nothing to take out and nothing waiting to be.
        if board.pending is not NOTHING:
            board = evolve(board, pending=NOTHING, pending_queen_side=None)
        return board, [], []
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
            placers[colour] = placer_for(ctx, side, turn_player)
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
