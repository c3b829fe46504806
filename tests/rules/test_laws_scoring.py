"""ICF IX, how to score (52-57): board points, the 22-point rule, the cap, games and the match."""

from __future__ import annotations

from tests.rules.builders import asha_leads, last, miss, position, report, run, stroke


def nine_own_at_the_break() -> dict:
    """The breaker pockets all nine of his coins at once with the queen still on: 107(a)."""
    return stroke(*(["white"] * 9))


def test_law_52a_the_first_to_pocket_all_his_coins_wins_the_board() -> None:
    ruling = last([*position(2, 5, "asha"), stroke("white", "white")])
    assert ruling.board_end is not None and ruling.board_end.winner == 0
    assert "52(a)" in ruling.laws


def test_law_52b_queen_three_points_coins_one_each() -> None:
    outcome = last([*position(1, 7, "asha"), stroke("white")]).board_end
    assert outcome is not None and (outcome.queen, outcome.coins, outcome.points) == (3, 7, 10)


def test_law_53a_points_are_the_opponents_coins_left() -> None:
    outcome = last([*position(1, 4, "ben"), stroke("white")]).board_end
    assert outcome is not None and outcome.coins == 4


def test_law_53b_queen_credited_only_to_the_board_winner() -> None:
    outcome = last([*position(1, 4, "asha"), stroke("white")]).board_end
    assert outcome is not None and outcome.queen == 3


def test_law_53c_loser_who_covered_gets_nothing_for_the_queen() -> None:
    outcome = last([*position(1, 4, "ben"), stroke("white")]).board_end
    assert outcome is not None and outcome.queen == 0 and outcome.winner == 0


def test_law_54_no_queen_points_from_22_on() -> None:
    # Asha has 24: covering the queen and clearing earns only Ben's coins.
    _state, rulings = run([*asha_leads(), stroke("queen", "white", "white"), stroke(*(["white"] * 7))])
    outcome = rulings[-1].board_end
    assert outcome is not None and (outcome.queen, outcome.coins) == (0, 9)
    assert "54" in rulings[-1].laws


def test_law_55_at_most_twelve_points_a_board() -> None:
    # Ben (9 black on the board) pockets Asha's last white improperly with the queen on: 106(b)
    # gives 9 + 3 + 1 = 13, credited as 12.
    events = [stroke(*(["white"] * 8)), miss(), stroke("white", improper="thumbing")]
    state, rulings = run(events)
    outcome = rulings[-1].board_end
    assert outcome is not None and outcome.raw_points == 13 and outcome.points == 12
    assert "55" in rulings[-1].laws
    assert state.totals() == {"Asha": 12, "Ben": 0}


def test_law_56a_game_to_25_points() -> None:
    events = [*asha_leads(), stroke("queen", "white", "white"), stroke(*(["white"] * 7))]
    state, rulings = run(events)
    end = rulings[-1].game_end
    assert end is not None and end.winner == 0 and end.totals == (33, 0)
    assert state.game_number == 2 and state.breaker() == "Ben"  # 49(a)(ii)


def test_law_56a_game_of_eight_boards_goes_to_the_leader() -> None:
    # Each breaker pockets his nine at once and loses 3 (107(a)); one board replayed doesn't count.
    events = [nine_own_at_the_break() for _ in range(7)] + [miss(), stroke(*(["black"] * 9))]
    card = report(events)
    game = card.games[0]
    assert len(game.boards) == 8
    # Asha lost the four boards she broke (12 to Ben), won the three Ben broke (9), and lost
    # the eighth, Ben's break, by clearing her black with the queen still on (107(a)).
    assert game.winner == "Ben" and game.points == {"Asha": 9, "Ben": 15}


def test_law_56b_extra_board_on_a_tie_after_eight() -> None:
    events = [nine_own_at_the_break() for _ in range(9)]
    card = report(events)
    game = card.games[0]
    assert len(game.boards) == 9  # 12 : 12 after eight boards
    assert game.winner == "Ben" and game.points == {"Asha": 12, "Ben": 15}


def test_law_57_best_of_three_games_and_the_break_order_law_49() -> None:
    game = [nine_own_at_the_break() for _ in range(9)]
    # Game 1: Asha breaks boards 1, 3, ... and Ben wins the extra board. Game 2: Ben breaks
    # first (49(a)(ii)), so Asha wins it. Game 3: Asha breaks first again (49(a)(iii)).
    card = report(game * 3)
    assert [g.boards[0].break_by for g in card.games] == ["Asha", "Ben", "Asha"]
    assert [g.winner for g in card.games] == ["Ben", "Asha", "Ben"]
    assert card.winner == "Ben"


def test_law_57_match_ends_after_two_games_won() -> None:
    asha_clears_black = [miss(), stroke("queen", "black", "black"), stroke(*(["black"] * 7))]
    asha_clears_white = [stroke("queen", "white", "white"), stroke(*(["white"] * 7))]
    game_one = [*asha_leads(), *asha_clears_white]
    # Game 2 opens with Ben's break (49(a)(ii)); Asha takes 12, 12, then 9 (54: at 24).
    game_two = [*asha_clears_black, *asha_clears_white, *asha_clears_black]
    state, rulings = run([*game_one, *game_two])
    assert state.match_over and state.winner == 0
    assert rulings[-1].match_end
    assert [game.totals for game in state.games] == [(33, 0), (33, 0)]


def test_law_56b_the_tie_names_the_law_and_the_toss_chooses_who_breaks_the_extra_board() -> None:
    eight = [nine_own_at_the_break() for _ in range(8)]  # 12 : 12 after eight boards
    ruling = last(eight)
    assert "56(b)" in ruling.laws and "extra board" in ruling.text and ruling.game_end is None
    # Ben won the toss and breaks the ninth board although the break order would give it to
    # Asha: not a stroke out of turn (51); he has white (43).
    state, rulings = run([*eight, stroke("white", "white", player="Ben")])
    assert "56(b)" in rulings[-1].laws and rulings[-1].board_end is None
    assert state.colours() == {"Asha": "black", "Ben": "white"} and state.breaker() == "Ben"
    assert rulings[-1].turn_continues and state.turn().player == "Ben"
    card = report([*eight, stroke(*(["white"] * 9), player="Ben")])
    extra = card.games[0].boards[-1]
    assert (extra.number, extra.break_by, extra.white, extra.winner) == (9, "Ben", "Ben", "Asha")
    # Once the extra board's break is taken, another player striking is out of turn again.
    ruling = last([*eight, miss(player="Ben"), stroke("white", player="Ben")])
    assert "51" in ruling.laws and ruling.board_end is not None and ruling.board_end.winner == 0
