"""Physics of the simulated board: conservation laws, contacts, pockets, jumps, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.geometry import (
    BASE_LINE_MID_MM,
    HALF_SURFACE_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    pocket_centre,
    seat_to_board,
)
from samples.physics import Layout, PhysicsParams, simulate_stroke, standard_pieces
from samples.physics.simulate import FLIGHT_OUT_MM
from samples.players import break_layout, empty_layout
from samples.timeline import ObjectState

# A numeric warning from the simulator is a bug (a division by a zero friction once was).
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

PIECES = standard_pieces()
S = PIECES.striker
RATE = 120.0


def _layout(positions: dict[int, tuple[float, float]]) -> Layout:
    layout = empty_layout(PIECES)
    for piece, xy in positions.items():
        layout = layout.with_piece(piece, np.array(xy), int(ObjectState.ON_BOARD))
    return layout


def _velocities(moving: dict[int, tuple[float, float]]) -> np.ndarray:
    v = np.zeros((PIECES.count, 2))
    for piece, vel in moving.items():
        v[piece] = vel
    return v


def _break_stroke(seed: int, speed: float, along: float, angle: float):
    layout = break_layout(PIECES, "S")
    layout = layout.with_piece(S, seat_to_board("S", along, BASE_LINE_MID_MM), int(ObjectState.ON_BOARD))
    velocity = _velocities({S: (speed * np.sin(angle), speed * np.cos(angle))})
    return simulate_stroke(PIECES, layout, velocity, sample_rate=RATE, rng=np.random.default_rng(seed))


@settings(max_examples=25, deadline=None)
@given(
    offset=st.floats(-50.0, 50.0),
    speed=st.floats(600.0, 3000.0),
    coin_class=st.sampled_from(["white", "black", "queen"]),
)
def test_momentum_is_conserved_in_a_collision(offset: float, speed: float, coin_class: str) -> None:
    coin = PIECES.of_class(coin_class)[0]
    frictionless = PhysicsParams(friction=0.0, max_stroke_s=0.12, jump_speed_m_s=100.0)
    # Far from the cushions: within 0.12 s the pieces meet only each other.
    striker_y, coin_y = -340.0, -260.0
    layout = _layout({S: (offset, striker_y), coin: (0.0, coin_y)})
    result = simulate_stroke(
        PIECES,
        layout,
        _velocities({S: (0.0, speed)}),
        sample_rate=RATE,
        rng=np.random.default_rng(0),
        params=frictionless,
    )
    mass = PIECES.mass_g[:, None]
    before = (mass * result.vel_mm_s[0]).sum(axis=0)
    after = (mass * result.vel_mm_s[-1]).sum(axis=0)
    assert np.allclose(before, after, rtol=1e-4, atol=1e-2)
    # They touch if the lines are close enough and the striker gets there before the time
    # cap stops the stroke (a slow grazing hit may come just after it).
    reach = PIECES.radius_mm[S] + PIECES.radius_mm[coin]
    lines_cross = abs(offset) < reach
    run = coin_y - striker_y - np.sqrt(max(reach**2 - offset**2, 0.0))  # how far it goes to touch
    in_time = run / speed <= (result.num_samples - 1) / RATE
    assert (result.first_contact == coin) == (lines_cross and in_time)


def _scattered_stroke(seed: int):
    """Coins dropped at random without overlap, the striker shot from anywhere at any speed."""
    rng = np.random.default_rng(seed)
    layout = empty_layout(PIECES)
    placed: list[tuple[np.ndarray, float]] = []
    for piece in rng.permutation(PIECES.count):
        r = PIECES.radius_mm[piece]
        for _ in range(100):
            xy = rng.uniform(-HALF_SURFACE_MM + r, HALF_SURFACE_MM - r, size=2)
            clear = all(np.linalg.norm(xy - other) > r + other_r for other, other_r in placed)
            over_hole = np.min(np.linalg.norm(xy - np.array([pocket_centre(p) for p in POCKETS]), axis=1))
            if clear and over_hole > POCKET_RADIUS_MM:
                placed.append((xy, r))
                layout = layout.with_piece(int(piece), xy, int(ObjectState.ON_BOARD))
                break
    angle = rng.uniform(0.0, 2.0 * np.pi)
    velocity = _velocities({S: tuple(rng.uniform(500.0, 7000.0) * np.array([np.cos(angle), np.sin(angle)]))})
    return simulate_stroke(PIECES, layout, velocity, sample_rate=RATE, rng=rng)


def _break_or_scattered(seed: int):
    if seed % 2:
        return _scattered_stroke(seed)
    rng = np.random.default_rng(seed)
    return _break_stroke(seed, rng.uniform(3000.0, 7000.0), rng.uniform(-60.0, 60.0), rng.normal(0.0, 0.05))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_no_pieces_overlap_after_any_step_and_energy_never_grows(seed: int) -> None:
    result = _break_or_scattered(seed)
    on = result.state == ObjectState.ON_BOARD
    xy = result.xy_mm.astype(float)
    reach = PIECES.radius_mm[:, None] + PIECES.radius_mm[None, :]
    for t in range(result.num_samples):
        idx = np.flatnonzero(on[t])
        points = xy[t, idx]
        gaps = np.linalg.norm(points[:, None] - points[None, :], axis=-1) - reach[np.ix_(idx, idx)]
        np.fill_diagonal(gaps, np.inf)
        assert gaps.min() > -1e-3, f"overlap of {gaps.min():.4f} mm at sample {t}"
        assert np.all(np.abs(xy[t, idx]) <= HALF_SURFACE_MM - PIECES.radius_mm[idx, None] + 1e-3)
    speed2 = (result.vel_mm_s.astype(float) ** 2).sum(axis=-1)
    energy = (0.5 * PIECES.mass_g[None, :] * speed2 * on).sum(axis=1)
    assert energy[0] > 0.0
    assert np.all(np.diff(energy) <= energy[:-1] * 1e-5 + 1e-6)
    assert energy[-1] == 0.0  # the stroke runs until everything is at rest


def _towards(pocket: str, start_distance: float, speed: float):
    centre = pocket_centre(pocket)
    direction = centre / np.linalg.norm(centre)
    start = centre - direction * start_distance
    coin = PIECES.of_class("white")[0]
    layout = _layout({coin: tuple(start)})
    return coin, layout, _velocities({coin: tuple(direction * speed)})


@pytest.mark.parametrize("pocket", POCKETS)
def test_a_slow_coin_falls_into_the_pocket_it_reaches(pocket: str) -> None:
    coin, layout, velocity = _towards(pocket, 150.0, 1200.0)
    result = simulate_stroke(PIECES, layout, velocity, sample_rate=RATE, rng=np.random.default_rng(0))
    assert [(e.piece, POCKETS[e.pocket]) for e in result.pocketed] == [(coin, pocket)]
    event = result.pocketed[0]
    assert result.state[event.sample, coin] == ObjectState.IN_POCKET
    assert result.state[event.sample - 1, coin] == ObjectState.FALLING
    assert np.all(np.isnan(result.xy_mm[event.sample :, coin]))
    assert result.final.state[coin] == ObjectState.IN_POCKET
    assert POCKETS[result.final.pocket_of[coin]] == pocket


def test_a_fast_coin_rattles_out_of_the_pocket() -> None:
    coin, layout, velocity = _towards("NE", 150.0, 6000.0)
    params = PhysicsParams(max_stroke_s=0.15, jump_speed_m_s=100.0)
    result = simulate_stroke(
        PIECES, layout, velocity, sample_rate=RATE, rng=np.random.default_rng(0), params=params
    )
    distance = np.linalg.norm(result.xy_mm[:, coin] - pocket_centre("NE"), axis=1)
    assert distance.min() < POCKET_RADIUS_MM  # its centre was over the hole ...
    assert result.pocketed == ()  # ... but it came back out
    assert result.state[-1, coin] == ObjectState.ON_BOARD
    assert distance[-1] > POCKET_RADIUS_MM


def test_a_coin_left_over_a_hole_falls() -> None:
    coin = PIECES.of_class("black")[0]
    over = pocket_centre("SW") * 0.995
    result = simulate_stroke(
        PIECES, _layout({coin: tuple(over)}), _velocities({}), sample_rate=RATE, rng=np.random.default_rng(0)
    )
    assert [(e.piece, POCKETS[e.pocket]) for e in result.pocketed] == [(coin, "SW")]


ALWAYS_JUMP = PhysicsParams(jump_speed_m_s=1.0, jump_probability_per_m_s=10.0, jump_probability_max=1.0)
# The longest straight flight: from a corner of the surface to past the frame at the other.
LONGEST_FLIGHT_MM = np.sqrt(2.0) * (HALF_SURFACE_MM + FLIGHT_OUT_MM)


def _struck_coin(striker_speed: float, offset: float = 0.0, extra: dict | None = None):
    """The striker, coming north from 150 mm south of a white coin at the centre, hits it
    (`offset` mm to the west of its line: the coin leaves north-east); every hit lifts it."""
    coin = PIECES.of_class("white")[0]
    layout = _layout({S: (-offset, -150.0), coin: (0.0, 0.0), **(extra or {})})
    result = simulate_stroke(
        PIECES,
        layout,
        _velocities({S: (0.0, striker_speed)}),
        sample_rate=RATE,
        rng=np.random.default_rng(0),
        params=ALWAYS_JUMP,
    )
    return coin, result


def _flight_checks(result, piece: int) -> None:
    """A flight as the timeline must show it: on the board, then AIRBORNE in a straight line
    at a constant speed of at least the minimum, past the surface's edge at the overboard
    sample, OFF_BOARD (no position) once past the frame's outer edge, within the longest
    flight's time."""
    (event,) = [e for e in result.overboard if e.piece == piece]
    state, xy = result.state[:, piece], result.xy_mm[:, piece].astype(float)
    assert np.all(state[: event.jump_sample] == ObjectState.ON_BOARD)
    assert np.all(state[event.jump_sample : event.gone_sample] == ObjectState.AIRBORNE)
    assert np.all(state[event.gone_sample :] == ObjectState.OFF_BOARD)
    assert np.all(np.isnan(xy[event.gone_sample :]))
    assert event.jump_sample <= event.sample <= event.gone_sample
    flight = xy[event.jump_sample : event.gone_sample]
    reach = np.abs(flight).max(axis=1)
    assert np.all(reach[: event.sample - event.jump_sample] <= HALF_SURFACE_MM)
    assert np.all(reach[event.sample - event.jump_sample :] > HALF_SURFACE_MM)
    assert np.all(reach <= FLIGHT_OUT_MM)
    if len(flight) >= 3:
        steps = np.diff(flight, axis=0)
        np.testing.assert_allclose(steps, np.broadcast_to(steps[0], steps.shape), atol=1e-2)
        assert np.hypot(*steps[0]) * RATE >= ALWAYS_JUMP.jump_min_speed_m_s * 1000.0 - 1.0
    assert (event.gone_sample - event.jump_sample) / RATE <= LONGEST_FLIGHT_MM / (
        ALWAYS_JUMP.jump_min_speed_m_s * 1000.0
    ) + 1.0 / RATE
    assert result.final.state[piece] == ObjectState.OFF_BOARD
    assert piece not in [e.piece for e in result.pocketed]


def test_a_coin_lifted_by_a_hard_hit_flies_off_over_the_frame() -> None:
    coin, result = _struck_coin(4000.0)
    assert result.overboard[0].piece == coin  # (the striker may jump at the cushion later)
    for event in result.overboard:
        _flight_checks(result, event.piece)
    event = result.overboard[0]
    flight = result.xy_mm[event.jump_sample : event.gone_sample, coin]
    assert np.all(np.diff(flight[:, 1]) > 0.0)  # on north, the way the striker sent it
    # It leaves the surface through the north edge, then crosses the frame.
    assert flight[-1, 1] > HALF_SURFACE_MM and abs(flight[-1, 0]) < 1.0
    gentle_coin, gentle = _struck_coin(800.0)  # an approach under the 1 m/s threshold
    assert gentle.overboard == () and gentle.state[-1, gentle_coin] == ObjectState.ON_BOARD


def test_a_flying_coin_passes_over_coins_and_a_pocket_without_touching_them() -> None:
    # Hit at 45 degrees the coin flies along the diagonal towards the NE pocket; two coins lie
    # in its way. On the board it would hit them; slow over the hole it would drop in.
    blockers = {PIECES.of_class("black")[0]: (100.0, 100.0), PIECES.of_class("black")[1]: (200.0, 200.0)}
    contact = PIECES.radius_mm[S] + PIECES.radius_mm[0]
    coin, result = _struck_coin(2000.0, offset=contact * np.sqrt(0.5), extra=blockers)
    assert result.overboard[0].piece == coin
    _flight_checks(result, coin)
    event = result.overboard[0]
    path = result.xy_mm[event.jump_sample : event.gone_sample, coin].astype(float)
    for blocker, at in blockers.items():
        assert np.linalg.norm(path - np.array(at), axis=1).min() < 2.0 * PIECES.radius_mm[0]
        np.testing.assert_array_equal(result.xy_mm[:, blocker], np.broadcast_to(at, (result.num_samples, 2)))
        assert np.all(result.state[:, blocker] == ObjectState.ON_BOARD)
    over_hole = np.linalg.norm(path - pocket_centre("NE"), axis=1) < POCKET_RADIUS_MM
    assert over_hole.sum() >= 2  # it spends longer over the hole than a falling disc needs
    assert result.pocketed == ()
    assert not np.any(result.state[:, coin] == ObjectState.FALLING)
    assert result.collisions == 1  # the striker's hit, nothing after


def test_a_coin_lifted_at_the_cushion_rides_over_the_frame() -> None:
    coin = PIECES.of_class("white")[0]
    result = simulate_stroke(
        PIECES,
        _layout({coin: (0.0, 200.0)}),
        _velocities({coin: (0.0, 4000.0)}),
        sample_rate=RATE,
        rng=np.random.default_rng(0),
        params=ALWAYS_JUMP,
    )
    assert [e.piece for e in result.overboard] == [coin]
    _flight_checks(result, coin)
    event = result.overboard[0]
    # It does not rebound: from the cushion it goes on north, over the frame.
    xy = result.xy_mm[event.jump_sample : event.gone_sample, coin].astype(float)
    assert np.all(xy[:, 1] >= HALF_SURFACE_MM - PIECES.radius_mm[coin])
    assert np.all(np.diff(xy[:, 1]) > 0.0)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_every_jump_of_a_random_stroke_is_a_clean_flight(seed: int) -> None:
    rng = np.random.default_rng(seed)
    layout = break_layout(PIECES, "S")
    layout = layout.with_piece(
        S, seat_to_board("S", rng.uniform(-60.0, 60.0), BASE_LINE_MID_MM), int(ObjectState.ON_BOARD)
    )
    velocity = _velocities({S: (rng.normal(0.0, 300.0), rng.uniform(3000.0, 7000.0))})
    jumpy = PhysicsParams(jump_speed_m_s=1.5, jump_probability_per_m_s=0.5, jump_probability_max=0.5)
    result = simulate_stroke(PIECES, layout, velocity, sample_rate=RATE, rng=rng, params=jumpy)
    for event in result.overboard:
        _flight_checks(result, event.piece)
    # Pieces that flew never show up in a pocket or on the board again.
    flown = [e.piece for e in result.overboard]
    assert not set(flown) & {e.piece for e in result.pocketed}
    assert len(set(flown)) == len(flown)


def test_the_same_seed_gives_the_same_stroke_and_another_may_differ() -> None:
    a = _break_stroke(7, 6500.0, 10.0, 0.01)
    b = _break_stroke(7, 6500.0, 10.0, 0.01)
    assert np.array_equal(a.xy_mm, b.xy_mm, equal_nan=True)
    assert np.array_equal(a.state, b.state)
    assert a.pocketed == b.pocketed and a.overboard == b.overboard


def test_a_flight_is_the_same_for_the_same_seed() -> None:
    a = _break_stroke(3, 6500.0, 10.0, 0.01)
    jumpy = PhysicsParams(jump_speed_m_s=1.5, jump_probability_per_m_s=0.5, jump_probability_max=0.5)
    runs = []
    for _ in range(2):
        layout = break_layout(PIECES, "S").with_piece(
            S, seat_to_board("S", 10.0, BASE_LINE_MID_MM), int(ObjectState.ON_BOARD)
        )
        velocity = _velocities({S: (0.0, 6500.0)})
        runs.append(
            simulate_stroke(
                PIECES, layout, velocity, sample_rate=RATE, rng=np.random.default_rng(3), params=jumpy
            )
        )
    first, second = runs
    assert first.overboard  # the case has flights
    assert first.overboard == second.overboard
    assert np.array_equal(first.xy_mm, second.xy_mm, equal_nan=True)
    assert np.array_equal(first.state, second.state)
    assert a.num_samples > 0
