"""Simulated players: law 130 placements, deliberate illegal ones, the law 41 break."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.geometry import (
    COIN_DIAMETER_MM,
    SEATS,
    inside_outer_circle,
    seat_normal,
    striker_placement,
)
from samples.physics import PhysicsParams, simulate_stroke, standard_pieces
from samples.players import (
    Player,
    Skill,
    break_layout,
    empty_layout,
    illegal_placement,
    legal_placement,
    placement_spot,
    plan_break,
    plan_stroke,
)
from samples.timeline import ObjectState

PIECES = standard_pieces()
PARAMS = PhysicsParams()


def _scattered(seed: int):
    """The break arrangement with some coins moved about: a board in play."""
    rng = np.random.default_rng(seed)
    layout = break_layout(PIECES, "S")
    for piece in rng.choice(PIECES.of_class("white") + PIECES.of_class("black"), size=8, replace=False):
        spot = placement_spot(PIECES, layout, int(piece), rng, centre_first=False) * 3.0
        layout = layout.with_piece(int(piece), np.clip(spot, -330.0, 330.0), int(ObjectState.ON_BOARD))
    return layout


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), seat=st.sampled_from(SEATS), level=st.floats(0.0, 1.0))
def test_players_place_the_striker_legally_at_rate_zero(seed: int, seat, level: float) -> None:
    layout = _scattered(seed)
    player = Player("P", seat, Skill(level))
    targets = PIECES.of_class("white")
    planned = plan_stroke(
        player, PIECES, layout.xy_mm, layout.on_board(), targets, np.random.default_rng(seed), PARAMS
    )
    assert planned.legal_position
    assert striker_placement(seat, planned.shot.striker_xy).legal
    # The striker goes forward, into the board, and never starts on top of a coin.
    assert float(planned.shot.velocity @ -seat_normal(seat)) > 0.0
    on = layout.on_board()
    gaps = np.linalg.norm(layout.xy_mm[on] - planned.shot.striker_xy, axis=1) - (
        PIECES.radius_mm[on] + PIECES.radius_mm[PIECES.striker]
    )
    assert gaps.min() > 0.0


def test_illegal_placements_come_at_the_requested_rate() -> None:
    rng = np.random.default_rng(3)
    layout = _scattered(3)
    rate = 0.3
    player = Player("P", "N", Skill(0.5), illegal_placement_rate=rate)
    illegal = 0
    trials = 200
    for _ in range(trials):
        planned = plan_stroke(
            player, PIECES, layout.xy_mm, layout.on_board(), PIECES.of_class("black"), rng, PARAMS
        )
        assert planned.legal_position == striker_placement("N", planned.shot.striker_xy).legal
        illegal += not planned.legal_position
    # Binomial(200, 0.3): mean 60, sd 6.5; 4 sd either side.
    assert 34 <= illegal <= 86


@pytest.mark.parametrize("seat", SEATS)
def test_placement_helpers_keep_to_their_promise(seat) -> None:
    rng = np.random.default_rng(1)
    none = np.zeros((0, 2))
    for _ in range(50):
        assert striker_placement(seat, legal_placement(seat, rng, none, np.zeros(0))).legal
        assert not striker_placement(seat, illegal_placement(seat, rng, none, np.zeros(0))).legal


@pytest.mark.parametrize("seat", SEATS)
def test_the_break_arrangement_is_law_41(seat) -> None:
    layout = break_layout(PIECES, seat)
    on = layout.on_board()
    assert not on[PIECES.striker] and on.sum() == 19
    xy = layout.xy_mm
    assert np.allclose(xy[PIECES.queen], 0.0)  # the queen in the centre circle
    coins = [i for i in range(PIECES.count) if on[i]]
    assert np.all(inside_outer_circle(xy[coins]))
    gaps = np.linalg.norm(xy[coins, None] - xy[None, coins], axis=-1)
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() >= COIN_DIAMETER_MM - 1e-6  # flat, not overlapping
    assert np.all(gaps.min(axis=1) <= COIN_DIAMETER_MM + 1e-6)  # each touches a neighbour
    first_ring = [i for i in coins if abs(np.linalg.norm(xy[i]) - COIN_DIAMETER_MM) < 1e-6]
    colours = sorted(PIECES.classes[i] for i in first_ring)
    assert colours == ["black"] * 3 + ["white"] * 3  # alternating in the first row
    assert sorted(PIECES.classes[i] for i in coins).count("white") == 9


@pytest.mark.parametrize("seat", SEATS)
def test_the_break_is_struck_legally_at_the_pack(seat) -> None:
    rng = np.random.default_rng(5)
    layout = break_layout(PIECES, seat)
    planned = plan_break(Player("P", seat, Skill(0.7)), PIECES, layout.xy_mm, layout.on_board(), rng)
    assert planned.legal_position
    direction = planned.shot.velocity / np.linalg.norm(planned.shot.velocity)
    to_centre = -planned.shot.striker_xy / np.linalg.norm(planned.shot.striker_xy)
    assert float(direction @ to_centre) > 0.99
    assert np.linalg.norm(planned.shot.velocity) > 3000.0


def test_placed_pieces_go_inside_the_outer_circle_without_overlap() -> None:
    rng = np.random.default_rng(2)
    layout = _scattered(2)
    for piece in PIECES.of_class("white")[:4] + [PIECES.queen]:
        layout = layout.with_piece(piece, None, int(ObjectState.IN_POCKET), 0)
    for piece in [PIECES.queen, *PIECES.of_class("white")[:4]]:
        spot = placement_spot(PIECES, layout, piece, rng, centre_first=piece == PIECES.queen)
        assert inside_outer_circle(spot)
        on = layout.on_board()
        gaps = (
            np.linalg.norm(layout.xy_mm[on] - spot, axis=1) - PIECES.radius_mm[on] - PIECES.radius_mm[piece]
        )
        assert gaps.min() > 0.0
        layout = layout.with_piece(piece, spot, int(ObjectState.ON_BOARD))


def _pot_rate(level: float, trials: int = 20) -> float:
    """How often a player of this skill pots a lone coin with a clear path."""
    rng = np.random.default_rng(0)
    coin = PIECES.of_class("white")[0]
    layout = empty_layout(PIECES).with_piece(coin, np.array([-200.0, 0.0]), int(ObjectState.ON_BOARD))
    potted = 0
    for _ in range(trials):
        planned = plan_stroke(
            Player("P", "S", Skill(level)), PIECES, layout.xy_mm, layout.on_board(), [coin], rng, PARAMS
        )
        start = layout.with_piece(PIECES.striker, planned.shot.striker_xy, int(ObjectState.ON_BOARD))
        velocity = np.zeros((PIECES.count, 2))
        velocity[PIECES.striker] = planned.shot.velocity
        result = simulate_stroke(PIECES, start, velocity, sample_rate=120.0, rng=rng, params=PARAMS)
        potted += any(e.piece == coin for e in result.pocketed)
    return potted / trials


def test_skill_sets_how_often_an_open_coin_is_potted() -> None:
    expert, novice = _pot_rate(0.95), _pot_rate(0.1)
    assert expert >= 0.6  # the aim model and the physics agree: a sure hand pots
    assert expert > novice + 0.3
