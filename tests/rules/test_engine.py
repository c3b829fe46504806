"""The engine's public API: turns, colours, placing, board/game/match bookkeeping, errors."""

from __future__ import annotations

import pytest

from rules.engine import apply, new_match
from rules.errors import LogError
from rules.log import StrokeEvent
from tests.rules.builders import DOUBLES, miss, run, stroke


def test_new_match_breaker_has_white_and_the_turn() -> None:
    state = new_match({"S": "Asha", "N": "Ben"}, "Ben")
    assert state.turn().player == "Ben"
    assert state.colour_of("Ben") == "white"
    assert state.colours() == {"Ben": "white", "Asha": "black"}
    assert state.coins_on_board() == {"white": 9, "black": 9}
    assert state.queen_on_board()
    assert state.to_place().empty


def test_apply_is_pure_and_accepts_log_events() -> None:
    state = new_match({"S": "Asha", "N": "Ben"}, "Asha")
    event = StrokeEvent(type="stroke", pocketed=("white",))
    after, ruling = apply(state, event)
    again, ruling_again = apply(state, event)
    assert after == again and ruling == ruling_again
    assert state.coins_on_board() == {"white": 9, "black": 9}
    assert after.coins_on_board() == {"white": 8, "black": 9}
    assert ruling.turn_continues and after.turn().player == "Asha"


def test_turn_passes_to_the_opponent_after_a_miss() -> None:
    state, rulings = run([stroke("white"), miss()])
    assert not rulings[-1].turn_continues
    assert state.turn().player == "Ben"


def test_doubles_turn_passes_to_the_right_law_49b() -> None:
    state, rulings = run([miss(), miss(), miss()], seats=DOUBLES)
    # Asha (S) breaks; right of S is E (Chen), then N (Ben), then W (Dev).
    assert [r.player for r in rulings] == ["Asha", "Chen", "Ben"]
    assert state.turn().player == "Dev"
    assert state.colours() == {"Asha & Ben": "white", "Chen & Dev": "black"}


def test_placer_is_the_opponent_on_the_right_in_doubles_law_78b() -> None:
    state, rulings = run([stroke("white"), stroke("striker")], seats=DOUBLES)
    assert rulings[-1].to_place.white == 1
    assert rulings[-1].to_place.placer == "Chen"
    assert state.turn().player == "Chen"


def test_a_tenth_white_is_a_log_error_naming_event_and_field() -> None:
    events = [stroke(*(["white"] * 5)), stroke(*(["white"] * 5))]
    with pytest.raises(LogError) as caught:
        run(events)
    assert caught.value.event_index == 1
    assert caught.value.field == "pocketed"
    assert "10th white" in str(caught.value)


def test_stroke_after_the_match_is_a_log_error() -> None:
    events = [{"type": "concede", "player": "Ben", "scope": "match"}, stroke("white")]
    with pytest.raises(LogError) as caught:
        run(events)
    assert caught.value.event_index == 1
    assert "over" in str(caught.value)


def test_queen_pocketed_twice_is_a_log_error() -> None:
    with pytest.raises(LogError) as caught:
        run([stroke("white"), stroke("queen", "white"), stroke("queen")])
    assert caught.value.event_index == 2 and caught.value.field == "pocketed"


def test_board_end_starts_next_board_with_the_other_breaker_law_49a() -> None:
    state, rulings = run([stroke("white"), stroke("queen", "white"), stroke(*(["white"] * 7))])
    end = rulings[-1].board_end
    assert end is not None and end.winner == 0
    assert end.coins == 9 and end.queen == 3
    assert state.board is not None and state.board.number == 2
    assert state.breaker() == "Ben" and state.colour_of("Ben") == "white"
    assert state.totals() == {"Asha": 12, "Ben": 0}


def test_next_breaker_and_seats_across_games_law_58() -> None:
    state = new_match({"S": "Asha", "N": "Ben"}, "Asha")
    assert state.next_breaker() == "Ben"
    assert state.turn().seat == "S"


def test_unknown_player_is_a_log_error_even_without_parse_log() -> None:
    state = new_match({"S": "Asha", "N": "Ben"}, "Asha")
    with pytest.raises(LogError) as caught:
        apply(state, StrokeEvent(type="stroke", player="Zoe"))
    assert caught.value.event_index == 0 and caught.value.field == "player"


def test_placing_what_is_not_in_the_pockets_is_a_log_error() -> None:
    with pytest.raises(LogError) as caught:
        run([stroke("white"), {"type": "placed", "items": ["white", "white"]}])
    assert caught.value.event_index == 1 and caught.value.field == "items"
    with pytest.raises(LogError) as caught:
        run([stroke("white"), {"type": "placed", "items": ["queen"]}])
    assert caught.value.field == "items" and "queen" in str(caught.value)


def test_every_ruling_names_a_law_and_the_players_turn() -> None:
    _, rulings = run([stroke("white"), stroke("queen"), stroke("white", "striker"), miss(), miss()])
    assert all(r.laws and r.text for r in rulings)
    assert rulings[-2].next_turn == "Ben" and rulings[-1].next_turn == "Asha"
