"""Simulated matches are legal matches and their timeline, log and report agree."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import (
    CENTRE_CIRCLE_RADIUS_MM,
    COIN_RADIUS_MM,
    HALF_SURFACE_MM,
    POCKETS,
    inside_outer_circle,
    striker_placement,
)
from rules.log import parse_log
from rules.score import score_log
from samples.match import MatchSimulation, simulate_match
from samples.physics import PhysicsParams, standard_pieces
from samples.players import break_layout
from samples.timeline import ObjectState, Timeline


@pytest.fixture(scope="module", params=[0, 1, 2])
def sim(request: pytest.FixtureRequest) -> MatchSimulation:
    return simulate_match(request.param, boards=1)


def _last_sample(sim: MatchSimulation, frame: int) -> int:
    return sim.timeline.frame_samples(frame).stop - 1


def _past_the_edge(tl: Timeline, sample: int, i: int) -> bool:
    """Whether piece i has left the playing surface over its edge by `sample`."""
    if tl.state[sample, i] == ObjectState.OFF_BOARD:
        return True
    return bool(
        tl.state[sample, i] == ObjectState.AIRBORNE and np.abs(tl.xy_mm[sample, i]).max() > HALF_SURFACE_MM
    )


def test_the_log_scores_to_the_report(sim: MatchSimulation) -> None:
    log = parse_log(sim.match_log)
    assert score_log(log).to_data() == sim.report
    board = sim.report["games"][0]["boards"][0]
    assert board["winner"] in sim.report["sides"]  # the board was played to its end
    assert 10 <= len(sim.strokes) <= 150


def test_the_timeline_is_well_formed(sim: MatchSimulation) -> None:
    tl = sim.timeline
    assert tl.num_samples % tl.oversample == 0
    assert len(tl.hands) == tl.num_samples
    assert tl.xy_mm.shape == (tl.num_samples, len(tl.ids), 2)
    shown = np.isin(
        tl.state, [ObjectState.ON_BOARD, ObjectState.FALLING, ObjectState.HELD, ObjectState.AIRBORNE]
    )
    assert np.all(np.isfinite(tl.xy_mm[shown])) and np.all(np.isnan(tl.xy_mm[~shown]))
    pocketed = np.isin(tl.state, [ObjectState.FALLING, ObjectState.IN_POCKET])
    assert np.all(tl.pocket_of[pocketed] >= 0) and np.all(tl.pocket_of[~pocketed] == -1)
    # Pieces lying on the board never overlap (pieces held in fingers are above it).
    on = tl.state == ObjectState.ON_BOARD
    xy = np.where(on[..., None], tl.xy_mm, 1e6 * (1 + np.arange(len(tl.ids)))[None, :, None]).astype(float)
    gaps = np.linalg.norm(xy[:, :, None] - xy[:, None, :], axis=-1)
    reach = tl.radius_mm[:, None] + tl.radius_mm[None, :]
    gaps -= reach[None]
    gaps[:, np.arange(len(tl.ids)), np.arange(len(tl.ids))] = np.inf
    assert gaps.min() > -0.01


def test_pocketed_pieces_vanish_at_their_pocket_in_the_frame_the_log_says(sim: MatchSimulation) -> None:
    tl = sim.timeline
    events = sim.match_log["events"]
    checked = 0
    for stroke in sim.strokes:
        logged = events[stroke.event_index]
        assert logged["type"] == "stroke"
        evidence = logged["evidence"]
        assert [p["item"] for p in evidence["pocketed"]] == list(logged.get("pocketed", []))
        for p in evidence["pocketed"]:
            i = tl.ids.index(p["id"])
            now = _last_sample(sim, p["frame"])
            before = _last_sample(sim, p["frame"] - 1)
            assert tl.state[now, i] == ObjectState.IN_POCKET
            assert POCKETS[tl.pocket_of[now, i]] == p["pocket"]
            assert tl.state[before, i] == ObjectState.FALLING
            assert np.isnan(tl.xy_mm[now, i]).all()
            checked += 1
        for o in evidence["overboard"]:
            # The overboard frame: the first whose exposure ends with the piece past the
            # surface's edge, in the air or already gone over the frame.
            i = tl.ids.index(o["id"])
            assert _past_the_edge(tl, _last_sample(sim, o["frame"]), i)
            assert not _past_the_edge(tl, _last_sample(sim, o["frame"] - 1), i)
        # The striker starts the stroke where the evidence says, legally (rate 0).
        s = tl.ids.index("S")
        window = tl.xy_mm[tl.frame_samples(evidence["first_frame"]), s]
        assert np.linalg.norm(window - np.array(evidence["striker_start_mm"]), axis=1).min() < 0.01
        assert striker_placement(evidence["striker_side"], np.array(evidence["striker_start_mm"])).legal
        assert "improper" not in logged
    assert checked > 0


def test_players_aim_at_their_own_colour_or_the_queen(sim: MatchSimulation) -> None:
    board = sim.report["games"][0]["boards"][0]
    aimed = [s for s in sim.strokes if not s.break_shot and s.aimed_at is not None]
    assert aimed
    for stroke in aimed:
        own = "white" if board["white"] == stroke.player else "black"
        item = sim.timeline.classes[sim.timeline.ids.index(stroke.aimed_at)]
        assert item in (own, "queen")


def test_placements_put_the_pieces_where_the_truth_says(sim: MatchSimulation) -> None:
    tl = sim.timeline
    for placement in sim.placements:
        for item in placement.items:
            i = tl.ids.index(item["id"])
            sample = _last_sample(sim, item["frame"])
            assert tl.state[sample, i] == ObjectState.ON_BOARD
            assert np.allclose(tl.xy_mm[sample, i], item["xy_mm"], atol=0.01)
            assert inside_outer_circle(np.array(item["xy_mm"]))
            if placement.reason == "dues" and item["item"] != "queen":
                # 89(b): a due or penalty coin must not cover the centre circle, even partly.
                assert np.hypot(*item["xy_mm"]) > CENTRE_CIRCLE_RADIUS_MM + COIN_RADIUS_MM, item
        if placement.event_index is not None:
            logged = sim.match_log["events"][placement.event_index]
            assert logged["type"] == "placed"


@pytest.mark.parametrize(
    "kwargs",
    [{"boards": 0}, {"fps": 0}, {"event": "triples"}, {"illegal_placement_rate": 1.5}, {"skill": 2.0},
     {"skill": (0.5, 0.5, 0.5)}],
)  # fmt: skip
def test_bad_arguments_are_refused_by_name(kwargs: dict) -> None:
    name = next(iter(kwargs))
    with pytest.raises(ValueError, match=name):
        simulate_match(0, **kwargs)


def test_the_same_seed_gives_the_same_match() -> None:
    a = simulate_match(5, boards=1, fps=25)
    b = simulate_match(5, boards=1, fps=25)
    assert a.match_log == b.match_log and a.report == b.report
    assert np.array_equal(a.timeline.xy_mm, b.timeline.xy_mm, equal_nan=True)
    assert a.timeline.hands == b.timeline.hands


def test_illegal_placements_are_logged_and_ruled() -> None:
    sim = simulate_match(3, boards=1, illegal_placement_rate=0.3)
    improper = [e for e in sim.match_log["events"] if e.get("improper") == "striker_position"]
    assert improper
    for event in improper:
        side = event["evidence"]["striker_side"]
        assert not striker_placement(side, np.array(event["evidence"]["striker_start_mm"])).legal
    assert score_log(parse_log(sim.match_log)).to_data() == sim.report


def test_doubles_and_camera_bumps() -> None:
    sim = simulate_match(4, boards=1, event="doubles", camera_bumps_s=(3.0, 1e6))
    assert score_log(parse_log(sim.match_log)).to_data() == sim.report
    strikers = {s.player for s in sim.strokes}
    assert len(strikers) >= 3  # the turn passes round the table
    assert sim.bump_frames == (90, sim.timeline.num_frames - 1)
    truth = sim.truth_dict()
    assert [b["frame"] for b in truth["camera_bumps"]] == list(sim.bump_frames)
    assert len(truth["strokes"]) == len(sim.strokes)


@pytest.mark.parametrize("ruleset", ["ecc", "basic"])
def test_other_rulesets_play_legal_boards(ruleset: str) -> None:
    sim = simulate_match(7, boards=1, ruleset=ruleset)
    assert sim.match_log["rules"] == ruleset
    assert score_log(parse_log(sim.match_log)).to_data() == sim.report
    assert sim.report["games"][0]["boards"][0]["winner"] in sim.report["sides"]


def test_the_umpire_puts_the_queen_back_under_icf() -> None:
    queen_back: list = []
    coins_back: list = []
    for seed in range(12):  # until a board where an uncovered queen goes back
        sim = simulate_match(seed, boards=1)
        queen_back += [p for p in sim.placements if any(i["item"] == "queen" for i in p.items)]
        coins_back += [p for p in sim.placements if p.placer != "umpire"]
        if queen_back and coins_back:
            break
    assert queen_back and all(p.placer == "umpire" for p in queen_back)
    assert coins_back and all(p.placer in sim.players for p in coins_back)


def test_a_board_that_drags_on_is_conceded_at_the_stroke_cap() -> None:
    sim = simulate_match(0, boards=1, max_strokes_per_board=4)
    strokes = [e for e in sim.match_log["events"] if e["type"] == "stroke"]
    assert len(strokes) == 4
    last = sim.match_log["events"][-1]
    assert last["type"] == "concede" and last["scope"] == "board"
    assert score_log(parse_log(sim.match_log)).to_data() == sim.report
    assert sim.report["games"][0]["boards"][0]["winner"] in sim.report["sides"]


def test_overboard_pieces_are_logged_and_put_back_by_the_umpire() -> None:
    jumpy = PhysicsParams(jump_speed_m_s=1.5, jump_probability_per_m_s=0.5, jump_probability_max=0.5)
    sim = simulate_match(2, boards=1, params=jumpy)
    assert score_log(parse_log(sim.match_log)).to_data() == sim.report
    jumped = [(s, o) for s in sim.strokes for o in s.overboard if o["item"] != "striker"]
    assert jumped
    returned = [i for p in sim.placements if p.reason == "overboard" for i in p.items]
    assert all(p.placer == "umpire" for p in sim.placements if p.reason == "overboard")
    for stroke, item in jumped:
        logged = sim.match_log["events"][stroke.event_index]
        assert item["item"] in logged["overboard"]
        later = [r for r in returned if r["id"] == item["id"] and r["frame"] >= stroke.last_frame]
        board_over = stroke.event_index == max(s.event_index for s in sim.strokes)
        assert later or board_over  # law 65: back in the centre before the next stroke
    for r in returned:
        assert inside_outer_circle(np.array(r["xy_mm"]))


@pytest.mark.slow
def test_a_whole_game_runs_to_its_end() -> None:
    sim = simulate_match(11, finish_game=True, skill=0.8)
    game = sim.report["games"][0]
    assert game["winner"] in sim.report["sides"]
    assert score_log(parse_log(sim.match_log)).to_data() == sim.report
    assert len(sim.boards) == len(game["boards"]) >= 2
    tl = sim.timeline
    pieces = standard_pieces()
    for record in sim.boards:
        # Each board starts from the law 41 arrangement set for its breaker's seat.
        first = next(s for s in sim.strokes if (s.game, s.board) == (record.game, record.board))
        assert first.break_shot and first.player == record.breaker
        expected = break_layout(pieces, first.seat)
        sample = tl.frame_samples(record.first_frame).start
        coins = expected.on_board()
        assert np.all(tl.state[sample, coins] == ObjectState.ON_BOARD)
        assert np.allclose(tl.xy_mm[sample, coins], expected.xy_mm[coins], atol=1e-3)
