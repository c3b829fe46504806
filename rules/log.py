"""The match log `carrom-match-log/1`: what happened at the board, as DESIGN.md defines it.

A log is written by the vision pipeline and also by people (an umpire correcting a disputed
stroke), so every field is checked strictly: an unknown item or field is an error, never
silently dropped. The models are frozen; lists arrive as tuples.

`parse_log` takes already-decoded data (a dict from YAML or JSON) and `parse_log_text` the
text itself; neither touches files, so the rules package stays free of I/O. Both raise
`LogError` naming the event index and field (or the line, for text that is not YAML/JSON).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rules.errors import LogError

LOG_SCHEMA = "carrom-match-log/1"

Seat = Literal["S", "E", "N", "W"]
# Things that can fall into a pocket or leave the playing surface.
Item = Literal["white", "black", "queen", "striker"]
# Things that can be put back on the board (the striker is never "placed").
Piece = Literal["white", "black", "queen"]
Scope = Literal["board", "game", "match"]

# Partners in doubles sit opposite each other; in singles the two players do too.
OPPOSITE: dict[str, str] = {"S": "N", "N": "S", "E": "W", "W": "E"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StrokeEvent(_Strict):
    """One stroke, from strike to rest."""

    type: Literal["stroke"]
    player: str | None = Field(default=None, description="who struck; default: whose turn it is")
    pocketed: tuple[Item, ...] = Field(default=(), description="items in the order they fell")
    overboard: tuple[Item, ...] = Field(default=(), description="items that left the playing surface")
    touched: bool = Field(default=True, description="the striker touched a coin or the queen")
    improper: str | None = Field(
        default=None,
        description="why the stroke was improper (push, thumbing, elbow, striker_position, ...; "
        "before_play: a break made before the umpire called 'Play', ICF 47)",
    )
    evidence: dict[str, Any] | None = Field(
        default=None, description="times, frames, pocket names, striker position; ignored by the rules"
    )


class PlacedEvent(_Strict):
    """What was actually put back on the board before the next stroke."""

    type: Literal["placed"]
    items: tuple[Piece, ...] = ()
    evidence: dict[str, Any] | None = None


class FoulEvent(_Strict):
    """A violation outside a stroke."""

    type: Literal["foul"]
    player: str
    reason: str
    technical: bool = False
    evidence: dict[str, Any] | None = None


class ForgoEvent(_Strict):
    """The entitled player forgoes placing the dues/penalties now owed."""

    type: Literal["forgo"]
    player: str
    evidence: dict[str, Any] | None = None


class ConcedeEvent(_Strict):
    type: Literal["concede"]
    player: str
    scope: Scope
    evidence: dict[str, Any] | None = None


class AbandonEvent(_Strict):
    """The player leaves the seat during a board."""

    type: Literal["abandon"]
    player: str
    evidence: dict[str, Any] | None = None


class ReplayEvent(_Strict):
    """The board is cancelled and replayed."""

    type: Literal["replay"]
    evidence: dict[str, Any] | None = None


Event = Annotated[
    StrokeEvent | PlacedEvent | FoulEvent | ForgoEvent | ConcedeEvent | AbandonEvent | ReplayEvent,
    Field(discriminator="type"),
]

EVENT_TYPES: tuple[str, ...] = ("stroke", "placed", "foul", "forgo", "concede", "abandon", "replay")


class MatchLog(_Strict):
    """A whole match as it was played: who sat where, who broke first, and every event."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["carrom-match-log/1"] = Field(alias="schema")
    rules: str = Field(default="icf", description="icf | ecc | basic | path to a variant file")
    event: Literal["singles", "doubles"] = "singles"
    seats: dict[Seat, str] = Field(description="seat -> player; partners sit opposite")
    first_break: str = Field(description="who breaks the first board of the first game (the toss)")
    events: tuple[Event, ...] = ()

    @model_validator(mode="after")
    def _seating(self) -> MatchLog:
        names = list(self.seats.values())
        if any(not name.strip() for name in names):
            raise ValueError("seats: a player's name cannot be empty")
        if len(set(names)) != len(names):
            raise ValueError(f"seats: each player sits once, got {names}")
        taken = set(self.seats)
        if self.event == "doubles" and taken != {"S", "E", "N", "W"}:
            raise ValueError(f"seats: doubles needs all four seats S, E, N, W, got {sorted(taken)}")
        if self.event == "singles" and (len(taken) != 2 or OPPOSITE[min(taken)] != max(taken)):
            raise ValueError(
                f"seats: singles needs two opposite seats (S and N, or E and W), got {sorted(taken)}"
            )
        if self.first_break not in names:
            raise ValueError(f"first_break: {self.first_break!r} is not seated (players: {', '.join(names)})")
        return self

    @property
    def players(self) -> tuple[str, ...]:
        """Every seated player, in seat order S, E, N, W."""
        return tuple(self.seats[seat] for seat in ("S", "E", "N", "W") if seat in self.seats)

    def seat_of(self, player: str) -> Seat:
        for seat, name in self.seats.items():
            if name == player:
                return seat
        raise LogError(f"{player!r} is not seated")

    def partner_of(self, player: str) -> str | None:
        """The partner sitting opposite in doubles; None in singles."""
        if self.event != "doubles":
            return None
        return self.seats[OPPOSITE[self.seat_of(player)]]

    @property
    def sides(self) -> tuple[str, str]:
        """The two sides as the report names them: players in singles, "A & B" pairs in doubles.

        The first side is the one that breaks first.
        """
        first = self.first_break
        opponent = next(name for name in self.players if name != first and name != self.partner_of(first))
        return (self.side_of(first), self.side_of(opponent))

    def side_of(self, player: str) -> str:
        partner = self.partner_of(player)
        if partner is None:
            return player
        # S/N pair and E/W pair are always named in seat order, whoever breaks.
        seat = self.seat_of(player)
        first, second = ("S", "N") if seat in ("S", "N") else ("E", "W")
        return f"{self.seats[first]} & {self.seats[second]}"


def _event_type(raw: Any, index: int) -> str | None:
    if isinstance(raw, Mapping):
        kind = raw.get("type")
        return kind if isinstance(kind, str) else None
    return None


def _validation_to_log_error(exc: ValidationError, data: Any) -> LogError:
    """The first problem pydantic found, said as "event N (type) field 'f': what"."""
    error = exc.errors(include_url=False)[0]
    # pydantic marks a bad mapping key with a "[key]" part after the key itself.
    loc = [part for part in error["loc"] if part != "[key]"]
    message = error["msg"]
    if error["type"] == "extra_forbidden":
        message = "unknown field (not in carrom-match-log/1)"
    elif error["type"] == "string_type" and isinstance(error.get("input"), bool | int | float):
        # YAML reads No, yes, on, off as booleans and 42 as a number: a name must be quoted.
        message = f"expected text, got {error['input']!r}; put the value in quotes"
    elif error["type"] == "literal_error" and error.get("input") is not None:
        message = f"{error['input']!r} is not allowed; {message[0].lower()}{message[1:]}"
    if loc[:1] == ["events"] and len(loc) >= 2 and isinstance(loc[1], int):
        index = loc[1]
        raw_events = data.get("events") if isinstance(data, Mapping) else None
        raw = raw_events[index] if isinstance(raw_events, list) and index < len(raw_events) else None
        rest = loc[2:]
        # pydantic puts the chosen union member ("stroke") into the location: drop it.
        kind = _event_type(raw, index)
        if rest and rest[0] == kind:
            rest = rest[1:]
        field = ".".join(str(part) for part in rest if not isinstance(part, int)) or None
        if field is None and error["type"] in ("union_tag_invalid", "union_tag_not_found"):
            field = "type"
        if field == "type" and error["type"] == "union_tag_invalid":
            known = ", ".join(EVENT_TYPES)
            message = f"unknown event type {kind!r}; expected one of {known}"
            kind = None
        if rest and isinstance(rest[-1], int) and field is not None:
            field = f"{field}[{rest[-1]}]"
        return LogError(message, event_index=index, event_type=kind, field=field)
    field = ".".join(str(part) for part in loc) or None
    if message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
        # Our own seating checks name their field at the start of the message.
        head, sep, tail = message.partition(": ")
        if sep and head in MatchLog.model_fields:
            field, message = head, tail
    return LogError(message, field=field)


def parse_log(data: Any) -> MatchLog:
    """A validated match log from decoded YAML/JSON data; LogError names the event and field."""
    if not isinstance(data, Mapping):
        raise LogError(
            f"a match log is a mapping with schema, seats, first_break and events, got {type(data).__name__}"
        )
    if "schema" in data and data["schema"] != LOG_SCHEMA:
        raise LogError(f"unsupported schema {data['schema']!r}; expected {LOG_SCHEMA}", field="schema")
    try:
        log = MatchLog.model_validate(data)
    except ValidationError as exc:
        raise _validation_to_log_error(exc, data) from None
    _check_players(log)
    return log


def _check_players(log: MatchLog) -> None:
    seated = set(log.players)
    for index, event in enumerate(log.events):
        player = getattr(event, "player", None)
        if player is not None and player not in seated:
            raise LogError(
                f"unknown player {player!r} (seated: {', '.join(log.players)})",
                event_index=index,
                event_type=event.type,
                field="player",
            )


def decode_log_text(text: str, source: str = "<log>") -> Any:
    """YAML or JSON text -> data; a syntax error becomes LogError with the file and line."""
    if source.lower().endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            message = f"not valid JSON: {exc.msg} (column {exc.colno})"
            raise LogError(message, source=source, line=exc.lineno) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        line = mark.line + 1 if mark is not None else None
        column = f" (column {mark.column + 1})" if mark is not None else ""
        raise LogError(f"not valid YAML: {problem}{column}", source=source, line=line) from None


def event_line(text: str, index: int) -> int | None:
    """The 1-based line where event `index` starts in a log's YAML or JSON text, if found.

    Lets an error in event 57 point an editor at its line. Best effort: text that is not a
    mapping with an `events` list gives None.
    """
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, value in root.value:
        is_events = getattr(key, "value", None) == "events" and isinstance(value, yaml.SequenceNode)
        if is_events and 0 <= index < len(value.value):
            return value.value[index].start_mark.line + 1
    return None


def locate(error: LogError, text: str, source: str) -> LogError:
    """`error` naming the file and, for an error in an event, that event's line in `text`."""
    line = event_line(text, error.event_index) if error.event_index is not None else None
    return error.with_source(source, line)


def parse_log_text(text: str, source: str = "<log>") -> MatchLog:
    """A validated match log from YAML or JSON text (JSON when `source` ends in .json)."""
    try:
        return parse_log(decode_log_text(text, source))
    except LogError as exc:
        raise locate(exc, text, source) from None


def log_json_schema() -> dict[str, Any]:
    """The JSON Schema of `carrom-match-log/1` (what `carrom schema log` prints)."""
    schema = MatchLog.model_json_schema(by_alias=True)
    schema["$id"] = LOG_SCHEMA
    return schema
