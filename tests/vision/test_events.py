"""Stroke inference on scripted matches whose every stroke and placement is known exactly."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from calibration.geometry import BASE_LINE_MID_MM, POCKETS, pocket_centre
from rules.engine import replay
from rules.log import parse_log
from samples.oracle_tracks import OracleNoise, oracle_track_frames
from samples.timeline import HandPose, ObjectState
from tests.vision.scripted_match import ScriptedMatch
from vision.detections import CLASS_NAMES, Detections
from vision.errors import UsageError
from vision.events import MatchLogWriter, MatchRecorder, SeatAssigner, parse_seats
from vision.events.strokes import PLACING_ZONE_MM
from vision.tracks import NO_POCKET, TrackFrame, TrackState

STRIKER_CLASS = CLASS_NAMES.index("striker")


def record(
    match: ScriptedMatch,
    frames: Iterator[TrackFrame] | None = None,
    recorder: MatchRecorder | None = None,
) -> list[dict]:
    timeline = match.timeline()
    recorder = recorder or MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    for frame in frames if frames is not None else oracle_track_frames(timeline):
        recorder.update(frame)
    recorder.finish(timeline.num_frames, timeline.num_frames / timeline.fps)
    return recorder.log()["events"]


def track_nearest(frame: TrackFrame, xy_mm: tuple[float, float] | np.ndarray) -> int:
    """The id of the track lying nearest `xy_mm` in `frame`."""
    return int(frame.track_id[np.argmin(np.linalg.norm(frame.xy_mm - np.asarray(xy_mm), axis=1))])


def strokes_of(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] == "stroke"]


def short_board() -> ScriptedMatch:
    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 40.0)
    m.strike("S", target="W1", pocket="NE")
    m.due_put_back()
    m.put_striker("S", 20.0)
    m.strike("S", target="W4", pocket="NW", striker_pocket="SE")
    return m


def test_strokes_pocketings_placements_and_players_match_the_script() -> None:
    match = short_board()
    events = record(match)
    strokes = strokes_of(events)
    assert len(strokes) == len(match.strokes)
    for got, truth in zip(strokes, match.strokes, strict=True):
        assert got["evidence"]["seat"] == truth.seat
        assert got["player"] == ("Asha" if truth.seat == "S" else "Ben")
        pockets = [(p["item"], p["pocket"]) for p in got["evidence"]["pocket_events"]]
        assert pockets == truth.pocketed
        assert got["pocketed"] == [item for item, _ in truth.pocketed]
        assert got["touched"] == truth.touched
        assert got["evidence"].get("new_board", False) == truth.new_board
        assert np.allclose(got["evidence"]["striker_start_mm"], truth.striker_start, atol=0.2)
    placed = [e["items"] for e in events if e["type"] == "placed"]
    assert placed == [p.items for p in match.placements]
    # The placement is logged before the stroke that followed it.
    kinds = [e["type"] for e in events]
    assert kinds.index("placed") == 3


def test_the_log_is_a_valid_match_log_with_the_seating_inferred_from_the_first_stroke() -> None:
    match = ScriptedMatch()
    match.new_board("N")
    match.put_striker("N", 0.0)
    match.strike("N", target="W2", pocket="SE")
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben"), first_break="Ben"))
    record(match, recorder=recorder)
    log = parse_log(recorder.log())
    assert log.seats == {"N": "Ben", "S": "Asha"}
    assert log.first_break == "Ben"
    assert log.events[0].player == "Ben"


def test_a_striker_nudged_along_the_base_line_is_not_a_stroke() -> None:
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 0.0, nudge_mm=90.0)  # a long slow slide into place
    match.move({"S": (match.xy[match.index("S")] + [50.0, 0.0], 300.0)})  # and a quick shove
    match.wait(1.0)
    match.strike("S", target="W1", pocket="NE")
    strokes = strokes_of(record(match))
    assert len(strokes) == 1
    assert strokes[0]["pocketed"] == ["white"]


def slid_under_a_hand_then_struck(
    start_along: float, slide_mm: float, hand_shifts_w5_mm: float = 0.0
) -> tuple[list[dict], float]:
    """South's striker, put down `start_along` its base line, is slid `slide_mm` along it under
    a hand at 600 mm/s (the hand shifting W5 by `hand_shifts_w5_mm` as it goes), let go and
    then struck: W1 into NE. The strokes recorded, and where along the line the slide ended."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", start_along)
    spot = match.xy[match.index("S")] + [slide_mm, 0.0]
    coin = match.xy[match.index("W5")].copy()
    match.hands = (HandPose("S", (float(spot[0]), float(spot[1]) - 30.0), float(np.pi / 2)),)
    moves = {"S": (spot, 600.0)}
    if hand_shifts_w5_mm:
        moves["W5"] = (coin + [0.0, -hand_shifts_w5_mm], 40.0)
    match.move(moves)
    match.hands = ()
    match.wait(1.0)
    match.strike("S", target="W1", pocket="NE")
    return strokes_of(record(match)), float(spot[0])


def test_a_striker_slid_along_the_base_line_while_the_hand_shifts_a_coin_is_not_a_stroke() -> None:
    # The hand sliding the striker 200 mm along its base lines at a strike's speed also shifts
    # a coin lying under it (development video 9414: detections of coins under the hand
    # "moved"). The striker never left its base lines: it was being placed, not struck, and
    # the stroke from where it was put down is the one recorded.
    strokes, spot_x = slid_under_a_hand_then_struck(100.0, -200.0, hand_shifts_w5_mm=12.0)
    assert len(strokes) == 1
    assert strokes[0]["pocketed"] == ["white"]
    assert strokes[0]["evidence"]["striker_start_mm"][0] == pytest.approx(spot_x, abs=2.0)


def test_a_striker_slid_fast_along_the_base_line_under_a_hand_is_not_a_stroke() -> None:
    # The hand takes it along its base lines, as fast as a gentle stroke, and lets go.
    strokes, _ = slid_under_a_hand_then_struck(60.0, -150.0)
    assert len(strokes) == 1
    assert strokes[0]["pocketed"] == ["white"]


def test_a_striker_struck_along_its_base_line_into_a_coin_beside_it_is_a_stroke() -> None:
    # South's miss leaves B6 lying 30 mm off South's base line. South's next strike runs along
    # the line, cuts B6 into the far corner at a strike's speed and runs on along the line
    # (held-out video 71011, development data since: the striker never left its base lines and
    # the stroke was dropped as a striker slid into place, its black with it).
    match = one_stroke_board(0.0, "W1", "NE")
    match.put_striker("S", -150.0)
    s, b6 = match.index("S"), match.index("B6")
    match.move({"S": (match.xy[b6] - (0.0, 37.0), 2000.0)})
    match.move({"B6": (np.array([60.0, -220.0]), 800.0), "S": (match.xy[s] + (0.0, 40.0), 200.0)})
    match.wait(1.0)
    match.state[s], match.xy[s] = int(ObjectState.ABSENT), np.nan
    match.wait(0.3)
    match.put_striker("N", 0.0)
    match.strike("N", target=None)
    match.put_striker("S", -100.0)
    contact = np.array([60.0 - 21.0, -BASE_LINE_MID_MM])
    match.move({"S": (contact, 1200.0)})
    match.move({"B6": (pocket_centre("NE"), 1200.0), "S": (np.array([200.0, -BASE_LINE_MID_MM]), 300.0)})
    match.state[b6], match.pocket[b6] = int(ObjectState.FALLING), POCKETS.index("NE")
    match.wait(2 / match.fps)
    match.state[b6], match.xy[b6] = int(ObjectState.IN_POCKET), np.nan
    match.wait(1.0)
    strokes = strokes_of(record(match))
    assert [(e["evidence"]["seat"], e["pocketed"]) for e in strokes] == [
        ("S", ["white"]),
        ("S", []),
        ("N", []),
        ("S", ["black"]),
    ]
    assert strokes[-1]["evidence"]["pocket_events"][0]["pocket"] == "NE"


def test_overboard_and_a_miss_are_recorded() -> None:
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 0.0)
    match.strike("S", target="B5", overboard="B5")
    match.put_striker("N", 30.0)
    match.strike("N", target=None)
    strokes = strokes_of(record(match))
    assert strokes[0]["overboard"] == ["black"] and strokes[0]["pocketed"] == []
    assert strokes[1]["touched"] is False and strokes[1]["player"] == "Ben"


def vanish_during_strokes(
    frames: Iterator[TrackFrame], drop_track: int, from_frame: int
) -> Iterator[TrackFrame]:
    """The tracker loses a coin (no pocket, no cause) from `from_frame` on."""
    for frame in frames:
        if frame.frame_index >= from_frame:
            frame = frame.select(frame.track_id != drop_track)
        yield frame


def fake_pocketing(frames: Iterator[TrackFrame], track: int, at_frame: int) -> Iterator[TrackFrame]:
    """The tracker wrongly says a coin lying still went into a pocket, then finds it again
    under a new id."""
    for frame in frames:
        if frame.frame_index == at_frame:
            state = frame.state.copy()
            pocket = frame.pocket.copy()
            state[frame.track_id == track] = int(TrackState.POCKETED)
            pocket[frame.track_id == track] = 0
            frame = TrackFrame(
                frame.frame_index, frame.time_s, frame.track_id, frame.class_id, frame.xy_mm,
                frame.velocity_mm_s, state, pocket, frame.score,
            )  # fmt: skip
        elif frame.frame_index > at_frame:
            ids = frame.track_id.copy()
            ids[ids == track] = 10_000
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm,
                frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def _stroke_frames(match: ScriptedMatch) -> tuple[int, int]:
    events = record(match)
    return tuple(strokes_of(events)[0]["evidence"]["frames"])  # type: ignore[return-value]


def one_stroke_board(along: float = 10.0, target: str = "W3", pocket: str = "NW") -> ScriptedMatch:
    """A new board whose break, from South (`along` its base line), sends `target` into `pocket`."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", along)
    match.strike("S", target=target, pocket=pocket)
    return match


def test_counts_at_rest_overrule_the_tracker() -> None:
    start, _ = _stroke_frames(one_stroke_board())
    # A coin lost by the tracker in the middle of the board is not pocketed.
    events = record(
        one_stroke_board(),
        vanish_during_strokes(oracle_track_frames(one_stroke_board().timeline()), 12, start + 3),
    )
    stroke = strokes_of(events)[0]
    assert stroke["pocketed"] == ["white"]
    # This stroke is the break: a coin gone there without a sighting is taken to have jumped
    # off (law 65), and so said in the evidence.
    assert stroke["evidence"]["new_board"] is True
    unseen = stroke["evidence"]["overboard_unseen"]
    assert sum(unseen.values()) == 1 and stroke["overboard"] == list(unseen)
    assert "vanished_not_pocketed" not in stroke["evidence"]
    # A "pocketing" of a coin that still lies on the board at rest is dropped.
    frames = fake_pocketing(oracle_track_frames(one_stroke_board().timeline()), 14, start + 2)
    stroke = strokes_of(record(one_stroke_board(), frames))[0]
    assert stroke["pocketed"] == ["white"]
    assert len(stroke["evidence"]["dropped_pocket_events"]) == 1


def break_with_w9_flying_off_and(
    piece: str, turns_at: tuple[float, float], back_to: tuple[float, float], back_speed: float
) -> tuple[ScriptedMatch, int]:
    """A break from South: W9 runs to the west cushion at 0.95 m/s and flies off over it, while
    `piece` runs at 1.2 m/s to `turns_at`, by the NW corner, and bounces back out to `back_to`.
    The frame where W9 leaves and `piece` turns."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 0.0)
    match.move({"S": (np.array([0.0, -62.0 - 36.0]), 2500.0)})
    match.move({piece: (np.array(turns_at), 1200.0), "W9": (np.array([-330.0, -31.0]), 950.0)})
    w9 = match.index("W9")
    match.state[w9] = int(ObjectState.OFF_BOARD)
    match.xy[w9] = np.nan
    turn = len(match._xy) // match.oversample
    match.move({piece: (np.array(back_to), back_speed)})
    match.wait(1.0)
    return match, turn


def break_with_a_coin_bouncing_out_of_a_corner() -> tuple[ScriptedMatch, int]:
    """W8 strikes the cushions 83 mm from the NW pocket's centre and bounces back out."""
    return break_with_w9_flying_off_and("W8", (-300.0, 280.0), (-200.0, 180.0), 600.0)


def vanish_near(
    frames: Iterator[TrackFrame], near_mm: tuple[float, float], find_at: int, from_frame: int
) -> Iterator[TrackFrame]:
    """The tracker drops the piece lying nearest `near_mm` at `find_at` (no pocket, no cause)
    from `from_frame` on."""
    track = None
    for frame in frames:
        if frame.frame_index == find_at:
            track = track_nearest(frame, near_mm)
        if track is not None and frame.frame_index >= from_frame:
            frame = frame.select(frame.track_id != track)
        yield frame


def lost_into_a_pocket_and_back(
    frames: Iterator[TrackFrame], near_mm: tuple[float, float], at_frame: int, pocket: str
) -> Iterator[TrackFrame]:
    """The tracker loses the piece lying nearest `near_mm` at `at_frame`, two frames unseen
    then taken into `pocket`, and finds it again under a new id three frames after that."""
    track = None
    for frame in frames:
        if frame.frame_index == at_frame:
            track = track_nearest(frame, near_mm)
        if track is not None and frame.frame_index >= at_frame:
            which = frame.track_id == track
            state, where = frame.state.copy(), frame.pocket.copy()
            ids = frame.track_id.copy()
            if frame.frame_index < at_frame + 2:
                state[which] = int(TrackState.OCCLUDED)
            elif frame.frame_index == at_frame + 2:
                state[which] = int(TrackState.POCKETED)
                where[which] = POCKETS.index(pocket)
            elif frame.frame_index < at_frame + 5:
                frame = frame.select(~which)
                yield frame
                continue
            else:
                ids[which] = 30_000
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm,
                frame.velocity_mm_s, state, where, frame.score,
            )  # fmt: skip
        yield frame


def test_a_coin_lost_short_of_a_corner_and_seen_again_running_out_of_it_was_not_pocketed() -> None:
    """At the break the tracker loses W8 83 mm from the NW pocket's centre, running at it, and
    takes it into the pocket; three frames on a new white track runs out of the corner. W9,
    lost as it flew off the board, was never seen going: the white gone went overboard,
    unseen, not into NW (held-out video 78009, `warm-lamp`, development data since)."""
    match, turn = break_with_a_coin_bouncing_out_of_a_corner()
    frames = vanish_near(oracle_track_frames(match.timeline()), (-330.0, -31.0), turn - 1, turn)
    frames = lost_into_a_pocket_and_back(frames, (-300.0, 280.0), turn - 1, "NW")
    stroke = strokes_of(record(match, frames))[0]
    assert stroke["pocketed"] == [] and stroke["overboard"] == ["white"]
    assert stroke["evidence"]["overboard_unseen"] == {"white": 1}
    # The pocketing taken back stays in the evidence, for whoever reviews the ruling.
    taken_back = stroke["evidence"]["dropped_pocket_events"]
    assert [(e["item"], e["pocket"]) for e in taken_back] == [("white", "NW")]


def break_with_the_queen_bouncing_out_of_a_corner() -> tuple[ScriptedMatch, int]:
    """The queen reaches the NW pocket's mouth 32 mm from its centre and bounces back out."""
    return break_with_w9_flying_off_and("Q", (-325.0, 325.0), (-200.0, 250.0), 800.0)


def queen_carried_into_a_mouth(
    frames: Iterator[TrackFrame], taken_at: int, turn: int
) -> Iterator[TrackFrame]:
    """The queen's track is lost at `taken_at` and kept hoping where it was, while a black's
    track (a new id) carries her sightings down to the pocket's mouth she reaches at `turn`;
    lost there (two frames unseen), it is taken into the pocket, reported in the colour it
    was seeing (`Tracker`), and her own track is found again at `turn`, running out."""
    queen, black = CLASS_NAMES.index("queen"), CLASS_NAMES.index("black")
    carrier = 40_000
    kept_at = mouth = np.zeros(2)
    for frame in frames:
        k = frame.frame_index
        q = frame.class_id == queen
        if k < taken_at or k > turn + 2 or not q.any():
            yield frame
            continue
        xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
        row = (carrier, black, xy[q][0], velocity[q][0], int(TrackState.MOVING), NO_POCKET)
        if k == taken_at:
            kept_at = xy[q][0].copy()
        if k < turn:
            mouth = xy[q][0].copy()
            xy[q], velocity[q], state[q] = kept_at, 0.0, int(TrackState.OCCLUDED)
        elif k < turn + 2:
            row = (carrier, black, mouth, np.zeros(2), int(TrackState.OCCLUDED), NO_POCKET)
        else:
            row = (carrier, queen, mouth, np.zeros(2), int(TrackState.POCKETED), POCKETS.index("NW"))
        tid, cls, at, run, how, pocket = row
        yield TrackFrame(
            k, frame.time_s, np.append(frame.track_id, tid), np.append(frame.class_id, cls),
            np.vstack([xy, at]), np.vstack([velocity, run]), np.append(state, how),
            np.append(frame.pocket, pocket), np.append(frame.score, 0.9),
        )  # fmt: skip


def test_the_queen_carried_by_another_track_to_a_mouth_and_seen_running_out_takes_no_coin_in() -> None:
    """At the break a black's track takes the queen's sightings down to the NW corner's mouth,
    where she bounces out; the track, lost there, goes into the pocket as the queen, and her
    own track is found again the next look, running out. The queen is on the board: the
    white that flew off unseen went overboard, not into NW as the queen's departure
    relabelled (held-out video 95011, `club`, development data since)."""
    match, turn = break_with_the_queen_bouncing_out_of_a_corner()
    frames = vanish_near(oracle_track_frames(match.timeline()), (-330.0, -31.0), turn - 1, turn)
    frames = queen_carried_into_a_mouth(frames, turn - 8, turn)
    stroke = strokes_of(record(match, frames))[0]
    assert stroke["pocketed"] == [] and stroke["overboard"] == ["white"]
    assert stroke["evidence"]["overboard_unseen"] == {"white": 1}
    taken_back = stroke["evidence"]["dropped_pocket_events"]
    assert [(e["item"], e["pocket"]) for e in taken_back] == [("queen", "NW")]


def test_a_coin_the_tracker_lost_lying_still_after_the_break_did_not_jump_off_the_board() -> None:
    """At the break W9 slides 200 mm out to rest mid-board, and the tracker loses it there a
    few frames later (a weak reading at rest, under the detector's threshold): a coin that
    came to rest in view has not jumped off the board, and is not recorded overboard; it lies
    there unseen, and stays counted (held-out video 97006, `phone`, development data since).
    One lost the moment the pack burst, never seen off its spot, may have (law 65)."""

    def board() -> tuple[ScriptedMatch, int]:
        match = ScriptedMatch()
        match.new_board("S")
        match.put_striker("S", 0.0)
        match.move({"S": (np.array([0.0, -62.0 - 36.0]), 2500.0)})
        match.move({"W9": (np.array([-200.0, -150.0]), 500.0)})
        stopped = len(match._xy) // match.oversample
        match.wait(1.5)
        return match, stopped

    match, stopped = board()
    frames = vanish_near(oracle_track_frames(match.timeline()), (-200.0, -150.0), stopped + 3, stopped + 3)
    stroke = strokes_of(record(match, frames))[0]
    assert stroke["pocketed"] == [] and "overboard" not in stroke
    assert "overboard_unseen" not in stroke["evidence"]
    assert stroke["evidence"]["vanished_not_pocketed"] == {"white": 1}
    assert stroke["evidence"]["counts_after"]["white"] == 9


def jumped_to_a_mark(
    frames: Iterator[TrackFrame], near_mm: tuple[float, float], at_frame: int, mark_mm: tuple[float, float]
) -> Iterator[TrackFrame]:
    """The tracker loses the piece lying nearest `near_mm` at `at_frame`, keeps hoping for it
    for six frames, then finds it again, lying still, at `mark_mm` (a mark read as that piece)
    for two, and drops it."""
    track = item = None
    last = np.zeros(2)
    for frame in frames:
        k = frame.frame_index
        if k == at_frame - 1:
            track = track_nearest(frame, near_mm)
            which = frame.track_id == track
            item, last = int(frame.class_id[which][0]), frame.xy_mm[which][0].copy()
        if track is None or k < at_frame:
            yield frame
            continue
        frame = frame.select(frame.track_id != track)
        if k >= at_frame + 8:
            yield frame
            continue
        xy, how = (
            (last, TrackState.OCCLUDED) if k < at_frame + 6 else (np.asarray(mark_mm), TrackState.AT_REST)
        )
        yield TrackFrame(
            k, frame.time_s, np.append(frame.track_id, track), np.append(frame.class_id, item),
            np.vstack([frame.xy_mm, xy]), np.vstack([frame.velocity_mm_s, np.zeros(2)]),
            np.append(frame.state, int(how)), np.append(frame.pocket, NO_POCKET), np.append(frame.score, 0.9),
        )  # fmt: skip


def test_a_coin_flown_off_whose_track_was_found_lying_at_a_mark_went_overboard() -> None:
    """At the break W9 flies off over the west cushion; its track, lost as it went, is found
    again six frames on lying still at a mark 200 mm away, read as a white for two looks, and
    dropped. It never saw its piece come to rest: the white gone jumped off the board
    (development video 86015's break)."""
    match, turn = break_with_a_coin_bouncing_out_of_a_corner()
    frames = jumped_to_a_mark(oracle_track_frames(match.timeline()), (-330.0, -31.0), turn, (-200.0, -150.0))
    stroke = strokes_of(record(match, frames))[0]
    assert stroke["overboard"] == ["white"]
    assert stroke["evidence"]["overboard_unseen"] == {"white": 1}


def occluded(frame: TrackFrame, which: np.ndarray) -> TrackFrame:
    """The frame with the tracks `which` selects held as occluded (not seen, kept)."""
    state = frame.state.copy()
    state[which] = int(TrackState.OCCLUDED)
    return TrackFrame(
        frame.frame_index, frame.time_s, frame.track_id, frame.class_id, frame.xy_mm,
        frame.velocity_mm_s, state, frame.pocket, frame.score,
    )  # fmt: skip


def hidden_from(
    frames: Iterator[TrackFrame], near_mm: tuple[float, float], at_frame: int
) -> Iterator[TrackFrame]:
    """The tracker loses the piece lying at `near_mm` at `at_frame` and keeps hoping for it (an
    occluded track at its last position) to the end."""
    lost: int | None = None
    for frame in frames:
        if frame.frame_index >= at_frame:
            if lost is None:
                lost = track_nearest(frame, near_mm)
            frame = occluded(frame, frame.track_id == lost)
        yield frame


def test_a_coin_lost_near_the_frame_is_not_called_overboard_without_being_seen_to_go() -> None:
    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.move({"W1": (np.array([300.0, 80.0]), 400.0)})  # pushed out near the frame
        match.wait(1.0)
        match.put_striker("S", 10.0)
        match.strike("S", target="W3", pocket="NW")
        return match

    start, _ = _stroke_frames(board())
    frames = hidden_from(oracle_track_frames(board().timeline()), (300.0, 80.0), start + 3)
    stroke = strokes_of(record(board(), frames))[0]
    assert stroke["pocketed"] == ["white"]
    # Nothing saw it cross the frame: its count drop is noted, not called a jump.
    assert stroke.get("overboard") is None
    assert stroke["evidence"]["vanished_not_pocketed"] == {"white": 1}


def handed_to_a_ghost(
    frames: Iterator[TrackFrame], near_mm: tuple[float, float], ghost_mm: tuple[float, float], at_frame: int
) -> Iterator[TrackFrame]:
    """At `at_frame` the track of the piece lying at `near_mm` is handed a ghost lying at
    `ghost_mm` for one look, and is then lost there (kept, occluded) to the end."""
    lost: int | None = None
    for frame in frames:
        if frame.frame_index >= at_frame:
            if lost is None:
                lost = track_nearest(frame, near_mm)
            which = frame.track_id == lost
            xy = frame.xy_mm.copy()
            xy[which] = ghost_mm
            velocity = frame.velocity_mm_s.copy()
            velocity[which] = 0.0
            state = frame.state.copy()
            state[which] = int(TrackState.AT_REST if frame.frame_index == at_frame else TrackState.OCCLUDED)
            frame = TrackFrame(
                frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                velocity, state, frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def coin_moved_and_striker_put(coin: str, spot: tuple[float, float], along: float) -> ScriptedMatch:
    """A new board with `coin` pushed to `spot`, and South's striker put down `along` its base
    line, ready to strike."""
    match = ScriptedMatch()
    match.new_board("S")
    match.move({coin: (np.array(spot), 400.0)})
    match.wait(1.0)
    match.put_striker("S", along)
    return match


def white_moved_then_two_strokes(w1_at: tuple[float, float], pockets: tuple[str, str]) -> ScriptedMatch:
    """W1 is pushed to `w1_at`; South then pockets W3 and W4 into `pockets`, one stroke each."""
    match = ScriptedMatch()
    match.new_board("S")
    match.move({"W1": (np.array(w1_at), 400.0)})
    match.wait(1.0)
    match.put_striker("S", 10.0)
    match.strike("S", target="W3", pocket=pockets[0])
    match.put_striker("S", -40.0)
    match.strike("S", target="W4", pocket=pockets[1])
    return match


def test_a_lost_track_found_lying_by_a_pocket_is_not_guessed_into_it() -> None:
    # During a stroke a coin's track is handed a ghost lying still 66 mm from the SW pocket's
    # centre, out of its mouth, and lost there (development video 9308: a coin gone unseen,
    # its track handed to ghosts by a corner, was "pocketed" as the likeliest place it went).
    # Nothing lay there at the strike, nor headed in: it did not go in unseen.
    ghost = tuple(pocket_centre("SW") + (32.0, 58.0))
    far_coin = (200.0, 150.0)

    def board() -> ScriptedMatch:
        return white_moved_then_two_strokes(far_coin, ("NW", "NE"))

    second_start = strokes_of(record(board()))[1]["evidence"]["frames"][0]
    frames = handed_to_a_ghost(oracle_track_frames(board().timeline()), far_coin, ghost, second_start + 5)
    stroke = strokes_of(record(board(), frames))[1]
    assert [(p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"]] == [("white", "NE")]
    assert stroke["evidence"]["vanished_not_pocketed"] == {"white": 1}


def test_a_coin_lying_by_a_pocket_and_lost_as_the_board_moves_was_knocked_in_unseen() -> None:
    # A white lies 44 mm from the NW pocket's centre; during a stroke whose striker runs on
    # past it it is lost and never seen again, and the count is one white short (development
    # video 9338: the striker hit it in, unseen). The likeliest place it went is that pocket.
    by_nw = tuple(pocket_centre("NW") + (8.0, -43.0))

    def board(striker_end: tuple[float, float]) -> ScriptedMatch:
        match = coin_moved_and_striker_put("W1", by_nw, 10.0)
        match.strike("S", target="W3", pocket="NE")
        match.put_striker("S", -40.0)
        match.strike("S", target="W4", pocket="SE", striker_end=striker_end)
        return match

    past_it = (-300.0, 300.0)
    second_start = strokes_of(record(board(past_it)))[1]["evidence"]["frames"][0]
    frames = hidden_from(oracle_track_frames(board(past_it).timeline()), by_nw, second_start + 3)
    stroke = strokes_of(record(board(past_it), frames))[1]
    pockets = sorted((p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"])
    assert pockets == [("white", "NW"), ("white", "SE")]
    # Nothing came near it (the striker stopped mid-board): it lay there, hidden or faded
    # from the detector's sight (held-out video 75014), and is not pocketed.
    mid_board = (-60.0, 60.0)
    frames = hidden_from(oracle_track_frames(board(mid_board).timeline()), by_nw, second_start + 3)
    stroke = strokes_of(record(board(mid_board), frames))[1]
    assert [(p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"]] == [("white", "SE")]


@pytest.mark.parametrize(
    ("black_at", "pocketed"),
    [((346.0, 278.0), [("white", "NE")]), ((300.0, 300.0), [("black", "NE"), ("white", "NE")])],
)
def test_a_coin_by_a_corner_lost_as_a_run_passes_went_in_only_if_that_run_could_send_it_there(
    black_at: tuple[float, float], pocketed: list[tuple[str, str]]
) -> None:
    """A black lies against the east cushion 69 mm south of the NE pocket's centre. South
    sends W1 into that corner, its run passing the black on the board side; the tracker loses
    the black then and never sees it again, the count one black short. Struck from there it
    was knocked square into the cushion, not up it into the corner: it went off the board,
    and is not pocketed with the white (held-out video 98014, `phone`, development data
    since: "pocketed" so, and the board's result lost). Lying 67 mm out on the white's line
    into the corner, it was knocked in ahead of the white, unseen."""

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("B2", black_at, 10.0)
        match.strike("S", target="W1", pocket="NE")
        return match

    m = board()
    trail = np.array(m._xy)
    black, white = m.index("B2"), m.index("W1")
    lying = next(f for f in range(len(trail)) if np.allclose(trail[f, black], black_at))
    near = next(f for f in range(lying, len(trail)) if np.linalg.norm(trail[f, white] - black_at) < 60.0)
    frames = hidden_from(oracle_track_frames(m.timeline()), black_at, near)
    stroke = strokes_of(record(board(), frames))[0]
    assert [(p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"]] == pocketed


def lost_heading_off(
    frames: Iterator[TrackFrame], item: int, short_of: str, by_mm: float
) -> Iterator[TrackFrame]:
    """The tracker loses the piece of class `item` running at `short_of`'s pocket once it is
    within `by_mm` of the pocket's centre, keeps it two frames (occluded, as a tracker reports
    an unseen track: where last seen, no velocity) and lets it go the third, its path off the
    surface (OFF_BOARD)."""
    lost = track = None
    for frame in frames:
        near = np.linalg.norm(frame.xy_mm - pocket_centre(short_of), axis=1) < by_mm
        close = (frame.class_id == item) & near & (frame.state == int(TrackState.MOVING))
        if lost is None and np.any(close):
            lost, track = frame.frame_index, int(frame.track_id[close][0])
            last_xy = frame.xy_mm[close][0].copy()
        if lost is not None and frame.frame_index >= lost:
            mine = frame.track_id == track
            xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
            xy[mine], velocity[mine] = last_xy, 0.0
            state[mine] = int(TrackState.OCCLUDED if frame.frame_index < lost + 2 else TrackState.OFF_BOARD)
            frame = TrackFrame(
                frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                velocity, state, frame.pocket, frame.score,
            ).select(~mine if frame.frame_index > lost + 2 else np.ones(len(frame), bool))  # fmt: skip
        yield frame


def test_a_coin_lost_running_into_a_corner_along_a_cushion_went_in_not_off() -> None:
    """A black lying by the east cushion is sent down it into the SE pocket; the tracker loses
    it 100 mm short of the pocket's centre and, carrying its path straight on, has it leave
    the surface over the cushion. Where it was last seen heading is the pocket: it went in
    (held-out video 99011, `phone`, development data since: taken to have flown off the
    board, where its last sighting lay too far from any pocket; the unseen track's velocity,
    not its last sighting's, was read for where it was going, and the board's result was
    lost)."""

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("B2", (340.0, 60.0), 10.0)
        match.strike("S", target="B2", pocket="SE")
        return match

    black = CLASS_NAMES.index("black")
    frames = lost_heading_off(oracle_track_frames(board().timeline()), black, "SE", 110.0)
    stroke = strokes_of(record(board(), frames))[0]
    assert [(p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"]] == [("black", "SE")]
    assert stroke.get("overboard") is None


def test_a_coin_lost_flying_fast_past_a_corner_is_not_taken_into_it() -> None:
    """A black struck hard (2.7 m/s) flies east off the board, its path 12 mm off the SE
    pocket's centre; the tracker loses it 170 mm short of the pocket and lets it go over the
    cushion. That fast a disc skims over a hole, or is what a cushion lifts over the frame:
    it is not taken into the pocket it was heading for (development videos 89010 and 90018,
    a break's white flying off over a corner at 4.3 to 4.5 m/s, "pocketed" there once lost
    pieces were judged by their last sighting's heading)."""

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("B2", (0.0, -290.0), -200.0)
        match.strike("S", target="B2", overboard="B2", speed=4500.0)
        return match

    black = CLASS_NAMES.index("black")
    frames = lost_heading_off(oracle_track_frames(board().timeline()), black, "SE", 175.0)
    stroke = strokes_of(record(board(), frames))[0]
    assert stroke["pocketed"] == [] and stroke["evidence"]["pocket_events"] == []


def coin_track_handed_the_striker(
    frames: Iterator[TrackFrame], coin_at: tuple[float, float], struck: int, striker_rest: tuple[float, float]
) -> Iterator[TrackFrame]:
    """From `struck` on the tracker never sees the coin lying at `coin_at` again: its track
    stays there, occluded, as the coin sinks unseen. The striker, seen coming to rest at
    `striker_rest`, is lost there (two frames unseen, then taken into NW), and at that look the
    coin's track takes its sighting, read as that coin; occluded there since."""
    coin = lost = None
    coin_class = CLASS_NAMES.index("white")
    for frame in frames:
        if frame.frame_index == struck:
            coin = track_nearest(frame, coin_at)
        if coin is None:
            yield frame
            continue
        striker = frame.class_id == STRIKER_CLASS
        resting = striker & (np.linalg.norm(frame.xy_mm - striker_rest, axis=1) < 1.0)
        if lost is None and resting.any():
            lost = frame.frame_index
        state, where = frame.state.copy(), frame.pocket.copy()
        if lost is not None and lost < frame.frame_index < lost + 3:
            state[striker] = int(TrackState.OCCLUDED)
        elif lost is not None and frame.frame_index == lost + 3:
            state[striker] = int(TrackState.POCKETED)
            where[striker] = POCKETS.index("NW")
        kept = frame.track_id != coin
        if lost is not None and frame.frame_index > lost + 3:
            kept &= ~striker
        frame = TrackFrame(
            frame.frame_index, frame.time_s, frame.track_id, frame.class_id, frame.xy_mm,
            frame.velocity_mm_s, state, where, frame.score,
        ).select(kept)  # fmt: skip
        seen_on_striker = lost is not None and frame.frame_index == lost + 3
        xy = striker_rest if lost is not None and frame.frame_index >= lost + 3 else coin_at
        state_now = TrackState.AT_REST if seen_on_striker else TrackState.OCCLUDED
        row = TrackFrame(
            frame.frame_index, frame.time_s, np.array([coin]), np.array([coin_class]),
            np.array([xy], dtype=float), np.zeros((1, 2)), np.array([int(state_now)]),
            np.array([-1]), np.array([0.6]),
        )  # fmt: skip
        yield joined(frame, row)


def test_a_coin_knocked_in_unseen_whose_track_took_the_striker_lying_by_the_mouth_was_pocketed() -> None:
    """A white lies 33 mm from the NW pocket's centre; South's striker knocks it in unseen and
    comes to rest 55 mm from the centre, where it is lost and projected into the pocket, and
    the white's track takes its sighting, read as a white. The white went in; the striker
    lies there (held-out video 74010, `worn`, development data since: the striker was ruled
    pocketed, a foul, and the white vanished)."""
    centre = pocket_centre("NW")
    by_nw = tuple(centre + (31.0, -12.0))
    striker_rest = tuple(centre + (55.0, -8.0))

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("W1", by_nw, 10.0)
        match.strike("S", target="W3", pocket="NE")
        match.put_striker("S", -40.0)
        match.strike("S", target="W1", pocket="NW", striker_end=striker_rest)
        return match

    second_start = strokes_of(record(board()))[1]["evidence"]["frames"][0]
    frames = coin_track_handed_the_striker(
        oracle_track_frames(board().timeline()), by_nw, second_start, striker_rest
    )
    stroke = strokes_of(record(board(), frames))[1]
    assert [(p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"]] == [("white", "NW")]


def striker_let_go_in_flight(frames: Iterator[TrackFrame], unseen_frames: int) -> Iterator[TrackFrame]:
    """The tracker lets the striker's track go as it flies north past y = 150 mm at a strike's
    speed (its path heads off the surface: OFF_BOARD), sees nothing of it for `unseen_frames`,
    and then follows it under a new track id."""
    let_go_at: int | None = None
    for frame in frames:
        striker = frame.class_id == STRIKER_CLASS
        state, track_id = frame.state.copy(), frame.track_id.copy()
        keep = np.ones(len(frame), bool)
        if let_go_at is None and np.any(
            striker & (frame.xy_mm[:, 1] > 150.0) & (frame.velocity_mm_s[:, 1] > 1000.0)
        ):
            let_go_at = frame.frame_index
            state[striker] = int(TrackState.OFF_BOARD)
        elif let_go_at is not None and frame.frame_index <= let_go_at + unseen_frames:
            keep = ~striker
        elif let_go_at is not None:
            track_id[striker] += 1000
        frame = TrackFrame(
            frame.frame_index, frame.time_s, track_id[keep], frame.class_id[keep], frame.xy_mm[keep],
            frame.velocity_mm_s[keep], state[keep], frame.pocket[keep], frame.score[keep],
        )  # fmt: skip
        yield frame


def test_a_striker_let_go_as_heading_off_the_board_keeps_the_stroke_open_while_it_flies() -> None:
    # Development video 9417 (`phone`): the striker, seen at 2.1 m/s 100 mm short of the far
    # cushion, was let go as gone over it; it came back off the cushion unseen and knocked a
    # black into a corner after the stroke had been closed. Only a guess said it left: a
    # striker last seen flying a moment ago is still in flight.
    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.move({"W1": (np.array([-290.0, 290.0]), 400.0)})
        match.wait(1.0)
        match.put_striker("S", 0.0)
        match.strike("S", target="W3", pocket="SE")
        match.put_striker("S", 100.0)
        s, w = match.index("S"), match.index("W1")
        match.move({"S": (np.array([60.0, 330.0]), 2100.0)})  # to the far cushion
        match.move({"S": (np.array([-266.0, 266.0]), 1200.0)})  # back, onto W1
        match.move({"W1": (pocket_centre("NW"), 800.0), "S": (np.array([-250.0, 250.0]), 200.0)})
        match.state[w] = int(ObjectState.FALLING)
        match.pocket[w] = POCKETS.index("NW")
        match.wait(2 / match.fps)
        match.state[w] = int(ObjectState.IN_POCKET)
        match.xy[w] = np.nan
        match.wait(1.0)
        match.state[s] = int(ObjectState.ABSENT)
        match.xy[s] = np.nan
        match.wait(0.5)
        return match

    events = record(board(), striker_let_go_in_flight(oracle_track_frames(board().timeline()), 14))
    strokes = strokes_of(events)
    assert len(strokes) == 2
    assert [(p["item"], p["pocket"]) for p in strokes[1]["evidence"]["pocket_events"]] == [("white", "NW")]


def striker_hidden_at(frames: Iterator[TrackFrame], at_frame: int) -> Iterator[TrackFrame]:
    """A hand covers the striker for one frame (the tracker keeps it, occluded)."""
    for frame in frames:
        if frame.frame_index == at_frame:
            frame = occluded(frame, frame.class_id == STRIKER_CLASS)
        yield frame


def test_a_striker_lifted_where_it_lay_and_carried_off_is_not_a_stroke() -> None:
    def board() -> tuple[ScriptedMatch, int]:
        match = ScriptedMatch()
        match.new_board("S")
        match.put_striker("S", 40.0)
        # The striker rebounds onto the far base line and is left lying there; a hand lifts it
        # (hidden a frame, a few mm off) and carries it across to the base line it will be
        # struck from.
        match.strike("S", target="W1", pocket="NE", picked_up=False, striker_end=(60.0, BASE_LINE_MID_MM))
        s = match.index("S")
        lifted = len(match._xy) // match.oversample
        resting = match.xy[s].copy()
        match.move({"S": (resting + (2.0, -7.0), 100.0)})
        match.move({"S": (np.array([60.0, -BASE_LINE_MID_MM]), 900.0)})
        match.wait(1.0)
        match.strike("S", target="W2", pocket="SW")
        return match, lifted

    match, lifted = board()
    strokes = strokes_of(record(match, striker_hidden_at(oracle_track_frames(match.timeline()), lifted)))
    assert [s["pocketed"] for s in strokes] == [["white"], ["white"]]


def south_misses_leaving_the_striker_at(striker_end: tuple[float, float]) -> ScriptedMatch:
    """A new board whose break, from South, misses, the striker left lying at `striker_end`."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 40.0)
    match.strike("S", target=None, picked_up=False, striker_end=striker_end)
    return match


def test_a_striker_left_on_the_next_players_base_line_and_pushed_a_little_into_place_is_struck() -> None:
    # South misses; the striker rebounds onto North's base line and lies there. North pushes
    # it 11 mm along the line, in sight, lets go, aims and strikes from there (held-out videos
    # 70008 and 70011, development data since: pushed 11 and 14 mm, less than a move away
    # from where it lay, each stroke was lost with the black it pocketed or the turn).
    match = south_misses_leaving_the_striker_at((60.0, BASE_LINE_MID_MM))
    s = match.index("S")
    match.move({"S": (match.xy[s] + (11.0, 0.0), 60.0)})
    match.wait(0.5)
    match.strike("N", target="B3", pocket="SW")
    strokes = strokes_of(record(match))
    assert [(e["evidence"]["seat"], e["pocketed"]) for e in strokes] == [("S", []), ("N", ["black"])]


def test_a_striker_shifted_as_a_hand_takes_hold_of_it_and_carried_off_is_not_struck() -> None:
    # South misses and the striker rebounds onto North's base line. It is shifted 5 mm as a
    # hand takes hold of it, in sight, swept off two looks later and lifted out of view, then
    # put down on South's base line (development video 9319: read at 84 mm/s for a look;
    # taken for pushed into place, its carry was "struck", a stroke too many).
    match = south_misses_leaving_the_striker_at((60.0, BASE_LINE_MID_MM))
    s = match.index("S")
    match.move({"S": (match.xy[s] + (4.0, 3.0), 84.0)})
    match.wait(2 / match.fps)
    match.move({"S": (match.xy[s] + (0.0, -150.0), 900.0)})
    match.state[s] = int(ObjectState.ABSENT)
    match.xy[s] = np.nan
    match.wait(1.0)
    match.put_striker("S", 20.0)
    match.strike("S", target="W2", pocket="SW")
    strokes = strokes_of(record(match))
    assert [(e["evidence"]["seat"], e["pocketed"]) for e in strokes] == [("S", []), ("S", ["white"])]


def test_a_striker_carried_over_a_base_line_slowly_for_a_few_looks_is_not_struck_there() -> None:
    # Left lying beside North's base band, the striker is taken by a hand (hidden a frame),
    # drawn over the band at 125 mm/s, then carried across the board to South's base line and
    # struck from there (held-out video 70019, development data since: read slow over the band
    # and "struck" there as the carry sped up, an extra stroke that cost the board its turns).
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 40.0)
    match.strike(
        "S", target="W1", pocket="NE", picked_up=False, striker_end=(-120.0, BASE_LINE_MID_MM + 40.0)
    )
    lifted = len(match._xy) // match.oversample
    match.move({"S": (np.array([-120.0, BASE_LINE_MID_MM]), 125.0)})
    match.move({"S": (np.array([60.0, -BASE_LINE_MID_MM]), 900.0)})
    match.wait(1.0)
    match.strike("S", target="W2", pocket="SW")
    strokes = strokes_of(record(match, striker_hidden_at(oracle_track_frames(match.timeline()), lifted)))
    assert [(e["evidence"]["seat"], e["pocketed"]) for e in strokes] == [("S", ["white"]), ("S", ["white"])]


def test_a_striker_last_seen_sliding_onto_the_base_line_and_hidden_under_the_aiming_hand_is_struck() -> None:
    # South misses; North's hand brings the striker from where it stopped to North's base
    # line, sliding it the last 20 mm at 114 mm/s, and aims with the striker hidden under it
    # until the strike, 0.6 s on (development video 68011: last seen sliding, never seen still,
    # and the stroke with the black it pocketed was lost while a put-down needed a still look).
    match = south_misses_leaving_the_striker_at((100.0, 100.0))
    match.move({"S": (np.array([-40.0, BASE_LINE_MID_MM - 20.0]), 300.0)})
    match.move({"S": (np.array([-40.0, BASE_LINE_MID_MM]), 114.0)})
    hidden_from = len(match._xy) // match.oversample
    match.wait(0.6)
    struck = len(match._xy) // match.oversample
    match.strike("N", target="B3", pocket="SW")
    frames = striker_occluded_between(oracle_track_frames(match.timeline()), hidden_from, struck - 1)
    strokes = strokes_of(record(match, frames))
    assert [(e["evidence"]["seat"], e["pocketed"]) for e in strokes] == [("S", []), ("N", ["black"])]


def striker_jittering_between(
    frames: Iterator[TrackFrame], first: int, last: int, offsets_mm: list[tuple[float, float]]
) -> Iterator[TrackFrame]:
    """From `first` to `last` the striker, lying still half hidden under the aiming hand, is
    found `offsets_mm` off its place look after look (in turn) and read moving between looks."""
    previous: np.ndarray | None = None
    for frame in frames:
        if first <= frame.frame_index <= last:
            which = frame.class_id == STRIKER_CLASS
            xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
            xy[which] += offsets_mm[(frame.frame_index - first) % len(offsets_mm)]
            if previous is not None:
                velocity[which] = (xy[which] - previous) * 30.0
            previous = xy[which].copy()
            state[which] = int(TrackState.MOVING)
            frame = TrackFrame(
                frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy, velocity, state,
                frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def test_a_striker_half_hidden_under_the_aiming_hand_and_never_read_still_is_struck() -> None:
    # South misses; North's hand carries the striker to its base line, hidden under the hand
    # from mid-carry until it has lain there a while, then seen half hidden for 0.2 s, each
    # look 3 or 4 mm off the one before (read at 85 to 110 mm/s, never at rest), and struck
    # (held-out video 78009, `warm-lamp`, development data since: the stroke and the black it
    # pocketed were lost).
    def strokes(offsets_mm: list[tuple[float, float]]) -> list[tuple[str, list[str]]]:
        match = south_misses_leaving_the_striker_at((100.0, 100.0))
        carried = len(match._xy) // match.oversample
        match.move({"S": (np.array([30.0, BASE_LINE_MID_MM]), 600.0)})
        match.wait(0.5)
        struck = len(match._xy) // match.oversample
        match.strike("N", target="B3", pocket="SW")
        frames = striker_occluded_between(oracle_track_frames(match.timeline()), carried + 5, struck - 8)
        frames = striker_jittering_between(frames, struck - 7, struck - 1, offsets_mm)
        return [(e["evidence"]["seat"], e["pocketed"]) for e in strokes_of(record(match, frames))]

    jitter = [(0.0, 0.0), (3.0, 2.0), (4.0, -1.0), (1.0, 1.0), (3.0, 3.0), (2.0, 0.0), (0.0, 1.0)]
    assert strokes(jitter) == [("S", []), ("N", ["black"])]


def renamed_from(frames: Iterator[TrackFrame], at_frame: int) -> Iterator[TrackFrame]:
    """The tracker loses every moving piece at `at_frame` and finds each again under a new
    id (the struck coin and the striker picked up again after a blurred frame or a swap)."""
    renamed: dict[int, int] = {}
    for frame in frames:
        if frame.frame_index >= at_frame:
            ids = frame.track_id.copy()
            for k in range(len(ids)):
                moving = frame.state[k] == int(TrackState.MOVING)
                if int(ids[k]) in renamed or (frame.frame_index == at_frame and moving):
                    ids[k] = renamed.setdefault(int(ids[k]), 20_000 + len(renamed))
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm,
                frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def test_a_stroke_stays_open_while_pieces_run_under_new_tracks() -> None:
    start, end = _stroke_frames(one_stroke_board())
    frames = renamed_from(oracle_track_frames(one_stroke_board().timeline()), start + 3)
    strokes = strokes_of(record(one_stroke_board(), frames))
    assert len(strokes) == 1
    assert strokes[0]["pocketed"] == ["white"]
    assert strokes[0]["evidence"]["frames"][1] >= end - 3


def striker_unseen_between(frames: Iterator[TrackFrame], first: int, last: int) -> Iterator[TrackFrame]:
    """The detector never sees the striker from `first` to `last` (blurred over its whole run)."""
    for frame in frames:
        if first <= frame.frame_index <= last:
            frame = frame.select(frame.class_id != STRIKER_CLASS)
        yield frame


def striker_occluded_between(frames: Iterator[TrackFrame], first: int, last: int) -> Iterator[TrackFrame]:
    """The tracker keeps the striker's track but does not see it from `first` to `last` (a dim
    lamp: carried, aimed and struck unseen)."""
    for frame in frames:
        if first <= frame.frame_index <= last:
            frame = occluded(frame, frame.class_id == STRIKER_CLASS)
        yield frame


def test_a_placement_is_logged_before_a_stroke_recognised_only_afterwards() -> None:
    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.due_put_back()
        match.put_striker("S", 20.0)
        match.strike("S", target="W4", pocket="NW")
        return match

    clean = record(board())
    assert [e["type"] for e in clean] == ["stroke", "stroke", "placed", "stroke"]
    first, last = strokes_of(clean)[-1]["evidence"]["frames"]
    # The striker's whole run unseen: the stroke is known only when it turns up far away.
    frames = striker_unseen_between(oracle_track_frames(board().timeline()), first - 1, last - 8)
    events = record(board(), frames)
    assert [e["type"] for e in events] == ["stroke", "stroke", "placed", "stroke"]
    assert [e["items"] for e in events if e["type"] == "placed"] == [["black"]]
    assert strokes_of(events)[-1]["pocketed"] == ["white"]


def south_then_north(
    north_inward_mm: float = 0.0, north_aims_s: float = 0.0, north_speed: float = 2500.0
) -> ScriptedMatch:
    """South pockets W3 from its base line, then North pockets B2 from its own (its striker
    lying aimed for `north_aims_s` more, struck at `north_speed` mm/s)."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 10.0)
    match.strike("S", target="W3", pocket="NW")
    match.put_striker("N", -30.0, inward_offset=north_inward_mm)
    if north_aims_s:
        match.wait(north_aims_s)
    match.strike("N", target="B2", pocket="SE", speed=north_speed)
    return match


def test_a_stroke_whose_striker_is_never_seen_again_is_known_by_the_coin_it_sends_flying() -> None:
    board = south_then_north

    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    # A dim lamp's striker: lost at the strike and not found again where it stops.
    frames = striker_unseen_between(oracle_track_frames(board().timeline()), first - 1, 10**9)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert strokes[-1]["evidence"]["frames"][0] <= first


def test_a_stroke_whose_striker_is_first_seen_in_flight_is_traced_back_to_its_base_line() -> None:
    board = south_then_north

    clean = strokes_of(record(board()))
    _, last = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]

    # A dim lamp's striker: not seen from the first stroke's end, while it is carried and
    # aimed, until a few frames into its run.
    frames = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, first + 2)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    start = np.array(strokes[-1]["evidence"]["striker_start_mm"])
    assert np.linalg.norm(start - np.array(clean[-1]["evidence"]["striker_start_mm"])) < 25.0
    # An estimate, said so in the evidence (and never the ground of a law-130 foul).
    assert strokes[-1]["evidence"]["striker_start_traced"] is True
    assert "striker_start_traced" not in strokes[0]["evidence"]


def test_a_soft_stroke_is_a_stroke_seen_from_its_rest_or_first_seen_in_flight() -> None:
    """North's striker leaves its base line at 400 mm/s, a soft stroke that still sends B2 into
    a corner (held-out videos 79001, `club`, and 79012, `phone`, development data since: their
    strikers, unseen under the aiming hand, were first tracked in flight at 360 to 490 mm/s,
    and each stroke was lost with the coin it pocketed). Seen resting first, or first seen a
    few frames into its run, it is a stroke."""

    def board() -> ScriptedMatch:
        return south_then_north(north_speed=400.0)

    clean = strokes_of(record(board()))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in clean] == [("S", ["white"]), ("N", ["black"])]
    _, last = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]
    frames = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, first + 2)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_striker_read_a_little_off_its_spot_as_it_leaves_and_then_unseen_starts_from_it() -> None:
    """North's striker, struck, is read blurred 10 mm off its spot the look it leaves (at
    300 mm/s, the tracker's first speed), is unseen the next, and is then seen in flight: its
    stroke starts from where it lay, not from a trace back from the flight (development video
    76019's break: traced back to 10 mm inside its spot, its placement was measured
    touching only one base line)."""
    clean = strokes_of(record(south_then_north()))
    first, _ = clean[-1]["evidence"]["frames"]
    aimed = np.array(clean[-1]["evidence"]["striker_start_mm"])

    def blurred_then_unseen(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            striker = frame.class_id == STRIKER_CLASS
            if frame.frame_index == first:
                xy, velocity = frame.xy_mm.copy(), frame.velocity_mm_s.copy()
                xy[striker], velocity[striker] = aimed + (0.0, -10.0), (0.0, -302.0)
                frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity)
            elif frame.frame_index == first + 1:
                xy, velocity = frame.xy_mm.copy(), frame.velocity_mm_s.copy()
                xy[striker], velocity[striker] = aimed + (0.0, -10.0), 0.0
                frame = occluded(replace(frame, xy_mm=xy, velocity_mm_s=velocity), striker)
            yield frame

    strokes = strokes_of(
        record(south_then_north(), blurred_then_unseen(oracle_track_frames(south_then_north().timeline())))
    )
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert np.allclose(strokes[-1]["evidence"]["striker_start_mm"], aimed, atol=1.0)
    assert "striker_start_traced" not in strokes[-1]["evidence"]


def striker_untracked_until(frames: Iterator[TrackFrame], last: int) -> Iterator[TrackFrame]:
    """No track of the striker at all up to `last` (never detected: a pale striker under a dim
    lamp), then the tracker's as it is."""
    for frame in frames:
        if frame.frame_index <= last:
            frame = frame.select(frame.class_id != STRIKER_CLASS)
        yield frame


def test_a_break_whose_striker_is_first_seen_in_flight_is_recorded() -> None:
    # Development video 9318 (`warm-lamp`): the striker never found from the start of the video
    # until it flew into the pack, so never seen put down by the breaker.
    board = south_then_north
    clean = strokes_of(record(board()))
    first, _ = clean[0]["evidence"]["frames"]
    frames = striker_untracked_until(oracle_track_frames(board().timeline()), first)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert strokes[0]["evidence"]["striker_start_traced"] is True
    start = np.array(strokes[0]["evidence"]["striker_start_mm"])
    assert np.linalg.norm(start - np.array(clean[0]["evidence"]["striker_start_mm"])) < 25.0


def striker_glimpsed_from(
    frames: Iterator[TrackFrame], first: int, every: int, first_off_mm: float = 0.0
) -> Iterator[TrackFrame]:
    """From `first` on the striker's track is seen in one look of `every` (a dim lamp's striker
    in flight, found in looks a few frames apart); at the first of them its speed is what the
    tracker measures across the gap before, a fraction of the true one, and it is seen
    `first_off_mm` to the east of where it is."""
    for frame in frames:
        if frame.frame_index >= first:
            if (frame.frame_index - first) % every:
                frame = occluded(frame, frame.class_id == STRIKER_CLASS)
            elif frame.frame_index == first:
                is_striker = frame.class_id == STRIKER_CLASS
                velocity = frame.velocity_mm_s.copy()
                velocity[is_striker] *= 0.1
                xy = frame.xy_mm.copy()
                xy[is_striker, 0] += first_off_mm
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                    velocity, frame.state, frame.pocket, frame.score,
                )  # fmt: skip
        yield frame


def soft_north_stroke() -> ScriptedMatch:
    match = one_stroke_board()
    match.put_striker("N", -30.0)
    match.strike("N", target="B2", pocket="SE", speed=700.0)  # a soft stroke: a long run
    return match


def glimpsed_soft_north_stroke(first_off_mm: float = 0.0) -> tuple[list[dict], list[dict]]:
    """The strokes of `soft_north_stroke` as recorded cleanly, and with North's striker unseen
    while carried and aimed, then seen 3 frames into its run and in one look of two from there
    on (development video 9102: two to seven frames apart), the first look `first_off_mm`
    off its true place."""
    clean = strokes_of(record(soft_north_stroke()))
    _, last = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]
    frames = striker_glimpsed_from(
        striker_occluded_between(oracle_track_frames(soft_north_stroke().timeline()), last + 1, first + 2),
        first + 3, 2, first_off_mm=first_off_mm,
    )  # fmt: skip
    return clean, strokes_of(record(soft_north_stroke(), frames))


def test_a_dim_striker_glimpsed_in_flight_every_few_frames_is_traced_back_to_its_base_line() -> None:
    # The first look, its speed measured across the gap, is no rest: it is already flying.
    clean, strokes = glimpsed_soft_north_stroke()
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    start = np.array(strokes[-1]["evidence"]["striker_start_mm"])
    assert np.linalg.norm(start - np.array(clean[-1]["evidence"]["striker_start_mm"])) < 40.0
    assert strokes[-1]["evidence"]["striker_start_traced"] is True


def test_a_striker_first_seen_as_it_strikes_a_coin_is_traced_back_along_its_run_before() -> None:
    # Development video 9319 (a dim lamp): first seen just before it struck the queen, at the
    # far side of the centre, and once more just after, slowed to half: traced back along its
    # speed then, it fell short of its base band, and the stroke was lost with the queen it
    # pocketed. Here: 2.3 m/s, then 0.46 m/s, at a coin 280 mm from the striker's base line.
    def board() -> ScriptedMatch:
        match = one_stroke_board()  # South breaks, pocketing W3 in NW
        match.put_striker("N", 0.0)
        match.strike("N", target="W4", pocket="SW", speed=2300.0)
        return match

    clean = strokes_of(record(board()))
    _, last = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]
    speeds = [
        (f.frame_index, float(np.hypot(*f.velocity_mm_s[f.class_id == STRIKER_CLASS][0])))
        for f in oracle_track_frames(board().timeline())
        if f.frame_index > first and np.any(f.class_id == STRIKER_CLASS)
    ]
    hit = next(index for index, speed in speeds if speed < 1000.0)
    frames = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, hit - 2)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["white"])]
    start = np.array(strokes[-1]["evidence"]["striker_start_mm"])
    assert np.linalg.norm(start - np.array(clean[-1]["evidence"]["striker_start_mm"])) < 40.0
    assert strokes[-1]["evidence"]["striker_start_traced"] is True


def test_a_striker_found_lying_off_the_line_it_then_flies_on_is_no_glimpse_of_a_flight() -> None:
    # The first look finds it 120 mm off the line it flies on after: a striker found lying
    # somewhere (a hand then carries it, or the track jumps to a false one) is a rest, and
    # what flies off a moment later does not start from it (development video 9132).
    _, strokes = glimpsed_soft_north_stroke(first_off_mm=120.0)
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"])]


def test_a_dim_striker_slid_fast_along_its_base_line_unseen_before_is_not_a_stroke() -> None:
    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.put_striker("S", 60.0)
        match.wait(1.5)
        k = match.index("S")
        spot = match.xy[k] + [-200.0, 0.0]
        match.move({"S": (spot, 1800.0)})  # a hand sliding it along its base lines
        match.wait(1.0)
        match.strike("S", target="W1", pocket="NE")
        return match

    clean = record(board())
    assert [s["pocketed"] for s in strokes_of(clean)] == [["white"]]
    first, _ = strokes_of(clean)[0]["evidence"]["frames"]
    # The striker unseen from when it was put down (a dim lamp) until the hand slides it,
    # fast, along the base lines: its rest is long past then.
    slide = first - int(1.15 * 30)
    frames = striker_occluded_between(oracle_track_frames(board().timeline()), slide - 58, slide - 1)
    strokes = strokes_of(record(board(), frames))
    assert [s["pocketed"] for s in strokes] == [["white"]]


def test_no_law_130_foul_is_called_on_a_striker_start_traced_from_its_flight() -> None:
    def board() -> ScriptedMatch:
        return south_then_north(north_inward_mm=14.0)  # off the inner base line: a foul

    def fouls_called() -> MatchRecorder:
        return MatchRecorder(SeatAssigner(players=("Asha", "Ben")), auto_fouls=("striker-position",))

    seen = strokes_of(record(board(), recorder=fouls_called()))
    assert seen[-1]["improper"] == "striker_position"
    _, last = seen[0]["evidence"]["frames"]
    first, _ = seen[-1]["evidence"]["frames"]

    frames = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, first + 2)
    traced = strokes_of(record(board(), frames, recorder=fouls_called()))[-1]
    assert traced["evidence"]["striker_start_traced"] is True
    assert traced["evidence"]["striker_position"]["legal"] is False  # as measured on the estimate
    assert "improper" not in traced


def test_a_break_is_made_when_the_pack_moves_though_the_striker_was_not_seen_reaching_it() -> None:
    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.put_striker("S", 0.0)
        match.strike("S", target="W4")  # the break is made, nothing pocketed: Ben has the turn
        match.put_striker("N", 40.0)
        match.strike("N", target="B2", pocket="SE")
        return match

    first, last = strokes_of(record(board()))[0]["evidence"]["frames"]
    frames = striker_unseen_between(oracle_track_frames(board().timeline()), first - 1, last)
    strokes = strokes_of(record(board(), frames))
    assert [s["touched"] for s in strokes] == [True, True]
    assert [s.get("player") for s in strokes] == ["Asha", "Ben"]  # Ben's stroke is in turn


@pytest.mark.parametrize("auto_fouls", [(), ("striker-position",)])
def test_law_130_striker_position_is_measured_and_called_only_on_request(auto_fouls: tuple[str, ...]) -> None:
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 0.0, inward_offset=14.0)  # towards the frame: off the inner base line
    match.strike("S", target="W1", pocket="NE")
    match.put_striker("N", 0.0)  # a legal one
    match.strike("N", target="W2", pocket="SW")
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")), auto_fouls=auto_fouls)
    strokes = strokes_of(record(match, recorder=recorder))
    bad, good = (s["evidence"]["striker_position"] for s in strokes)
    assert bad["legal"] is False and bad["inner_line_overlap_mm"] < 0
    assert good["legal"] is True and good["outer_line_overlap_mm"] > 0 and good["inner_line_overlap_mm"] > 0
    assert strokes[0].get("improper") == ("striker_position" if auto_fouls else None)
    assert strokes[1].get("improper") is None


def test_noise_dropouts_and_skipped_frames_do_not_change_the_events() -> None:
    match = short_board()
    clean = [(s["pocketed"], s["player"], s["touched"]) for s in strokes_of(record(match))]
    noisy_frames = oracle_track_frames(
        match.timeline(), OracleNoise(position_mm=0.8, dropout_rate=0.03), seed=3, frame_step=2
    )
    noisy = [(s["pocketed"], s["player"], s["touched"]) for s in strokes_of(record(match, noisy_frames))]
    assert noisy == clean


def test_the_log_file_is_rewritten_after_every_stroke(tmp_path: Path) -> None:
    match = short_board()
    path = tmp_path / "match-log.json"
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")), writer=MatchLogWriter(path))
    counts = []
    for frame in oracle_track_frames(match.timeline()):
        if recorder.update(frame):
            counts.append(len(json.loads(path.read_text())["events"]))
    assert counts == [1, 2, 3, 4, 5]  # the placement is written as the next stroke starts
    parse_log(json.loads(path.read_text()))


def test_seating_options() -> None:
    assert parse_seats("S=Asha,N=Ben") == {"S": "Asha", "N": "Ben"}
    for bad in ("S=Asha,E=Ben", "S=Asha", "X=Asha,N=Ben", "S=Asha,S=Ben", "S=,N=Ben"):
        with pytest.raises(UsageError):
            parse_seats(bad)
    with pytest.raises(UsageError):
        SeatAssigner(players=("Asha", "Ben"), first_break="Chen")
    with pytest.raises(UsageError):
        SeatAssigner(event="doubles")
    fixed = SeatAssigner(seats={"E": "Asha", "W": "Ben"})
    assert fixed.player_for("W") == "Ben" and fixed.first_break == "Ben"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["pocket", "miss", "pocket+striker"]),
            st.floats(-150.0, 150.0),
            st.sampled_from(["NE", "NW", "SE", "SW"]),
        ),
        min_size=1,
        max_size=5,
    ),
    st.integers(0, 2**16),
)
# A miss whose striker, seen once in flight, stops 119 mm out and lies there: a stroke.
@example(plan=[("pocket+striker", 41.0, "NE"), ("miss", 0.0, "NE")], seed=572)
def test_any_scripted_sequence_is_recovered_exactly(plan: list[tuple[str, float, str]], seed: int) -> None:
    match = ScriptedMatch()
    match.new_board("S")
    rng = np.random.default_rng(seed)
    left = [f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)]
    seat = "S"
    for kind, along, pocket in plan:
        match.put_striker(seat, along)
        if kind == "miss":
            match.strike(seat, target=None)
            seat = "N" if seat == "S" else "S"
            continue
        target = left.pop(int(rng.integers(len(left))))
        match.strike(seat, target=target, pocket=pocket, striker_pocket="SE" if "striker" in kind else None)
    frames = oracle_track_frames(match.timeline(), OracleNoise(position_mm=0.5, dropout_rate=0.02), seed=seed)
    strokes = strokes_of(record(match, frames))
    assert [[(p["item"], p["pocket"]) for p in s["evidence"]["pocket_events"]] for s in strokes] == [
        t.pocketed for t in match.strokes
    ]
    assert [s["evidence"]["seat"] for s in strokes] == [t.seat for t in match.strokes]


def test_a_coin_seen_over_a_cushion_as_it_flies_off_near_a_corner_went_overboard() -> None:
    # Held-out video 71007 (development data since): a white flying off over the north
    # cushion 86 mm short of the corner was seen once with its centre 11 mm past where a disc
    # against the cushion has it, and lost: its path projected into the corner, it was
    # "pocketed" there and the queen taken for covered.
    match = one_stroke_board(0.0, "W1", "NE")
    match.put_striker("S", 100.0)
    s, w5 = match.index("S"), match.index("W5")
    aim = match.xy[w5] - match.xy[s]
    aim /= np.linalg.norm(aim)
    contact = match.xy[w5] - aim * 37.0
    match.move({"S": (contact, 2500.0)})
    match.move({"W5": (np.array([263.0, 365.0]), 2400.0), "S": (contact + aim * 30.0, 300.0)})
    match.state[w5], match.xy[w5] = int(ObjectState.OFF_BOARD), np.nan
    match.wait(1.0)
    strokes = strokes_of(record(match))
    assert [(e["pocketed"], e.get("overboard")) for e in strokes] == [(["white"], None), ([], ["white"])]


def test_a_carromman_put_back_after_going_overboard_is_not_a_placement() -> None:
    """Law 65: the umpire returns it to the centre as a matter of course."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 0.0)
    match.strike("S", target="B5", overboard="B5")
    match.place("B5", (0.0, 0.0))
    match.put_striker("N", 30.0)
    match.strike("N", target="W2", pocket="SE")
    match.place("W2", (20.0, 30.0))  # a due this time
    match.put_striker("S", 0.0)
    match.strike("S", target=None)
    events = record(match)
    assert [e["items"] for e in events if e["type"] == "placed"] == [["white"]]


def _jumped_off_unseen_board() -> ScriptedMatch:
    match = one_stroke_board()  # South breaks, pocketing W3 in NW
    match.put_striker("S", 0.0)
    match.strike("S", target="B5", overboard="B5")
    match.place("B5", (0.0, 0.0))  # law 65: back in the centre, owed to nobody
    match.put_striker("N", 30.0)
    match.strike("N", target="W2", pocket="SE")
    return match


def unseen_off_board(frames: Iterator[TrackFrame], track: int, from_frame: int) -> Iterator[TrackFrame]:
    """The tracker loses `track` at `from_frame` without seeing it go anywhere, and finds
    the piece again, under a new id, once it lies on the board again."""
    lost = True
    for frame in frames:
        mine = frame.track_id == track
        if frame.frame_index >= from_frame and lost:
            back = bool(np.any(mine & (frame.state == int(TrackState.AT_REST))))
            if frame.frame_index > from_frame + 30 and back:
                lost = False
            else:
                frame = frame.select(~mine)
        if not lost and np.any(mine):
            ids = frame.track_id.copy()
            ids[mine] = 30_000
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm,
                frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def moved_from(
    frames: Iterator[TrackFrame], track: int, spots: list[tuple[int, tuple[float, float]]]
) -> Iterator[TrackFrame]:
    """Track `track` reported at each of `spots` (from frame, position) from its frame on."""
    for frame in frames:
        at = [xy for first, xy in spots if frame.frame_index >= first]
        if at and np.any(frame.track_id == track):
            xy = frame.xy_mm.copy()
            xy[frame.track_id == track] = at[-1]
            frame = replace(frame, xy_mm=xy)
        yield frame


def test_a_coin_on_the_placing_zones_edge_found_a_hair_inside_it_was_not_put_back() -> None:
    # Development video 9311 (tracks from its truth, half a millimetre of noise): a black
    # lying on the edge of where dues go, outside it when the break ended and inside at the
    # next strike, was logged as placed, and the board's count stayed a black too high.
    def board() -> ScriptedMatch:
        match = one_stroke_board()  # South breaks, pocketing W3 in NW
        match.put_striker("S", 40.0)
        match.strike("S", target="W4", pocket="NE")
        return match

    clean = strokes_of(record(board()))
    end, start = clean[0]["evidence"]["frames"][1], clean[1]["evidence"]["frames"][0]
    edge = PLACING_ZONE_MM
    spots = [(end - 15, (0.0, -(edge + 0.4))), (end + (start - end) // 2, (0.0, -(edge - 0.4)))]
    events = record(board(), moved_from(oracle_track_frames(board().timeline()), 18, spots))
    assert [e["type"] for e in events] == ["stroke", "stroke"]
    assert strokes_of(events)[1]["evidence"]["counts_before"]["black"] == 9


def _white_clears_the_board() -> ScriptedMatch:
    """South (white) breaks pocketing W3, pockets the queen, covers it with W1 and pockets
    every other white but W5 (which the tests hide from the break on)."""
    match = one_stroke_board()  # South breaks, pocketing W3 in NW
    for k, (target, pocket) in enumerate(
        [
            ("Q", "NE"),
            ("W1", "SW"),
            ("W2", "NE"),
            ("W4", "NW"),
            ("W6", "SE"),
            ("W7", "NE"),
            ("W8", "NW"),
            ("W9", "SW"),
        ]
    ):
        match.put_striker("S", -60.0 + 30.0 * (k % 5))
        match.strike("S", target=target, pocket=pocket)
    return match


def never_seen_from(frames: Iterator[TrackFrame], track: int, from_frame: int) -> Iterator[TrackFrame]:
    """The tracker loses `track` at `from_frame` and never finds it again."""
    for frame in frames:
        yield frame.select(frame.track_id != track) if frame.frame_index >= from_frame else frame


def test_a_coin_missing_since_the_break_is_counted_gone_when_the_last_in_sight_ends_the_board() -> None:
    # Development video 9327: a white pocketed unseen at the break (taken to have jumped off,
    # never seen put back) stayed counted on the board, and the board, won with the last white
    # in sight, went on in the log.
    start = strokes_of(record(_white_clears_the_board()))[0]["evidence"]["frames"][0]
    frames = never_seen_from(oracle_track_frames(_white_clears_the_board().timeline()), 5, start + 2)
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    strokes = strokes_of(record(_white_clears_the_board(), frames, recorder))
    assert strokes[0]["overboard"] == ["white"]  # the break: gone unseen, jumped off we guess
    assert all("counted_gone" not in s["evidence"] for s in strokes[:-1])
    last = strokes[-1]
    assert last["pocketed"] == ["white", "white"]
    assert last["evidence"]["counted_gone"] == {"white": 1}
    assert [e["item"] for e in last["evidence"]["pocket_events"]] == ["white"]  # no pocket for it
    _, rulings = replay(parse_log(recorder.log()))
    assert rulings[-1].board_end is not None and rulings[-1].board_end.winner is not None


def test_a_missing_coin_is_not_counted_gone_while_others_of_its_colour_lie_in_sight() -> None:
    # The same, one white short: W9 is left on the board, in sight; the missing W5 stays counted.
    def board() -> ScriptedMatch:
        match = one_stroke_board()  # South breaks, pocketing W3 in NW
        for k, (target, pocket) in enumerate([("Q", "NE"), ("W1", "SW"), ("W2", "NE"), ("W4", "NW")]):
            match.put_striker("S", -60.0 + 30.0 * k)
            match.strike("S", target=target, pocket=pocket)
        return match

    start = strokes_of(record(board()))[0]["evidence"]["frames"][0]
    frames = never_seen_from(oracle_track_frames(board().timeline()), 5, start + 2)
    strokes = strokes_of(record(board(), frames))
    assert all("counted_gone" not in s["evidence"] for s in strokes)
    assert strokes[-1]["pocketed"] == ["white"]
    assert strokes[-1]["evidence"]["vanished_not_pocketed"] == {"white": 1}


def test_a_carromman_gone_unseen_and_put_back_owed_to_nobody_is_not_a_placement() -> None:
    # Development video 9300: a black jumped off unseen (counted as still on the board, since
    # nothing saw it go) and its return to the centre, law 65, was logged as a placing; the
    # board's count stayed a black too high.
    clean = record(_jumped_off_unseen_board())
    assert [e["items"] for e in clean if e["type"] == "placed"] == []
    start = strokes_of(clean)[1]["evidence"]["frames"][0]
    frames = unseen_off_board(oracle_track_frames(_jumped_off_unseen_board().timeline()), 14, start + 2)
    events = record(_jumped_off_unseen_board(), frames)
    strokes = strokes_of(events)
    assert [e["items"] for e in events if e["type"] == "placed"] == []
    assert strokes[1]["evidence"]["vanished_not_pocketed"] == {"black": 1}
    assert strokes[2]["evidence"]["returned_not_placed"] == {"black": 1}
    assert strokes[2]["evidence"]["counts_before"]["black"] == 9
    assert strokes[2]["pocketed"] == ["white"]


def test_a_due_put_back_while_a_carromman_is_missing_is_still_a_placement() -> None:
    # What the laws owe is placed: a due after a pocketed striker is a placing, though a coin
    # of that colour went missing unseen at an earlier stroke.
    def board() -> ScriptedMatch:
        match = one_stroke_board()  # South breaks, pocketing W3 in NW
        match.put_striker("S", 0.0)
        match.strike("S", target="W5", pocket="NE", striker_pocket="SE")
        match.place("W3", (0.0, 0.0))  # the due for the pocketed striker (law 72)
        match.put_striker("N", 30.0)
        match.strike("N", target="B2", pocket="SW")
        return match

    clean = record(board())
    assert [e["items"] for e in clean if e["type"] == "placed"] == [["white"]]
    start = strokes_of(clean)[1]["evidence"]["frames"][0]
    # A white lying still by the centre, missed by the detector from just after the strike on.
    frames = hidden_from(oracle_track_frames(board().timeline()), (-54.0, -31.0), start + 3)
    events = record(board(), frames)
    strokes = strokes_of(events)
    assert strokes[1]["evidence"]["vanished_not_pocketed"] == {"white": 1}
    assert [e["items"] for e in events if e["type"] == "placed"] == [["white"]]
    assert "returned_not_placed" not in strokes[2]["evidence"]


def relabel_from(
    frames: Iterator[TrackFrame], track: int, class_id: int, from_frame: int
) -> Iterator[TrackFrame]:
    """A tracker whose track `track` follows a piece of another colour from `from_frame` on."""
    for frame in frames:
        if frame.frame_index >= from_frame:
            classes = frame.class_id.copy()
            classes[frame.track_id == track] = class_id
            frame = TrackFrame(
                frame.frame_index, frame.time_s, frame.track_id, classes, frame.xy_mm,
                frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def test_counts_at_rest_come_from_the_detections_when_track_colours_lag() -> None:
    match = one_stroke_board()
    start, _ = _stroke_frames(one_stroke_board())
    timeline = match.timeline()
    truth = list(oracle_track_frames(timeline))
    # Track 14 (B5) is reported white from the strike on, as after an identity swap.
    swapped = list(relabel_from(iter(truth), 14, 0, start))

    def run(with_detections: bool) -> dict:
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for seen, frame in zip(truth, swapped, strict=True):
            on = np.isin(seen.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            detections = (
                Detections(seen.xy_mm[on], seen.class_id[on], seen.score[on]) if with_detections else None
            )
            recorder.update(frame, detections)
        return strokes_of(recorder.log()["events"])[0]

    assert run(with_detections=True)["pocketed"] == ["white"]
    assert run(with_detections=False)["pocketed"] != ["white"]  # the lag the detections cure


def nudge_then_pocket_board() -> ScriptedMatch:
    """South breaks (W4 nudged, nothing pocketed), then pockets W1 in the north-east corner."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 10.0)
    match.strike("S", target="W4")
    match.put_striker("S", 40.0)
    match.strike("S", target="W1", pocket="NE")
    return match


def with_a_white_at(frame: TrackFrame, xy_mm: np.ndarray, state: TrackState, score: float) -> TrackFrame:
    """`frame` with one more track (999): a "white" at `xy_mm`, not moving."""
    return TrackFrame(
        frame.frame_index, frame.time_s,
        np.append(frame.track_id, 999), np.append(frame.class_id, CLASS_NAMES.index("white")),
        np.vstack([frame.xy_mm, xy_mm]), np.vstack([frame.velocity_mm_s, [0.0, 0.0]]),
        np.append(frame.state, int(state)), np.append(frame.pocket, -1), np.append(frame.score, score),
    )  # fmt: skip


def test_a_piece_read_once_by_the_centre_once_the_board_is_still_takes_no_coin_off_the_counts() -> None:
    """Pieces first seen after the board settled, round the centre, are dues being put back
    and not part of the stroke's outcome, but only those the counts at rest include: a "white"
    read in one look beside the striker at rest (held-out video 73002, now development data)
    is counted by nothing. Taken off the counts all the same, it made a real white "vanish",
    and the white pocketed at the next stroke was taken for that one come back and gone."""
    match = nudge_then_pocket_board()
    _, first_closed = tuple(strokes_of(record(match))[0]["evidence"]["frames"])
    false_look = first_closed - 3  # after the last motion, before the close
    ghost_mm = np.array([30.0, 55.0])
    assert np.hypot(*ghost_mm) <= PLACING_ZONE_MM

    def run(with_ghost: bool) -> list[dict]:
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for frame in oracle_track_frames(match.timeline()):
            on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            detections = Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on])
            if with_ghost and frame.frame_index >= false_look:
                seen = frame.frame_index == false_look
                state = TrackState.AT_REST if seen else TrackState.OCCLUDED
                frame = with_a_white_at(frame, ghost_mm, state, 0.46)
                if seen:
                    white = np.array([CLASS_NAMES.index("white")])
                    ghost = Detections(ghost_mm[None], white, np.array([0.46]))
                    detections = Detections.merge([detections, ghost])
            recorder.update(frame, detections)
        recorder.finish(match.timeline().num_frames, match.timeline().num_frames / match.timeline().fps)
        return strokes_of(recorder.log()["events"])

    assert [s["pocketed"] for s in run(with_ghost=False)] == [[], ["white"]]
    first, second = run(with_ghost=True)
    assert "vanished_not_pocketed" not in first["evidence"]
    assert first["evidence"]["counts_after"]["white"] == 9
    assert second["pocketed"] == ["white"]


def test_a_faint_white_seen_off_the_pack_before_the_break_is_not_counted_as_a_piece() -> None:
    """The detector reads the plain wood below a base line as a white at 0.4, look after look,
    the whole match (held-out video 81010, `tournament`, development data since). At the
    break all nineteen lie within the outer circle (law 41): that "white" is the board's, and
    the count after the break must not take it for a white still on the board (one of the
    break's pocketings was dropped for it and the board's result lost)."""
    match = one_stroke_board(target="W3", pocket="NW")
    match.put_striker("S", 40.0)
    match.strike("S", target="W1", pocket="NE")
    white = np.array([CLASS_NAMES.index("white")])
    phantom = Detections(np.array([[-179.0, -300.0]]), white, np.array([0.42]))
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    for frame in oracle_track_frames(match.timeline()):
        on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
        detections = Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on])
        recorder.update(frame, Detections.merge([detections, phantom]))
    recorder.finish(match.timeline().num_frames, match.timeline().num_frames / match.timeline().fps)
    strokes = strokes_of(recorder.log()["events"])
    assert [s["pocketed"] for s in strokes] == [["white"], ["white"]]
    assert [s["evidence"]["counts_after"]["white"] for s in strokes] == [8, 7]


@pytest.mark.parametrize("out_of_turn", [False, True])
def test_a_stroke_from_the_seat_without_the_turn_is_flagged_or_ruled_out_of_turn(out_of_turn: bool) -> None:
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 0.0)
    match.strike("S", target="W4")  # the break is made, nothing pocketed: Ben has the turn
    match.put_striker("S", 40.0)
    match.strike("S", target="W1", pocket="NE")  # but Asha plays again
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")), out_of_turn=out_of_turn)
    second = strokes_of(record(match, recorder=recorder))[1]
    assert second["evidence"]["seat"] == "S"
    if out_of_turn:
        assert second["player"] == "Asha"  # the laws then rule it out of turn
        assert "turn_note" not in second["evidence"]
    else:
        assert "player" not in second  # the laws' turn stands ...
        assert second["evidence"]["seen_player"] == "Asha"  # ... and the camera's view is kept
        assert "Ben" in second["evidence"]["turn_note"]
    parse_log(recorder.log())  # scorable either way


def test_a_board_still_for_exactly_the_settling_time_has_settled() -> None:
    """Frame times are index / fps, so nine frames at 30 fps (the settling time, 0.3 s) can
    come out a hair under 0.3 s. The board has settled all the same: on a development video
    the stroke stayed open a frame longer, a phantom motion at the frame's edge came in that
    frame, and the hand carrying the striker to its next stroke was taken for the stroke's
    tail (the next stroke was lost)."""
    from types import SimpleNamespace

    from vision.events.strokes import StrokeSegmenter

    segmenter = StrokeSegmenter()
    assert segmenter.config.settle_s == 0.3
    stroke = SimpleNamespace(start_time_s=970 / 30, last_motion_s=971 / 30, events=[])
    assert not segmenter._settled(stroke, 979 / 30)  # type: ignore[arg-type]
    assert segmenter._settled(stroke, 980 / 30)  # type: ignore[arg-type]


def test_a_striker_back_on_its_base_line_and_carried_off_by_hand_is_not_a_stroke() -> None:
    """The striker runs back after a miss and stops on the base lines it was struck from; a
    hand comes, lifts it at once and slides it over the board to the other seat. It lay
    still long before the hand came, but only stillness in the hand is aiming: it was
    carried, not struck (a development video's extra stroke)."""
    from calibration.geometry import seat_to_board

    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 40.0)
    spot = seat_to_board("S", 40.0, BASE_LINE_MID_MM)
    m.strike("S", target=None, picked_up=False, striker_end=(float(spot[0]) + 3.0, float(spot[1])))
    lifted = len(m._xy)
    m.wait(0.1)
    m.move({"S": (seat_to_board("N", -60.0, BASE_LINE_MID_MM + 60.0), 900.0)})
    m.put_striker("N", 0.0)
    m.strike("N", target=None)
    frames = striker_occluded_between(oracle_track_frames(m.timeline()), lifted, lifted)
    strokes = strokes_of(record(m, frames))
    assert [s["evidence"]["seat"] for s in strokes] == ["S", "N"]


def joined(frame: TrackFrame, more: TrackFrame) -> TrackFrame:
    """The tracks of both in one frame (`frame`'s index and time)."""
    return TrackFrame(
        frame.frame_index, frame.time_s,
        np.concatenate([frame.track_id, more.track_id]), np.concatenate([frame.class_id, more.class_id]),
        np.concatenate([frame.xy_mm, more.xy_mm]), np.concatenate([frame.velocity_mm_s, more.velocity_mm_s]),
        np.concatenate([frame.state, more.state]), np.concatenate([frame.pocket, more.pocket]),
        np.concatenate([frame.score, more.score]),
    )  # fmt: skip


def striker_under_track(
    frame: TrackFrame, track_id: int, off_mm: tuple[float, float] = (0.0, 0.0)
) -> TrackFrame:
    """The frame with the striker under track `track_id` (found again under a new one), read
    `off_mm` off where it is."""
    striker = frame.class_id == STRIKER_CLASS
    ids, xy = frame.track_id.copy(), frame.xy_mm.copy()
    ids[striker] = track_id
    xy[striker] += off_mm
    return replace(frame, track_id=ids, xy_mm=xy)


def striker_taken_for_a_coin_between(
    frames: Iterator[TrackFrame], first: int, last: int, rest_xy: np.ndarray
) -> Iterator[TrackFrame]:
    """From `first` to `last` the flying striker is detected as a white coin, which the
    tracker follows under a new track, while the striker's own track waits, unseen, where it
    lay."""
    for frame in frames:
        if first <= frame.frame_index <= last:
            striker = frame.class_id == STRIKER_CLASS
            ids, classes = frame.track_id.copy(), frame.class_id.copy()
            ids[striker], classes[striker] = 30_000, CLASS_NAMES.index("white")
            waiting = occluded(frame.select(striker), np.ones(int(striker.sum()), dtype=bool))
            waiting = TrackFrame(
                waiting.frame_index, waiting.time_s, waiting.track_id, waiting.class_id,
                np.repeat(rest_xy[None], len(waiting.track_id), axis=0).astype(waiting.xy_mm.dtype),
                np.zeros_like(waiting.velocity_mm_s), waiting.state, waiting.pocket, waiting.score,
            )  # fmt: skip
            frame = joined(
                TrackFrame(
                    frame.frame_index, frame.time_s, ids, classes, frame.xy_mm, frame.velocity_mm_s,
                    frame.state, frame.pocket, frame.score,
                ),
                waiting,
            )  # fmt: skip
        yield frame


def striker_also_read_as_a_coin(frames: Iterator[TrackFrame], first: int, last: int) -> Iterator[TrackFrame]:
    """From `first` to `last` the detector reads the striker now as the striker, now as a white
    coin: the tracker keeps a coin's track on it (the one `striker_taken_for_a_coin_between`
    follows) beside the striker's own."""
    for frame in frames:
        if first <= frame.frame_index <= last:
            coin = frame.select(frame.class_id == STRIKER_CLASS)
            coin = TrackFrame(
                coin.frame_index, coin.time_s, np.full(len(coin.track_id), 30_000),
                np.full(len(coin.track_id), CLASS_NAMES.index("white")), coin.xy_mm,
                coin.velocity_mm_s, coin.state, coin.pocket, coin.score,
            )  # fmt: skip
            frame = joined(frame, coin)
        yield frame


def test_a_striker_taken_for_a_coin_in_flight_and_back_near_its_spot_was_struck() -> None:
    """North strikes, misses, and the striker runs to the far cushion and back past its own
    base line before it stops. In flight the detector takes it for a white coin (a new
    track); its own track is next seen near where it lay. The coin that flew off straight
    from the striker's spot, too fast for a hand, was the striker struck (a development
    video's missed stroke)."""
    from calibration.geometry import seat_normal, seat_to_board

    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 40.0)
    m.strike("S", target="W1", pocket="NE")
    m.put_striker("N", -40.0)
    spot = seat_to_board("N", -40.0, BASE_LINE_MID_MM)
    inward = -seat_normal("N")
    struck = len(m._xy)
    m.move({"S": (spot + inward * 520.0, 3000.0)})  # to the far side
    m.move({"S": (spot - inward * 10.0, 2000.0)})  # back past its spot
    back = len(m._xy) - 1
    m.move({"S": (spot + inward * 100.0, 300.0)})  # and rolls to rest on the board
    m.wait(1.0)
    frames = striker_taken_for_a_coin_between(oracle_track_frames(m.timeline()), struck, back - 1, spot)
    strokes = strokes_of(record(m, frames))
    assert [s["evidence"]["seat"] for s in strokes] == ["S", "N"]
    assert np.allclose(strokes[1]["evidence"]["striker_start_mm"], spot, atol=1.0)
    assert strokes[1]["touched"] is False


def test_a_striker_read_as_a_white_coin_where_it_stopped_does_not_undo_a_white_pocketed() -> None:
    """Under a dim lamp (development video 9110) the tracker lost the striker as it slowed,
    and from where it stopped the detector read it as a white coin, look after look: counted
    as a white lying still, it made the white pocketed in that stroke look still on the
    board, and the pocketing was not believed. A coin's spot where the striker's track lies
    is the striker, as it is where the looks themselves saw the striker."""

    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.put_striker("S", 10.0)
        match.strike("S", target="W3", pocket="NW", picked_up=False)
        match.wait(1.0)
        return match

    truth = list(oracle_track_frames(board().timeline()))
    striker_track = next(
        int(f.track_id[f.class_id == STRIKER_CLASS][0]) for f in truth if STRIKER_CLASS in f.class_id
    )
    speeds = [
        float(np.hypot(*f.velocity_mm_s[f.track_id == striker_track][0]))
        if striker_track in f.track_id
        else 0.0
        for f in truth
    ]
    stopped = max(k for k, speed in enumerate(speeds) if speed > 0.0) + 1
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    for k, frame in enumerate(truth):
        on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
        classes = frame.class_id.copy()
        if k >= stopped - 3:
            lost = frame.track_id == striker_track
            classes[lost] = CLASS_NAMES.index("white")  # the detector's reading, from here on
            frame = occluded(frame, lost)  # the tracker keeps the track waiting where it was last seen
        recorder.update(frame, Detections(truth[k].xy_mm[on], classes[on], truth[k].score[on]))
    recorder.finish(truth[-1].frame_index, truth[-1].time_s)
    (stroke,) = strokes_of(recorder.log()["events"])
    assert stroke["pocketed"] == ["white"]


def test_a_striker_read_as_a_white_coin_all_the_way_into_a_pocket_is_pocketed() -> None:
    """Under a dim lamp (development video 9106) the striker was never seen as the striker
    once struck: the detector read it as a white coin from the strike until it fell into a
    pocket, and the counts at rest, rightly, said no white had gone. With the striker not on
    the board either, the white the counts refuse was the striker (a due, law 13)."""
    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 10.0)
    struck = len(m._xy)
    spot = m.xy[m.index("S")].copy()
    m.strike("S", target="W3", pocket="NW", striker_pocket="NE", picked_up=False)
    timeline = m.timeline()
    frames = striker_taken_for_a_coin_between(
        oracle_track_frames(timeline), struck, timeline.num_frames, spot
    )
    (stroke,) = strokes_of(record(m, frames))
    assert stroke["pocketed"] == ["white", "striker"]
    assert stroke["evidence"]["pocket_events"][1]["pocket"] == "NE"


def test_a_coin_found_again_at_a_pockets_mouth_once_all_is_still_was_not_pocketed() -> None:
    """A struck coin creeps to a stop at a pocket's mouth; against the dark hole the detector
    loses it as it gets there (the tracker calls it pocketed) and finds it again, under a new
    track, once the board is still (development video 9105). Pieces first seen after the board
    settled are taken for dues being put back, but those go where dues go, round the centre:
    the coin at the mouth was lying there, and was never pocketed."""
    from calibration.geometry import COIN_RADIUS_MM, POCKET_RADIUS_MM, STRIKER_RADIUS_MM, pocket_centre

    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 10.0)
    s, w3 = m.index("S"), m.index("W3")
    mouth = pocket_centre("NW")
    rest = mouth - mouth / np.linalg.norm(mouth) * (POCKET_RADIUS_MM + 1.0)
    aim = (m.xy[w3] - m.xy[s]) / np.linalg.norm(m.xy[w3] - m.xy[s])
    contact = m.xy[w3] - aim * (STRIKER_RADIUS_MM + COIN_RADIUS_MM + 0.5)
    w3_start = m.xy[w3].copy()
    m.move({"S": (contact, 2500.0)})
    m.move({"W3": (rest, 1200.0), "S": (contact + aim * 40.0, 400.0)})
    arrived = len(m._xy)
    m.wait(1.5)
    timeline = m.timeline()

    truth = list(oracle_track_frames(timeline))
    first = next(f for f in truth if len(f.track_id))
    track = int(first.track_id[np.argmin(np.linalg.norm(first.xy_mm - w3_start, axis=1))])
    # The tracker calls it pocketed as it gets there, does not see it for a few looks, and
    # finds it again under a new id before the stroke is closed.
    unseen = (
        f.select(f.track_id != track) if arrived - 1 <= f.frame_index < arrived + 4 else f for f in truth
    )
    (stroke,) = strokes_of(record(m, fake_pocketing(unseen, track, arrived - 2)))
    assert stroke["pocketed"] == []


def taken_over_for_a_look(
    frames: Iterator[TrackFrame],
    at_frame: int,
    which: Callable[[TrackFrame], np.ndarray],
    to_mm: Callable[[np.ndarray], np.ndarray],
    velocity_mm_s: tuple[float, float],
) -> Iterator[TrackFrame]:
    """At `at_frame` the tracks `which` selects are reported where `to_mm` puts them, moving at
    `velocity_mm_s` (a false detection took them over for one look); every other look as it
    was."""
    for frame in frames:
        if frame.frame_index == at_frame:
            moved = which(frame)
            xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
            xy[moved] = to_mm(xy[moved])
            velocity[moved] = velocity_mm_s
            state[moved] = int(TrackState.MOVING)
            frame = TrackFrame(
                frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy, velocity,
                state, frame.pocket, frame.score,
            )  # fmt: skip
        yield frame


def test_a_coin_that_darts_for_one_look_under_the_aiming_hand_is_no_strike() -> None:
    """North's striker lies aimed on its base line, hidden under the hand; for one look a
    coin's track darts (a false coin the hand makes takes it over) and is back where it lay
    the next. A struck carromman flies for many looks: this was no strike, and the striker,
    seen again where it was aimed, is struck only later (development video 9125: a false
    stroke, then the real one missed and its pocketing given to the other player)."""
    board = south_then_north
    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    dart = first - 20

    def last_white(frame: TrackFrame) -> np.ndarray:
        which = np.zeros(len(frame.track_id), dtype=bool)
        which[np.flatnonzero(frame.class_id == CLASS_NAMES.index("white"))[-1]] = True
        return which

    hidden = striker_occluded_between(oracle_track_frames(board().timeline()), dart - 2, dart + 1)
    frames = taken_over_for_a_look(hidden, dart, last_white, lambda xy: xy + (30.0, 0.0), (900.0, 0.0))
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_two_resting_coins_swapping_tracks_while_the_board_is_still_do_not_prolong_the_stroke() -> None:
    """With the board still, a hand's false detections can make the tracker swap two resting
    coins' tracks: each jumps across the board in one look. Nothing was moving to knock them
    that far, so the stroke still ends when the board settled (development video 9124: such
    swaps kept a settled stroke open until the hand carried the striker off to the other
    seat, taken for the stroke's motion, and the next stroke, struck from there, was lost)."""
    _, end = _stroke_frames(one_stroke_board())
    swap = end - 3

    def swapped(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        pair: tuple[int, int] | None = None
        for frame in frames:
            if frame.frame_index >= swap:
                resting = np.flatnonzero(
                    (frame.state == int(TrackState.AT_REST)) & (frame.class_id != STRIKER_CLASS)
                )
                if pair is None:
                    far = np.linalg.norm(frame.xy_mm[resting] - frame.xy_mm[resting[0]], axis=1)
                    pair = (
                        int(frame.track_id[resting[0]]),
                        int(frame.track_id[resting[int(np.argmax(far))]]),
                    )
                ids = frame.track_id.copy()
                a, b = ids == pair[0], ids == pair[1]
                ids[a], ids[b] = pair[1], pair[0]
                velocity = frame.velocity_mm_s.copy()
                if frame.frame_index == swap:
                    velocity[a | b] = (3000.0, 0.0)  # the tracker's reading of the jump
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm, velocity,
                    frame.state, frame.pocket, frame.score,
                )  # fmt: skip
            yield frame

    (stroke,) = strokes_of(
        record(one_stroke_board(), swapped(oracle_track_frames(one_stroke_board().timeline())))
    )
    assert stroke["evidence"]["frames"][1] == end
    assert stroke["pocketed"] == ["white"]


def test_a_striker_lost_mid_board_is_not_pocketed_where_the_tracker_projects_it() -> None:
    """A dim striker blurs out at the strike's speed mid-board and the tracker, projecting its
    path, calls it pocketed in a pocket 200 mm away; afterwards it lies on the board read as a
    coin (development video 9132: three false striker pocketings, dues and turns lost). The
    striker has no count at rest to check a pocketing by, so only one last seen at the pocket
    counts."""
    start, _ = _stroke_frames(one_stroke_board())
    lost = start + 3

    def projected(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            striker = frame.class_id == STRIKER_CLASS
            if frame.frame_index == lost:
                state, pocket = frame.state.copy(), frame.pocket.copy()
                state[striker], pocket[striker] = int(TrackState.POCKETED), 3  # SE
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, frame.xy_mm,
                    frame.velocity_mm_s, state, pocket, frame.score,
                )  # fmt: skip
            elif frame.frame_index > lost:
                frame = frame.select(~striker)
            yield frame

    truth = list(oracle_track_frames(one_stroke_board().timeline()))
    at = next(f for f in truth if f.frame_index == lost)
    from calibration.geometry import pocket_centre

    assert np.linalg.norm(at.xy_mm[at.class_id == STRIKER_CLASS][0] - pocket_centre("SE")) > 150.0
    (stroke,) = strokes_of(record(one_stroke_board(), projected(iter(truth))))
    assert stroke["pocketed"] == ["white"]


def test_a_striker_seen_by_its_pocket_after_going_in_or_last_seen_on_a_coin_was_not_pocketed() -> None:
    """A dim striker runs to a corner's mouth and its track is lost there, taken into the
    pocket; two looks later it is glimpsed lying 43 mm from the pocket's centre, clear of the
    hole, and then not seen again until it is lifted (development video 9151: a false striker
    pocketing, a due and the turn lost). It did not go in. Unseen after its track went, it
    did; and glimpsed only far from that pocket, on the far base line, it did too: fetched out
    and put down for the next stroke before the board settled (held-out video 68012)."""
    from calibration.geometry import POCKETS, pocket_centre

    start, _ = _stroke_frames(one_stroke_board())
    lost = start + 6
    hole = pocket_centre("SE")
    at_mouth = hole + np.array([-40.0, 40.0])
    lying = hole + np.array([-30.5, 30.5])

    def into_the_mouth(
        frames: Iterator[TrackFrame], glimpsed: np.ndarray | None = None, coin_there: int | None = None
    ) -> Iterator[TrackFrame]:
        for frame in frames:
            striker = frame.class_id == STRIKER_CLASS
            if coin_there is not None and frame.frame_index > lost:
                xy = frame.xy_mm.copy()
                xy[frame.track_id == coin_there] = at_mouth + (3.0, -2.0)
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                    frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
                )  # fmt: skip
            if frame.frame_index == lost:
                xy, velocity = frame.xy_mm.copy(), frame.velocity_mm_s.copy()
                state, pocket = frame.state.copy(), frame.pocket.copy()
                xy[striker], velocity[striker] = at_mouth, (600.0, -600.0)
                state[striker], pocket[striker] = int(TrackState.POCKETED), POCKETS.index("SE")
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy, velocity,
                    state, pocket, frame.score,
                )  # fmt: skip
            elif frame.frame_index > lost:
                frame = frame.select(~striker)
                if glimpsed is not None and frame.frame_index in (lost + 2, lost + 3):
                    frame = TrackFrame(
                        frame.frame_index, frame.time_s, np.append(frame.track_id, 999),
                        np.append(frame.class_id, STRIKER_CLASS), np.vstack([frame.xy_mm, glimpsed]),
                        np.vstack([frame.velocity_mm_s, (0.0, 0.0)]),
                        np.append(frame.state, int(TrackState.AT_REST)), np.append(frame.pocket, -1),
                        np.append(frame.score, 0.5),
                    )  # fmt: skip
            yield frame

    truth = list(oracle_track_frames(one_stroke_board().timeline()))
    (unseen,) = strokes_of(record(one_stroke_board(), into_the_mouth(iter(truth))))
    assert sorted(unseen["pocketed"]) == ["striker", "white"]
    (seen,) = strokes_of(record(one_stroke_board(), into_the_mouth(iter(truth), glimpsed=lying)))
    assert seen["pocketed"] == ["white"]
    on_the_far_base_line = np.array([80.0, 250.0])
    (fetched,) = strokes_of(
        record(one_stroke_board(), into_the_mouth(iter(truth), glimpsed=on_the_far_base_line))
    )
    assert sorted(fetched["pocketed"]) == ["striker", "white"]
    # A carromman lying where the "striker" was last seen: that look was the coin, read as the
    # striker (discs do not overlap; development video 9189).
    at_lost = next(f for f in truth if f.frame_index == lost)
    white_id = int(at_lost.track_id[at_lost.class_id == CLASS_NAMES.index("white")][-1])
    (coin,) = strokes_of(record(one_stroke_board(), into_the_mouth(iter(truth), coin_there=white_id)))
    assert "striker" not in coin["pocketed"]


def test_a_striker_track_jumping_for_a_look_onto_the_frames_wood_is_no_strike() -> None:
    """North's striker lies aimed on its base line; a false striker on the frame's wood just
    behind it takes its track for a look (150 mm off at a strike's speed), and the next look
    finds it back on its spot. A struck striker slides on the playing surface: this was no
    stroke (development video 9128: an extra stroke, the real one's start misplaced)."""
    board = south_then_north
    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]

    def on_the_wood(xy: np.ndarray) -> np.ndarray:
        return np.column_stack([xy[:, 0] - 60.0, np.full(len(xy), 378.0)])  # past the north edge

    frames = taken_over_for_a_look(
        oracle_track_frames(board().timeline()),
        first - 20,
        lambda frame: frame.class_id == STRIKER_CLASS,
        on_the_wood,
        (-1500.0, 4000.0),
    )
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


@pytest.mark.parametrize("seen_there", [False, True])
def test_a_striker_track_jumping_behind_its_line_and_kept_there_is_no_strike(seen_there: bool) -> None:
    """North's striker lies aimed on its base line; a faint false striker on the surface by
    the cushion behind it, 117 mm off, takes its track for a look at a strike's speed, and the
    tracker keeps the track there for two looks, unseen (development video 78018) or seen
    lying there (76008), before it finds the striker back on its spot: each time a stroke
    "struck" and closed there, and the real one from the spot, with the coin it pocketed,
    lost. A struck striker found out there lies in front of its base lines, and is seen."""
    board = south_then_north
    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    jump = first - 20

    def behind(xy: np.ndarray) -> np.ndarray:
        return xy + (51.0, 105.0)  # north of the base lines, short of the cushion

    def kept_there_unseen(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if jump < frame.frame_index <= jump + 2:
                striker = frame.class_id == STRIKER_CLASS
                xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
                xy[striker], velocity[striker] = behind(xy[striker]), 0.0
                state[striker] = int(TrackState.AT_REST if seen_there else TrackState.OCCLUDED)
                frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity, state=state)
            yield frame

    frames = taken_over_for_a_look(
        oracle_track_frames(board().timeline()),
        jump,
        lambda frame: frame.class_id == STRIKER_CLASS,
        behind,
        (1546.0, 3160.0),
    )
    strokes = strokes_of(record(board(), kept_there_unseen(frames)))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_striker_read_as_a_coin_slid_along_its_base_line_is_not_a_stroke() -> None:
    """The striker lying on its base line is read now as the striker, now as a white coin
    (the tracker keeps a track for each); a hand slides it along the line, fast, the
    striker's track hidden under the hand and the coin's following it. What runs along the
    striker's base lines is being placed: struck, a piece leaves them (development video
    9130: an extra stroke)."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 60.0)
    k = match.index("S")
    spot = match.xy[k] + [-150.0, 0.0]
    slid = len(match._xy)
    match.hands = (HandPose("S", (float(spot[0]), float(spot[1]) - 30.0), float(np.pi / 2)),)
    match.move({"S": (spot, 700.0)})
    done = len(match._xy)
    match.hands = ()
    match.wait(1.0)
    match.strike("S", target="W1", pocket="NE")

    frames = striker_also_read_as_a_coin(oracle_track_frames(match.timeline()), slid - 6, slid - 1)
    frames = striker_taken_for_a_coin_between(frames, slid, done - 1, spot + [150.0, 0.0])
    strokes = strokes_of(record(match, frames))
    assert [s["pocketed"] for s in strokes] == [["white"]]


def test_a_coin_first_seen_lying_after_the_strike_does_not_prolong_the_stroke() -> None:
    """A coin hidden under the hand at the strike is first seen again, lying where it lay, just
    before the board has been still for the settling time. Lying, it is no motion (development
    video 9136: such a first sighting kept a settled stroke open until the hand came for the
    striker, whose carrying was taken for the stroke's motion and the next stroke lost)."""
    start, end = _stroke_frames(one_stroke_board())
    truth = list(oracle_track_frames(one_stroke_board().timeline()))
    at_strike = next(f for f in truth if f.frame_index == start)
    black = int(at_strike.track_id[at_strike.class_id == CLASS_NAMES.index("black")][0])
    frames = (occluded(f, f.track_id == black) if start - 3 <= f.frame_index < end - 2 else f for f in truth)
    (stroke,) = strokes_of(record(one_stroke_board(), frames))
    assert stroke["evidence"]["frames"][1] == end


def test_a_piece_gone_unseen_strokes_ago_confirms_only_a_pocketing_seen_at_the_pocket() -> None:
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    # A white's track lost 185 mm from the NE pocket and projected into it by the tracker, and
    # a white seen going in at the pocket's mouth.
    far = ItemEvent("white", "NE", 900, 30.0, 7, (187.8, 255.1))
    near = ItemEvent("white", "NE", 900, 30.0, 7, (330.0, 331.0))
    before, after = Counter(white=6), Counter(white=5)
    # A white counted gone at this stroke's rest: either is believed.
    for event in (far, near):
        kept, _, vanished, _ = reconcile_departures([event], before, after, [])
        assert kept == [event] and not vanished
    # The white missing at rest is one gone unseen at an earlier stroke (development video
    # 9125: overboard at the break, never seen going): the projection is not believed, the
    # pocketing at the mouth is.
    kept, dropped, vanished, _ = reconcile_departures([far], before, after, [], Counter(white=1))
    assert (kept, dropped, vanished) == ([], [far], {"white": 1})
    kept, _, vanished, _ = reconcile_departures([near], before, after, [], Counter(white=1))
    assert kept == [near] and not vanished
    # Nor is a white lost 82 mm from a pocket (9125, strokes after the white went unseen).
    lost_near = ItemEvent("white", "SE", 2931, 97.7, 9, (318.2, -270.4))
    kept, _, _, _ = reconcile_departures([lost_near], before, after, [], Counter(white=1))
    assert kept == []
    # Another colour's surplus projection is not relabelled to fill it either.
    black_far = ItemEvent("black", "NE", 900, 30.0, 8, (187.8, 255.1))
    kept, _, _, _ = reconcile_departures([black_far], before, after, [], Counter(white=1))
    assert kept == []


def test_a_piece_seen_falling_twice_does_not_stand_for_one_gone_unseen_strokes_ago() -> None:
    """A white sinking into a pocket seen going twice, two frames apart: first as it went, then
    its last look over the hole read as a black (development video 9331). With a white carried
    unseen from earlier strokes (on the centre circle's print, never found), the second
    sighting had been relabelled a white and taken for it: two whites "pocketed" for one."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    track_departures: list[ItemEvent] = []
    white = ItemEvent("white", "NE", 791, 26.367, -1, (337.7, 328.4))
    sinking = ItemEvent("black", "NE", 793, 26.433, -1, (369.6, 354.9))
    before, after = Counter(white=7, black=6), Counter(white=5, black=6)
    kept, _, vanished, _ = reconcile_departures(
        track_departures, before, after, [white, sinking], Counter(white=1)
    )
    assert kept == [white] and vanished == {"white": 1}
    # The same piece seen going twice as a white (development video 9334, a black carried).
    again = ItemEvent("white", "NE", 793, 26.433, -1, (369.6, 354.9))
    kept, _, vanished, _ = reconcile_departures(
        track_departures,
        Counter(white=8, black=5),
        Counter(white=7, black=4),
        [white, again],
        Counter(black=1),
    )
    assert kept == [white] and vanished == {"black": 1}
    # Nothing carried: two departures a moment apart at one pocket are two pieces (two touching
    # coins driven into it, a colour confused on the move).
    kept, _, vanished, _ = reconcile_departures(track_departures, before, after, [white, sinking])
    assert [e.item for e in kept] == ["white", "white"] and not vanished
    # Carried, but a second white a quarter of a second on at the same pocket is another one.
    later = ItemEvent("white", "NE", 799, 26.633, -1, (330.0, 331.0))
    kept, _, vanished, _ = reconcile_departures(
        track_departures, before, after, [white, later], Counter(white=1)
    )
    assert kept == [white, later] and not vanished


def test_a_white_never_seen_on_its_way_is_pocketed_where_it_was_seen_falling() -> None:
    """At the break a coin can go from the pack into a pocket between two looks, blurred past
    seeing on its way, and still be seen over the pocket's hole as it falls (development video
    9107: the white was then put in the pocket a black went into, by a track swapped onto
    that black)."""
    from calibration.geometry import pocket_centre

    match = one_stroke_board()
    start, _ = _stroke_frames(one_stroke_board())
    truth = list(oracle_track_frames(match.timeline()))
    fell = next(f for f in truth if np.any(f.state == int(TrackState.POCKETED)))
    white = int(fell.track_id[fell.state == int(TrackState.POCKETED)][0])
    unseen = list(vanish_during_strokes(iter(truth), white, start + 1))
    in_hole = Detections(
        (pocket_centre("NW") + [4.0, -3.0])[None], np.array([CLASS_NAMES.index("white")]), np.array([0.8])
    )

    def run(hole_sightings: bool) -> dict:
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for frame in unseen:
            on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            seen = Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on])
            falling = hole_sightings and fell.frame_index <= frame.frame_index < fell.frame_index + 3
            recorder.update(frame, seen, in_hole if falling else Detections.empty())
        recorder.finish(frame.frame_index, frame.time_s)
        return strokes_of(recorder.log()["events"])[0]

    stroke = run(hole_sightings=True)
    assert stroke["pocketed"] == ["white"] and stroke.get("overboard") is None
    (event,) = stroke["evidence"]["pocket_events"]
    assert (event["item"], event["pocket"], event["frame"]) == ("white", "NW", fell.frame_index)
    # Without the sighting the white is gone unseen at the break: taken to have jumped off.
    assert run(hole_sightings=False)["evidence"]["overboard_unseen"] == {"white": 1}


def test_a_black_or_striker_seen_over_a_hole_is_not_taken_for_a_piece_falling() -> None:
    """The empty hole reads as a black coin (and sometimes as the striker) far more often than
    a black falling in is seen there."""
    from calibration.geometry import pocket_centre
    from vision.events.pocket_watch import PocketWatch

    watch = PocketWatch()
    over = (pocket_centre("SE") + [2.0, 3.0])[None].repeat(2, axis=0)
    for k in range(3):
        watch.saw_in_holes(k, k / 30.0, Detections(over, np.array([1, 3]), np.array([0.9, 0.9])))
    assert watch.in_holes == []


def test_a_white_seen_falling_where_the_striker_went_in_is_the_striker() -> None:
    """The striker falling into a pocket is often seen over the hole as a white coin
    (development video 9128: so "seen", it stood for the white that went into another pocket
    in that stroke)."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    track_departures: list[ItemEvent] = []
    striker = ItemEvent("striker", "SE", 734, 24.47, 3, (331.6, -339.2))
    track_departures = [striker]
    white = ItemEvent("white", "NW", 741, 24.7, -1, (-320.0, 330.0))
    in_hole = ItemEvent("white", "SE", 734, 24.47, -1, (344.6, -343.2))
    before, after = Counter(white=5, black=6), Counter(white=4, black=6)
    kept, dropped, _, _ = reconcile_departures(track_departures, before, after, [white], None, [in_hole])
    assert kept == [white] and dropped == []
    # Without the striker going in there, the sighting is the first white gone.
    track_departures = []
    kept, dropped, _, _ = reconcile_departures(track_departures, before, after, [white], None, [in_hole])
    assert kept == [in_hole]
    # Nor where its going in is only guessed, from a track lost further off (held-out video
    # 64008, development data since): a guess is never the striker's pocketing.
    track_departures = [replace(striker, guess=True)]
    kept, dropped, _, _ = reconcile_departures(track_departures, before, after, [white], None, [in_hole])
    assert kept == [in_hole]


def test_a_white_seen_falling_where_the_striker_went_in_is_the_white_when_nothing_else_is() -> None:
    """Held-out video 86003 (`warm-lamp`, development data since): a white and the striker
    behind it went into one corner three frames apart; the white was seen only in the hole,
    and the sighting was taken for the striker's, so the white the count lost "vanished" and
    the striker was ruled pocketed alone. A white sighting where the striker went in stands
    for a white all the same when no other sighting of a white does."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    striker = ItemEvent("striker", "SE", 1815, 60.5, 26, (323.0, -312.7), last_seen_s=60.4)
    watched = [ItemEvent("striker", "SE", 1813, 60.43, -1, (323.0, -312.7))]
    in_hole = ItemEvent("white", "SE", 1811, 60.37, -1, (349.0, -347.4))
    before, after = Counter(white=4, black=6), Counter(white=3, black=6)
    kept, dropped, vanished, _ = reconcile_departures([striker], before, after, watched, None, [in_hole])
    assert kept == [in_hole] and vanished == {}
    # The count not down, the sighting is the striker's after all: nothing is believed.
    kept, dropped, vanished, _ = reconcile_departures([striker], before, before, watched, None, [in_hole])
    assert kept == [] and in_hole not in dropped


def test_a_piece_seen_falling_that_the_counts_do_not_need_is_kept_as_dropped_evidence() -> None:
    """Not believed, a sighting over a hole is still what the camera saw: the review lists it,
    and a striker read as a coin all the way is known by it (`dropped`)."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    track_departures: list[ItemEvent] = []
    in_hole = ItemEvent("white", "NW", 860, 28.7, -1, (-345.0, 346.0))
    counts = Counter(white=5, black=6)
    kept, dropped, vanished, _ = reconcile_departures(track_departures, counts, counts, [], None, [in_hole])
    assert (kept, dropped, vanished) == ([], [in_hole], {})


def striker_flying_back(speed: float = 3000.0, end: tuple[float, float] = (0.0, 300.0)) -> ScriptedMatch:
    """The break, then North's striker fast down the board and off a cushion to `end`."""
    match = one_stroke_board()
    match.put_striker("N", 0.0)
    match.strike("N", target=None, speed=speed, striker_end=end)
    return match


def test_a_striker_unseen_in_flight_does_not_end_the_stroke() -> None:
    """Development video 9143: the striker flew off the far cushion and back, unseen in its blur
    for half a second; the board looked still, the stroke was closed, and the striker's return
    into the coins was taken for a stroke of its own."""
    strokes = strokes_of(record(striker_flying_back()))
    assert len(strokes) == 2
    start = strokes[1]["evidence"]["frames"][0]
    truth = oracle_track_frames(striker_flying_back().timeline())
    frames = striker_occluded_between(truth, start + 2, start + 16)
    strokes = strokes_of(record(striker_flying_back(), frames))
    assert len(strokes) == 2
    assert strokes[1]["evidence"]["frames"][1] >= start + 16


def test_a_striker_glimpsed_every_few_frames_in_flight_is_flying_not_swapped() -> None:
    """Development video 9145: a striker seen every second to fourth look at 1.5 m/s jumped far
    between looks, was taken each time for a track handed another piece (no motion), and the
    stroke closed under it while it flew."""

    def board() -> ScriptedMatch:
        return striker_flying_back(speed=6000.0, end=(0.0, -300.0))

    start, end = strokes_of(record(board()))[1]["evidence"]["frames"]

    def glimpsed(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if start + 2 <= frame.frame_index <= end and frame.frame_index % 4:
                frame = occluded(frame, frame.class_id == STRIKER_CLASS)
            yield frame

    strokes = strokes_of(record(board(), glimpsed(oracle_track_frames(board().timeline()))))
    assert len(strokes) == 2
    assert strokes[1]["evidence"]["frames"][0] == start and strokes[1]["evidence"]["frames"][1] >= end - 2


def test_a_coin_read_on_the_striker_under_the_placing_hand_is_not_a_touch() -> None:
    """North's striker, being placed, jumps 20 mm for one look under the hand (read as a start)
    and is then hidden by the hand there, and read meanwhile as a white: a resting white's track is
    handed it, 80 mm and more from where the white lies. A coin cannot lie on the striker: that
    white did not move, and the "start" touched nothing. Taken for a touch, the nudge was a
    stroke, and the real one, struck from where the nudge ended, was refused (development video
    9165: a false stroke, the real one missed)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=2.0)

    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    nudge = first - 50

    def striker(frame: TrackFrame) -> np.ndarray:
        return frame.class_id == STRIKER_CLASS

    def nearest_white(frame: TrackFrame) -> np.ndarray:
        spot = frame.xy_mm[striker(frame)][0]
        whites = np.flatnonzero(frame.class_id == CLASS_NAMES.index("white"))
        which = np.zeros(len(frame.track_id), dtype=bool)
        which[whites[np.argmin(np.linalg.norm(frame.xy_mm[whites] - spot, axis=1))]] = True
        return which

    def on_the_striker(frames: Iterator[TrackFrame], first: int, last: int) -> Iterator[TrackFrame]:
        for frame in frames:
            if first <= frame.frame_index <= last:
                xy, state = frame.xy_mm.copy(), frame.state.copy()
                white = nearest_white(frame)
                xy[striker(frame)] += (-20.0, 0.0)  # kept where it was last seen
                xy[white] = xy[striker(frame)][0] + (3.0, 1.0)
                state[striker(frame)] = int(TrackState.OCCLUDED)
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                    np.zeros_like(frame.velocity_mm_s), state, frame.pocket, frame.score,
                )  # fmt: skip
            yield frame

    frames = taken_over_for_a_look(
        oracle_track_frames(board().timeline()), nudge, striker, lambda xy: xy + (-20.0, 0.0), (-900.0, 0.0)
    )
    frames = on_the_striker(frames, nudge + 1, nudge + 25)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_coin_track_lost_on_the_striker_s_spot_is_no_pocketing_and_no_touch() -> None:
    """North's striker, being placed, jumps 20 mm for one look under the hand (read as a start),
    while a white's track that the hand carrying the striker was read as lies on the striker's
    spot and is lost, projected into the corner pocket ahead. A coin cannot lie there: it was
    the striker, read as a white. Taken for a pocketing, it touched, the nudge was a stroke with
    a white pocketed and the turn went wrong (held-out video 65004, `phone`, development data
    since). Found 25 mm off the striker's centre under the hand, the discs would overlap by
    12 mm: the striker still (development video 9339, a white's track lost there as a false
    striker "struck"). A white's track lost 37 mm off, clear of the striker, is a white's: the
    nudge it went with stays a stroke."""
    for off_mm, kept in (((8.0, 6.0), True), ((20.0, 15.0), True), ((30.0, 22.5), False)):
        _lost_on_the_striker(np.array(off_mm), no_stroke_made=kept)


def _lost_on_the_striker(off_mm: np.ndarray, no_stroke_made: bool) -> None:
    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=2.0)

    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    nudge = first - 50
    ghost_id = 20_000

    def striker(frame: TrackFrame) -> np.ndarray:
        return frame.class_id == STRIKER_CLASS

    def carried_as_a_white(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if nudge - 20 <= frame.frame_index <= nudge + 1 and striker(frame).any():
                spot = frame.xy_mm[striker(frame)][0] + off_mm
                lost = frame.frame_index == nudge + 1
                ghost = TrackFrame(
                    frame.frame_index, frame.time_s, [ghost_id], [CLASS_NAMES.index("white")], [spot],
                    [[0.0, -700.0]], [int(TrackState.POCKETED if lost else TrackState.MOVING)],
                    [3 if lost else -1], [0.6],
                )  # fmt: skip
                frame = TrackFrame(
                    frame.frame_index, frame.time_s,
                    *(np.concatenate([getattr(frame, f), getattr(ghost, f)]) for f in (
                        "track_id", "class_id", "xy_mm", "velocity_mm_s", "state", "pocket", "score"
                    )),
                )  # fmt: skip
            yield frame

    frames = taken_over_for_a_look(
        oracle_track_frames(board().timeline()), nudge, striker, lambda xy: xy + (-20.0, 0.0), (-900.0, 0.0)
    )
    strokes = strokes_of(record(board(), carried_as_a_white(frames)))
    as_scripted = [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [
        ("S", ["white"]),
        ("N", ["black"]),
    ]
    assert as_scripted == no_stroke_made


def test_a_striker_glimpsed_slow_in_the_hand_carrying_it_across_is_not_struck() -> None:
    """Between South's stroke and North's the striker is carried from South's base line across
    the board at about 0.7 m/s, read as a white all the way but for two looks as the striker
    under a new track: first where the white would be by then (its first speed zero), then
    flying on. The first look is no rest, so the second is no strike (held-out video 65016,
    `phone`, development data since: the carry taken for a stroke from the base line it
    crossed, held open while the striker "flew" and merged with the real stroke)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=2.0)

    south_end = strokes_of(record(board()))[0]["evidence"]["frames"][1]
    white, carried_id, glimpsed_id = CLASS_NAMES.index("white"), 30_000, 40_000

    def carried(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        """From when South's striker is picked up until it lies on North's base line."""
        window: list[TrackFrame] = []
        carried_once = False
        for frame in frames:
            striker = frame.class_id == STRIKER_CLASS
            lying = striker & np.isin(frame.state, (int(TrackState.AT_REST), int(TrackState.MOVING)))
            if carried_once or frame.frame_index <= south_end + 5 or lying.any():
                if window:
                    # Picked up off South's base line and glimpsed on it as the carry begins.
                    start = np.array([60.0, -BASE_LINE_MID_MM - 48.0])
                    yield from _carried_looks(
                        window, start, frame.xy_mm[lying][0], white, carried_id, glimpsed_id
                    )
                    window, carried_once = [], True
                yield frame
                continue
            window.append(frame.select(~striker))

    strokes = strokes_of(record(board(), carried(oracle_track_frames(board().timeline()))))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def _carried_looks(
    window: list[TrackFrame],
    start: np.ndarray,
    end: np.ndarray,
    white: int,
    carried_id: int,
    glimpsed_id: int,
) -> Iterator[TrackFrame]:
    """`window`'s looks with the striker carried in a straight line from `start` to `end`: a
    white under `carried_id`, but for two looks early on (the first on South's base band) and
    two late under `glimpsed_id` as the striker, first lying (a new track's first speed), then
    flying on; the striker's track hidden in between."""
    n = len(window)
    dt = window[1].time_s - window[0].time_s
    velocity = (end - start) / (n * dt)
    striker_seen = {
        1: TrackState.AT_REST,
        2: TrackState.MOVING,
        n - 4: TrackState.MOVING,
        n - 3: TrackState.MOVING,
    }
    last_seen = start
    for i, frame in enumerate(window):
        xy = start + velocity * dt * (i + 1)
        if i in striker_seen:
            state = striker_seen[i]
            v = (0.0, 0.0) if state == TrackState.AT_REST else velocity
            rows = [(glimpsed_id, STRIKER_CLASS, xy, v, state)]
            last_seen = xy
        else:
            rows = [(carried_id, white, xy, velocity, TrackState.MOVING)]
            if i > 1:
                rows.append((glimpsed_id, STRIKER_CLASS, last_seen, (0.0, 0.0), TrackState.OCCLUDED))
        ids, classes, where, speeds, states = zip(*rows, strict=True)
        extra = TrackFrame(
            frame.frame_index, frame.time_s, ids, classes, where, speeds, [int(s) for s in states],
            [-1] * len(rows), [0.6] * len(rows),
        )  # fmt: skip
        yield TrackFrame(
            frame.frame_index, frame.time_s,
            *(np.concatenate([getattr(frame, f), getattr(extra, f)]) for f in (
                "track_id", "class_id", "xy_mm", "velocity_mm_s", "state", "pocket", "score"
            )),
        )  # fmt: skip


def test_two_of_a_colour_lost_at_one_pocket_s_mouth_a_moment_apart_are_two_pocketings() -> None:
    """Two whites run into the SE pocket 3 frames apart: one is seen over the hole, and each
    one's track is lost at the mouth. The counts want two whites gone: the second track is the
    second white, not the first seen again (held-out video 65003, development data since: one
    white "vanished" and the board's result was lost). Not a track lost far off and projected
    there, nor a guess, nor one last seen before the white in the hole, nor while a white gone
    earlier is carried (a sinking piece's second look then stands in for it)."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    in_hole = ItemEvent("white", "SE", 2782, 92.73, -1, (339.3, -343.2))
    first = ItemEvent("white", "SE", 2780, 92.67, 19, (284.2, -295.1), guess=True)
    second = ItemEvent("white", "SE", 2789, 92.97, 13, (361.1, -362.5))
    before, after = Counter(white=7, black=4), Counter(white=5, black=4)

    def reconciled(*events: ItemEvent, carried: Counter[str] | None = None) -> tuple[list, dict]:
        track_departures: list[ItemEvent] = []
        track_departures = list(events)
        kept, _, vanished, _ = reconcile_departures(track_departures, before, after, [], carried, [in_hole])
        return sorted((e.frame, e.track_id) for e in kept), vanished

    assert reconciled(first, second) == ([(2782, -1), (2789, 13)], {})
    assert reconciled(first, replace(second, last_seen_s=92.87)) == ([(2782, -1), (2789, 13)], {})
    # Last seen at the mouth before its colour was seen over the hole, it is that white,
    # sinking (development video 73002's break: a white's track lost 40 mm from the centre,
    # the white in the hole three frames on, taken for a second white).
    assert reconciled(first, replace(second, last_seen_s=92.63)) == ([(2782, -1)], {"white": 1})
    # Without that track's loss at the mouth, one white stays unaccounted for.
    assert reconciled(first) == ([(2782, -1)], {"white": 1})
    # Lost where the white was seen going in, it is that white (development video 9324).
    same_spot = replace(second, xy=(341.0, -345.0))
    assert reconciled(first, same_spot) == ([(2782, -1)], {"white": 1})
    # Lost 150 mm up the cushion and projected into the pocket, or only guessed there: not.
    far = replace(second, xy=(347.0, -197.0))
    assert reconciled(first, far) == ([(2782, -1)], {"white": 1})
    assert reconciled(first, replace(second, guess=True)) == ([(2782, -1)], {"white": 1})
    # A white carried as gone unseen since an earlier stroke: the second look stands in for
    # nothing.
    assert len(reconciled(first, second, carried=Counter(white=1))[0]) == 1


def test_a_pocketing_seen_two_ways_is_believed_before_a_track_lost_by_another_pocket() -> None:
    """One white is gone. A white's track was lost 37 mm from the SE pocket's centre (the
    white lies there still, unseen a moment), and a few frames later the watch saw a white
    drop into NE, seen over NE's hole too. The two-way sighting is the pocketing, though the
    lost track came first (held-out video 65019, `warm-lamp`, development data since)."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    lost = ItemEvent("white", "SE", 1366, 45.53, 16, (324.6, -318.7))
    dropped = ItemEvent("white", "NE", 1371, 45.70, -1, (338.0, 323.6))
    in_hole = ItemEvent("white", "NE", 1371, 45.70, -1, (347.2, 334.5))
    track_departures: list[ItemEvent] = []
    track_departures = [lost]
    before, after = Counter(white=6, black=8), Counter(white=5, black=8)
    kept, _, _, _ = reconcile_departures(track_departures, before, after, [dropped], None, [in_hole])
    assert [(e.item, e.pocket) for e in kept] == [("white", "NE")]
    # Seen only one way, the earlier one stands.
    kept, _, _, _ = reconcile_departures(track_departures, before, after, [dropped], None, [])
    assert [(e.item, e.pocket) for e in kept] == [("white", "SE")]
    # The watch and a track losing the same look at a piece are one way, not two: the white
    # seen in NE's hole first stands (development video 9409, `warm-lamp`).
    seen_in_ne = ItemEvent("white", "NE", 4051, 135.03, -1, (344.3, 344.5))
    lost_sw = ItemEvent("white", "SW", 4067, 135.57, 21, (-316.7, -357.3))
    dropped_sw = ItemEvent("white", "SW", 4065, 135.50, -1, (-316.7, -357.3))
    track_departures = [lost_sw]
    kept, _, _, _ = reconcile_departures(
        track_departures, Counter(white=2), Counter(white=1), [dropped_sw], None, [seen_in_ne]
    )
    assert [(e.item, e.pocket) for e in kept] == [("white", "NE")]


def test_a_striker_seen_lying_where_it_was_aimed_after_its_track_jumped_away_and_was_lost_never_left() -> (
    None
):
    """North's striker lies aimed on its base line. A second before North strikes, its track
    jumps 95 mm to a false striker by the cushion, at a strike's speed, and is let go there as
    heading off the board; three looks later the striker is found lying where it was aimed,
    under a new track. Nothing moved: it never left, and North's stroke is North's, from its
    own strike (development video 64013, `club`: the false flight held a stroke open that
    swallowed the real one)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=2.0)

    clean = strokes_of(record(board()))
    first, _ = clean[-1]["evidence"]["frames"]
    jump = first - 30

    def striker(frame: TrackFrame) -> np.ndarray:
        return frame.class_id == STRIKER_CLASS

    def found_again_under_a_new_track(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if frame.frame_index == jump + 1:
                state, xy = frame.state.copy(), frame.xy_mm.copy()
                state[striker(frame)] = int(TrackState.OFF_BOARD)
                xy[striker(frame)] += (0.0, 95.0 + 2900.0 / 30.0)
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                    frame.velocity_mm_s, state, frame.pocket, frame.score,
                )  # fmt: skip
            elif frame.frame_index > jump + 3:
                frame = striker_under_track(frame, 50_000)
            yield frame

    frames = taken_over_for_a_look(
        oracle_track_frames(board().timeline()), jump, striker, lambda xy: xy + (0.0, 95.0), (0.0, 2900.0)
    )
    frames = striker_unseen_between(found_again_under_a_new_track(frames), jump + 2, jump + 3)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - first) <= 2


def test_a_faint_lead_stands_only_for_a_piece_nothing_else_accounts_for() -> None:
    """A black gone between two looks and seen faintly on its way into a pocket (development
    video 9160) is pocketed there only if the counts need it and no sighting of the pocket watch
    or the tracker accounts for it; and a lead is never relabelled another colour."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    track_departures: list[ItemEvent] = []
    lead = ItemEvent("black", "SE", 4479, 149.3, -1, (354.0, -249.0), guess=True)
    before, after = Counter(white=1, black=4), Counter(white=1, black=3)
    kept, _, vanished, _ = reconcile_departures(track_departures, before, after, [], None, [], [lead])
    assert kept == [lead] and not vanished
    # Without it the black is taken for hidden: still on the board until a look finds it gone.
    kept, _, vanished, _ = reconcile_departures(track_departures, before, after, [], None, [], [])
    assert kept == [] and vanished == {"black": 1}
    # A drop the watch saw on confident looks comes first, later though it was.
    seen = ItemEvent("black", "NW", 4490, 149.7, -1, (-330.0, 331.0))
    kept, _, _, _ = reconcile_departures(track_departures, before, after, [seen], None, [], [lead])
    assert kept == [seen]
    # A white counted gone is not filled by a black's lead.
    kept, _, vanished, _ = reconcile_departures(
        track_departures, Counter(white=2, black=4), Counter(white=1, black=4), [], None, [], [lead]
    )
    assert kept == [] and vanished == {"white": 1}


def slid_along_its_line_then_struck(distance_mm: float, speed_mm_s: float) -> ScriptedMatch:
    """South's striker, put down, is slid `distance_mm` along its base line at `speed_mm_s`
    under the hand, lies there a second, and is struck: W1 into NE."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", -60.0)
    match.wait(0.5)
    k = match.index("S")
    spot = match.xy[k] + [distance_mm, 0.0]
    match.hands = (HandPose("S", (float(spot[0]), float(spot[1]) - 30.0), float(np.pi / 2)),)
    match.move({"S": (spot, speed_mm_s)})
    match.hands = ()
    match.wait(1.0)
    match.strike("S", target="W1", pocket="NE")
    return match


def last_run_before(frames: list[TrackFrame], first: int) -> tuple[int, int]:
    """The first and last frames of the striker's last run (seen moving) before frame `first`."""
    moving = [
        f.frame_index
        for f in frames
        if f.frame_index < first
        and np.any((f.class_id == STRIKER_CLASS) & (f.state == int(TrackState.MOVING)))
    ]
    return next(i for i in reversed(moving) if i - 1 not in moving), moving[-1]


def test_a_striker_slid_along_the_base_line_in_glimpses_under_a_hand_is_not_a_stroke() -> None:
    """South's striker is carried 130 mm along its base line at 300 mm/s under the hand, seen
    only every third look, and the hand over the coins by the line shifts their centres by
    6 mm. Seen again after a gap far from where it lay, it looked struck unseen, the shifted
    coins "moved" by it (development video 9165: a false stroke); but it was seen on its way,
    slowly, along the line."""

    def board() -> ScriptedMatch:
        return slid_along_its_line_then_struck(130.0, 300.0)

    truth = list(oracle_track_frames(board().timeline()))
    first, _ = strokes_of(record(board()))[0]["evidence"]["frames"]
    slide_from, slide_to = last_run_before(truth, first)  # the slide

    def glimpsed(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if slide_from <= frame.frame_index < slide_to + 3:
                if (frame.frame_index - slide_from) % 3:
                    frame = occluded(frame, frame.class_id == STRIKER_CLASS)
                xy = frame.xy_mm.copy()
                xy[frame.class_id != STRIKER_CLASS] += (4.5, -4.5)  # the hand over them
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, frame.track_id, frame.class_id, xy,
                    frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
                )  # fmt: skip
            yield frame

    strokes = strokes_of(record(board(), glimpsed(iter(truth))))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"])]


def test_a_coin_glimpsed_in_a_hand_and_put_down_while_the_striker_is_slid_unseen_is_no_unseen_strike() -> (
    None
):
    """South's striker is slid 180 mm along its base line under the hand, unseen all the way,
    while another hand brings a white to the board: glimpsed at the east cushion, unseen at
    the rest, and put down by the centre. Seen again far along its line, the striker looked
    struck unseen, the white "moved" 250 mm by it (held-out video 94005, `warm-lamp`: the
    slide was recorded as a stroke and the real one after it refused); but where a track
    unseen at the rest was last seen says nothing of where its piece lay."""

    def board() -> ScriptedMatch:
        return slid_along_its_line_then_struck(180.0, 150.0)

    truth = list(oracle_track_frames(board().timeline()))
    first, _ = strokes_of(record(board()))[0]["evidence"]["frames"]
    slide_from, slide_to = last_run_before(truth, first)
    white = CLASS_NAMES.index("white")

    def with_a_due_brought(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            i = frame.frame_index
            if slide_from <= i <= slide_to + 2:
                frame = occluded(frame, frame.class_id == STRIKER_CLASS)
            if i >= slide_from - 15:
                glimpsed, held = i < slide_from - 11, i < slide_from + 6
                xy = (300.0, 0.0) if held else (60.0, -100.0)
                state = TrackState.MOVING if glimpsed else TrackState.OCCLUDED if held else TrackState.AT_REST
                row = {
                    "track_id": [60_000],
                    "class_id": [white],
                    "xy_mm": [xy],
                    "velocity_mm_s": [(-200.0, 0.0) if glimpsed else (0.0, 0.0)],
                    "state": [int(state)],
                    "pocket": [NO_POCKET],
                    "score": [0.8],
                }
                rows = {k: np.concatenate([getattr(frame, k), np.asarray(v)]) for k, v in row.items()}
                frame = replace(frame, **rows)
            yield frame

    strokes = strokes_of(record(board(), with_a_due_brought(iter(truth))))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"])]
    assert abs(strokes[0]["evidence"]["frames"][0] - first) <= 2


def test_a_striker_set_down_with_a_jerk_across_its_line_is_not_struck() -> None:
    """South's striker is slid 60 mm along its base line at 140 mm/s under the hand and let go
    with a jerk: read 14 mm across the line, at 400 mm/s, the look it is set down, and the hand
    lifting off shifts the coins by the line for a few looks. As fast as a soft stroke, across
    the line; but it had not lain still there for an aim's time: it was being set down, not
    struck (development video 74017: a "stroke" the shifted coins confirmed, and the real one
    lost)."""

    def board() -> ScriptedMatch:
        return slid_along_its_line_then_struck(60.0, 140.0)

    truth = list(oracle_track_frames(board().timeline()))
    first, _ = strokes_of(record(board()))[0]["evidence"]["frames"]
    _, slide_to = last_run_before(truth, first)

    def jerked(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            k = frame.frame_index
            if slide_to <= k < first:
                striker = frame.class_id == STRIKER_CLASS
                xy, velocity = frame.xy_mm.copy(), frame.velocity_mm_s.copy()
                xy[striker] += (-6.0, 14.0)  # let go with a jerk across the line, lying there
                if k == slide_to:
                    velocity[striker] = (-250.0, 313.0)
                elif k <= slide_to + 4:
                    xy[~striker] += (4.5, -4.5)  # the hand lifting off over them
                frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity)
            yield frame

    strokes = strokes_of(record(board(), jerked(iter(truth))))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"])]


def south_pockets_a_white(striker_end: tuple[float, float]) -> ScriptedMatch:
    """The break made, South pockets W1 into NE and the striker stops at `striker_end`, left
    lying there (what a hand then does with it is the test's)."""
    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 40.0)
    m.strike("S", target="W1", pocket="NE", picked_up=False, striker_end=striker_end)
    return m


def carried_to_north_and_struck(m: ScriptedMatch, speed: float) -> tuple[int, int]:
    """A hand carries the striker from where it lies to North's base line at `speed` (mm/s);
    a second later North pockets B2. The frames the carry starts and ends at."""
    from calibration.geometry import seat_to_board

    carried = len(m._xy)
    m.move({"S": (seat_to_board("N", -40.0, BASE_LINE_MID_MM), speed)})
    arrived = len(m._xy)
    m.wait(1.0)
    m.strike("N", target="B2", pocket="SE")
    return carried, arrived


def test_a_striker_seen_again_where_it_lay_and_carried_across_in_sight_is_not_a_stroke() -> None:
    """South's striker stops behind South's base line, and a hand covers it a while (a dim
    lamp: unseen); seen there again for a look under the hand, it is carried across the board
    to North's base line in plain sight, as fast as a strike, its line over South's base band.
    It lay there all along: that look was no glimpse of it already in flight, and the carry
    no stroke from South (development video 9189: a stroke from nowhere, and North's real
    stroke after it missed)."""

    def board() -> tuple[ScriptedMatch, int, int, int]:
        m = south_pockets_a_white(striker_end=(0.0, -310.0))
        covered = len(m._xy)
        m.wait(1.5)
        glimpsed = len(m._xy)
        m.wait(0.3)
        carried, _ = carried_to_north_and_struck(m, 2000.0)
        return m, covered, glimpsed, carried

    m, covered, glimpsed, carried = board()
    frames = striker_occluded_between(
        striker_occluded_between(oracle_track_frames(m.timeline()), covered, glimpsed - 1),
        glimpsed + 1, carried + 2,
    )  # fmt: skip
    strokes = strokes_of(record(board()[0], frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def carried_in_a_hand(m: ScriptedMatch, to: tuple[float, float], frames: int) -> None:
    """A hand carries the striker from where it lies to `to` in `frames` frames: it speeds up
    from rest and slows into the spot (half a cosine)."""
    k = m.index("S")
    start = m.xy[k].copy()
    for f in range(1, frames + 1):
        u = 0.5 - 0.5 * np.cos(np.pi * f / frames)
        m.xy[k] = start + u * (np.asarray(to) - start)
        m._sample()


@pytest.mark.xfail(
    strict=True,
    reason="not mended: judged by its speeding up, the tracker's estimate catching up after a strike "
    "or a cushion (development videos 98000, 94018) looked the same, and real strokes were lost",
)
def test_a_striker_seen_speeding_up_across_the_board_was_carried_not_struck() -> None:
    """South pockets a white and the striker stops behind South's base line. A hand takes it
    (its track lost under it), carries it across the board, found anew speeding up look
    after look from 1.2 to 1.9 m/s, and puts it down on North's line (unseen again); a second
    later North strikes from there and pockets B2. A struck striker only slows: the carry was
    no stroke from South, and North's stroke is North's (held-out video 97005, `tournament`,
    development data since: a stroke from the carry, and the real one lost with its white).
    Not mended: the recorder still takes the carry for a stroke (the xfail's reason)."""
    from calibration.geometry import seat_to_board

    def board() -> tuple[ScriptedMatch, int, int]:
        m = south_pockets_a_white(striker_end=(200.0, -339.0))
        m.wait(0.5)
        carried = len(m._xy)
        carried_in_a_hand(m, tuple(seat_to_board("N", -40.0, BASE_LINE_MID_MM)), 16)
        m.wait(1.0)
        m.strike("N", target="B2", pocket="SE")
        return m, carried

    def striker_found_anew(frames: Iterator[TrackFrame], lost: int, found: int) -> Iterator[TrackFrame]:
        # The tracker drops the striker's track at `lost` and finds it under a new id at `found`.
        for frame in frames:
            striker = frame.class_id == STRIKER_CLASS
            if lost <= frame.frame_index < found:
                frame = frame.select(~striker)
            elif frame.frame_index >= found:
                ids = np.where(striker, 30_000, frame.track_id)
                frame = TrackFrame(
                    frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm,
                    frame.velocity_mm_s, frame.state, frame.pocket, frame.score,
                )  # fmt: skip
            yield frame

    m, carried = board()
    # Lost under the hand as it takes the striker, found anew on South's base band three frames
    # on, already at 1.2 m/s; under the hand again as it is put down.
    frames = striker_found_anew(oracle_track_frames(m.timeline()), carried, carried + 3)
    frames = striker_occluded_between(frames, carried + 10, carried + 16)
    strokes = strokes_of(record(m, frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_striker_lifted_off_where_it_lay_and_swept_across_in_sight_is_not_a_stroke() -> None:
    """South pockets a white and its striker stops behind South's base line. North's hand
    covers it, slides it 18 mm towards the line under the fingers (seen there for one look,
    its speed measured across the cover: still) and sweeps it across the board at a strike's
    speed to North's base line, where North strikes. The sweep moved nothing and left the
    striker on another player's line: it was carried, not struck from South (development
    video 9304: a stroke from West, and East's real one lost under it)."""
    from calibration.geometry import seat_to_board

    def board() -> tuple[ScriptedMatch, int, int, int]:
        m = south_pockets_a_white(striker_end=(40.0, -287.0))
        m.wait(0.5)
        lifted = len(m._xy)
        m.move({"S": (np.array([40.0, -269.0]), 200.0)})
        m.wait(1.0 / 30.0)
        swept = len(m._xy) - 1
        m.move({"S": (seat_to_board("N", -40.0, BASE_LINE_MID_MM), 1200.0)})
        arrived = len(m._xy)
        m.wait(1.0)
        m.strike("N", target="B2", pocket="SE")
        return m, lifted, swept, arrived

    m, lifted, swept, arrived = board()
    # Under the hand while it is lifted; seen set down for a look and off at speed in the
    # next; then under the hand again until it is put down.
    frames = striker_occluded_between(oracle_track_frames(m.timeline()), lifted, swept - 1)
    frames = striker_occluded_between(frames, swept + 2, arrived - 1)
    strokes = strokes_of(record(m, frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_striker_nudged_off_where_it_lay_and_aimed_there_is_struck_even_if_it_moves_nothing() -> None:
    """South's striker stops on North's base line; North nudges it 17 mm into place, lets it
    lie a second and strikes it: it touches nothing and rolls to rest on South's line. Lying
    still where it was nudged for an aim's time, it was aimed, not lifted to be carried off:
    a stroke from North (held-out video 98003, `tournament`, development data since: such a
    stroke was taken for a carry and lost, one stroke fewer than the truth)."""
    m = south_pockets_a_white(striker_end=(150.0, 267.0))
    m.wait(0.5)
    m.move({"S": (np.array([150.0, 250.0]), 60.0)})
    m.wait(1.0)
    m.strike("N", speed=1200.0, striker_end=(150.0, -271.0))  # clear of the pack
    m.put_striker("S", -30.0)
    m.strike("S", target="B2", pocket="SE")
    strokes = strokes_of(record(m, oracle_track_frames(m.timeline())))
    assert [(s["evidence"]["seat"], s["pocketed"], s["touched"]) for s in strokes] == [
        ("S", ["white"], True),
        ("N", [], False),
        ("S", ["black"], True),
    ]


def south_misses_north_pockets(north_speed: float = 3000.0) -> ScriptedMatch:
    """South moves W3 and pockets nothing; North, whose turn it is then, pockets B2 (sent
    off at 0.6 times `north_speed`)."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 10.0)
    match.strike("S", target="W3")
    match.put_striker("N", -30.0)
    match.strike("N", target="B2", pocket="SE", speed=north_speed)
    return match


# The coin flies at 0.6 of that: at 0.72 m/s only its heading into a pocket tells of a strike
# (development video 9319: a dim lamp's gentle stroke).
@pytest.mark.parametrize("north_speed", [3000.0, 1800.0, 1200.0])
def test_a_stroke_whose_striker_is_seen_neither_aimed_nor_struck_is_left_to_whose_turn_it_is(
    north_speed: float,
) -> None:
    """North's striker is not seen from the moment South's stroke ends (a dim lamp: carried,
    aimed and struck unseen, development video 9189); only the coin it sends flying, as fast
    as only a strike sends one (1.1 m/s and more: development video 9191), tells of the
    stroke. Where it was struck from nobody saw: the log leaves the player to the laws, whose
    turn it is, and says why."""

    def board() -> ScriptedMatch:
        return south_misses_north_pockets(north_speed)

    clean = strokes_of(record(board()))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in clean] == [("S", []), ("N", ["black"])]
    _, last = clean[0]["evidence"]["frames"]
    frames = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, 10**9)
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    strokes = strokes_of(record(board(), frames, recorder))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", []), (None, ["black"])]
    blind = strokes[1]
    assert "player" not in blind and blind["touched"] is True
    assert blind["evidence"]["striker_start_mm"] is None and blind["evidence"]["striker_position"] is None
    assert "strike_unseen" in blind["evidence"]
    # A gentle one is told only near the pocket: later, but within what `vision.eval` takes
    # for the same stroke.
    late = 12 if north_speed >= 1800.0 else 20
    assert blind["evidence"]["frames"][0] <= clean[1]["evidence"]["frames"][0] + late
    # The laws give it to Ben, North, whose turn it was.
    _, rulings = replay(parse_log(recorder.log()))
    assert [r.player for r in rulings if r.event == "stroke"] == ["Asha", "Ben"]


def striker_carried_as_a_coin_between(
    frames: Iterator[TrackFrame], first: int, last: int
) -> Iterator[TrackFrame]:
    """From `first` to `last` the carried striker is read as a white coin, and the tracker hands
    it the track of the first white on the board (that coin's own look dropped meanwhile)."""
    white = CLASS_NAMES.index("white")
    for frame in frames:
        if first <= frame.frame_index <= last:
            striker = frame.class_id == STRIKER_CLASS
            coin = int(frame.track_id[frame.class_id == white].min())
            keep = frame.track_id != coin
            ids, classes = frame.track_id.copy(), frame.class_id.copy()
            ids[striker], classes[striker] = coin, white
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, classes, frame.xy_mm, frame.velocity_mm_s,
                frame.state, frame.pocket, frame.score,
            ).select(keep)  # fmt: skip
        yield frame


def held_coin_read_as_a_black_between(
    frames: Iterator[TrackFrame], first: int, last: int
) -> Iterator[TrackFrame]:
    """From `first` to `last` the coin carried in a hand is read as a black, and the tracker
    hands it the track of the first black on the board, hidden under that hand meanwhile."""
    black = CLASS_NAMES.index("black")
    for frame in frames:
        held = frame.state == int(TrackState.HELD)
        if first <= frame.frame_index <= last and held.any():
            coin = int(frame.track_id[frame.class_id == black].min())
            keep = frame.track_id != coin
            ids, classes, states = frame.track_id.copy(), frame.class_id.copy(), frame.state.copy()
            ids[held], classes[held], states[held] = coin, black, int(TrackState.MOVING)
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, classes, frame.xy_mm, frame.velocity_mm_s,
                states, frame.pocket, frame.score,
            ).select(keep)  # fmt: skip
        yield frame


def test_no_stroke_is_struck_while_the_striker_lies_in_the_pocket_it_fell_into() -> None:
    """South pockets a white and the striker with it (law 58: the white and a due are put
    back, South plays on). While the striker still lies in the corner, the second white is
    carried in fast, read as a black, and the tracker hands it the track of a black hidden
    under the hand: a black "flies" at a strike's speed with no striker anywhere (held-out
    video 81001, `warm-lamp`, development data since: a stroke nobody played was recorded,
    the placing missed and the next stroke's white with it). No stroke is struck without the
    striker: until it is seen again, what flies is in a hand."""

    def board() -> tuple[ScriptedMatch, int, int]:
        m = one_stroke_board()  # South's break sends W3 into NW
        m.put_striker("S", 40.0)
        m.strike("S", target="W1", pocket="NE", striker_pocket="NE")
        m.wait(1.5)
        m.place("W1", (32.0, 6.0))
        carried = len(m._xy)
        m.place("W3", (-35.0, -8.0), speed=2400.0, from_mm=240.0)
        m.put_striker("S", 100.0)
        m.strike("S", target="W2", pocket="SW")
        return m, carried, carried + 6

    m, first, last = board()
    frames = held_coin_read_as_a_black_between(oracle_track_frames(m.timeline()), first, last)
    events = record(m, frames)
    strokes = strokes_of(events)
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [
        ("S", ["white"]),
        ("S", ["white", "striker"]),
        ("S", ["white"]),
    ]
    assert [e["items"] for e in events if e["type"] == "placed"] == [["white", "white"]]


def test_a_due_put_back_unseen_and_counted_strokes_later_is_placed_late() -> None:
    """South pockets a white and the striker with it (law 58: the white and a due are put
    back). The due, put down by the centre, is not seen until the next stroke is under way
    (held-out video 84003, `phone`, development data since: read at 0.26 on the washed-out
    board): the placing records one white of the two owed, and the laws forfeit the other
    (law 83). Counted at the following strike in the placing zone, beyond the board's count,
    it is put back then, with a note, and the white pocketed later is believed."""

    def board() -> ScriptedMatch:
        m = one_stroke_board()  # South's break sends W3 into NW
        m.put_striker("S", 40.0)
        m.strike("S", target="W1", pocket="NE", striker_pocket="NE")
        m.wait(1.5)
        m.place("W1", (32.0, 6.0))
        m.place("W3", (-35.0, -8.0))
        m.put_striker("S", 100.0)
        m.strike("S", target=None)
        m.put_striker("N", 0.0)
        m.strike("N", target=None)
        m.put_striker("S", -100.0)
        m.strike("S", target="W2", pocket="SW")
        return m

    clean = record(board())
    assert [e["items"] for e in clean if e["type"] == "placed"] == [["white", "white"]]
    strokes = strokes_of(clean)
    assert [s["pocketed"] for s in strokes] == [["white"], ["white", "striker"], [], [], ["white"]]
    placed_at, _ = strokes[2]["evidence"]["frames"]
    due = (-35.0, -8.0)

    def unseen_until(last: int) -> Iterator[TrackFrame]:
        for frame in oracle_track_frames(board().timeline()):
            if strokes[1]["evidence"]["frames"][1] <= frame.frame_index <= last:
                frame = frame.select(np.linalg.norm(frame.xy_mm - np.array(due), axis=1) > 1.0)
            yield frame

    # Seen from just after the next strike on: a placing of one, then the other put back late.
    events = record(board(), unseen_until(placed_at + 5))
    placed = [e for e in events if e["type"] == "placed"]
    assert [e["items"] for e in placed] == [["white"], ["white"]]
    assert placed[1]["evidence"]["counted_late"] == ["white"]
    strokes = strokes_of(events)
    assert [s["pocketed"] for s in strokes] == [["white"], ["white", "striker"], [], [], ["white"]]
    last = strokes[4]["evidence"]
    assert last["counts_before"]["white"] == last["counts_after"]["white"] + 1
    # Never seen at all: nothing is put back late.
    events = record(board(), unseen_until(10**6))
    assert [e["items"] for e in events if e["type"] == "placed"] == [["white"]]


def last_white_unseen_between(
    frames: Iterator[TrackFrame], first: int, last: int, faint_peak: bool
) -> Iterator[tuple[TrackFrame, Detections]]:
    """From `first` to `last` the last white on the board is not found (a dim lamp), at most
    (`faint_peak`) a faint white peak where it lies: each frame with the faint peaks of its
    look."""
    white = CLASS_NAMES.index("white")
    for frame in frames:
        faint = Detections.empty()
        if first <= frame.frame_index <= last:
            coin = frame.track_id == frame.track_id[frame.class_id == white].max()
            if faint_peak:
                faint = Detections(frame.xy_mm[coin], frame.class_id[coin], np.full(int(coin.sum()), 0.3))
            frame = frame.select(~coin)
        yield frame, faint


def handed_on_from(frames: Iterator[TrackFrame], first: int, giver: int, taker: int) -> Iterator[TrackFrame]:
    """From `first` on the tracker follows the piece of track `taker` under track `giver`, and
    `giver`'s own piece goes unfollowed."""
    for frame in frames:
        if frame.frame_index >= first:
            ids = frame.track_id.copy()
            ids[ids == taker] = giver
            keep = frame.track_id != giver
            frame = TrackFrame(
                frame.frame_index, frame.time_s, ids, frame.class_id, frame.xy_mm, frame.velocity_mm_s,
                frame.state, frame.pocket, frame.score,
            ).select(keep)  # fmt: skip
        yield frame


@pytest.mark.parametrize("white", ["seen", "found lying meanwhile", "faint, handed the track"])
def test_a_striker_carried_fast_as_a_coin_while_unseen_as_the_striker_is_not_a_stroke(white: str) -> None:
    """South's striker is left lying behind South's base line, unseen (a dim lamp); a hand
    carries it to North's base line as fast as a strike, and the detector reads it as a white
    coin all the way (the tracker hands it a white's track). A coin flying that fast with the
    striker nowhere in sight starts a stroke nobody saw struck; but nothing on the board
    moved: it was the carry, and North's stroke after it is North's (development video
    9189). Nor does a white lying unseen until the carry (found then, or faint and then
    handed the carried track: development video 9175) make the board changed."""

    def board() -> tuple[ScriptedMatch, int, int, int]:
        m = ScriptedMatch()
        m.new_board("S")
        m.put_striker("S", 10.0)
        m.strike("S", target="W3", picked_up=False, striker_end=(0.0, -310.0))
        covered = len(m._xy)
        m.wait(1.5)
        carried, arrived = carried_to_north_and_struck(m, 2000.0)
        return m, covered, carried, arrived

    m, covered, carried, arrived = board()
    hidden = striker_occluded_between(oracle_track_frames(m.timeline()), covered, carried - 1)
    frames = striker_carried_as_a_coin_between(hidden, carried, arrived)
    until = {"seen": -1, "found lying meanwhile": carried + 5, "faint, handed the track": arrived}
    if white == "faint, handed the track":
        lying = list(oracle_track_frames(m.timeline()))[covered]
        whites = lying.track_id[lying.class_id == CLASS_NAMES.index("white")]
        frames = handed_on_from(frames, arrived + 1, giver=int(whites.min()), taker=int(whites.max()))
    looks = last_white_unseen_between(
        frames, covered - 25, until[white], faint_peak=white.startswith("faint")
    )
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    for frame, faint in looks:
        recorder.update(frame, faint=faint)
    timeline = m.timeline()
    recorder.finish(timeline.num_frames, timeline.num_frames / timeline.fps)
    strokes = strokes_of(recorder.log()["events"])
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", []), ("N", ["black"])]


def test_a_coin_flying_a_moment_after_the_striker_was_seen_under_a_track_since_dropped_is_no_strike() -> None:
    """South's striker, left lying by the east cushion, is seen carried off at 2 m/s for two
    looks; the tracker then drops its track, and a white's track is handed it for the rest of
    the carry to North's base line, where North strikes a moment after it is put down. The
    striker was seen a moment before that "white" flew: no coin was struck unseen (development
    video 9324, `worn`: a stroke begun 35 frames before North's, which it swallowed)."""

    def board() -> tuple[ScriptedMatch, int, int]:
        from calibration.geometry import seat_to_board

        m = south_pockets_a_white(striker_end=(330.0, 0.0))
        m.wait(1.5)
        carried = len(m._xy)
        m.move({"S": (seat_to_board("N", -40.0, BASE_LINE_MID_MM), 2000.0)})
        arrived = len(m._xy)
        m.wait(0.15)
        m.strike("N", target="B2", pocket="SE")
        return m, carried, arrived

    m, carried, arrived = board()
    clean = strokes_of(record(m))
    frames = striker_carried_as_a_coin_between(oracle_track_frames(m.timeline()), carried + 2, arrived)
    strokes = strokes_of(record(m, frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - clean[1]["evidence"]["frames"][0]) <= 2


def test_a_coins_track_jumping_back_onto_its_own_spot_is_no_unseen_strike() -> None:
    """North's striker is never seen (as above). A moment before North strikes, a hand's
    false coin takes a white's track 200 mm off for a look, and the next look the track is
    handed back to the white where it lies: a "flight" at 6 m/s onto its own spot, no coin
    struck (development video 9189). The stroke starts when North strikes, not then."""
    board = south_misses_north_pockets
    clean = strokes_of(record(board()))
    _, last = clean[0]["evidence"]["frames"]
    first, _ = clean[1]["evidence"]["frames"]
    dart = first - 5

    def last_white(frame: TrackFrame) -> np.ndarray:
        which = np.zeros(len(frame.track_id), dtype=bool)
        which[np.flatnonzero(frame.class_id == CLASS_NAMES.index("white"))[-1]] = True
        return which

    hidden = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, 10**9)
    off = taken_over_for_a_look(hidden, dart, last_white, lambda xy: xy + (200.0, 0.0), (900.0, 0.0))
    frames = taken_over_for_a_look(off, dart + 1, last_white, lambda xy: xy, (-6000.0, 0.0))
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", []), (None, ["black"])]
    assert strokes[1]["evidence"]["frames"][0] >= first - 2


def test_a_striker_glimpsed_once_on_its_base_line_after_a_while_unseen_is_struck_from_there() -> None:
    """North's dim striker is unseen from the end of South's stroke; it is seen once where
    North aimed it, its speed read across the gap (650 mm/s: whether it lies there that says
    nothing of), and next only half a second into its soft run. Flying away from that look,
    on its line: struck from there (development video 9191: a stroke missed)."""
    board = soft_north_stroke
    clean = strokes_of(record(board()))
    _, last = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]
    glimpse = first - 10

    def striker(frame: TrackFrame) -> np.ndarray:
        return frame.class_id == STRIKER_CLASS

    frames = striker_occluded_between(oracle_track_frames(board().timeline()), last + 1, glimpse - 1)
    frames = taken_over_for_a_look(frames, glimpse, striker, lambda xy: xy, (0.0, -650.0))
    frames = striker_occluded_between(frames, glimpse + 1, first + 15)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    start = np.array(strokes[-1]["evidence"]["striker_start_mm"])
    assert np.linalg.norm(start - np.array(clean[-1]["evidence"]["striker_start_mm"])) < 5.0
    assert "striker_start_traced" not in strokes[-1]["evidence"]


def test_a_stroke_whose_striker_left_the_tracks_altogether_is_known_by_the_coin_it_sends_flying() -> None:
    """As above, but the tracker lets the striker's track go at the end of South's stroke and
    never finds the striker again (development video 9191): no track was ever seen in a hand,
    and a coin flying as only a strike sends one still tells of the stroke."""
    board = south_misses_north_pockets
    _, last = strokes_of(record(board()))[0]["evidence"]["frames"]
    frames = striker_unseen_between(oracle_track_frames(board().timeline()), last + 1, 10**9)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", []), (None, ["black"])]


def test_a_striker_fished_out_of_a_pocket_and_carried_off_at_once_is_not_a_stroke() -> None:
    """South's striker falls into a pocket; well within a second of the stroke's end a hand
    has fished it out and carries it north across the board at 0.8 m/s, seen (hidden for a
    look under the hand), its line back crossing South's base band; North then strikes.
    Fetched, put down, aimed and struck takes longer than that: no stroke from South
    (development video 9191: an extra stroke)."""

    def board() -> tuple[ScriptedMatch, int]:
        m = ScriptedMatch()
        m.new_board("S")
        m.put_striker("S", 40.0)
        m.strike("S", target="W1", pocket="NE", striker_pocket="SE", picked_up=False)
        s = m.index("S")
        m.xy[s], m.state[s], m.pocket[s] = (0.0, -180.0), 0, -1
        m.wait(1 / m.fps)
        hidden = len(m._xy)
        m.move({"S": (np.array([0.0, 100.0]), 800.0)})
        m.move({"S": (np.array([-30.0, BASE_LINE_MID_MM]), 300.0)})
        m.wait(1.0)
        m.strike("N", target="B2", pocket="SE")
        return m, hidden

    m, hidden = board()
    frames = striker_occluded_between(oracle_track_frames(m.timeline()), hidden, hidden)
    strokes = strokes_of(record(m, frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [
        ("S", ["white", "striker"]),
        ("N", ["black"]),
    ]


def test_a_striker_lifted_onto_its_base_line_and_carried_unseen_to_the_opposite_one_is_not_a_stroke() -> None:
    """South's striker stops just behind South's base line; a hand lifts it onto the line
    (16 mm: put somewhere else) and carries it, unseen, across to North's base line, where
    it is found lying 0.7 s later. Struck from South's, it would have moved something or
    stopped anywhere but on a base line: it was carried there for North's stroke
    (development video 9203: an extra stroke, and North's real one lost under it)."""

    def board() -> tuple[ScriptedMatch, int, int]:
        m = south_pockets_a_white(striker_end=(40.0, -278.0))
        m.move({"S": (np.array([40.0, -262.0]), 100.0)})
        m.wait(0.1)
        carried, arrived = carried_to_north_and_struck(m, 800.0)
        return m, carried, arrived

    m, carried, arrived = board()
    frames = striker_occluded_between(oracle_track_frames(m.timeline()), carried, arrived - 1)
    strokes = strokes_of(record(m, frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_striker_lifted_off_the_far_line_and_carried_across_in_glimpses_is_not_a_stroke() -> None:
    """South pockets a white and its striker stops on North's base line; South's hand lifts it
    16 mm (seen set down a moment), carries it across the board, glimpsed mid-way at a
    strike's speed, and puts it on South's line to strike again. Found far from where it
    rested, it looked struck unseen from North's line; but it had barely left where the
    stroke left it, nothing moved, and it lies on another player's line: it was carried
    (development video 9204: a stroke from North, and South's real one then refused as a
    striker picked up where a stroke left it)."""
    from calibration.geometry import seat_to_board

    def board() -> tuple[ScriptedMatch, int, int, int]:
        m = south_pockets_a_white(striker_end=(40.0, 267.0))
        lifted = len(m._xy)
        m.move({"S": (np.array([40.0, 251.0]), 100.0)})
        m.wait(0.1)
        carried = len(m._xy)
        m.move({"S": (seat_to_board("S", -40.0, BASE_LINE_MID_MM), 1000.0)})
        arrived = len(m._xy)
        m.wait(1.0)
        m.strike("S", target="B2", pocket="SE")
        return m, lifted, carried, arrived

    m, lifted, carried, arrived = board()
    # Under the hand while it lifts it; seen set down, twice; then once mid-way, twice.
    frames = striker_occluded_between(oracle_track_frames(m.timeline()), lifted, lifted + 4)
    frames = striker_occluded_between(frames, lifted + 7, carried + 5)
    frames = striker_occluded_between(frames, carried + 8, arrived - 1)
    strokes = strokes_of(record(m, frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("S", ["black"])]


def test_a_piece_seen_falling_into_a_hole_outweighs_a_faint_one_lying_at_its_mouth() -> None:
    """A white seen over a pocket's hole, falling in, while the count at rest holds a faint
    "white" at that pocket's mouth that no white lay at when the stroke began: the piece down
    in the hole, seen faintly (held-out video 71013, development data since: its track, kept
    on by that faint peak, "lay" there and the pocketing was taken back). Not a faint piece at
    another pocket, nor one that lay there at the strike (`faint_by_holes` leaves it out)."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    in_hole = ItemEvent("white", "SW", 1819, 60.6, -1, (-340.0, -341.0))
    counts = Counter(white=6, black=4)
    kept, _, vanished, overruled = reconcile_departures(
        [], counts, counts, [], None, [in_hole], None, Counter(white=1), [("white", "SW")]
    )
    assert kept == [in_hole] and overruled == Counter(white=1) and not vanished
    for by_holes in ([("white", "NE")], [("black", "SW")], []):
        kept, _, _, overruled = reconcile_departures(
            [], counts, counts, [], None, [in_hole], None, Counter(white=1), by_holes
        )
        assert kept == [] and not overruled
    # The faint piece counted surely after all: the count stands.
    kept, _, _, overruled = reconcile_departures(
        [], counts, counts, [], None, [in_hole], None, Counter(), [("white", "SW")]
    )
    assert kept == [] and not overruled


def test_a_pocketing_seen_both_ways_outweighs_a_piece_the_looks_counted_beyond_the_belief() -> None:
    """From the first stroke's end the looks count a white more than the board is believed to
    hold (a white lying at a corner's mouth that was taken for pocketed, read there again:
    held-out video 85018, `warm-lamp`, development data since). At the next stroke a white is
    seen leaving into the north-east corner and over its hole, and the count of whites does
    not drop: the piece the belief never knew of gave way, not the pocketing. Without the
    sighting over the hole, or with the extra white first read after the strike, the count
    stands."""
    match = nudge_then_pocket_board()
    plain = strokes_of(record(match))
    assert [s["pocketed"] for s in plain] == [[], ["white"]]
    _, first_closed = plain[0]["evidence"]["frames"]
    (fell,) = [e["frame"] for e in plain[1]["evidence"]["pocket_events"]]
    ghost_mm = np.array([-250.0, 120.0])  # well clear of the placing zone and of every piece
    assert np.hypot(*ghost_mm) > PLACING_ZONE_MM
    white = CLASS_NAMES.index("white")
    in_hole = Detections(pocket_centre("NE")[None, :], np.array([white]), np.array([0.7]))

    def run(ghost_from: int, ghost_until: int, hole_seen: bool) -> list[dict]:
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for frame in oracle_track_frames(match.timeline()):
            on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            detections = Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on])
            if ghost_from <= frame.frame_index <= ghost_until:
                frame = with_a_white_at(frame, ghost_mm, TrackState.AT_REST, 0.9)
                ghost = Detections(ghost_mm[None], np.array([white]), np.array([0.9]))
                detections = Detections.merge([detections, ghost])
            over_holes = in_hole if hole_seen and fell - 1 <= frame.frame_index <= fell + 1 else None
            recorder.update(frame, detections, over_holes)
        timeline = match.timeline()
        recorder.finish(timeline.num_frames, timeline.num_frames / timeline.fps)
        return strokes_of(recorder.log()["events"])

    end = match.timeline().num_frames
    _, second = run(first_closed + 5, end, hole_seen=True)
    assert second["evidence"]["counts_before"]["white"] == 9
    assert second["pocketed"] == ["white"]
    assert [(e["item"], e["pocket"]) for e in second["evidence"]["pocket_events"]] == [("white", "NE")]
    assert second["evidence"]["counts_after"]["white"] == 8
    # Seen leaving only: the count stands, the pocketing is dropped.
    assert run(first_closed + 5, end, hole_seen=False)[1]["pocketed"] == []
    # The extra white first read after the strike: the looks at the strike agreed with the
    # belief, and the count, not the sighting, is believed.
    assert fell + 2 < second["evidence"]["frames"][1]
    assert run(fell + 2, end, hole_seen=True)[1]["pocketed"] == []


def test_a_faint_spot_counted_beyond_the_belief_and_still_lying_there_keeps_no_pocketed_piece() -> None:
    """From the first stroke's end the looks count a faint white more than the board is
    believed to hold (the gap between a black and a corner's hole, read as a white at 0.22 to
    0.32: held-out video 91017, `phone`, development data since). At the next stroke a white
    is seen leaving into the north-east corner, and the faint spot still lies where it lay at
    the strike: the looks lost a white, and the pocketing stands, seen one way. A faint spot
    first read after the strike was no part of the count at the strike, and the count stands."""
    match = nudge_then_pocket_board()
    plain = strokes_of(record(match))
    _, first_closed = plain[0]["evidence"]["frames"]
    (fell,) = [e["frame"] for e in plain[1]["evidence"]["pocket_events"]]
    gap_mm = np.array([-250.0, 120.0])  # well clear of the placing zone and of every piece
    white = CLASS_NAMES.index("white")

    def run(gap_from: int) -> dict:
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for frame in oracle_track_frames(match.timeline()):
            on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            detections = Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on])
            if frame.frame_index >= gap_from:
                frame = with_a_white_at(frame, gap_mm, TrackState.AT_REST, 0.3)
                gap = Detections(gap_mm[None], np.array([white]), np.array([0.3]))
                detections = Detections.merge([detections, gap])
            recorder.update(frame, detections, None)
        timeline = match.timeline()
        recorder.finish(timeline.num_frames, timeline.num_frames / timeline.fps)
        return strokes_of(recorder.log()["events"])[1]

    second = run(first_closed + 5)
    assert second["evidence"]["counts_before"]["white"] == 9
    assert second["pocketed"] == ["white"]
    assert second["evidence"]["counts_after"]["white"] == 8
    assert fell + 2 < second["evidence"]["frames"][1]
    assert run(fell + 2)["pocketed"] == []


_COLOURS = ("white", "black", "queen")


@st.composite
def _sightings(draw: st.DrawFn) -> list:
    """Departures as the watch, the tracker and the holes report them: a colour, a pocket, a
    frame, and where it was last seen (at the mouth or further off)."""
    from calibration.geometry import pocket_centre
    from vision.events.departures import ItemEvent

    events = []
    for k in range(draw(st.integers(0, 4))):
        pocket = draw(st.sampled_from(list(POCKETS)))
        off = draw(st.sampled_from([10.0, 30.0, 80.0]))
        centre = pocket_centre(pocket)
        xy = centre - np.sign(centre) * off / np.sqrt(2.0)
        frame = draw(st.integers(100, 130))
        item = draw(st.sampled_from(_COLOURS))
        events.append(ItemEvent(item, pocket, frame, frame / 30.0, k, (float(xy[0]), float(xy[1]))))
    return events


@settings(max_examples=200, deadline=None)
@given(
    _sightings(),
    _sightings(),
    _sightings(),
    st.fixed_dictionaries({c: st.integers(0, 3) for c in _COLOURS}),
    st.fixed_dictionaries({c: st.integers(0, 3) for c in _COLOURS}),
    st.fixed_dictionaries({c: st.integers(0, 2) for c in _COLOURS}),
    st.fixed_dictionaries({c: st.integers(0, 2) for c in _COLOURS}),
)
def test_reconciling_believes_no_more_gone_than_the_counts_and_the_pieces_that_give_way(
    tracked: list, watched: list, in_holes: list, before: dict, drop: dict, faint: dict, unbelieved: dict
) -> None:
    """However the sightings fall: per colour, no more pieces are believed gone than the count
    at rest dropped by, plus what gives way in the count after (faint pieces, or pieces the
    looks at the strike counted beyond the belief; never more than the count holds), and each
    one that gives way does so for a pocketing, not a guess or a piece off the board."""
    from vision.events.reconcile import reconcile_departures

    before_c = Counter(before)
    after_c = Counter({c: max(0, before[c] - drop[c]) for c in _COLOURS})
    track_departures = [replace(e, track_id=e.track_id + 100) for e in tracked]
    kept, _, vanished, overruled = reconcile_departures(
        track_departures, before_c, after_c, watched, None, in_holes, None, Counter(faint), None, None,
        Counter(unbelieved),
    )  # fmt: skip
    for c in _COLOURS:
        gives_way = min(max(faint[c], unbelieved[c]), after_c[c])
        assert overruled[c] <= gives_way
        assert sum(1 for e in kept if e.item == c) <= before_c[c] - after_c[c] + overruled[c]
        assert vanished.get(c, 0) <= before_c[c] - after_c[c]
    assert all(e.pocket is not None for e in kept if overruled[e.item])


def test_a_pocketing_seen_both_ways_outweighs_a_faint_piece_in_the_count() -> None:
    """A white seen leaving into a pocket by the watch and seen over that pocket's hole, while
    the count at rest still holds a faint "white" (a gap between black coins read at 0.5:
    held-out video 64011, development data since, the board's last white, its result lost).
    The faint piece gives way; a sure count does not, nor does a sighting the hole did not
    confirm."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    track_departures: list[ItemEvent] = []
    white = ItemEvent("white", "SW", 4350, 145.0, -1, (-330.6, -334.4))
    in_hole = ItemEvent("white", "SW", 4350, 145.0, -1, (-338.1, -338.9))
    counts = Counter(white=1, black=3)
    kept, _, vanished, overruled = reconcile_departures(
        track_departures, counts, counts, [white], None, [in_hole], None, Counter(white=1)
    )
    assert kept == [white] and overruled == Counter(white=1) and not vanished
    # The count's white seen surely: the counts stand.
    kept, _, _, overruled = reconcile_departures(
        track_departures, counts, counts, [white], None, [in_hole], None, Counter()
    )
    assert kept == [] and not overruled
    # Not seen over the hole: the watch's drop alone does not outweigh the count.
    kept, _, _, overruled = reconcile_departures(
        track_departures, counts, counts, [white], None, [], None, Counter(white=1)
    )
    assert kept == [] and not overruled
    # A black seen over the hole confirms no white.
    black_hole = ItemEvent("black", "SW", 4350, 145.0, -1, (-338.1, -338.9))
    kept, _, _, overruled = reconcile_departures(
        track_departures, counts, counts, [white], None, [black_hole], None, Counter(white=1)
    )
    assert not overruled
    # Counted gone already, the white needs nothing overruled.
    kept, _, _, overruled = reconcile_departures(
        track_departures, counts, Counter(black=3), [white], None, [in_hole], None, Counter(white=1)
    )
    assert kept == [white] and not overruled
    # Its track lost at the pocket's mouth and the hole's sighting (64008, 47 s in; the watch
    # missed the drop): seen going both ways too. A track projected from far off is not.
    at_mouth = ItemEvent("white", "SW", 4351, 145.033, 23, (-335.0, -328.0))
    projected = ItemEvent("white", "SW", 4351, 145.033, 23, (-250.0, -300.0))
    for tracked, believed in ((at_mouth, True), (projected, False)):
        track_departures = [tracked]
        kept, _, _, overruled = reconcile_departures(
            track_departures, counts, counts, [], None, [in_hole], None, Counter(white=1)
        )
        assert bool(overruled) == believed and len(kept) == int(believed)
    track_departures = []
    # A piece seen leaving twice as it sank, 0.3 s apart (64008's break): one white, the one
    # the counts need.
    first = ItemEvent("white", "NE", 90, 3.0, -1, (329.2, 336.2))
    again = ItemEvent("white", "NE", 99, 3.3, -1, (336.6, 332.0))
    sinking = ItemEvent("white", "NE", 99, 3.3, -1, (343.0, 342.9))
    kept, _, _, overruled = reconcile_departures(
        track_departures,
        Counter(white=9),
        Counter(white=8),
        [first, again],
        None,
        [sinking],
        None,
        Counter(white=1),
    )
    assert kept == [first] and not overruled
    # The queen seen going into the same pocket 3 frames after the white, both seen both ways
    # (held-out video 69007, development data since): another piece, and the white still
    # outweighs a faint "white" in the count.
    white = ItemEvent("white", "SE", 4212, 140.4, -1, (335.0, -330.0))
    white_hole = ItemEvent("white", "SE", 4212, 140.4, -1, (340.0, -338.0))
    queen = ItemEvent("queen", "SE", 4215, 140.5, -1, (343.8, -317.7))
    queen_hole = ItemEvent("queen", "SE", 4215, 140.5, -1, (341.0, -337.0))
    kept, _, _, overruled = reconcile_departures(
        [],
        Counter(white=1, black=4, queen=1),
        Counter(white=1, black=4),
        [white, queen],
        None,
        [white_hole, queen_hole],
        None,
        Counter(white=1),
    )
    assert sorted(e.item for e in kept) == ["queen", "white"] and overruled == Counter(white=1)


def test_a_track_projected_from_far_off_gives_way_to_a_pocketing_seen_at_a_pocket() -> None:
    """Held-out video 64007's break (development data since): a white's track lost 200 mm up
    the west cushion was projected into the SW corner, four frames before the watch saw a white
    go into SE and the detector saw it in that hole. One white was gone: the one seen going."""
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    track_departures: list[ItemEvent] = []
    projected = ItemEvent("white", "SW", 96, 3.2, 17, (-330.1, -136.4))
    track_departures = [projected]
    seen = ItemEvent("white", "SE", 100, 3.333, -1, (307.9, -352.8))
    in_hole = ItemEvent("white", "SE", 102, 3.4, -1, (334.2, -343.8))
    before, after = Counter(white=9, black=9, queen=1), Counter(white=8, black=9, queen=1)
    kept, dropped, vanished, _ = reconcile_departures(
        track_departures, before, after, [seen], None, [in_hole]
    )
    assert kept == [seen] and projected in dropped and not vanished
    # Lost at the corner's mouth, the tracker's pocketing is as good as one sighting: seen one
    # way each, the first wins; but the white seen going two ways (the watch and the hole) is
    # believed first (held-out video 65019, development data since: a track lost 37 mm from a
    # corner, its white lying there still).
    at_mouth = ItemEvent("white", "SW", 96, 3.2, 17, (-320.0, -322.0))
    track_departures = [at_mouth]
    kept, _, _, _ = reconcile_departures(track_departures, before, after, [seen], None, [])
    assert kept == [at_mouth]
    kept, _, _, _ = reconcile_departures(track_departures, before, after, [seen], None, [in_hole])
    assert kept == [seen]


def test_a_stroke_known_by_its_coin_after_the_striker_lay_hidden_while_aimed_starts_at_the_strike() -> None:
    """North's striker is put down and aimed for 0.8 s under a hand that hides it from then on;
    the strike itself is not seen, only the coin it sends flying. The stroke is dated a
    flight's time before that coin's first look in flight, not from when the striker was last
    seen, most of a second earlier (development video 68011: dated from the rest, 22 frames
    early, the stroke matched no true one)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=0.8)

    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    frames = striker_occluded_between(oracle_track_frames(board().timeline()), first - 24, 10**9)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    start = strokes[-1]["evidence"]["frames"][0]
    assert first - 8 <= start <= first


def test_a_striker_first_seen_crossing_a_base_band_while_carried_from_a_corner_is_not_struck_there() -> None:
    """South pockets a white and its striker stops against South's cushion. North's hand
    fetches it from there (seen moving at 600 mm/s) and carries it at 1.4 m/s across South's
    base band to North's base line; unseen for a look, it is found 90 mm on under a new track
    as it crosses the band. That first look is the carry going on, not a striker lying on
    South's line: no stroke from South, and North's stroke from where the striker was put
    down is North's (development video 68009: fetched from a corner, lost for 5 frames; the
    false stroke from South swallowed North's queen)."""
    from calibration.geometry import seat_to_board

    def board() -> tuple[ScriptedMatch, int, int]:
        m = south_pockets_a_white(striker_end=(-200.0, -345.0))
        m.wait(1.0)
        m.move({"S": (np.array([-190.0, -330.0]), 600.0)})
        fetched = len(m._xy)
        m.move({"S": (seat_to_board("N", -40.0, BASE_LINE_MID_MM), 1400.0)})
        m.wait(1.0)
        m.strike("N", target="B2", pocket="SE")
        return m, fetched, fetched + 1

    m, fetched, found = board()
    frames = striker_unseen_between(oracle_track_frames(m.timeline()), fetched, found - 1)
    strokes = strokes_of(record(board()[0], renamed_from(frames, found)))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def coin_read_off_its_spot(
    frames: Iterator[TrackFrame],
    near_mm: tuple[float, float],
    first: int,
    last: int,
    off_mm: tuple[float, float],
) -> Iterator[TrackFrame]:
    """From `first` to `last` the piece lying at `near_mm` is read `off_mm` off its spot."""
    for frame in frames:
        if first <= frame.frame_index <= last:
            k = int(np.argmin(np.linalg.norm(frame.xy_mm - near_mm, axis=1)))
            xy = frame.xy_mm.copy()
            xy[k] += off_mm
            frame = replace(frame, xy_mm=xy)
        yield frame


def test_a_striker_track_jumping_off_while_the_striker_is_set_down_beside_its_spot_never_left() -> None:
    """North's striker lies aimed on its base line. Its track jumps 95 mm onto a false striker
    by the cushion and stays there; a coin meanwhile is read 4 mm off its spot for a few looks
    ("touched"), and the striker is found under a new track 16 mm along the line, still being
    set down. The board is as it was and the striker lies over its spot: it never left, and
    North strikes from there (development video 9413, `phone`)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=2.0)

    clean = strokes_of(record(board()))
    first, _ = clean[-1]["evidence"]["frames"]
    jump = first - 30
    aimed = np.array(clean[-1]["evidence"]["striker_start_mm"])

    def striker(frame: TrackFrame) -> np.ndarray:
        return frame.class_id == STRIKER_CLASS

    def jumped_and_found_again(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if jump < frame.frame_index < first:
                # The old track lies at the cushion; the striker, under a new one, 16 mm along.
                false = frame.select(striker(frame))
                false = TrackFrame(
                    false.frame_index, false.time_s, false.track_id, false.class_id,
                    false.xy_mm + (0.0, 95.0), np.zeros_like(false.velocity_mm_s), false.state,
                    false.pocket, false.score,
                )  # fmt: skip
                frame = joined(striker_under_track(frame, 50_000, (16.0, 0.0)), false)
            elif frame.frame_index >= first:
                frame = striker_under_track(frame, 50_000)
            yield frame

    frames = taken_over_for_a_look(
        oracle_track_frames(board().timeline()), jump, striker, lambda xy: xy + (0.0, 95.0), (0.0, 2900.0)
    )
    frames = coin_read_off_its_spot(
        jumped_and_found_again(frames), (0.0, 0.0), jump + 1, jump + 6, (4.0, 0.0)
    )
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - first) <= 2
    assert np.linalg.norm(np.array(strokes[1]["evidence"]["striker_start_mm"]) - aimed) <= 20.0


def jittering(
    frames: Iterator[TrackFrame], near_mm: tuple[float, float], first: int, last: int
) -> Iterator[TrackFrame]:
    """From `first` to `last` the piece lying at `near_mm` is read 6 mm off its spot every
    eighth look (a `phone` camera's noise), moving at 180 mm/s then."""
    for frame in frames:
        if first <= frame.frame_index <= last and (frame.frame_index - first) % 8 == 0:
            k = int(np.argmin(np.linalg.norm(frame.xy_mm - near_mm, axis=1)))
            xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
            xy[k] += (6.0, 0.0)
            velocity[k] = (180.0, 0.0)
            state[k] = int(TrackState.MOVING)
            frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity, state=state)
        yield frame


def test_a_striker_put_down_on_the_next_line_before_a_jittery_board_settled_may_be_struck_there() -> None:
    """South pockets a white and its striker stops by the south-west pocket; a coin's reading
    jitters, so the board does not settle before North's hand has fetched the striker and put
    it down on North's base line. North strikes from there: the striker put there since it
    came to rest is no striker lying where the stroke left it (development videos 69002 and
    66003, both `phone`: North's stroke was lost)."""

    def board() -> tuple[ScriptedMatch, int, int]:
        m = south_pockets_a_white(striker_end=(-300.0, -300.0))
        rested = len(m._xy)
        m.wait(0.5)
        _, arrived = carried_to_north_and_struck(m, 1400.0)
        return m, rested, arrived

    m, rested, arrived = board()
    frames = jittering(oracle_track_frames(m.timeline()), (0.0, 0.0), rested - 30, arrived + 4)
    strokes = strokes_of(record(board()[0], frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]


def test_a_striker_last_seen_flying_at_a_pocket_and_seen_sinking_as_a_coin_was_pocketed() -> None:
    """The striker is last seen 177 mm out, flying straight at the north-west pocket at
    2.35 m/s (too far off for its loss alone to be a pocketing); 2 frames later "a white" the
    counts never lost is seen dropping 23 mm from the hole's centre: the striker, read as a
    coin as it sank (held-out video 69015, development data since). Not a white seen there
    half a second later, at another pocket, or one the counts did lose."""
    from vision.events.departures import ItemEvent
    from vision.events.strokes import StrokeSegmenter, _Stroke

    stroke = _Stroke(0, 0.0, 24, np.array([138.0, -251.0]), "S", {})
    flying = ItemEvent("striker", "NW", 3701, 123.367, 24, (-238.9, 207.8))
    stroke.events = [flying]
    watched_flying = replace(flying, frame=3699, time_s=123.3, track_id=-1)
    sinking = ItemEvent("white", "NW", 3701, 123.367, -1, (-334.3, 329.0))

    def sunk(white: ItemEvent, kept: list[ItemEvent]) -> list[ItemEvent]:
        return StrokeSegmenter._striker_sunk_as_a_coin(stroke, [watched_flying, white], kept, lambda e: True)

    assert sunk(sinking, []) == [replace(sinking, item="striker")]
    assert sunk(replace(sinking, frame=3716, time_s=123.867), []) == []
    assert sunk(replace(sinking, pocket="NE", xy=(334.3, 329.0)), []) == []
    assert sunk(sinking, [sinking]) == []


def test_a_striker_come_to_rest_unseen_in_a_corner_and_carried_back_to_its_spot_may_be_struck_there() -> None:
    """South pockets a white; the striker runs on into the south-west corner and stops at the
    pocket's mouth, lost from view a few looks before it stops (the hole's dark beside it) and
    glimpsed there once a second later, lying. A hand carries it back to the very spot South
    struck from, and South, to play again, strikes from there: the striker was put there since
    it came to rest, not left there by the stroke (held-out video 72007, `phone`, development
    data since: the second stroke was refused, and lost with its white)."""
    from calibration.geometry import seat_to_board

    corner = (-325.0, -322.0)
    spot = seat_to_board("S", 40.0, BASE_LINE_MID_MM)

    def board() -> tuple[ScriptedMatch, int]:
        m = ScriptedMatch()
        m.new_board("S")
        m.put_striker("S", 40.0)
        # Struck hard, the striker runs on into the corner without a pause on the way, and the
        # hand comes for it well within a second of its last sighting in flight.
        m.strike("S", target="W1", pocket="NE", speed=4000.0, picked_up=False, striker_end=corner, rest_s=0.6)
        carried = len(m._xy)
        m.move({"S": (spot, 1400.0)})
        m.wait(1.0)
        m.strike("S", target="B2", pocket="SE")
        return m, carried

    m, carried = board()
    striker = m.index("S")
    near_corner = next(k for k, xy in enumerate(m._xy) if np.linalg.norm(xy[striker] - corner) < 60.0)
    frames = striker_occluded_between(oracle_track_frames(m.timeline()), near_corner, carried - 2)
    strokes = strokes_of(record(board()[0], frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("S", ["black"])]


def test_a_striker_last_seen_flying_at_a_pocket_and_seen_in_its_hole_as_a_coin_was_pocketed() -> None:
    """South pockets a white and the striker runs on into the south-west pocket at 1.25 m/s;
    the detector last sees it 97 mm from the pocket's centre (too far off for its loss alone
    to be a pocketing) and, a frame later, "a white" over that pocket's hole: the striker,
    read as a coin as it sank (held-out video 72001, `club`, development data since: the
    pocketed striker was lost). The white pocketed is South's, into the north-east corner."""
    from calibration.geometry import pocket_centre

    def board() -> ScriptedMatch:
        m = ScriptedMatch()
        m.new_board("S")
        m.put_striker("S", 40.0)
        m.strike("S", target="W1", pocket="NE", striker_pocket="SW")
        m.put_striker("N", 0.0)
        m.strike("N", target=None)
        return m

    m = board()
    hole = pocket_centre("SW")
    striker = m.index("S")
    last_seen = next(k for k, xy in enumerate(m._xy) if np.linalg.norm(xy[striker] - hole) < 100.0)
    assert 90.0 < np.linalg.norm(m._xy[last_seen][striker] - hole) < 100.0
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    frames = striker_unseen_between(oracle_track_frames(m.timeline()), last_seen + 1, last_seen + 40)
    for frame in frames:
        on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
        detections = Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on])
        over_holes = None
        if last_seen + 2 <= frame.frame_index <= last_seen + 3:
            over_holes = Detections(hole[None, :], np.array([CLASS_NAMES.index("white")]), np.array([0.7]))
        recorder.update(frame, detections, over_holes)
    south, _ = strokes_of(recorder.log()["events"])
    pocketed = [(e["item"], e["pocket"]) for e in south["evidence"]["pocket_events"]]
    assert pocketed == [("white", "NE"), ("striker", "SW")]


def test_a_pocketing_whose_colour_was_seen_in_that_pockets_hole_outweighs_one_seen_in_none() -> None:
    from vision.events.departures import ItemEvent
    from vision.events.reconcile import reconcile_departures

    # The figures of 72019's break: the watch lost a white 74 mm from the north-east corner as
    # it bounced off the cushion there (frame 89), and another 104 mm from the south-east one,
    # sliding down the cushion into it (98); a white was seen in the south-east hole at 100,
    # and the tracker lost that white's track where the watch did. One white is gone.
    bounced = ItemEvent("white", "NE", 89, 89 / 30.0, -1, (273.9, 332.5))
    sliding = ItemEvent("white", "SE", 98, 98 / 30.0, -1, (345.7, -242.9))
    in_hole = ItemEvent("white", "SE", 100, 100 / 30.0, -1, (346.3, -346.2))
    tracked = ItemEvent("white", "SE", 100, 100 / 30.0, 4, (345.7, -242.9))
    before, after = Counter(white=9, black=9, queen=1), Counter(white=8, black=9, queen=1)
    kept, _, _, _ = reconcile_departures([tracked], before, after, [bounced, sliding], in_holes=[in_hole])
    assert [(e.item, e.pocket) for e in kept] == [("white", "SE")]
    # With no white seen in any hole, the first the watch saw going is believed, as before.
    kept, _, _, _ = reconcile_departures([tracked], before, after, [bounced, sliding], in_holes=[])
    assert [(e.item, e.pocket) for e in kept] == [("white", "NE")]


def striker_rolled_into_a_mouth(speed: float = 1500.0, rest_mm: float = 30.0) -> ScriptedMatch:
    """The break, then North's striker rolling slowly (`speed` x 0.3 on its last leg) into the
    north-east corner's mouth, to rest there `rest_mm` from the pocket's centre (overhanging the
    hole at 30 mm)."""
    match = one_stroke_board()
    match.put_striker("N", 0.0)
    mouth = pocket_centre("NE") - rest_mm * np.array([np.sqrt(0.5), np.sqrt(0.5)])
    match.strike("N", target=None, speed=speed, striker_end=(float(mouth[0]), float(mouth[1])))
    return match


def striker_by_the_mouth(frame: TrackFrame, within_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Which tracks of `frame` are the striker, and which of them lies within `within_mm` of
    the north-east pocket's centre, on the board's last stroke (after its break)."""
    striker = frame.class_id == STRIKER_CLASS
    near = striker & (np.linalg.norm(frame.xy_mm - pocket_centre("NE"), axis=1) <= within_mm)
    return striker, near & (frame.frame_index > 200)


def striker_lost_at_the_mouth(
    frames: Iterator[TrackFrame], within_mm: float, looks: int
) -> Iterator[TrackFrame]:
    """The tracker loses the striker once it comes `within_mm` of the north-east pocket's centre
    on the board's last stroke, for `looks` frames (its disc merging with the dark hole)."""
    lost_from: int | None = None
    for frame in frames:
        striker, near = striker_by_the_mouth(frame, within_mm)
        if lost_from is None and near.any():
            lost_from = frame.frame_index
        if lost_from is not None and frame.frame_index < lost_from + looks:
            frame = occluded(frame, striker)
        yield frame


def test_a_striker_lost_slowing_into_a_mouth_and_found_lying_there_was_not_pocketed() -> None:
    """Held-out video 76005 (`warm-lamp`, development data since): the striker, lost 59 mm from a
    corner's centre as it slowed into the mouth at 0.5 m/s, was found lying there 11 looks
    later; the board had been taken for still 9 looks after it was lost, and the striker for
    gone into the pocket: a foul. A striker lost moving near a pocket is waited for, as one
    lost in flight is."""
    strokes = strokes_of(record(striker_rolled_into_a_mouth()))
    assert strokes[-1]["pocketed"] == []
    truth = oracle_track_frames(striker_rolled_into_a_mouth().timeline())
    strokes = strokes_of(record(striker_rolled_into_a_mouth(), striker_lost_at_the_mouth(truth, 60.0, 18)))
    assert len(strokes) == 2
    assert strokes[-1]["pocketed"] == []
    # One lost at the mouth for good went in, the stroke closing once a second has passed.
    truth = oracle_track_frames(striker_rolled_into_a_mouth().timeline())
    strokes = strokes_of(record(striker_rolled_into_a_mouth(), striker_lost_at_the_mouth(truth, 60.0, 10**6)))
    assert strokes[-1]["pocketed"] == ["striker"]


def striker_lifted_from_the_mouth(
    frames: Iterator[TrackFrame], lying_looks: int, rest_mm: float = 30.0
) -> Iterator[TrackFrame]:
    """The striker of `striker_rolled_into_a_mouth` lies at the mouth for `lying_looks` looks
    (a coin still rolling slowly elsewhere keeps the stroke open), then a hand takes it: its
    track is lost for good, the tracker letting it go into the pocket by which it was lost."""
    rest_from: int | None = None
    rolling: int | None = None
    for frame in frames:
        striker, near = striker_by_the_mouth(frame, rest_mm + 1.0)
        if rest_from is None and near.any() and np.linalg.norm(frame.velocity_mm_s[near][0]) < 1.0:
            rest_from = frame.frame_index
            rolling = int(frame.track_id[frame.class_id == CLASS_NAMES.index("white")][0])
        if rest_from is not None and rolling is not None:
            looks = frame.frame_index - rest_from
            xy, velocity = frame.xy_mm.copy(), frame.velocity_mm_s.copy()
            state, pocket = frame.state.copy(), frame.pocket.copy()
            coin = frame.track_id == rolling
            if looks <= lying_looks + 10:
                xy[coin] += (2.0 * looks, 0.0)
                velocity[coin] = (60.0, 0.0)
                state[coin] = int(TrackState.MOVING)
            else:
                xy[coin] += (2.0 * (lying_looks + 10), 0.0)
            if looks == lying_looks:
                state[striker], pocket[striker] = int(TrackState.POCKETED), POCKETS.index("NE")
            frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity, state=state, pocket=pocket)
            if looks > lying_looks:
                frame = frame.select(~striker)
        yield frame


def test_a_striker_lost_where_it_came_to_rest_by_a_mouth_was_lifted_not_pocketed() -> None:
    """Held-out video 81016 (`worn`, development data since): the striker rolled to rest 35 mm
    from a corner's centre, its centre clear of the hole, and lay there 0.7 s while the stroke
    was still open; a hand nudged it and lifted it, its track was lost at the mouth and let go
    into the pocket, and the stroke was ruled a striker pocketed, a foul. A disc lying still
    does not fall in by itself."""
    truth = oracle_track_frames(striker_rolled_into_a_mouth().timeline())
    lifted = strokes_of(record(striker_rolled_into_a_mouth(), striker_lifted_from_the_mouth(truth, 20)))
    assert len(lifted) == 2 and lifted[-1]["pocketed"] == []


def test_a_striker_lost_a_look_after_it_stopped_short_of_the_hole_was_not_pocketed() -> None:
    """Held-out video 86007 (`warm-lamp`, development data since): the striker followed a white
    into a corner and stopped 33 mm from its centre, overhanging the hole; seen there once at
    28 mm/s, it was not found again until a hand lifted it, and it was ruled pocketed, a foul.
    From where it was last seen, that slow, it could not slide on until its centre was over
    the hole. One that stopped with its centre at the hole's edge crept over the rim."""
    truth = oracle_track_frames(striker_rolled_into_a_mouth().timeline())
    stopped = strokes_of(record(striker_rolled_into_a_mouth(), striker_lifted_from_the_mouth(truth, 1)))
    assert len(stopped) == 2 and stopped[-1]["pocketed"] == []
    truth = oracle_track_frames(striker_rolled_into_a_mouth(rest_mm=24.0).timeline())
    went_in = strokes_of(
        record(
            striker_rolled_into_a_mouth(rest_mm=24.0), striker_lifted_from_the_mouth(truth, 1, rest_mm=24.0)
        )
    )
    assert len(went_in) == 2 and went_in[-1]["pocketed"] == ["striker"]


def striker_read_as_a_white_at_the_mouth(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
    """On the board's last stroke the tracker loses the striker 50 mm from the north-east
    pocket's centre as it slows into the mouth, lets it go into the pocket two looks later, and
    follows it from the next look on as a new white track where it comes to rest."""
    lost: tuple[int, np.ndarray] | None = None
    for frame in frames:
        striker, near = striker_by_the_mouth(frame, 50.0)
        if lost is None and near.any():
            lost = (frame.frame_index, frame.xy_mm[near][0].copy())
        if lost is not None and striker.any():
            lost_at, last_xy = lost
            track_id, class_id, xy = frame.track_id.copy(), frame.class_id.copy(), frame.xy_mm.copy()
            state, pocket = frame.state.copy(), frame.pocket.copy()
            if frame.frame_index <= lost_at + 2:
                xy[striker] = last_xy
                state[striker] = int(TrackState.OCCLUDED)
                if frame.frame_index == lost_at + 2:
                    state[striker], pocket[striker] = int(TrackState.POCKETED), POCKETS.index("NE")
            else:
                track_id[striker], class_id[striker] = 900, CLASS_NAMES.index("white")
            frame = replace(frame, track_id=track_id, class_id=class_id, xy_mm=xy, state=state, pocket=pocket)
        yield frame


def test_the_striker_lying_at_a_mouth_read_as_one_coin_too_many_was_not_pocketed() -> None:
    """Held-out video 76005 (`warm-lamp`, development data since): the striker slowing into a
    corner's mouth, lost 30 mm from its centre, came to rest 25 mm from it, read as a white
    until it was lifted; one white more than the board held lay where it had gone, and the
    striker was ruled pocketed all the same: a foul."""
    truth = oracle_track_frames(striker_rolled_into_a_mouth(speed=900.0).timeline())
    strokes = strokes_of(
        record(striker_rolled_into_a_mouth(speed=900.0), striker_read_as_a_white_at_the_mouth(truth))
    )
    assert len(strokes) == 2
    assert strokes[-1]["pocketed"] == []
    assert [e["item"] for e in strokes[-1]["evidence"]["dropped_pocket_events"]] == ["striker"]


def striker_let_go_and_found_again(frames: Iterator[TrackFrame], within_mm: float) -> Iterator[TrackFrame]:
    """The tracker lets the striker go into the north-east pocket once it comes `within_mm` of
    the pocket's centre on the board's last stroke, and follows it from the next look under a
    new track, lying at the mouth."""
    let_go: int | None = None
    for frame in frames:
        striker, near = striker_by_the_mouth(frame, within_mm)
        if let_go is None and near.any():
            let_go = frame.frame_index
            state, pocket = frame.state.copy(), frame.pocket.copy()
            state[near], pocket[near] = int(TrackState.POCKETED), POCKETS.index("NE")
            frame = replace(frame, state=state, pocket=pocket)
        elif let_go is not None and striker.any():
            frame = replace(frame, track_id=np.where(striker, 901, frame.track_id))
        yield frame


def test_a_striker_let_go_by_a_pocket_and_found_lying_at_its_mouth_is_not_waited_for() -> None:
    """Development video 71001 (`phone`): the striker let go into a corner from 57 mm out at
    0.47 m/s and found lying at the mouth under a new track the next looks; waited for as if
    still unseen, the stroke stayed open until the striker was lifted and put down for the next
    one, and swallowed that stroke. Found, it is not waited for."""
    truth = list(oracle_track_frames(striker_rolled_into_a_mouth().timeline()))
    strokes = strokes_of(
        record(striker_rolled_into_a_mouth(), striker_let_go_and_found_again(iter(truth), 60.0))
    )
    assert len(strokes) == 2
    assert strokes[-1]["pocketed"] == []
    striker = [f for f in truth if f.frame_index > 200 and np.any(f.class_id == STRIKER_CLASS)]
    let_go = next(
        f.frame_index
        for f in striker
        if np.linalg.norm(f.xy_mm[f.class_id == STRIKER_CLASS][0] - pocket_centre("NE")) <= 60.0
    )
    assert strokes[-1]["evidence"]["frames"][1] <= let_go + 20


def strokes_seen(
    frames: Iterator[TrackFrame],
    unseen: Callable[[TrackFrame], int | None] = lambda frame: None,
    over_holes: Callable[[TrackFrame], Detections | None] = lambda frame: None,
) -> list[dict]:
    """The strokes recorded from `frames` with the detector's looks given too, as when
    recording a video (counts at rest from what is seen: a piece under a hand is not
    counted): every piece in view is detected, but for the class `unseen` names, and
    `over_holes` says what is seen over the pockets' holes."""
    recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
    last = None
    for frame in frames:
        seen = frame.select(np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)]))
        hidden = unseen(frame)
        if hidden is not None:
            seen = seen.select(seen.class_id != hidden)
        recorder.update(frame, Detections(seen.xy_mm, seen.class_id, seen.score), over_holes(frame))
        last = frame
    assert last is not None
    recorder.finish(last.frame_index, last.time_s)
    return strokes_of(recorder.log()["events"])


def lost_in_flight_and_covered(
    frames: Iterator[TrackFrame],
    striker_lost_at: int,
    put_down_at: int,
    coin_xy: tuple[float, float],
    covered: tuple[int, int],
) -> Iterator[TrackFrame]:
    """The striker's track is lost at `striker_lost_at` and kept waiting, unseen, where it was
    last seen until `put_down_at` (it is put down for the next stroke); the coin lying at
    `coin_xy` is covered by a hand over the frames `covered`, its last look before shifted
    4.5 mm towards the nearest pocket by the hand's edge (held-out video 77007)."""
    last: TrackFrame | None = None
    coin: int | None = None
    for frame in frames:
        k = frame.frame_index
        striker = frame.class_id == STRIKER_CLASS
        if last is None and k == striker_lost_at:
            last = frame.select(striker)
        if last is not None and k < put_down_at:
            waiting = occluded(last, np.ones(len(last.track_id), dtype=bool))
            frame = joined(frame.select(~striker), replace(waiting, frame_index=k, time_s=frame.time_s))
        if k == covered[0] - 1:
            coin = track_nearest(frame, coin_xy)
        mine = frame.track_id == coin
        if k == covered[0] - 1:
            shift = pocket_centre(
                POCKETS[int(np.argmin([np.linalg.norm(pocket_centre(p) - coin_xy) for p in POCKETS]))]
            )
            shift = 4.5 * (shift - coin_xy) / np.linalg.norm(shift - coin_xy)
            xy, velocity = frame.xy_mm.copy(), frame.velocity_mm_s.copy()
            xy[mine] += shift
            velocity[mine] = shift * 30.0
            state = frame.state.copy()
            state[mine] = int(TrackState.MOVING)
            frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity, state=state)
        elif covered[0] <= k <= covered[1]:
            frame = occluded(frame, mine)
        yield frame


def lost_short_of_the_pocket(
    frames: Iterator[TrackFrame], from_frame: int, pocket: str, within_mm: float
) -> Iterator[TrackFrame]:
    """From `from_frame` on, the first coin seen within `within_mm` of `pocket`'s centre is lost
    there: kept waiting, unseen, at that sighting to the end."""
    last: TrackFrame | None = None
    for frame in frames:
        if last is None and frame.frame_index >= from_frame:
            near = np.linalg.norm(frame.xy_mm - pocket_centre(pocket), axis=1) <= within_mm
            near &= frame.class_id != STRIKER_CLASS
            if near.any():
                last = occluded(frame.select(near), np.ones(int(near.sum()), dtype=bool))
        if last is not None:
            mine = np.isin(frame.track_id, last.track_id)
            frame = joined(
                frame.select(~mine), replace(last, frame_index=frame.frame_index, time_s=frame.time_s)
            )
        yield frame


def test_a_coin_covered_by_a_hand_while_a_striker_lost_in_flight_is_awaited_was_not_knocked_in() -> None:
    """Held-out video 77007 (`warm-lamp`, development data since): the striker was lost in
    flight and the stroke kept open for it; a black lying 89 mm from a corner's centre,
    untouched, was shifted 4 mm by the hand coming for the striker and lost under it 0.7 s
    after the last coin dropped: it was ruled knocked in unseen. Found again, it was still
    taken for missing at the next stroke, and when it did go into that corner the count's drop
    stood for the old vanishing and its pocketing, not seen at the mouth, was dropped."""
    by_sw = (float(pocket_centre("SW")[0]) + 60.0, float(pocket_centre("SW")[1]) + 62.0)
    marks: dict[str, int] = {}

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("B1", by_sw, 10.0)
        marks["struck"] = len(match._xy)
        match.strike("S", target="W3", pocket="NW", striker_end=(250.0, 250.0), rest_s=2.0)
        marks["put_down"] = len(match._xy)
        match.put_striker("S", -60.0)
        match.strike("S", target="B1", pocket="SW")
        return match

    truth = list(oracle_track_frames(board().timeline()))
    rebound = next(
        f.frame_index
        for f in truth[marks["struck"] :]
        if np.any(
            (f.class_id == STRIKER_CLASS)
            & (np.hypot(*f.velocity_mm_s.T) > 700.0)
            & (np.hypot(*f.velocity_mm_s.T) < 800.0)
        )
    )
    lost_at = rebound + 2
    covered = (lost_at + 15, lost_at + 60)
    frames = lost_in_flight_and_covered(iter(truth), lost_at, marks["put_down"], by_sw, covered)
    # And lost as it sets off into that corner (its pocketing, not seen at the mouth, is
    # believed only as far as the counts want it).
    frames = lost_short_of_the_pocket(frames, marks["put_down"], "SW", 58.0)
    strokes = strokes_seen(frames)
    assert len(strokes) == 2
    assert [(p["item"], p["pocket"]) for p in strokes[0]["evidence"]["pocket_events"]] == [("white", "NW")]
    assert [(p["item"], p["pocket"]) for p in strokes[1]["evidence"]["pocket_events"]] == [("black", "SW")]


def test_a_striker_lost_as_it_rolls_to_rest_and_read_there_as_a_white_does_not_undo_a_white_pocketed() -> (
    None
):
    """Held-out video 77007 (`warm-lamp`, development data since): the striker, lost as it came
    off the cushion, rolled on unseen and came to rest 37 mm from its last sighting, where the
    detector read it as a white at 0.41 to 0.44 look after look; counted as a white, it made
    the white it had sent into a corner look still on the board, and the pocketing was
    dropped. A coin's spot found only faintly within a striker's width of where the lost
    striker was last seen, where no coin of its colour lay at the strike, is the striker. So
    is one read plainly (held-out video 75019, `phone`: a striker against a cushion read as a
    white at 0.65) when the counts find as many whites as before though a white was seen over
    a pocket's hole."""

    def board() -> ScriptedMatch:
        match = ScriptedMatch()
        match.new_board("S")
        match.put_striker("S", 10.0)
        match.strike("S", target="W3", pocket="NW", picked_up=False, striker_end=(-150.0, 60.0), rest_s=0.0)
        match.move({"S": (np.array([-150.0, -20.0]), 300.0)})  # rolling on, slowing
        match.wait(1.0)
        return match

    truth = list(oracle_track_frames(board().timeline()))
    striker_track = next(
        int(f.track_id[f.class_id == STRIKER_CLASS][0]) for f in truth if STRIKER_CLASS in f.class_id
    )
    rest_xy = truth[-1].xy_mm[truth[-1].track_id == striker_track][0]
    lost_at = max(
        k
        for k, f in enumerate(truth)
        if striker_track in f.track_id
        and np.linalg.norm(f.xy_mm[f.track_id == striker_track][0] - rest_xy) >= 30.0
    )
    last_seen = truth[lost_at].xy_mm[truth[lost_at].track_id == striker_track][0].copy()
    assert 30.0 <= float(np.linalg.norm(last_seen - rest_xy)) <= 40.0
    white = CLASS_NAMES.index("white")
    in_hole = Detections(pocket_centre("NW")[None, :], np.array([white]), np.array([0.5], dtype=np.float32))

    def pocketed(read_as_white_at: float, seen_in_the_hole: bool) -> list[str]:
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for k, frame in enumerate(truth):
            on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            falling = bool(np.any((frame.state == int(TrackState.POCKETED)) & (frame.class_id == white)))
            classes, scores = frame.class_id.copy(), frame.score.copy()
            if k > lost_at:
                lost = frame.track_id == striker_track
                classes[lost], scores[lost] = white, read_as_white_at  # the detector's reading
                xy = frame.xy_mm.copy()
                xy[lost] = last_seen  # the tracker keeps the track waiting where it was last seen
                frame = occluded(replace(frame, xy_mm=xy), lost)
            looks = Detections(truth[k].xy_mm[on], classes[on], scores[on])
            recorder.update(frame, looks, in_hole if falling and seen_in_the_hole else None)
        recorder.finish(truth[-1].frame_index, truth[-1].time_s)
        (stroke,) = strokes_of(recorder.log()["events"])
        return stroke["pocketed"]

    assert pocketed(0.42, seen_in_the_hole=False) == ["white"]
    assert pocketed(0.65, seen_in_the_hole=True) == ["white"]


def with_a_false_striker_on_and_off(
    frames: Iterator[TrackFrame],
    xy: tuple[float, float],
    first: int,
    last: int,
    striker_hidden: tuple[int, int],
) -> Iterator[TrackFrame]:
    """From `first` to `last` a false striker lying still at `xy` is seen every other look
    under a track of its own (a print by a corner read faintly as the striker); the striker
    itself goes unseen over the frames `striker_hidden`, its track kept waiting where it was
    last seen."""
    waiting: TrackFrame | None = None
    for frame in frames:
        k = frame.frame_index
        striker = frame.class_id == STRIKER_CLASS
        if striker_hidden[0] <= k <= striker_hidden[1]:
            if waiting is None:
                waiting = occluded(frame.select(striker), np.ones(int(striker.sum()), dtype=bool))
            frame = joined(frame.select(~striker), replace(waiting, frame_index=k, time_s=frame.time_s))
        if first <= k <= last and (k - first) % 2 == 0:
            false = TrackFrame(
                k, frame.time_s, np.array([50_000]), np.array([STRIKER_CLASS]), np.array([xy], dtype=float),
                np.zeros((1, 2)), np.array([int(TrackState.AT_REST)]), np.array([-1]), np.array([0.3]),
            )  # fmt: skip
            frame = joined(frame, false)
        yield frame


def test_a_false_striker_seen_on_and_off_by_a_corner_is_not_the_striker_struck_unseen() -> None:
    """Held-out video 77001 (`worn`, development data since): while the striker was slid along
    its base line under a hand (seen at the start, then not, the hand shifting a coin), a
    false striker printed by a corner, under a second striker track, was seen on and off; seen
    again far from where the striker had rested, it was taken for the striker struck unseen,
    and a stroke was recorded that was never played."""
    match = ScriptedMatch()
    match.new_board("S")
    match.put_striker("S", 100.0)
    spot = match.xy[match.index("S")] + [-200.0, 0.0]
    coin = match.xy[match.index("W5")].copy()
    match.hands = (HandPose("S", (float(spot[0]), float(spot[1]) - 30.0), float(np.pi / 2)),)
    match.move({"W5": (coin + [0.0, -12.0], 40.0)})  # the hand coming over it shifts a coin
    slide = len(match._xy)
    match.move({"S": (spot, 600.0)})
    slid = len(match._xy)
    match.hands = ()
    match.wait(1.0)
    match.strike("S", target="W1", pocket="NE")
    corner = (float(pocket_centre("NW")[0]) + 27.0, float(pocket_centre("NW")[1]) - 6.0)
    frames = with_a_false_striker_on_and_off(
        oracle_track_frames(match.timeline()), corner, slide - 6, slid + 10, (slide, slid + 2)
    )
    strokes = strokes_of(record(match, frames))
    assert [s["pocketed"] for s in strokes] == [["white"]]


def test_a_striker_lying_in_view_after_does_not_take_away_a_white_seen_in_the_hole() -> None:
    """Held-out video 71001 (`phone`, development data since): the striker knocked a white lying
    by a corner in, seen only over the hole as it fell (its track lost as it was struck), and
    its dim track was let go into that corner; a white over the hole where the striker went
    in is taken for the striker falling, and the white was lost, though the striker lay in
    view 48 mm from the corner's centre when the board came to rest (so was not pocketed)."""
    by_ne = tuple(pocket_centre("NE") + (-40.0, -15.0))
    striker_end = tuple(pocket_centre("NE") + (-30.0, -38.0))
    marks: dict[str, int] = {}

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("W1", by_ne, 60.0)
        marks["struck"] = len(match._xy)
        match.strike("S", target="W1", pocket="NE", striker_end=striker_end, picked_up=False)
        return match

    truth = list(oracle_track_frames(board().timeline()))
    w1 = int(
        truth[marks["struck"]].track_id[
            np.argmin(np.linalg.norm(truth[marks["struck"]].xy_mm - by_ne, axis=1))
        ]
    )
    striker = int(truth[marks["struck"]].track_id[truth[marks["struck"]].class_id == STRIKER_CLASS][0])
    knocked = next(
        f.frame_index
        for f in truth[marks["struck"] :]
        if w1 in f.track_id and f.select(f.track_id == w1).velocity_mm_s.any()
    )
    let_go = knocked + 3
    frames = (
        f.select(~((f.track_id == w1) & (f.frame_index >= knocked)))
        for f in fake_pocketing(iter(truth), striker, let_go)
    )
    in_hole = Detections(
        pocket_centre("NE")[None, :], np.array([CLASS_NAMES.index("white")]), np.array([0.6])
    )
    (stroke,) = strokes_seen(
        frames,
        # the dim striker, unseen as it strikes
        unseen=lambda f: STRIKER_CLASS if abs(f.frame_index - knocked) <= 3 else None,
        over_holes=lambda f: in_hole if knocked + 1 <= f.frame_index <= knocked + 2 else None,
    )
    assert [(p["item"], p["pocket"]) for p in stroke["evidence"]["pocket_events"]] == [("white", "NE")]


def with_an_afterimage(
    frames: Iterator[TrackFrame], track: int, first: int, last: int, score: float = 0.65
) -> Iterator[TrackFrame]:
    """From `first` to `last` the piece under `track` is seen lying where it was seen the look
    before `first`, still, under the same track: the afterimage a heavily compressed video
    keeps of a coin that ran on into a pocket. After `last`, neither it nor its track."""
    spot: TrackFrame | None = None
    for frame in frames:
        k = frame.frame_index
        if k == first - 1:
            spot = frame.select(frame.track_id == track)
        if first <= k:
            frame = frame.select(frame.track_id != track)
        if spot is not None and first <= k <= last:
            still = TrackFrame(
                k, frame.time_s, spot.track_id, spot.class_id, spot.xy_mm, np.zeros((1, 2)),
                np.array([int(TrackState.AT_REST)]), np.array([-1]), np.array([score]),
            )  # fmt: skip
            frame = joined(frame, still)
        yield frame


def test_a_coin_seen_stopping_dead_at_a_pocket_s_mouth_as_it_is_seen_in_the_hole_went_in() -> None:
    """Held-out video 79019 (`phone`, development data since): a white running along the
    cushion into a corner at 0.65 m/s was seen in the hole, but its track stopped dead 38 mm
    from the pocket's centre, and a "white" was detected lying there (at 0.6-0.8, fading) for
    24 s: the afterimage the heavily compressed video kept. The count at rest held it, so the
    white's pocketing was dropped; when the afterimage faded at last, a stroke later, its
    vanishing was taken for a white pocketed there. No coin stops dead from a run with nothing
    in its way: it went in, and what lies there is no coin, until it is gone."""
    ne = pocket_centre("NE")
    # W1 lies 235 mm down the east cushion from the corner; struck up it at 1.5 m/s it is seen
    # 185, 135, 85 and 35 mm from the pocket's centre, and then falls in.
    spot = (float(ne[0]), float(ne[1]) - 235.0)

    def board() -> ScriptedMatch:
        match = coin_moved_and_striker_put("W1", spot, 60.0)
        match.strike("S", target="W1", pocket="NE")
        match.put_striker("S", -40.0)
        match.strike("S", target="W4", pocket="SW")
        match.put_striker("S", 20.0)
        match.strike("S", target=None)
        return match

    truth = list(oracle_track_frames(board().timeline()))
    lying = next(f for f in truth if len(f.xy_mm) and np.linalg.norm(f.xy_mm - spot, axis=1).min() < 1.0)
    w1 = track_nearest(lying, spot)
    running = [
        f
        for f in truth
        if w1 in f.track_id
        and f.select(f.track_id == w1).velocity_mm_s.any()
        and float(np.linalg.norm(f.select(f.track_id == w1).xy_mm[0] - ne)) > 30.0
    ]
    stopped = running[-1].frame_index + 1
    (last,) = [f.select(f.track_id == w1) for f in truth if f.frame_index == stopped - 1]
    assert 30.0 < float(np.linalg.norm(last.xy_mm[0] - ne)) < 37.0  # at the mouth, at 1.5 m/s
    strokes = strokes_of(record(board()))
    assert [s["pocketed"] for s in strokes] == [["white"], ["white"], []]
    third, _ = strokes[2]["evidence"]["frames"]
    in_hole = Detections(ne[None, :], np.array([CLASS_NAMES.index("white")]), np.array([0.5]))
    strokes = strokes_seen(
        with_an_afterimage(iter(truth), w1, stopped, third + 1),
        over_holes=lambda f: in_hole if stopped <= f.frame_index <= stopped + 1 else None,
    )
    assert [s["pocketed"] for s in strokes] == [["white"], ["white"], []]
    assert [p["pocket"] for p in strokes[0]["evidence"]["pocket_events"]] == ["NE"]
    assert [(a["item"], a["pocket"]) for a in strokes[0]["evidence"]["afterimages_not_counted"]] == [
        ("white", "NE")
    ]


def test_a_coin_stopped_at_a_mouth_beside_one_that_went_in_there_is_still_a_coin() -> None:
    """W1 runs up the east cushion and stops 35 mm from the north-east corner's centre as W2,
    struck, goes into that corner (seen over its hole): the count at rest finds W1 there, one
    white gone. W1's stop looked like an afterimage's, but the count needed no white taken off
    it: it is a coin, and South pockets it there at the next stroke."""
    ne = pocket_centre("NE")
    match = coin_moved_and_striker_put("W1", (float(ne[0]), float(ne[1]) - 235.0), 60.0)
    s, w2 = match.index("S"), match.index("W2")
    match.move({"S": (match.xy[w2] - (0.0, 37.0), 2500.0)})
    stopped_at = ne - (0.0, 35.0)
    match.move({"W2": (ne, 1500.0), "W1": (stopped_at, 1500.0), "S": (match.xy[s] + (0.0, 30.0), 300.0)})
    match.state[w2], match.pocket[w2] = int(ObjectState.FALLING), POCKETS.index("NE")
    match.wait(2 / match.fps)
    match.state[w2], match.xy[w2] = int(ObjectState.IN_POCKET), np.nan
    match.wait(1.0)
    match.state[s], match.xy[s] = int(ObjectState.ABSENT), np.nan
    match.wait(0.3)
    match.put_striker("S", 100.0)
    match.strike("S", target="W1", pocket="NE")
    truth = list(oracle_track_frames(match.timeline()))
    in_hole = Detections(ne[None, :], np.array([CLASS_NAMES.index("white")]), np.array([0.5]))
    fell = next(k for k, state in enumerate(match._state) if state[w2] == int(ObjectState.FALLING))
    strokes = strokes_seen(
        iter(truth), over_holes=lambda f: in_hole if fell <= f.frame_index <= fell + 1 else None
    )
    assert [s["pocketed"] for s in strokes] == [["white"], ["white"]]
    assert "afterimages_not_counted" not in strokes[0]["evidence"]


def striker_found_after_a_gap(frames: Iterator[TrackFrame], first: int, last: int) -> Iterator[TrackFrame]:
    """The striker unseen (its track kept) from `first` to `last`; at its first look after, its
    speed is measured across the gap from its last look before, as the tracker measures it."""
    before: tuple[np.ndarray, float] | None = None
    for frame in frames:
        striker = frame.class_id == STRIKER_CLASS
        if frame.frame_index == first - 1 and np.any(striker):
            before = (frame.xy_mm[striker].copy(), frame.time_s)
        if first <= frame.frame_index <= last:
            frame = occluded(frame, striker)
        elif frame.frame_index == last + 1 and before is not None and np.any(striker):
            velocity = frame.velocity_mm_s.copy()
            velocity[striker] = (frame.xy_mm[striker] - before[0]) / (frame.time_s - before[1])
            frame = replace(frame, velocity_mm_s=velocity)
        yield frame


def test_a_striker_hidden_by_the_hand_leaving_it_and_first_seen_in_flight_reading_slow_is_struck() -> None:
    """North's striker lies aimed on its base line; the hand lifting off it hides it for
    0.6 s, the strike among them, and it is first seen again 60-odd mm into its run, its
    speed measured across the gap (slow). That look is no rest: the flight seen from it
    traces back to the base line, and North's stroke and its black are North's (held-out
    video 82011, `phone`, development data since: the stroke was lost, and with it the queen
    put back before it)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=1.0, north_speed=1200.0)

    clean = strokes_of(record(board()))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in clean] == [("S", ["white"]), ("N", ["black"])]
    first, _ = clean[-1]["evidence"]["frames"]
    start = np.array(clean[-1]["evidence"]["striker_start_mm"])
    timeline = board().timeline()
    seen_again = next(
        f.frame_index
        for f in oracle_track_frames(timeline)
        if f.frame_index >= first
        and np.any(f.class_id == STRIKER_CLASS)
        and np.linalg.norm(f.xy_mm[f.class_id == STRIKER_CLASS][0] - start) > 60.0
    )
    frames = striker_found_after_a_gap(oracle_track_frames(timeline), seen_again - 18, seen_again - 1)
    strokes = strokes_of(record(board(), frames))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert np.linalg.norm(np.array(strokes[-1]["evidence"]["striker_start_mm"]) - start) < 40.0


def test_a_striker_track_jumping_back_to_the_false_striker_it_lay_on_before_the_strike_is_no_stroke() -> None:
    """South's striker, picked up, leaves its track on a faint false striker by the centre
    while the hand carries the striker to North's base line; the track takes the striker
    there for two looks and jumps back, at 3 m/s, to the false one, where it lies still. The
    striker lies unseen where it was put until a new track finds it, and North strikes. A
    struck striker does not stop dead where its track lay a moment before: one stroke of
    North's, not two (held-out video 82011, `phone`, development data since: the false
    stroke's end made the real one a second stroke of the same turn)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=1.0)

    clean = strokes_of(record(board()))
    _, south_end = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]
    false_mm = np.array([60.0, -40.0])
    south_track = next(
        int(f.track_id[f.class_id == STRIKER_CLASS][0])
        for f in oracle_track_frames(board().timeline())
        if f.frame_index == south_end
    )

    def with_a_false_striker(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        before = false_mm
        for frame in frames:
            k = frame.class_id == STRIKER_CLASS
            i = frame.frame_index
            if np.any(k) and south_end + 30 <= i < first - 11:
                on_the_striker = first - 30 <= i <= first - 29
                here = frame.xy_mm[k][0] if on_the_striker else false_mm
                jumped = float(np.linalg.norm(here - before)) > 1.0
                ids, xy = frame.track_id.copy(), frame.xy_mm.copy()
                velocity, state = frame.velocity_mm_s.copy(), frame.state.copy()
                ids[k], xy[k] = south_track, here
                velocity[k] = (here - before) * 30.0 if jumped else (0.0, 0.0)
                state[k] = int(TrackState.MOVING if jumped else TrackState.AT_REST)
                frame = replace(frame, track_id=ids, xy_mm=xy, velocity_mm_s=velocity, state=state)
                before = here
            elif i >= first - 11:
                frame = striker_under_track(frame, 50_000)
            yield frame

    strokes = strokes_of(record(board(), with_a_false_striker(oracle_track_frames(board().timeline()))))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - first) <= 2


def test_a_striker_track_jumping_to_a_false_striker_further_than_a_strike_could_slide_is_no_stroke() -> None:
    """North's striker lies aimed on its base line; under the hand aiming it, unseen, its
    track jumps to a false striker by the centre, 270 mm off, read there still look after
    look; the striker is found again on its line under a new track and struck. No striker
    struck from rest lies still 270 mm off two looks later: friction stops a disc that went
    so far only after a second or more. One stroke of North's, not two (held-out video 94016,
    `phone`: the smear a striker lifted off the centre left in the compressed video, read as
    a striker at 0.22, took the aimed striker's track, and a stroke nobody played was
    recorded)."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=1.5)

    first, _ = strokes_of(record(board()))[-1]["evidence"]["frames"]
    false_mm = np.array([20.0, -20.0])

    def with_a_false_striker(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        before: np.ndarray | None = None
        for frame in frames:
            k = frame.class_id == STRIKER_CLASS
            i = frame.frame_index
            if np.any(k) and first - 30 <= i < first - 2:
                xy, velocity, state = frame.xy_mm.copy(), frame.velocity_mm_s.copy(), frame.state.copy()
                jump = i == first - 30 and before is not None
                velocity[k] = (false_mm - before) * 30.0 if jump and before is not None else (0.0, 0.0)
                xy[k] = false_mm
                state[k] = int(TrackState.MOVING if jump else TrackState.AT_REST)
                frame = replace(frame, xy_mm=xy, velocity_mm_s=velocity, state=state)
            elif i >= first - 2:
                frame = striker_under_track(frame, 50_000)
            elif np.any(k):
                before = frame.xy_mm[k][0].copy()
            yield frame

    strokes = strokes_of(record(board(), with_a_false_striker(oracle_track_frames(board().timeline()))))
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - first) <= 2


def with_a_false_striker_by_the_centre(
    frames: Iterator[TrackFrame], appears: int, found_again: int, hidden: tuple[int, int] = (0, -1)
) -> Iterator[TrackFrame]:
    """A false striker lying still by the centre from frame `appears` on, under a track older
    than the striker's from `found_again` on; the striker unseen (occluded) in `hidden`."""
    row = {
        "track_id": [40_000],
        "class_id": [STRIKER_CLASS],
        "xy_mm": [(20.0, -20.0)],
        "velocity_mm_s": [(0.0, 0.0)],
        "state": [int(TrackState.AT_REST)],
        "pocket": [NO_POCKET],
        "score": [0.56],
    }
    for frame in frames:
        i = frame.frame_index
        if i >= found_again:
            frame = striker_under_track(frame, 50_000)
        if hidden[0] <= i <= hidden[1]:
            frame = occluded(frame, frame.class_id == STRIKER_CLASS)
        if i >= appears:
            frame = replace(
                frame, **{k: np.concatenate([np.asarray(v), getattr(frame, k)]) for k, v in row.items()}
            )
        yield frame


def north_struck_by_a_false_striker(hidden_looks: int) -> tuple[list[dict], int]:
    """South then North, with a false striker by the centre from after South's stroke on
    (`with_a_false_striker_by_the_centre`), North's aimed striker hidden for the last
    `hidden_looks` looks before its strike: the strokes recorded, and the frame North's
    was struck at."""

    def board() -> ScriptedMatch:
        return south_then_north(north_aims_s=1.0)

    clean = strokes_of(record(board()))
    _, south_end = clean[0]["evidence"]["frames"]
    first, _ = clean[-1]["evidence"]["frames"]
    hidden = (first - hidden_looks, first - 1) if hidden_looks else (0, -1)
    frames = with_a_false_striker_by_the_centre(
        oracle_track_frames(board().timeline()), south_end + 20, first - 40, hidden
    )
    return strokes_of(record(board(), frames)), first


def test_of_two_strikers_lying_still_the_one_on_a_base_line_is_watched_for_the_strike() -> None:
    """A false striker appears by the centre as the hand carries the striker to North's base
    line (older than the striker's track, which is found again there under a new one), and
    lies there still; North's striker, aimed, is struck. Of two strikers lying still, the one
    on a base line a player strikes from is the one to watch: North's stroke is recorded
    (held-out video 94016, `phone`: the striker's rest was kept at the false one, the strike
    from 150 mm off was refused, and the stroke was lost)."""
    strokes, first = north_struck_by_a_false_striker(hidden_looks=0)
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - first) <= 2


def test_a_striker_aimed_under_a_hand_keeps_its_rest_from_a_false_striker_seen_meanwhile() -> None:
    """As above, but the hand aiming North's striker hides it for the last quarter second
    before the strike, while the false striker by the centre is seen lying there: the rest
    stays with the striker hidden on its base line, and North's stroke is recorded (held-out
    video 95006, `phone`: the false striker took the rest, and the board's last stroke, with
    its last black, was lost)."""
    strokes, first = north_struck_by_a_false_striker(hidden_looks=8)
    assert [(s["evidence"]["seat"], s["pocketed"]) for s in strokes] == [("S", ["white"]), ("N", ["black"])]
    assert abs(strokes[1]["evidence"]["frames"][0] - first) <= 2


def test_the_queen_put_back_unseen_on_the_centre_circle_is_on_the_board_as_the_laws_have_her() -> None:
    """South pockets the queen and fails to cover her: she is put back in the centre circle
    (laws 93, 96), where the detector cannot tell her from the red print (held-out video
    91017, `phone`, development data since: read at 0.07 there, she was counted off the board,
    and both her later pocketings were disbelieved). The laws take her as put back, and so
    does the count: the placing is recorded, said to be unseen, and North's pocketing of her
    stands."""

    def board() -> ScriptedMatch:
        m = one_stroke_board()  # South breaks, pocketing W3 in NW
        m.put_striker("S", -60.0)
        m.strike("S", target="Q", pocket="NE")
        m.put_striker("S", 0.0)
        m.strike("S", target=None)  # not covered
        m.place("Q", (0.0, 0.0))
        m.put_striker("N", 30.0)
        m.strike("N", target="B2", pocket="SW")
        m.put_striker("N", -30.0)
        m.strike("N", target="Q", pocket="SE")
        return m

    clean = record(board())
    assert [e["items"] for e in clean if e["type"] == "placed"] == [["queen"]]
    assert [s["pocketed"] for s in strokes_of(clean)] == [["white"], ["queen"], [], ["black"], ["queen"]]
    uncovered_s = strokes_of(clean)[2]["evidence"]["frames"][1]
    queen = CLASS_NAMES.index("queen")

    def queen_unseen_on_the_centre(frames: Iterator[TrackFrame]) -> Iterator[TrackFrame]:
        for frame in frames:
            if frame.frame_index > uncovered_s:
                on_centre = (frame.class_id == queen) & (np.hypot(*frame.xy_mm.T) < 1.0)
                frame = frame.select(~on_centre)
            yield frame

    events = record(board(), queen_unseen_on_the_centre(oracle_track_frames(board().timeline())))
    placed = [e for e in events if e["type"] == "placed"]
    assert [e["items"] for e in placed] == [["queen"]]
    assert placed[0]["evidence"]["not_seen"] == ["queen"]
    assert placed[0]["evidence"]["positions_mm"] == []
    strokes = strokes_of(events)
    assert [s["pocketed"] for s in strokes] == [["white"], ["queen"], [], ["black"], ["queen"]]
    assert strokes[3]["evidence"]["counts_before"]["queen"] == 1


def test_a_coin_lying_over_a_mouth_a_moment_before_it_drops_in_is_not_counted_by_those_looks() -> None:
    """South's white runs to a corner, stops over its mouth and lies there for five looks,
    then drops in (held-out video 92015, `warm-lamp`, development data since: a white slowed
    along the cushion into a corner and lost, too slow to count as moving, was counted at
    rest from its last looks when the stroke closed a third of a second after it last moved;
    its pocketing, seen, was dropped). The board changed when it dropped: the stroke closes
    once the looks since show it gone, and the pocketing stands."""

    def board(teeter_s: float) -> ScriptedMatch:
        m = ScriptedMatch()
        m.new_board("S")
        m.put_striker("S", 10.0)
        m.strike("S", target="W4")
        m.put_striker("S", 40.0)
        m.strike("S", target="W1", pocket="NE", teeter_s=teeter_s)
        return m

    def strokes(teeter_s: float) -> list[dict]:
        match = board(teeter_s)
        recorder = MatchRecorder(SeatAssigner(players=("Asha", "Ben")))
        for frame in oracle_track_frames(match.timeline()):
            on = np.isin(frame.state, [int(TrackState.AT_REST), int(TrackState.MOVING)])
            recorder.update(frame, Detections(frame.xy_mm[on], frame.class_id[on], frame.score[on]), None)
        timeline = match.timeline()
        recorder.finish(timeline.num_frames, timeline.num_frames / timeline.fps)
        return strokes_of(recorder.log()["events"])

    assert [s["pocketed"] for s in strokes(0.0)] == [[], ["white"]]
    teetered = strokes(5 / 30.0)
    assert [s["pocketed"] for s in teetered] == [[], ["white"]]
    (fell,) = [e["frame"] for e in teetered[1]["evidence"]["pocket_events"]]
    assert teetered[1]["evidence"]["frames"][1] - fell >= 9  # a third of a second after it went
