"""The match log carrom-match-log/1: what it accepts, its defaults, and how it says what is wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import LogError, RulesError
from rules.log import (
    EVENT_TYPES,
    LOG_SCHEMA,
    MatchLog,
    PlacedEvent,
    StrokeEvent,
    event_line,
    log_json_schema,
    parse_log,
    parse_log_text,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "logs" / "sample-match.yaml"

DESIGN_EXAMPLE = """
schema: carrom-match-log/1
rules: icf
event: singles
seats: {S: Asha, N: Ben}
first_break: Asha
events:
  - {type: stroke, pocketed: [white, white]}
  - {type: stroke, pocketed: [striker]}
  - {type: stroke, pocketed: [queen, white], overboard: [black]}
  - {type: stroke, pocketed: [], touched: false}
  - {type: stroke, pocketed: [black], improper: thumbing}
  - {type: placed, items: [white]}
  - {type: foul, player: Ben, reason: phone_ringing}
  - {type: forgo, player: Ben}
  - {type: concede, player: Ben, scope: game}
  - {type: replay}
"""


def base(**changes: object) -> dict:
    data = {"schema": LOG_SCHEMA, "seats": {"S": "Asha", "N": "Ben"}, "first_break": "Asha", "events": []}
    data.update(changes)
    return data


def error_of(data: object) -> LogError:
    with pytest.raises(LogError) as caught:
        parse_log(data)
    return caught.value


def test_design_example_parses_with_every_event_type_and_its_defaults() -> None:
    log = parse_log_text(DESIGN_EXAMPLE, "example.yaml")
    kinds = [event.type for event in log.events]
    assert kinds == ["stroke"] * 5 + ["placed", "foul", "forgo", "concede", "replay"]
    first = log.events[0]
    assert isinstance(first, StrokeEvent)
    assert first.player is None  # whose turn it is: the engine decides
    assert first.touched is True
    assert first.overboard == () and first.improper is None and first.evidence is None
    assert log.events[3].touched is False
    assert log.events[2].overboard == ("black",)
    assert log.events[4].improper == "thumbing"
    assert log.events[6].technical is False
    assert log.events[8].scope == "game"


def test_defaults_for_rules_and_event() -> None:
    log = parse_log(base())
    assert log.rules == "icf"
    assert log.event == "singles"
    assert log.events == ()


def test_the_shipped_sample_match_parses() -> None:
    log = parse_log_text(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE))
    assert log.players == ("Asha", "Ben")
    assert log.first_break == "Asha"
    assert all(isinstance(event, StrokeEvent) for event in log.events)
    assert len(log.events) == 89


def test_the_shipped_doubles_board_parses() -> None:
    path = SAMPLE.parent / "doubles-ecc-board.yaml"
    log = parse_log_text(path.read_text(encoding="utf-8"), str(path))
    assert (log.rules, log.event) == ("ecc", "doubles")
    assert log.sides == ("Asha & Ben", "Chen & Dev")


def test_evidence_is_free_form() -> None:
    event = {
        "type": "stroke",
        "pocketed": ["white"],
        "evidence": {"t": 1.5, "frames": [3, 4], "x": {"y": None}},
    }
    log = parse_log(base(events=[event]))
    assert log.events[0].evidence == {"t": 1.5, "frames": [3, 4], "x": {"y": None}}


def test_an_unknown_field_names_event_index_and_field() -> None:
    events = [{"type": "stroke"}, {"type": "stroke", "pocketed": ["white"], "pocket": "NE"}]
    error = error_of(base(events=events))
    assert (error.event_index, error.event_type, error.field) == (1, "stroke", "pocket")
    assert str(error).startswith("event 1 (stroke) field 'pocket': unknown field")


def test_an_unknown_item_names_its_position() -> None:
    error = error_of(base(events=[{"type": "stroke", "pocketed": ["white", "red"]}]))
    assert (error.event_index, error.field) == (0, "pocketed[1]")
    assert "'red' is not allowed" in str(error)


def test_the_striker_cannot_be_placed() -> None:
    error = error_of(base(events=[{"type": "placed", "items": ["striker"]}]))
    assert (error.event_index, error.event_type, error.field) == (0, "placed", "items[0]")


def test_an_unknown_event_type_lists_the_known_ones() -> None:
    error = error_of(base(events=[{"type": "stroke"}, {"type": "strike"}]))
    assert (error.event_index, error.field) == (1, "type")
    assert all(kind in str(error) for kind in EVENT_TYPES)


def test_an_unknown_top_level_field() -> None:
    error = error_of(base(venue="Club"))
    assert error.field == "venue" and error.event_index is None


def test_a_name_yaml_reads_as_a_boolean_asks_for_quotes() -> None:
    text = "schema: carrom-match-log/1\nseats: {S: Asha, N: No}\nfirst_break: Asha\n"
    expected = "seats.N': expected text, got False; put the value in quotes"
    with pytest.raises(LogError, match=re.escape(expected)):
        parse_log_text(text, "x.yaml")
    assert parse_log_text(text.replace("N: No", "N: 'No'").replace("first_break: Asha", "first_break: 'No'"))


def test_a_missing_required_field() -> None:
    error = error_of(base(events=[{"type": "foul", "player": "Ben"}]))
    assert (error.event_index, error.field) == (0, "reason")


@pytest.mark.parametrize("field", ["player"])
def test_an_unknown_player_names_the_event(field: str) -> None:
    events = [{"type": "stroke"}, {"type": "stroke"}, {"type": "foul", "player": "Zed", "reason": "talking"}]
    error = error_of(base(events=events))
    assert (error.event_index, error.event_type, error.field) == (2, "foul", field)
    assert "'Zed'" in str(error)


def test_a_stroke_by_an_unseated_player() -> None:
    error = error_of(base(events=[{"type": "stroke", "player": "Chen"}]))
    assert (error.event_index, error.field) == (0, "player")


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"seats": {"S": "Asha", "E": "Ben"}}, "seats", "opposite"),
        ({"seats": {"S": "Asha", "N": "Asha"}, "first_break": "Asha"}, "seats", "once"),
        ({"event": "doubles"}, "seats", "four seats"),
        ({"first_break": "Chen"}, "first_break", "not seated"),
        ({"seats": {"S": "Asha", "X": "Ben"}}, "seats.X", None),
        ({"event": "triples"}, "event", None),
        ({"schema": "carrom-match-log/2"}, "schema", "unsupported"),
    ],
)
def test_seating_and_header_mistakes(changes: dict, field: str, words: str | None) -> None:
    error = error_of(base(**changes))
    assert error.field == field
    if words:
        assert words in str(error)


def test_doubles_seats_partners_opposite_and_names_sides_by_pair() -> None:
    log = parse_log(
        base(event="doubles", seats={"S": "Asha", "E": "Chen", "N": "Ben", "W": "Dev"}, first_break="Chen")
    )
    assert log.partner_of("Asha") == "Ben"
    assert log.partner_of("Dev") == "Chen"
    assert log.sides == ("Chen & Dev", "Asha & Ben")
    assert log.side_of("Ben") == "Asha & Ben"


def test_singles_sides_start_with_the_first_breaker() -> None:
    log = parse_log(base(seats={"E": "Asha", "W": "Ben"}, first_break="Ben"))
    assert log.sides == ("Ben", "Asha")
    assert log.partner_of("Ben") is None


def test_the_log_is_immutable() -> None:
    log = parse_log(base(events=[{"type": "stroke", "pocketed": ["white"]}]))
    with pytest.raises(ValueError):
        log.first_break = "Ben"  # type: ignore[misc]
    assert isinstance(log.events, tuple) and isinstance(log.events[0].pocketed, tuple)


def test_malformed_yaml_names_the_file_and_line() -> None:
    text = "schema: carrom-match-log/1\nseats: {S: Asha, N: Ben}\nevents: [\n  {type: stroke,\n"
    with pytest.raises(LogError) as caught:
        parse_log_text(text, "match-log.yaml")
    assert caught.value.source == "match-log.yaml"
    assert caught.value.line is not None and caught.value.line >= 4
    assert str(caught.value).startswith(f"match-log.yaml:{caught.value.line}: not valid YAML")


def test_malformed_json_names_the_file_and_line() -> None:
    text = '{\n  "schema": "carrom-match-log/1",\n  "seats": {"S": "Asha",}\n}\n'
    with pytest.raises(LogError) as caught:
        parse_log_text(text, "match-log.json")
    assert caught.value.line == 3
    assert str(caught.value).startswith("match-log.json:3: not valid JSON")


def test_a_validation_error_in_text_names_the_file_and_the_events_line() -> None:
    text = (
        "schema: carrom-match-log/1\n"
        "seats: {S: Asha, N: Ben}\n"
        "first_break: Asha\n"
        "events:\n"
        "  - {type: stroke, pocketed: [white]}\n"
        "  # a comment line\n"
        "  - type: stroke\n"
        "    pocketed: [queen]\n"
        "    spin: 3\n"
    )
    with pytest.raises(LogError) as caught:
        parse_log_text(text, "m.yaml")
    expected = "m.yaml:7: event 1 (stroke) field 'spin': unknown field (not in carrom-match-log/1)"
    assert str(caught.value) == expected


def test_event_line_finds_each_event_of_the_sample() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    lines = text.splitlines()
    for index in (0, 11, 25, 88):
        line = event_line(text, index)
        assert line is not None
        assert re.search(rf"# {index}\b", lines[line - 1]), lines[line - 1]
    assert event_line(text, 89) is None
    assert event_line("- a list", 0) is None
    assert event_line("{bad", 0) is None


def test_json_errors_point_at_the_events_line_too() -> None:
    events = [{"type": "stroke"}, {"type": "stroke", "player": "Zed"}]
    text = json.dumps(base(events=events), indent=1)
    with pytest.raises(LogError) as caught:
        parse_log_text(text, "m.json")
    assert text.splitlines()[caught.value.line - 1].strip() == "{"
    assert '"Zed"' in "\n".join(text.splitlines()[caught.value.line - 1 : caught.value.line + 3])


def test_json_and_yaml_give_the_same_log() -> None:
    data = base(
        events=[{"type": "stroke", "pocketed": ["white", "striker"]}, {"type": "placed", "items": []}]
    )
    from_yaml = parse_log_text(yaml.safe_dump(data), "a.yaml")
    from_json = parse_log_text(json.dumps(data), "a.json")
    assert from_yaml == from_json
    assert isinstance(from_json.events[1], PlacedEvent)


def test_not_a_mapping() -> None:
    with pytest.raises(LogError, match="mapping"):
        parse_log_text("- just\n- a list\n", "x.yaml")


def test_log_error_is_a_rules_error() -> None:
    assert issubclass(LogError, RulesError)


def test_json_schema_forbids_unknown_fields_and_knows_every_event() -> None:
    schema = log_json_schema()
    assert schema["$id"] == LOG_SCHEMA
    assert "schema" in schema["properties"] and "schema_" not in schema["properties"]
    defs = schema["$defs"]
    assert {
        "StrokeEvent",
        "PlacedEvent",
        "FoulEvent",
        "ForgoEvent",
        "ConcedeEvent",
        "AbandonEvent",
        "ReplayEvent",
    } <= set(defs)
    assert all(
        definition.get("additionalProperties") is False
        for definition in defs.values()
        if "properties" in definition
    )
    json.dumps(schema)


ITEMS = st.sampled_from(["white", "black", "queen", "striker"])
PIECES = st.sampled_from(["white", "black", "queen"])
PLAYERS = st.sampled_from(["Asha", "Ben"])
STROKES = st.fixed_dictionaries(
    {"type": st.just("stroke")},
    optional={
        "player": PLAYERS,
        "pocketed": st.lists(ITEMS, max_size=4),
        "overboard": st.lists(ITEMS, max_size=2),
        "touched": st.booleans(),
        "improper": st.sampled_from(["push", "thumbing", "elbow", "striker_position"]),
        "evidence": st.dictionaries(st.text(min_size=1, max_size=5), st.integers(), max_size=2),
    },
)
OTHER_EVENTS = st.one_of(
    st.fixed_dictionaries({"type": st.just("placed"), "items": st.lists(PIECES, max_size=3)}),
    st.fixed_dictionaries(
        {"type": st.just("foul"), "player": PLAYERS, "reason": st.text(min_size=1, max_size=10)},
        optional={"technical": st.booleans()},
    ),
    st.fixed_dictionaries({"type": st.just("forgo"), "player": PLAYERS}),
    st.fixed_dictionaries(
        {"type": st.just("concede"), "player": PLAYERS, "scope": st.sampled_from(["board", "game", "match"])}
    ),
    st.fixed_dictionaries({"type": st.just("abandon"), "player": PLAYERS}),
    st.fixed_dictionaries({"type": st.just("replay")}),
)


@settings(max_examples=60, deadline=None)
@given(events=st.lists(st.one_of(STROKES, OTHER_EVENTS), max_size=12))
def test_a_log_round_trips_through_json_and_yaml(events: list[dict]) -> None:
    log = parse_log(base(events=events))
    dumped = log.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert dumped["schema"] == LOG_SCHEMA
    assert parse_log_text(json.dumps(dumped), "r.json") == log
    assert parse_log_text(yaml.safe_dump(dumped), "r.yaml") == log
    assert MatchLog.model_validate(dumped) == log
