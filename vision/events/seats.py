"""Who struck: the side of the board a stroke was played from, and the player sitting there.

The seats come from the user (`--seats S=Asha,N=Ben`) or are inferred: the first stroke of
the match is the first breaker's, and singles opponents sit opposite (DESIGN.md: partners
and singles opponents sit opposite).
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import BASE_LINE_MID_MM, SEATS, Seat, board_to_seat, seat_normal
from vision.errors import UsageError

OPPOSITE_SEAT: dict[Seat, Seat] = {"S": "N", "N": "S", "E": "W", "W": "E"}
DEFAULT_PLAYERS = ("Player 1", "Player 2")


def side_of(xy_mm: np.ndarray) -> Seat:
    """The seat whose side of the board the point lies towards."""
    xy = np.asarray(xy_mm, dtype=float)
    return max(SEATS, key=lambda seat: float(xy @ seat_normal(seat)))


def base_band_offset(seat: Seat, xy_mm: np.ndarray) -> tuple[float, float]:
    """(along, inward offset from the middle of the seat's two base lines), in mm."""
    along, inward = board_to_seat(seat, np.asarray(xy_mm, dtype=float))
    return float(along), float(inward - BASE_LINE_MID_MM)


class SeatAssigner:
    """Maps the side a stroke came from to a player, fixing the seating on the first stroke
    when the user did not give it."""

    def __init__(
        self,
        event: str = "singles",
        seats: dict[Seat, str] | None = None,
        players: tuple[str, ...] | None = None,
        first_break: str | None = None,
    ) -> None:
        if event not in ("singles", "doubles"):
            raise UsageError(f"event must be singles or doubles, got {event!r}")
        self.event = event
        self.seats: dict[Seat, str] | None = dict(seats) if seats else None
        if self.seats is None and event == "doubles":
            raise UsageError("doubles needs the seating: --seats S=A,E=C,N=B,W=D")
        names = tuple(players) if players else None
        if self.seats is not None:
            names = tuple(self.seats.values())
        self.players: tuple[str, ...] = names or DEFAULT_PLAYERS
        if self.seats is None and len(self.players) != 2:
            raise UsageError(f"singles needs two players, got {len(self.players)}: {', '.join(self.players)}")
        if first_break is not None and first_break not in self.players:
            names = ", ".join(self.players)
            raise UsageError(f"--first-break {first_break!r} is not one of the players ({names})")
        self.first_break: str | None = first_break
        if self.first_break is None and self.seats is None:
            self.first_break = self.players[0]

    @property
    def known(self) -> bool:
        return self.seats is not None and self.first_break is not None

    def player_for(self, seat: Seat) -> str | None:
        """The player at `seat`; the first call fixes whatever the user left open."""
        if self.seats is None:
            breaker = self.first_break or self.players[0]
            other = next(p for p in self.players if p != breaker)
            self.seats = {seat: breaker, OPPOSITE_SEAT[seat]: other}
        if self.first_break is None:
            # Seats given, first breaker not: the first stroke of the match is the break.
            self.first_break = self.seats.get(seat, next(iter(self.seats.values())))
        return self.seats.get(seat)


def parse_seats(text: str) -> dict[Seat, str]:
    """`S=Asha,N=Ben` -> {"S": "Asha", "N": "Ben"}; UsageError naming the bad part."""
    seats: dict[Seat, str] = {}
    for part in text.split(","):
        seat, sep, name = part.partition("=")
        seat = seat.strip().upper()
        if not sep or seat not in SEATS or not name.strip():
            raise UsageError(f"--seats: {part.strip()!r} is not SEAT=NAME with SEAT one of S, E, N, W")
        if seat in seats:
            raise UsageError(f"--seats: seat {seat} given twice")
        seats[seat] = name.strip()  # type: ignore[index]
    if len(seats) == 2 and OPPOSITE_SEAT[next(iter(seats))] not in seats:
        given = ", ".join(seats)
        raise UsageError(f"--seats: singles players sit opposite (S and N, or E and W), got {given}")
    if len(seats) not in (2, 4):
        count = len(seats)
        raise UsageError(f"--seats: give two opposite seats (singles) or all four (doubles), got {count}")
    return seats
