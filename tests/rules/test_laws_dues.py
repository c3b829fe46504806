"""ICF XIV, dues and penalties (72-91): what goes back, who places it, outstanding dues, forgoing."""

from __future__ import annotations

import pytest

from tests.rules.builders import DOUBLES, last, miss, position, run, stroke

IMPROPER = {"improper": "push"}


def test_law_72a_striker_alone_is_a_due_and_loses_the_turn() -> None:
    state, rulings = run([stroke("white", "white"), stroke("striker")])
    ruling = rulings[-1]
    assert "72(a)" in ruling.laws
    assert (ruling.to_place.white, ruling.to_place.black) == (1, 0)
    assert ruling.to_place.placer == "Ben"
    assert not ruling.turn_continues and state.turn().player == "Ben"


def test_law_72b_striker_alone_by_an_improper_stroke_is_due_and_foul() -> None:
    ruling = last([stroke("white", "white"), stroke("striker", **IMPROPER)])
    assert "72(b)" in ruling.laws
    assert ruling.to_place.white == 2 and not ruling.turn_continues


def test_law_72c_due_stays_outstanding_until_a_coin_is_available() -> None:
    # Ben (black) pockets the striker before any black: nothing to take out yet.
    state, rulings = run([miss(), stroke("striker")])
    assert "72(c)" in rulings[-1].laws
    assert rulings[-1].to_place.empty
    assert state.dues_outstanding() == {"Asha": 0, "Ben": 1}
    # Asha misses; Ben pockets two blacks: one goes straight back for the due (78(a)).
    state, rulings = run([miss(), stroke("striker"), miss(), stroke("black", "black")])
    assert rulings[-1].to_place.black == 1 and rulings[-1].turn_continues
    assert state.dues_outstanding() == {"Asha": 0, "Ben": 0}
    assert state.coins_on_board()["black"] == 8


def test_law_73_striker_with_own_coins_returns_them_and_a_due_turn_continues() -> None:
    state, rulings = run([stroke("white"), stroke("white", "white", "striker")])
    ruling = rulings[-1]
    assert "73" in ruling.laws
    assert ruling.to_place.white == 3 and ruling.turn_continues
    assert state.coins_on_board()["white"] == 9  # the break's white went back as the due


def test_law_74_striker_with_opponents_coin_counts_it_and_loses_the_turn() -> None:
    state, rulings = run([stroke("white"), stroke("black", "striker")])
    ruling = rulings[-1]
    assert "74" in ruling.laws
    assert (ruling.to_place.white, ruling.to_place.black) == (1, 0)
    assert state.coins_on_board() == {"white": 9, "black": 8}
    assert not ruling.turn_continues


def test_law_75_striker_with_own_and_opponents_coins_turn_continues() -> None:
    state, rulings = run([stroke("white"), stroke("white", "black", "striker")])
    ruling = rulings[-1]
    assert "75" in ruling.laws
    assert ruling.to_place.white == 2 and ruling.to_place.black == 0
    assert ruling.turn_continues
    assert state.coins_on_board() == {"white": 9, "black": 8}


def test_law_76_improper_stroke_pocketing_opponents_coin_penalty_turn_lost() -> None:
    state, rulings = run([stroke("white"), stroke("black", **IMPROPER)])
    ruling = rulings[-1]
    assert "76" in ruling.laws
    assert (ruling.to_place.white, ruling.to_place.black) == (1, 0)
    assert state.coins_on_board() == {"white": 9, "black": 8}
    assert state.turn().player == "Ben"


def test_law_77a_improper_stroke_returns_own_coins_with_a_penalty() -> None:
    ruling = last([stroke("white"), stroke("white", **IMPROPER)])
    assert "77(a)" in ruling.laws
    assert ruling.to_place.white == 2 and not ruling.turn_continues


def test_law_77b_improper_stroke_with_striker_returns_own_coins_with_two() -> None:
    ruling = last([stroke("white", "white", "white"), stroke("white", "striker", **IMPROPER)])
    assert "77(b)" in ruling.laws
    assert ruling.to_place.white == 3 and not ruling.turn_continues


def test_law_78a_outstanding_due_is_taken_out_during_the_same_turn() -> None:
    # Asha pockets the striker before any white (outstanding), then later pockets a white.
    events = [miss(), miss(), stroke("striker"), miss(), stroke("white", "white")]
    state, rulings = run(events)
    assert "78(a)" in rulings[-1].laws
    assert rulings[-1].to_place.white == 1 and rulings[-1].turn_continues
    assert state.dues_outstanding()["Asha"] == 0


def test_law_78b_doubles_dues_placed_by_the_player_on_the_right() -> None:
    ruling = last([stroke("white"), stroke("striker")], seats=DOUBLES)
    assert ruling.to_place.placer == "Chen"  # Asha sits S; E is on her right


def test_law_78b_ii_the_striker_places_the_opponents_due_he_made_available() -> None:
    # Chen (black, E) owes an outstanding due; Asha pockets a black: Asha places it herself.
    events = [miss(), stroke("striker"), miss(), miss(), stroke("black")]
    _state, rulings = run(events, seats=DOUBLES)
    assert rulings[1].player == "Chen" and "72(c)" in rulings[1].laws
    assert rulings[-1].player == "Asha"
    assert rulings[-1].to_place.black == 1 and rulings[-1].to_place.placer == "Asha"


def test_law_80_and_87a_forgoing_the_dues_in_toto() -> None:
    events = [
        stroke("white", "white"),
        stroke("white", "striker", **IMPROPER),
        {"type": "forgo", "player": "Ben"},
    ]
    state, rulings = run(events)
    assert "87(a)" in rulings[-1].laws and "80" in rulings[-1].laws
    assert state.to_place().empty
    assert state.coins_on_board()["white"] == 6  # all three stay in the pockets


def test_law_82b_placing_a_coin_not_owed_stands_if_unnoticed() -> None:
    events = [stroke("white", "white"), stroke("striker"), {"type": "placed", "items": ["white", "white"]}]
    state, rulings = run(events)
    assert "82(b)" in rulings[-1].laws
    assert state.coins_on_board()["white"] == 9


def test_law_83_due_not_placed_before_the_next_stroke_is_forfeited() -> None:
    events = [
        stroke("white", "white"),
        stroke("white", "striker", **IMPROPER),
        {"type": "placed", "items": ["white"]},
    ]
    state, rulings = run(events)
    assert "83" in rulings[-1].laws
    assert state.coins_on_board()["white"] == 7
    assert state.dues_outstanding()["Asha"] == 0


def test_law_89a_dues_of_both_sides_are_not_set_off() -> None:
    # Ben pockets the striker before any black (outstanding), Asha then does the same with a
    # white pocketed: both owe; neither cancels the other.
    events = [stroke("white"), miss(), stroke("striker"), stroke("striker")]
    state, rulings = run(events)
    assert rulings[-1].to_place.white == 1
    assert state.dues_outstanding() == {"Asha": 0, "Ben": 1}


def test_law_91_leaving_the_seat_loses_the_board_by_own_coins_and_queen() -> None:
    ruling = last([*position(4, 6), {"type": "abandon", "player": "Asha"}])
    outcome = ruling.board_end
    assert outcome is not None and "91" in ruling.laws
    assert (outcome.winner, outcome.coins, outcome.queen) == (1, 4, 3)


def test_law_91_from_22_the_loss_is_by_coins_only() -> None:
    import dataclasses

    from rules.rulesets import ICF

    ruling = last(
        [*position(4, 6), {"type": "abandon", "player": "Asha"}], dataclasses.replace(ICF, cutoff=0)
    )
    assert ruling.board_end is not None
    assert (ruling.board_end.coins, ruling.board_end.queen) == (4, 0)


@pytest.mark.parametrize(
    "reason",
    [
        pytest.param("placing_held_another_coin", id="law_84b"),
        pytest.param("placed_outside_outer_circle", id="law_85"),
        pytest.param("placing_moved_other_coin", id="law_86"),
        pytest.param("placing_time_exceeded", id="law_88b"),
        pytest.param("placed_on_centre_circle", id="law_89b"),
        pytest.param("took_out_partners_due", id="law_90"),
    ],
)
def test_law_placing_mistakes_are_fouls(reason: str) -> None:
    """84-90: a placing mistake is declared a foul "as per the Laws": one coin, turn lost (64(a))."""
    state, rulings = run([stroke("white", "white"), {"type": "foul", "player": "Asha", "reason": reason}])
    assert "64(a)" in rulings[-1].laws
    assert rulings[-1].to_place.white == 1
    assert state.turn().player == "Ben"


def test_law_79_81_dues_are_placed_as_soon_as_the_stroke_is_complete() -> None:
    """The log cannot show the space on the board: the engine takes the dues out at once (81),
    and a later `placed` event that leaves some off is read under 83."""
    state, rulings = run([stroke("white", "white"), stroke("striker")])
    assert rulings[-1].to_place.white == 1 and state.to_place().white == 1
    state, rulings = run([stroke("white", "white"), stroke("striker"), miss()])
    assert state.to_place().empty and state.coins_on_board()["white"] == 8


def test_law_78b_both_colours_owed_at_once_have_their_own_placers() -> None:
    # Ben owes an outstanding due; Asha pockets a black (Ben's due, placed by Asha, 78(b)(ii))
    # with a white and the striker (75: the white and a due, placed by Ben).
    ruling = last([stroke("white"), miss(), stroke("striker"), stroke("white", "black", "striker")])
    owed = ruling.to_place
    assert (owed.white, owed.black) == (2, 1)
    assert (owed.placer_of("white"), owed.placer_of("black")) == ("Ben", "Asha")


def test_law_83_last_coins_left_in_the_pockets_complete_the_board() -> None:
    """Own coins pocketed with the striker go back as part of the due (13, 73); if they are not
    placed before the next stroke they are forfeited (83) and stay in the pockets. With her
    last white pocketed that way Asha has no coin left on the board: she has completed (52(a))."""
    events = [*position(1, 5, "asha"), stroke("white", "striker"), {"type": "placed", "items": []}]
    state, rulings = run(events)
    outcome = rulings[-1].board_end
    assert outcome is not None and "83" in rulings[-1].laws and "52(a)" in rulings[-1].laws
    assert (outcome.winner, outcome.queen, outcome.coins) == (0, 3, 5)
    assert state.board.number == 2 and state.totals() == {"Asha": 8, "Ben": 0}


def test_law_80_87a_forgoing_the_last_coins_before_the_queen_is_covered_loses_by_107() -> None:
    """Covering with her last white and the striker (101(a)) sends the white back with a due;
    Ben forgoes them (87(a)), so Asha's coins are all gone with the queen not covered: as if
    she had pocketed her last coin leaving the queen (107(a))."""
    forgo = {"type": "forgo", "player": "Ben"}
    events = [*position(1, 5, "asha_awaiting"), stroke("white", "striker"), forgo]
    ruling = last(events)
    outcome = ruling.board_end
    assert outcome is not None and "87(a)" in ruling.laws and "107(a)" in ruling.laws
    assert (outcome.winner, outcome.queen, outcome.coins) == (1, 3, 0)
