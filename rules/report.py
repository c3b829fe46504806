"""The match report `carrom-match-report/1`: what the laws make of a match log (DESIGN.md).

Sides -> games -> boards -> strokes, with exactly the field names of DESIGN.md. A board's
`points` = `queen` + `coins` + `extra` after the per-board cap, and `totals` are the running
game totals after that board: the "Grand Total" column of the ICF score card (law XIX).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

REPORT_SCHEMA = "carrom-match-report/1"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToPlace(_Strict):
    """What must be put back on the board after a stroke (dues, penalties, the queen)."""

    white: int = Field(default=0, ge=0)
    black: int = Field(default=0, ge=0)
    queen: bool = False


class StrokeRuling(_Strict):
    """The ruling on one event of the log (a stroke, a foul, a placing, ...)."""

    index: int = Field(ge=0, description="the event's index in the match log")
    player: str | None = Field(description="who struck (or committed the foul); None for a replay")
    turn_continues: bool
    to_place: ToPlace = ToPlace()
    laws: tuple[str, ...] = Field(description="numbers of the laws applied, in the ruleset's numbering")
    ruling: str = Field(description="what happens, in plain words")


class BoardResult(_Strict):
    number: int = Field(ge=1, description="board number within its game")
    break_by: str = Field(description="the player who broke")
    white: str = Field(description="the side playing the white coins")
    winner: str | None = Field(description="the side that won the board; None while unfinished or replayed")
    queen: int = Field(default=0, ge=0, description="points for the queen")
    coins: int = Field(default=0, ge=0, description="the loser's coins left on the board")
    extra: int = Field(default=0, ge=0, description="additional points awarded under the laws")
    points: int = Field(default=0, ge=0, description="queen + coins + extra, after the per-board cap")
    totals: dict[str, int] = Field(description="running game totals after this board (Grand Total)")
    replayed: bool = False
    strokes: tuple[StrokeRuling, ...] = ()


class GameResult(_Strict):
    number: int = Field(ge=1)
    winner: str | None = None
    points: dict[str, int]
    boards: tuple[BoardResult, ...] = ()


class MatchReport(_Strict):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["carrom-match-report/1"] = Field(default=REPORT_SCHEMA, alias="schema")
    rules: str
    sides: tuple[str, str] = Field(description="players in singles, pairs ('Asha & Ben') in doubles")
    winner: str | None = None
    games: tuple[GameResult, ...] = ()

    @model_validator(mode="after")
    def _names_are_sides(self) -> MatchReport:
        sides = set(self.sides)
        boards = [board for game in self.games for board in game.boards]
        named = [self.winner] + [game.winner for game in self.games]
        named += [board.winner for board in boards] + [board.white for board in boards]
        strangers = {name for name in named if name is not None and name not in sides}
        if strangers:
            raise ValueError(f"not a side of this match: {sorted(strangers)}")
        return self

    def to_data(self) -> dict[str, Any]:
        """The report as plain JSON-ready data, field names exactly as in DESIGN.md."""
        return self.model_dump(mode="json", by_alias=True)


def report_json_schema() -> dict[str, Any]:
    """The JSON Schema of `carrom-match-report/1` (what `carrom schema report` prints)."""
    schema = MatchReport.model_json_schema(by_alias=True)
    schema["$id"] = REPORT_SCHEMA
    return schema
