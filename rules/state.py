"""The immutable state of a match: match -> game -> board, as frozen dataclasses.

The engine (`rules.engine.apply`) maps a state and one log event to the next state and a
ruling; nothing here changes in place. The query methods on `MatchState` are the public API a
caller (the simulator, a live recorder) uses to play a legal match: whose turn it is, what must
be placed, which colour each side has, what is left on the board, who breaks next.

Sides are numbered 0 and 1: side 0 is the side of the player who broke the first board of the
match (the toss), as in the report's `sides`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from rules.rulesets import ICF, Ruleset

Colour = Literal["white", "black"]
Seat = Literal["S", "E", "N", "W"]
QueenWhere = Literal["on_board", "awaiting_cover", "covered"]

T = TypeVar("T")


def evolve(value: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed: `dataclasses.replace` without its
    per-call introspection, which dominated the engine's time. Internal: names are not checked."""
    new = object.__new__(type(value))
    state = new.__dict__
    state.update(value.__dict__)
    state.update(changes)
    return new


COINS_PER_COLOUR = 9  # ICF equipment B: nine white, nine black and one queen
# Seats counter-clockwise seen from above, so each seat's right-hand neighbour follows it:
# a player at S faces north and has E on the right (ICF 49(b), 78(b)).
SEATS_RIGHTWARD: tuple[Seat, ...] = ("S", "E", "N", "W")
OPPOSITE_SEAT: dict[str, Seat] = {"S": "N", "N": "S", "E": "W", "W": "E"}


@dataclass(frozen=True)
class Queen:
    """Where the queen is: on the board, pocketed and awaiting cover by a side, or covered."""

    where: QueenWhere = "on_board"
    side: int | None = None  # the side that pocketed it (awaiting_cover / covered)

    def describe(self, sides: tuple[str, str]) -> str:
        if self.where == "on_board":
            return "queen on the board"
        owner = sides[self.side] if self.side is not None else "?"
        return (
            f"queen awaiting cover by {owner}"
            if self.where == "awaiting_cover"
            else f"queen covered by {owner}"
        )


QUEEN_ON_BOARD = Queen()


@dataclass(frozen=True)
class Placement:
    """What must be put back on the board before the next stroke, and by whom.

    `white`/`black` are due, penalty and returned coins, placed inside the outer circle by
    `white_by`/`black_by` (ICF 78: the opponent of the coins' owner, in doubles the one on the
    right of the player having the turn); `queen` is placed in the centre circle by
    `queen_placer` (ICF 93: the umpire).
    """

    white: int = 0
    black: int = 0
    queen: bool = False
    white_by: str | None = None
    black_by: str | None = None
    queen_placer: str | None = None

    @property
    def empty(self) -> bool:
        return not (self.white or self.black or self.queen)

    @property
    def placer(self) -> str | None:
        """Who places the coins (the white placer if both colours are owed, which is rare)."""
        return self.white_by if self.white else self.black_by

    def count(self, colour: Colour) -> int:
        return self.white if colour == "white" else self.black

    def placer_of(self, colour: Colour) -> str | None:
        return self.white_by if colour == "white" else self.black_by

    def describe(self) -> str:
        words = []
        if self.white and self.black and self.white_by != self.black_by:
            words.append(f"{self.white} white to be placed by {self.white_by}")
            words.append(f"{self.black} black to be placed by {self.black_by}")
        elif self.white or self.black:
            coins = " and ".join(f"{n} {c}" for n, c in ((self.white, "white"), (self.black, "black")) if n)
            words.append(f"{coins} to be placed by {self.placer}")
        if self.queen:
            by = f"the {self.queen_placer}" if self.queen_placer == "umpire" else self.queen_placer
            words.append(f"the queen to be placed in the centre circle by {by}")
        return "; ".join(words) if words else "nothing to place"


NOTHING = Placement()


@dataclass(frozen=True)
class BoardOutcome:
    """How a board ended (chess's `Outcome`): who won, the points and why."""

    winner: int | None  # side; None for a replayed or unfinished board
    queen: int = 0
    coins: int = 0
    extra: int = 0
    how: str = ""
    laws: tuple[str, ...] = ()
    replayed: bool = False
    points: int = 0  # queen + coins + extra after the per-board cap (55); set by the engine

    @property
    def raw_points(self) -> int:
        return self.queen + self.coins + self.extra


@dataclass(frozen=True)
class FinishedBoard:
    number: int
    breaker: str
    white_side: int
    outcome: BoardOutcome
    totals: tuple[int, int]  # running game totals after the board


@dataclass(frozen=True)
class BoardState:
    """One board in play."""

    number: int
    breaker: str
    white_side: int  # ICF 43: the breaker's side has white
    turn: str  # the player whose turn it is
    white_on_board: int = COINS_PER_COLOUR
    black_on_board: int = COINS_PER_COLOUR
    queen: Queen = QUEEN_ON_BOARD
    broken: bool = False  # ICF 44: the break has been made
    break_attempts: int = 0  # failed break chances of the player now trying (45)
    strokes_in_turn: int = 0  # strokes already taken in this turn (63 against 64)
    dues: tuple[int, int] = (0, 0)  # outstanding dues/penalties per side (72(c), 83)
    ever_pocketed: tuple[bool, bool] = (False, False)  # 92, 95(a) against 95(c)
    pending: Placement = NOTHING  # what the last event requires to be placed
    pending_queen_side: int | None = None  # who pocketed a queen now being returned (96)
    # 56(b): the extra board after a tie opens with a toss to choose the break; the log shows
    # its result as the player of the first stroke.
    toss_for_break: bool = False

    def on_board(self, colour: Colour) -> int:
        return self.white_on_board if colour == "white" else self.black_on_board

    def colour_of(self, side: int) -> Colour:
        return "white" if side == self.white_side else "black"

    def side_of_colour(self, colour: Colour) -> int:
        return self.white_side if colour == "white" else 1 - self.white_side

    def pocketed(self, colour: Colour) -> int:
        return COINS_PER_COLOUR - self.on_board(colour)

    def with_counts(self, white: int, black: int) -> BoardState:
        return evolve(self, white_on_board=white, black_on_board=black)


@dataclass(frozen=True)
class GameState:
    number: int
    first_breaker: str
    totals: tuple[int, int] = (0, 0)
    boards: tuple[FinishedBoard, ...] = ()
    board: BoardState | None = None
    winner: int | None = None
    over: bool = False
    how: str = ""

    @property
    def boards_played(self) -> int:
        """Boards that counted (replayed ones do not)."""
        return sum(1 for board in self.boards if not board.outcome.replayed)


@dataclass(frozen=True)
class Table:
    """Who plays: fixed for the whole match, shared by every state."""

    ruleset: Ruleset
    doubles: bool
    seats: tuple[tuple[Seat, str], ...]  # as seated for the first game
    first_break: str
    order: tuple[str, ...]  # players in the order the turn passes (49(b))
    side_of: dict[str, int]
    side_names: tuple[str, str]

    def next_player(self, player: str) -> str:
        index = self.order.index(player)
        return self.order[(index + 1) % len(self.order)]

    def right_of(self, player: str) -> str:
        """The player on this player's right hand (ICF 78(b)): always an opponent."""
        seat = dict((name, seat) for seat, name in self.seats)[player]
        seated = dict(self.seats)
        position = SEATS_RIGHTWARD.index(seat)
        for step in range(1, 4):
            neighbour = SEATS_RIGHTWARD[(position + step) % 4]
            if neighbour in seated:
                return seated[neighbour]
        return player

    def players_of(self, side: int) -> tuple[str, ...]:
        return tuple(name for name in self.order if self.side_of[name] == side)


def make_table(seats: dict[str, str], first_break: str, *, doubles: bool, ruleset: Ruleset = ICF) -> Table:
    """The fixed facts of a match from its seating (the log's `seats`, `event`, `first_break`)."""
    seating = tuple((seat, seats[seat]) for seat in SEATS_RIGHTWARD if seat in seats)
    direction = SEATS_RIGHTWARD if ruleset.turn_direction == "right" else ("S", "W", "N", "E")
    start = next(seat for seat, name in seating if name == first_break)
    rotated = direction[direction.index(start) :] + direction[: direction.index(start)]
    order = tuple(seats[seat] for seat in rotated if seat in seats)
    first_seat = start
    if doubles:  # 28: partners sit opposite each other
        partners = (first_seat, OPPOSITE_SEAT[first_seat])
        side_of = {name: (0 if seat in partners else 1) for seat, name in seating}
    else:
        side_of = {name: (0 if name == first_break else 1) for seat, name in seating}
    names: list[str] = []
    for side in (0, 1):
        members = [name for seat, name in seating if side_of[name] == side]
        names.append(" & ".join(members))
    return Table(
        ruleset=ruleset,
        doubles=doubles,
        seats=seating,
        first_break=first_break,
        order=order,
        side_of=side_of,
        side_names=(names[0], names[1]),
    )


@dataclass(frozen=True)
class Turn:
    player: str
    seat: Seat
    side: int
    side_name: str


@dataclass(frozen=True)
class MatchState:
    """A whole match at one moment. Query it; advance it with `rules.engine.apply`."""

    table: Table
    game: GameState | None  # the game in play; None once the match is over
    games: tuple[GameState, ...] = ()  # finished games
    wins: tuple[int, int] = (0, 0)
    winner: int | None = None
    over: bool = False
    how: str = ""
    index: int = 0  # events ruled so far (the index of the next event)

    # --- queries --------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return self.table.ruleset

    @property
    def board(self) -> BoardState | None:
        """The board in play; None once the match is over."""
        return self.game.board if self.game is not None else None

    @property
    def match_over(self) -> bool:
        return self.over

    @property
    def game_number(self) -> int:
        return self.game.number if self.game is not None else len(self.games)

    def turn(self) -> Turn:
        """Whose turn it is, and where that player sits in the current game."""
        board = self._board_or_raise()
        player = board.turn
        side = self.table.side_of[player]
        return Turn(
            player=player, seat=self.seat_of(player), side=side, side_name=self.table.side_names[side]
        )

    def to_place(self) -> Placement:
        """What must be placed before the next stroke (the last event's dues, penalties, queen)."""
        board = self.board
        return board.pending if board is not None else NOTHING

    def dues_outstanding(self) -> dict[str, int]:
        """Dues/penalties owed by each side but not yet available to place (72(c))."""
        board = self.board
        dues = board.dues if board is not None else (0, 0)
        return {self.table.side_names[side]: dues[side] for side in (0, 1)}

    def colours(self) -> dict[str, Colour]:
        """Which colour each side plays on the current board (43: the breaker's side has white)."""
        board = self._board_or_raise()
        return {self.table.side_names[side]: board.colour_of(side) for side in (0, 1)}

    def colour_of(self, player: str) -> Colour:
        return self._board_or_raise().colour_of(self.table.side_of[player])

    def coins_on_board(self) -> dict[Colour, int]:
        """Coins on the board per colour, counting what `to_place` requires as already placed."""
        board = self._board_or_raise()
        return {"white": board.white_on_board, "black": board.black_on_board}

    def queen_status(self) -> Queen:
        return self._board_or_raise().queen

    def queen_on_board(self) -> bool:
        board = self.board
        return board is not None and board.queen.where == "on_board"

    def breaker(self) -> str:
        """Who broke (or is to break) the board in play."""
        return self._board_or_raise().breaker

    def next_breaker(self) -> str | None:
        """Who breaks the next board of this game if the board in play ends now (49)."""
        from rules.engine import breaker_for  # the break order lives with the engine

        game = self.game
        if game is None or game.board is None:
            return None
        return breaker_for(self.table, game.number, game.boards_played + 2)

    def totals(self) -> dict[str, int]:
        """Running totals of the game in play (or of the last game once the match is over)."""
        game = self.game if self.game is not None else (self.games[-1] if self.games else None)
        totals = game.totals if game is not None else (0, 0)
        return {self.table.side_names[side]: totals[side] for side in (0, 1)}

    def seat_of(self, player: str) -> Seat:
        """The seat of a player in the game in play, after the changes of sides of 58-60."""
        game = self.game
        changes = max(self.game_number - 1, 0)
        deciding = self.ruleset.games_per_match > 1 and self.game_number == self.ruleset.games_per_match
        # 60(a): in the deciding game sides change once more, after the fourth board or when
        # either side reaches 13 points, whichever is earlier.
        if game is not None and deciding and (game.boards_played >= 4 or max(game.totals) >= 13):
            changes += 1
        seats = seats_for_game(self.table, changes + 1)
        return next(seat for seat, name in seats if name == player)

    def _board_or_raise(self) -> BoardState:
        board = self.board
        if board is None:
            raise ValueError("the match is over: no board in play")
        return board


def seats_for_game(table: Table, game_number: int) -> tuple[tuple[Seat, str], ...]:
    """Seating in a game: 58 (singles swap sides) and 59 (doubles move one seat to the right)."""
    changes = max(game_number - 1, 0)
    seated: list[tuple[Seat, str]] = []
    for seat, name in table.seats:
        new = seat
        for _ in range(changes):
            new = (
                OPPOSITE_SEAT[new]
                if not table.doubles
                else SEATS_RIGHTWARD[(SEATS_RIGHTWARD.index(new) + 1) % 4]
            )
        seated.append((new, name))
    return tuple(seated)
