"""ICF VII (break), VIII (turn of play), X (sides), XI (fouls), XII (overboard), XVI (general):
concession, replayed boards, the striker leaving the board."""

from __future__ import annotations

from rules.engine import new_match
from tests.rules.builders import DOUBLES, last, miss, report, run, stroke

NO_TOUCH = {"touched": False}


def test_law_44_break_is_made_when_the_striker_touches_a_coin() -> None:
    state, rulings = run([miss()])
    assert "44" in rulings[0].laws and state.board.broken


def test_law_45a_two_more_chances_when_no_coin_is_touched() -> None:
    state, rulings = run([miss(**NO_TOUCH), miss(**NO_TOUCH)])
    assert all("45(a)" in r.laws and r.turn_continues for r in rulings)
    assert state.turn().player == "Asha" and not state.board.broken


def test_law_45b_after_three_chances_the_break_passes_without_rearranging_colours() -> None:
    state, rulings = run([miss(**NO_TOUCH)] * 3)
    assert "45(b)" in rulings[-1].laws
    assert state.turn().player == "Ben"
    assert state.colours() == {"Asha": "white", "Ben": "black"}  # Ben plays black
    state, _ = run([miss(**NO_TOUCH)] * 3 + [stroke("black")])
    assert state.board.broken and state.coins_on_board()["black"] == 8


def test_law_45c_striker_pocketed_at_the_break_without_touching_no_due() -> None:
    state, rulings = run([stroke("striker", **NO_TOUCH)])
    assert "45(c)" in rulings[0].laws and rulings[0].to_place.empty
    assert state.turn().player == "Ben" and state.dues_outstanding() == {"Asha": 0, "Ben": 0}


def test_law_45c_improper_break_loses_the_turn_without_penalty() -> None:
    state, rulings = run([stroke("white", "white", improper="push")])
    assert "45(c)" in rulings[0].laws
    assert rulings[0].to_place.white == 2  # what fell goes back, nothing more
    assert state.turn().player == "Ben" and state.coins_on_board()["white"] == 9


def test_law_48_turn_continues_while_own_coins_fall() -> None:
    _, rulings = run([stroke("white"), stroke("white", "black"), stroke("black")])
    assert [r.turn_continues for r in rulings] == [True, True, False]
    assert all("48" in r.laws for r in rulings[:2])


def test_law_49b_doubles_break_passes_to_the_right_each_board() -> None:
    clear = stroke(*(["white"] * 9))  # the breaker clears with the queen on: 107(a)
    card = report([clear] * 4, seats=DOUBLES)
    assert [b.break_by for b in card.games[0].boards] == ["Asha", "Chen", "Ben", "Dev"]
    assert [b.white for b in card.games[0].boards] == ["Asha & Ben", "Chen & Dev"] * 2


def test_law_51_stroke_out_of_turn_loses_the_board() -> None:
    ruling = last([stroke("white", "white"), stroke("black", player="Ben")])
    assert "51" in ruling.laws
    outcome = ruling.board_end
    assert (outcome.winner, outcome.coins, outcome.queen) == (0, 9, 3)


def test_law_58_and_59_sides_change_after_each_game() -> None:
    singles = new_match({"S": "Asha", "N": "Ben"}, "Asha")
    assert singles.seat_of("Asha") == "S"
    from rules.state import seats_for_game

    assert dict(seats_for_game(singles.table, 2)) == {"N": "Asha", "S": "Ben"}
    doubles = new_match(DOUBLES, "Asha", doubles=True)
    assert dict(seats_for_game(doubles.table, 2)) == {"E": "Asha", "N": "Chen", "W": "Ben", "S": "Dev"}


def test_law_63a_technical_foul_before_the_first_stroke_keeps_the_turn() -> None:
    events = [
        stroke("white", "white"),
        miss(),
        miss(),
        {"type": "foul", "player": "Asha", "reason": "powder"},
    ]
    state, rulings = run(events)
    assert "63(a)" in rulings[-1].laws and rulings[-1].turn_continues
    assert rulings[-1].to_place.white == 1 and state.turn().player == "Asha"


def test_law_63b_technical_foul_by_the_player_without_the_turn() -> None:
    events = [miss(), stroke("black"), {"type": "foul", "player": "Asha", "reason": "distracting"}]
    state, rulings = run(events)
    assert "63(b)" in rulings[-1].laws
    assert state.turn().player == "Ben"
    assert state.dues_outstanding()["Asha"] == 1  # no white pocketed yet: outstanding


def test_law_64a_foul_during_the_turn_loses_it() -> None:
    events = [stroke("white", "white"), {"type": "foul", "player": "Asha", "reason": "phone_ringing"}]
    state, rulings = run(events)
    assert "64(a)" in rulings[-1].laws and not rulings[-1].turn_continues
    assert rulings[-1].to_place.white == 1 and state.turn().player == "Ben"


def test_law_64b_foul_while_pocketing_returns_what_fell_and_one_more() -> None:
    ruling = last([stroke("white"), stroke("queen", "white", improper="push")])
    assert "64(b)" in ruling.laws
    assert ruling.to_place.queen and ruling.to_place.white == 2


def test_law_65_overboard_coins_go_back_to_the_centre() -> None:
    state, rulings = run([stroke("white", overboard=["black", "queen"])])
    assert "65(a)" in rulings[0].laws
    assert state.coins_on_board() == {"white": 8, "black": 9} and state.queen_on_board()


def test_law_116_striker_off_the_board_turn_continues_if_own_coin_fell() -> None:
    ruling = last([stroke("white", overboard=["striker"])])
    assert "116" in ruling.laws and ruling.turn_continues and ruling.to_place.empty


def test_law_139_concede_game_and_match() -> None:
    state, rulings = run([stroke("white"), {"type": "concede", "player": "Ben", "scope": "game"}])
    assert "139" in rulings[-1].laws
    assert rulings[-1].game_end is not None and rulings[-1].game_end.winner == 0
    assert state.game_number == 2 and state.breaker() == "Ben"
    state, rulings = run([stroke("white"), {"type": "concede", "player": "Asha", "scope": "match"}])
    assert state.match_over and state.winner == 1 and rulings[-1].match_end


def test_law_139_concede_board_loses_it_by_own_coins_and_queen() -> None:
    ruling = last([stroke("white", "white"), {"type": "concede", "player": "Asha", "scope": "board"}])
    assert ruling.board_end is not None
    assert (ruling.board_end.winner, ruling.board_end.coins, ruling.board_end.queen) == (1, 7, 3)


def test_law_140_replayed_board_keeps_its_number_and_breaker() -> None:
    card = report([stroke("white", "white"), {"type": "replay"}, miss()])
    boards = card.games[0].boards
    assert [b.number for b in boards] == [1, 1]
    assert boards[0].replayed and boards[0].winner is None and boards[0].points == 0
    assert boards[1].break_by == "Asha" and not boards[1].replayed


def test_law_60a_deciding_game_changes_sides_after_the_fourth_board() -> None:
    clear = stroke(*(["white"] * 9))  # 107(a): 3 points to the other side each board
    two_games = [clear] * 18  # each game: 8 boards tied 12-12, then the extra board
    state, _ = run([*two_games, clear, clear, clear])
    assert state.game_number == 3 and state.seat_of("Asha") == "S"  # changed twice (58)
    state, _ = run([*two_games, clear, clear, clear, clear])
    assert state.seat_of("Asha") == "N" and state.seat_of("Ben") == "S"


def test_law_47_break_before_play_is_a_foul_and_loses_the_turn() -> None:
    state, rulings = run([stroke("white", "queen", improper="before_play")])
    ruling = rulings[0]
    assert "47" in ruling.laws and "45(c)" not in ruling.laws and not ruling.turn_continues
    # The white and the queen go back; the foul's coin waits for a white to be pocketed (72(c)).
    assert ruling.to_place.white == 1 and ruling.to_place.queen
    assert state.dues_outstanding() == {"Asha": 1, "Ben": 0} and state.turn().player == "Ben"
    # Any other improper break is 45(c): turn lost, no penalty.
    state, _ = run([stroke("white", "queen", improper="push")])
    assert state.dues_outstanding() == {"Asha": 0, "Ben": 0}
