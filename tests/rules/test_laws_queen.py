"""ICF XV, the queen (92-114): the right to pocket it, covering, the nine-on-board case,
the queen with the striker, and what happens when it is not put back."""

from __future__ import annotations

from tests.rules.builders import last, miss, run, stroke

IMPROPER = {"improper": "elbow"}


def test_law_92_queen_may_be_pocketed_once_an_own_coin_is_pocketed() -> None:
    state, rulings = run([stroke("white"), stroke("queen")])
    assert "92" in rulings[-1].laws and rulings[-1].turn_continues
    assert state.queen_status().where == "awaiting_cover"


def test_law_93_94_queen_returned_is_placed_by_the_umpire_in_the_centre() -> None:
    ruling = last([miss(), stroke("queen")])
    assert ruling.to_place.queen and ruling.to_place.queen_placer == "umpire"
    assert "93" in ruling.laws and "centre circle" in ruling.text


def test_law_95a_queen_before_any_own_coin_goes_back_turn_lost() -> None:
    state, rulings = run([miss(), stroke("queen", "white")])  # Ben plays black, pockets a white
    assert "95(a)" in rulings[-1].laws
    assert rulings[-1].to_place.queen and not rulings[-1].turn_continues
    assert state.queen_on_board()


def test_law_95b_queen_with_a_due_outstanding_goes_back() -> None:
    # Asha owes an outstanding due (striker before any white), then pockets the queen and a white.
    events = [miss(), miss(), stroke("striker"), miss(), stroke("queen", "white", "white")]
    _state, rulings = run(events)
    assert "95(b)" in rulings[-1].laws
    assert rulings[-1].to_place.queen and not rulings[-1].turn_continues


def test_law_95c_after_recovery_all_nine_on_board_the_queen_may_be_pocketed() -> None:
    # Asha pockets a white, then the striker: the white goes back as the due (nine on board).
    events = [stroke("white"), stroke("striker"), miss(), stroke("queen")]
    state, rulings = run(events)
    assert "95(c)" in rulings[-1].laws
    assert state.queen_status().where == "awaiting_cover" and rulings[-1].turn_continues


def test_law_95d_queen_with_striker_while_nine_on_board_is_a_due_turn_lost() -> None:
    state, rulings = run([miss(), stroke("queen", "striker")])
    ruling = rulings[-1]
    assert "95(d)" in ruling.laws and not ruling.turn_continues
    assert ruling.to_place.queen
    assert state.dues_outstanding()["Ben"] == 1


def test_law_96_queen_not_covered_goes_back() -> None:
    state, rulings = run([stroke("white"), stroke("queen"), miss()])
    assert "96" in rulings[-1].laws and rulings[-1].to_place.queen
    assert state.queen_on_board() and state.turn().player == "Ben"


def test_law_96_queen_not_put_back_before_the_next_stroke_is_recorded_covered() -> None:
    events = [stroke("white"), stroke("queen"), miss(), {"type": "placed", "items": []}]
    state, rulings = run(events)
    assert "96" in rulings[-1].laws
    assert state.queen_status().where == "covered" and state.queen_status().side == 0


def test_law_97a_queen_and_own_coin_together_are_covered() -> None:
    state, rulings = run([stroke("white"), stroke("white", "queen")])
    assert "97(a)" in rulings[-1].laws
    assert state.queen_status().where == "covered" and rulings[-1].turn_continues


def test_law_97b_nine_on_board_queen_and_one_coin_must_still_be_covered() -> None:
    state, rulings = run([stroke("queen", "white")])
    assert "97(b)" in rulings[-1].laws
    assert state.queen_status().where == "awaiting_cover"
    state, rulings = run([stroke("queen", "white", "white")])
    assert state.queen_status().where == "covered"


def test_law_98a_queen_own_coin_and_striker_proper_turn_continues() -> None:
    ruling = last([stroke("white"), stroke("queen", "white", "striker")])
    assert "98(a)" in ruling.laws and ruling.turn_continues
    assert ruling.to_place.queen and ruling.to_place.white == 2


def test_law_98b_queen_own_coin_and_striker_improper_turn_lost() -> None:
    ruling = last([stroke("white", "white"), stroke("queen", "white", "striker", **IMPROPER)])
    assert "98(b)" in ruling.laws and not ruling.turn_continues
    assert ruling.to_place.queen and ruling.to_place.white == 3


def test_law_99a_queen_and_striker_proper() -> None:
    ruling = last([stroke("white"), stroke("queen", "striker")])
    assert "99(a)" in ruling.laws and ruling.turn_continues
    assert ruling.to_place.queen and ruling.to_place.white == 1


def test_law_99b_queen_and_striker_improper() -> None:
    ruling = last([stroke("white", "white"), stroke("queen", "striker", **IMPROPER)])
    assert "99(b)" in ruling.laws and not ruling.turn_continues
    assert ruling.to_place.queen and ruling.to_place.white == 2


def test_law_100a_covering_stroke_pockets_striker_alone() -> None:
    ruling = last([stroke("white"), stroke("queen"), stroke("striker")])
    assert "100(a)" in ruling.laws and not ruling.turn_continues
    assert ruling.to_place.queen and ruling.to_place.white == 1


def test_law_100b_covering_stroke_pockets_striker_alone_improperly() -> None:
    ruling = last([stroke("white", "white"), stroke("queen"), stroke("striker", **IMPROPER)])
    assert "100(b)" in ruling.laws
    assert ruling.to_place.queen and ruling.to_place.white == 2


def test_law_101a_covering_with_striker_gives_one_more_chance() -> None:
    state, rulings = run([stroke("white"), stroke("queen"), stroke("white", "striker")])
    assert "101(a)" in rulings[-1].laws and rulings[-1].turn_continues
    assert rulings[-1].to_place.white == 2 and not rulings[-1].to_place.queen
    assert state.queen_status().where == "awaiting_cover"
    # ... and if the next stroke pockets no own coin the queen goes back.
    ruling = last([stroke("white"), stroke("queen"), stroke("white", "striker"), miss()])
    assert ruling.to_place.queen and "96" in ruling.laws


def test_law_101b_covering_with_striker_improperly_loses_the_queen() -> None:
    ruling = last([stroke("white", "white"), stroke("queen"), stroke("white", "striker", **IMPROPER)])
    assert "101(b)" in ruling.laws and not ruling.turn_continues
    assert ruling.to_place.queen and ruling.to_place.white == 3


def test_law_113_queen_falling_at_the_pocket_mouth_counts_as_pocketed() -> None:
    """A queen the log shows pocketed is pocketed, however late it fell (113)."""
    state, _ = run([stroke("white"), stroke("queen", evidence={"fell_after_rest": True}), stroke("white")])
    assert state.queen_status().where == "covered"


def test_law_114_using_dues_for_a_shot_with_the_queen_is_a_foul() -> None:
    events = [
        stroke("white", "white"),
        {"type": "foul", "player": "Asha", "reason": "due_used_for_queen_shot"},
    ]
    _state, rulings = run(events)
    assert "64(a)" in rulings[-1].laws and rulings[-1].to_place.white == 1


def test_law_96_a_foul_before_the_cover_loses_the_queen() -> None:
    events = [stroke("white"), stroke("queen"), {"type": "foul", "player": "Asha", "reason": "phone_ringing"}]
    state, rulings = run(events)
    assert "96" in rulings[-1].laws and rulings[-1].to_place.queen
    assert state.queen_on_board() and state.turn().player == "Ben"


def test_law_48_92_queen_with_an_opponents_coin_keeps_the_turn_to_cover() -> None:
    """The queen pocketed by right keeps the turn (48) even with an opponent's coin beside it;
    the coin counts as pocketed (as beside an own coin, 75) and the next stroke may cover."""
    state, rulings = run([stroke("white"), stroke("queen", "black")])
    ruling = rulings[-1]
    assert ruling.turn_continues and "48" in ruling.laws and "92" in ruling.laws
    assert ruling.to_place.empty and state.turn().player == "Asha"
    assert state.queen_status().where == "awaiting_cover" and state.coins_on_board()["black"] == 8
    state, _ = run([stroke("white"), stroke("queen", "black"), stroke("white")])
    assert state.queen_status().where == "covered" and state.queen_status().side == 0
    # Without the right to pocket it (no own coin yet) the queen still goes back (95(a)).
    ruling = last([miss(), stroke("queen", "white")])
    assert "95(a)" in ruling.laws and ruling.to_place.queen and not ruling.turn_continues
