"""Rulesets: the built-in texts, variant files, and how ECC, Basic and Starwood change a score."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rules.errors import RulesError
from rules.rulesets import BASIC, ECC, ICF, get_ruleset, parse_ruleset_text, resolve_ruleset
from tests.rules.builders import DOUBLES, last, miss, position, report, run, stroke

ROOT = Path(__file__).resolve().parents[2]
STARWOOD_FILE = ROOT / "samples" / "rulesets" / "starwood.yaml"
# The rules package reads no files: the test reads the variant and hands over its text.
STARWOOD = parse_ruleset_text(STARWOOD_FILE.read_text(encoding="utf-8"), str(STARWOOD_FILE))


def test_builtin_rulesets_by_name() -> None:
    assert get_ruleset("ICF") is ICF and resolve_ruleset("ecc") is ECC and resolve_ruleset(None) is ICF
    assert resolve_ruleset(BASIC) is BASIC
    assert (ICF.queen_value, ICF.cutoff, ICF.game_points, ICF.boards_per_game, ICF.board_cap) == (
        3,
        22,
        25,
        8,
        12,
    )


def test_each_text_cites_its_own_numbers() -> None:
    assert ICF.cite("72(a)", "48") == ("72(a)", "48")
    assert ECC.cite("72(a)", "48") == ("56", "28")
    assert BASIC.cite("72(a)", "48") == ("22(a)", "14")


def test_unknown_ruleset_is_one_clear_error() -> None:
    with pytest.raises(RulesError, match="unknown ruleset 'fide'"):
        resolve_ruleset("fide")


def test_a_variant_file_name_is_not_opened_by_the_rules(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("base: ecc\n")
    with pytest.raises(RulesError, match="reads no files"):
        resolve_ruleset(str(house))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("base: icf\nqueen_valu: 5\n", "unknown field 'queen_valu'"),
        ("base: fic\n", "field 'base'"),
        ("queen_value: five\n", "field 'queen_value': expected int"),
        ("games_per_match: 2\n", "odd number"),
        ("turn_direction: up\n", "'right' or 'left'"),
        ("extra_board_on_tie: 1\n", "expected bool"),
        ("queen_value: true\n", "expected int"),
        ("- a list\n", "a variant file is a mapping"),
        ("base: [icf\n", "not valid YAML"),
    ],
)
def test_bad_variant_files_name_file_and_field(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_ruleset_text(text, "house.yaml")
    assert message in str(caught.value) and str(caught.value).startswith("house.yaml")


def test_starwood_loads_with_its_parameters() -> None:
    starwood = STARWOOD
    assert starwood.name == "starwood" and starwood.base == "icf"
    assert (starwood.queen_value, starwood.cutoff, starwood.game_points) == (5, 25, 29)
    assert starwood.turn_direction == "left" and starwood.board_cap is None


def test_starwood_queen_is_worth_five() -> None:
    starwood = STARWOOD
    events = [*position(1, 4, "asha"), stroke("white")]
    assert last(events).board_end.points == 3 + 4
    assert last(events, starwood).board_end.points == 5 + 4


def test_starwood_queen_counts_below_25_but_not_from_25() -> None:
    starwood = STARWOOD
    # Boards 1 and 2: 9 coins + the queen each, Asha on 28 with Starwood's queen of 5.
    two_boards = [
        stroke("queen", "white", "white"),
        stroke(*(["white"] * 7)),
        miss(),
        stroke("queen", "black", "black"),
        stroke(*(["black"] * 7)),
    ]
    state, _ = run(two_boards, starwood)
    assert state.totals() == {"Asha": 28, "Ben": 0}
    # From 25 on the queen adds nothing: the third board is worth the coins only.
    state, rulings = run([*two_boards, stroke("queen", "white", "white"), stroke(*(["white"] * 7))], starwood)
    assert rulings[-1].board_end.queen == 0 and rulings[-1].board_end.points == 9
    assert rulings[-1].game_end is not None and rulings[-1].match_end  # 37 >= 29, one game


def test_starwood_turn_passes_clockwise_in_doubles() -> None:
    starwood = STARWOOD
    _, rulings = run([miss(), miss(), miss()], starwood, seats=DOUBLES)
    assert [r.player for r in rulings] == ["Asha", "Dev", "Ben"]  # S, then W, then N


def test_starwood_game_of_four_boards() -> None:
    starwood = STARWOOD
    nine = stroke(*(["white"] * 9))
    card = report([nine] * 4, starwood)
    assert len(card.games) == 1 and len(card.games[0].boards) == 4
    # Each breaker clears with the queen on and loses by the queen's value (107(a)): 5 a board.
    assert card.games[0].points == {"Asha": 10, "Ben": 10}
    # A tie after the fourth: the extra board of 56(b) is still to be played.
    assert card.winner is None and card.games[0].winner is None


def test_variant_overrides_only_what_it_names() -> None:
    house = parse_ruleset_text("ruleset: house\nbase: ecc\ngame_points: 21\n", "house.yaml")
    assert house.base == "ecc" and house.game_points == 21 and house.queen_value == ECC.queen_value
    assert house.cite("48") == ("28",)


def test_ecc_improper_stroke_is_not_penalised_law_42() -> None:
    ruling = last([stroke("white"), stroke("white", improper="thumbing")], ECC)
    assert "42" in ruling.laws and ruling.turn_continues and ruling.to_place.empty
    icf = last([stroke("white"), stroke("white", improper="thumbing")])
    assert icf.to_place.white == 2 and not icf.turn_continues


def test_ecc_out_of_turn_stroke_stands_law_31_icf_loses_board_law_51() -> None:
    events = [stroke("white"), stroke("black", player="Ben")]
    ecc = last(events, ECC)
    assert "31" in ecc.laws and ecc.board_end is None and ecc.turn_continues
    icf = last(events)
    assert "51" in icf.laws and icf.board_end is not None
    assert (icf.board_end.winner, icf.board_end.coins, icf.board_end.queen) == (0, 9, 3)


def test_ecc_has_no_law_103_covering_with_opponents_last_is_a_plain_loss() -> None:
    events = [*position(3, 1, "asha_awaiting"), stroke("white", "black")]
    icf = last(events).board_end
    ecc = last(events, ECC).board_end
    assert (icf.queen, icf.coins) == (3, 2)
    assert (ecc.winner, ecc.queen, ecc.coins) == (1, 0, 2)


def test_basic_queen_one_point_after_21_and_no_additional_points() -> None:
    at_cutoff = dataclasses.replace(BASIC, cutoff=0)
    outcome = last([*position(1, 4, "asha"), stroke("white")], at_cutoff).board_end
    assert (outcome.queen, outcome.coins) == (1, 4)
    outcome = last([*position(1, 4), stroke("white", "striker", improper="push")], BASIC).board_end
    assert outcome.extra == 0 and "29" in last([*position(1, 4), stroke("white")], BASIC).laws


def test_basic_striker_alone_is_one_due_even_if_improper_law_22a() -> None:
    ruling = last([stroke("white", "white"), stroke("striker", improper="push")], BASIC)
    assert ruling.to_place.white == 1 and "22(a)" in ruling.laws


def test_where_a_text_is_silent_the_icf_law_is_applied_and_named() -> None:
    ruling = last([stroke("white", overboard=["black"])], BASIC)
    assert "ICF 65(a)" in ruling.laws and "14" in ruling.laws
    outcome = last([stroke("white"), stroke("black", player="Ben")], BASIC).board_end
    assert outcome is not None and outcome.winner == 0  # ICF 51: out of turn loses the board


def test_ecc_stroke_out_of_turn_before_the_cover_sends_the_queen_back() -> None:
    events = [stroke("white"), stroke("queen"), stroke("black", player="Ben")]
    state, rulings = run(events, ECC)
    assert rulings[-1].to_place.queen and state.queen_on_board()


def test_basic_loss_by_coins_and_queen_is_by_coins_only_from_22_law_30() -> None:
    """Basic 16 gives the queen one point after 21 to a winner who covered it, but a loss "by the
    number of his c/m ... together with the points for the Queen" is by the coins only from 22
    (Basic 30; ICF 106 where Basic is silent)."""
    at_cutoff = dataclasses.replace(BASIC, cutoff=0)
    covering = last([*position(3, 1, "asha_awaiting"), stroke("white", "black")], at_cutoff)
    assert "30" in covering.laws
    assert (covering.board_end.winner, covering.board_end.queen, covering.board_end.coins) == (1, 0, 2)
    queen_on = last([*position(2, 1), stroke("black")], at_cutoff)
    assert queen_on.laws[0] == "ICF 106(a)"
    assert (queen_on.board_end.queen, queen_on.board_end.coins) == (0, 2)
    below = last([*position(2, 1), stroke("black")], BASIC).board_end
    assert (below.queen, below.coins) == (3, 2)
