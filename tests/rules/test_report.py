"""The match report carrom-match-report/1: DESIGN.md's field names, validation, round trips."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from rules.report import REPORT_SCHEMA, BoardResult, MatchReport, StrokeRuling, ToPlace, report_json_schema

DESIGN_EXAMPLE = {
    "schema": "carrom-match-report/1",
    "rules": "icf",
    "sides": ["Asha", "Ben"],
    "winner": "Asha",
    "games": [
        {
            "number": 1,
            "winner": "Asha",
            "points": {"Asha": 25, "Ben": 9},
            "boards": [
                {
                    "number": 1,
                    "break_by": "Asha",
                    "white": "Asha",
                    "winner": "Asha",
                    "queen": 3,
                    "coins": 4,
                    "extra": 0,
                    "points": 7,
                    "totals": {"Asha": 7, "Ben": 0},
                    "replayed": False,
                    "strokes": [
                        {
                            "index": 0,
                            "player": "Asha",
                            "turn_continues": True,
                            "to_place": {"white": 0, "black": 0, "queen": False},
                            "laws": ["48"],
                            "ruling": "pocketed own coin; turn continues",
                        }
                    ],
                }
            ],
        }
    ],
}


def test_design_example_round_trips_exactly() -> None:
    report = MatchReport.model_validate(DESIGN_EXAMPLE)
    assert report.to_data() == DESIGN_EXAMPLE
    assert MatchReport.model_validate_json(json.dumps(report.to_data())) == report


def test_schema_defaults_to_the_report_version() -> None:
    report = MatchReport(rules="icf", sides=("Asha", "Ben"))
    assert report.to_data()["schema"] == REPORT_SCHEMA
    assert report.winner is None and report.games == ()


def test_stroke_defaults_place_nothing() -> None:
    stroke = StrokeRuling(index=3, player="Ben", turn_continues=False, laws=("72a",), ruling="due")
    assert stroke.to_place == ToPlace(white=0, black=0, queen=False)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("winner",), "Chen"),
        (("games", 0, "winner"), "Chen"),
        (("games", 0, "boards", 0, "winner"), "Chen"),
        (("games", 0, "boards", 0, "white"), "Chen"),
    ],
)
def test_every_named_winner_and_colour_is_a_side(path: tuple, value: str) -> None:
    data = json.loads(json.dumps(DESIGN_EXAMPLE))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ValidationError, match="not a side"):
        MatchReport.model_validate(data)


@pytest.mark.parametrize("field", ["queen", "coins", "extra", "points"])
def test_board_figures_are_never_negative(field: str) -> None:
    board = dict(DESIGN_EXAMPLE["games"][0]["boards"][0])
    board[field] = -1
    with pytest.raises(ValidationError):
        BoardResult.model_validate(board)


def test_unknown_fields_are_rejected() -> None:
    data = json.loads(json.dumps(DESIGN_EXAMPLE))
    data["games"][0]["boards"][0]["bonus"] = 1
    with pytest.raises(ValidationError, match="bonus"):
        MatchReport.model_validate(data)


def test_the_report_is_immutable() -> None:
    report = MatchReport.model_validate(DESIGN_EXAMPLE)
    with pytest.raises(ValidationError):
        report.winner = "Ben"  # type: ignore[misc]


def test_json_schema_names_design_fields() -> None:
    schema = report_json_schema()
    assert schema["$id"] == REPORT_SCHEMA
    assert set(schema["properties"]) == {"schema", "rules", "sides", "winner", "games"}
    board = schema["$defs"]["BoardResult"]["properties"]
    figures = {"queen", "coins", "extra", "points", "totals"}
    assert set(board) == {"number", "break_by", "white", "winner", "replayed", "strokes"} | figures
    stroke = schema["$defs"]["StrokeRuling"]["properties"]
    assert set(stroke) == {"index", "player", "turn_continues", "to_place", "laws", "ruling"}
