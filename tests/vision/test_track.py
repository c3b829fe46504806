"""The tracker on synthetic detection sequences with exact ground truth."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.geometry import POCKET_CENTRE_OFFSET_MM, POCKETS, pocket_centre
from vision.detections import BLACK, QUEEN, STRIKER, WHITE, Detections
from vision.track import Tracker
from vision.tracks import TrackFrame, TrackState

FPS = 30.0


def dets(points: list[tuple[int, tuple[float, float]]], rng: np.random.Generator | None = None) -> Detections:
    if not points:
        return Detections.empty()
    xy = np.array([p for _, p in points], float)
    if rng is not None:
        xy = xy + rng.normal(0.0, 0.3, xy.shape)
    return Detections(xy, np.array([c for c, _ in points]), np.full(len(points), 0.95))


Scene = list[list[tuple[int, tuple[float, float]]]]


def run(tracker: Tracker, frames: Scene, seed: int = 0) -> list[TrackFrame]:
    rng = np.random.default_rng(seed)
    return [tracker.update(dets(f, rng), i, i / FPS) for i, f in enumerate(frames)]


def id_at(frame: TrackFrame, xy: tuple[float, float], tol: float = 5.0) -> int:
    d = np.linalg.norm(frame.xy_mm - np.array(xy), axis=1)
    assert d.min() < tol, f"no track near {xy}"
    return int(frame.track_id[int(np.argmin(d))])


REST = [(WHITE, (0.0, 0.0)), (BLACK, (31.0, 0.0)), (QUEEN, (-31.0, 0.0)), (WHITE, (100.0, 100.0))]


def test_pieces_at_rest_keep_their_ids_and_are_at_rest() -> None:
    out = run(Tracker(), [REST] * 20)
    last = out[-1]
    assert len(last) == 4
    assert set(last.state.tolist()) == {TrackState.AT_REST}
    assert [id_at(last, p) for _, p in REST] == [id_at(out[2], p) for _, p in REST]
    assert np.max(np.abs(last.velocity_mm_s)) < 30.0


def test_a_struck_coin_keeps_its_id_while_moving_several_diameters_per_frame() -> None:
    frames = [REST] * 5
    for k in range(1, 8):
        frames.append([*REST[:3], (WHITE, (100.0 - 60.0 * k, 100.0))])  # 1.8 m/s: two diameters a frame
    out = run(Tracker(), frames)
    first = id_at(out[4], (100.0, 100.0))
    assert id_at(out[-1], (100.0 - 60.0 * 7, 100.0)) == first
    moving = out[-1].in_state(TrackState.MOVING)
    assert moving.track_id.tolist() == [first]
    assert abs(moving.velocity_mm_s[0, 0] + 60.0 * FPS) < 0.1 * 60.0 * FPS


def test_a_coin_going_into_a_pocket_is_reported_once_with_that_pocket() -> None:
    target = pocket_centre("NE")
    start = target - np.array([250.0, 250.0])
    frames = [[(BLACK, tuple(start))]] * 4
    k = 1
    while True:
        xy = start + (target - start) * k / 8.0
        if np.linalg.norm(xy - target) < 35.0:
            break
        frames.append([(BLACK, tuple(xy))])
        k += 1
    frames += [[]] * 8
    out = run(Tracker(), frames)
    pocketed = [f for f in out if len(f.in_state(TrackState.POCKETED))]
    assert len(pocketed) == 1
    frame = pocketed[0].in_state(TrackState.POCKETED)
    assert frame.pocket_name(0) == "NE"
    assert len(out[-1]) == 0


def test_a_coin_leaving_the_surface_is_off_board_not_pocketed() -> None:
    frames = [[(WHITE, (0.0, 200.0))]] * 3
    frames += [[(WHITE, (0.0, 200.0 + 60.0 * k))] for k in range(1, 4)]
    frames += [[]] * 6
    out = run(Tracker(), frames)
    states = [int(s) for f in out for s in f.state]
    assert states.count(TrackState.OFF_BOARD) == 1
    assert TrackState.POCKETED not in states


def test_identities_survive_a_hand_covering_pieces() -> None:
    frames = [REST] * 5 + [REST[3:]] * 25 + [REST] * 5
    out = run(Tracker(), frames)
    covered = out[15]
    assert set(covered.in_state(TrackState.OCCLUDED).track_id.tolist()) == {
        id_at(out[4], p) for _, p in REST[:3]
    }
    assert [id_at(out[-1], p) for _, p in REST] == [id_at(out[4], p) for _, p in REST]
    assert len(out[-1]) == 4


def test_the_striker_keeps_its_id_through_an_unseen_fast_flight() -> None:
    frames = [[*REST, (STRIKER, (0.0, -290.0))]] * 5
    frames += [REST] * 3  # a blur nobody detects
    frames += [[*REST, (STRIKER, (250.0, 300.0))]] * 5
    out = run(Tracker(), frames)
    striker = out[4].of_class("striker").track_id.tolist()
    assert out[-1].of_class("striker").track_id.tolist() == striker
    assert out[6].of_class("striker").state.tolist() == [TrackState.OCCLUDED]


def test_a_single_misclassification_does_not_change_identity_or_class() -> None:
    frames = [REST] * 5 + [[(BLACK, (0.0, 0.0)), *REST[1:]]] + [REST] * 3
    out = run(Tracker(), frames)
    assert id_at(out[-1], (0.0, 0.0)) == id_at(out[4], (0.0, 0.0))
    assert out[5].class_id[out[5].track_id == id_at(out[4], (0.0, 0.0))].tolist() == [WHITE]


def test_a_one_frame_false_detection_never_becomes_a_track() -> None:
    frames = [REST] * 3 + [[*REST, (BLACK, (-200.0, -200.0))]] + [REST] * 3
    out = run(Tracker(), frames)
    assert all(len(f) <= 4 for f in out)


def test_reset_starts_a_new_video() -> None:
    tracker = Tracker()
    run(tracker, [REST] * 3)
    tracker.reset()
    assert len(tracker.update(Detections.empty(), 0, 0.0)) == 0


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    count=st.integers(1, 19),
)
def test_identities_do_not_depend_on_detection_order(seed: int, count: int) -> None:
    rng = np.random.default_rng(seed)
    grid = np.array([(x, y) for x in range(-300, 301, 60) for y in range(-300, 301, 60)], float)
    xy = grid[rng.choice(len(grid), count, replace=False)]
    # A real board's pieces: at most nine of a colour and one queen.
    classes = rng.permutation(np.array([WHITE] * 9 + [BLACK] * 9 + [QUEEN]))[:count]
    tracker = Tracker()
    seen: dict[int, int] = {}
    for i in range(6):
        order = rng.permutation(count)
        noisy = xy[order] + rng.normal(0, 0.3, (count, 2))
        frame = tracker.update(Detections(noisy, classes[order], np.full(count, 0.9)), i, i / FPS)
        for tid, p in zip(frame.track_id, frame.xy_mm, strict=True):
            key = int(np.argmin(np.linalg.norm(xy - p, axis=1)))
            assert seen.setdefault(key, int(tid)) == int(tid)
    assert len(seen) == count
    assert len(set(seen.values())) == count


def test_pocket_names_cover_every_pocket() -> None:
    for name in POCKETS:
        target = pocket_centre(name)
        start = target * 0.3
        frames = [[(WHITE, tuple(start))]] * 3
        frames += [[(WHITE, tuple(start + (target - start) * k / 6.0))] for k in range(1, 6)]
        frames += [[]] * 5
        out = run(Tracker(), frames)
        gone = [f.in_state(TrackState.POCKETED) for f in out if len(f.in_state(TrackState.POCKETED))]
        assert [g.pocket_name(0) for g in gone] == [name]


def test_there_is_never_a_second_queen_track_nor_a_third_striker_track() -> None:
    frames = [[*REST, (STRIKER, (0.0, -290.0))]] * 4
    extra = [(STRIKER, (200.0, 200.0)), (STRIKER, (-200.0, 200.0)), (QUEEN, (-200.0, 0.0))]
    frames += [[*REST, (STRIKER, (0.0, -290.0)), *extra]] * 4
    out = run(Tracker(), frames)
    assert all(len(f.of_class("queen")) == 1 for f in out[2:])
    assert all(len(f.of_class("striker")) <= 2 for f in out)
    assert len(out[-1].of_class("striker")) == 2


def test_a_track_seen_as_another_colour_look_after_look_leaves_its_colour_a_place() -> None:
    """Nine black tracks; at the break one of them takes the queen's sightings (she came to
    rest where it was lost) and keeps its black votes for many looks. The black it lost, seen
    by the centre meanwhile, must get a track: left untracked until the board was still, it
    was taken for a due being put back (held-out video 73007, now development data)."""
    blacks = [(BLACK, (float(x), 250.0)) for x in range(-240, 241, 60)]
    queen_at = (0.0, 0.0)
    frames: Scene = [[*blacks, (QUEEN, queen_at)]] * 10
    taken = blacks[0][1]  # the queen comes to rest where the first black was lost
    black_now = (100.0, -100.0)  # and that black lies here
    frames += [[*blacks[1:], (QUEEN, taken), (BLACK, black_now)]] * 6
    out = run(Tracker(), frames)
    first_black = id_at(out[9], taken)
    assert out[-1].class_id[out[-1].track_id == first_black].tolist() == [BLACK]  # votes not yet turned
    assert len(out[-1].of_class("black")) == 10
    assert id_at(out[-1], black_now) != first_black


def _run_into_a_pocket_seen_as(track_class: int, seen_class: int, looks_seen: int) -> int:
    """A piece of `track_class` lies still for a second, then runs into the NE pocket, seen as
    `seen_class` for its last `looks_seen` looks: the class its track goes with."""
    target = pocket_centre("NE")
    start = target - np.array([240.0, 240.0])
    run_in = [start + (target - start) * k / 8.0 for k in range(1, 8)]
    frames: Scene = [[(track_class, tuple(start))]] * 30
    frames += [
        [(seen_class if k >= len(run_in) - looks_seen else track_class, tuple(xy))]
        for k, xy in enumerate(run_in)
    ]
    frames += [[]] * 8
    pocketed = [
        f.in_state(TrackState.POCKETED)
        for f in run(Tracker(), frames)
        if len(f.in_state(TrackState.POCKETED))
    ]
    assert len(pocketed) == 1 and pocketed[0].pocket_name(0) == "NE"
    return int(pocketed[0].class_id[0])


def test_a_track_carrying_another_colour_into_a_pocket_goes_as_the_colour_it_was_seeing() -> None:
    """At the break a white's track took a black's sightings for eight looks, down to the
    corner's mouth the black fell into; its votes, gathered at rest, still said white, and a
    white "went" there (held-out video 96003, `worn`, development data since). Three looks
    running of one other colour are that piece; fewer are misreadings."""
    assert _run_into_a_pocket_seen_as(WHITE, BLACK, 3) == BLACK
    assert _run_into_a_pocket_seen_as(BLACK, QUEEN, 5) == QUEEN
    assert _run_into_a_pocket_seen_as(WHITE, BLACK, 2) == WHITE


def test_a_false_striker_lying_still_does_not_leave_the_real_one_untracked() -> None:
    # A printed mark taken for a striker holds a striker track from the start; the real
    # striker, put down on the S base line and struck, must still be followed.
    mark = (STRIKER, (0.0, 150.0))
    frames = [[*REST, mark]] * 4
    frames += [[*REST, mark, (STRIKER, (0.0, -290.0))]] * 4
    frames += [[*REST, mark, (STRIKER, (0.0, -290.0 + 60.0 * k))] for k in range(1, 4)]
    out = run(Tracker(), frames)
    real = id_at(out[7], (0.0, -290.0))
    assert id_at(out[-1], (0.0, -290.0 + 180.0)) == real
    assert real != id_at(out[-1], (0.0, 150.0))
    assert out[-1].state[out[-1].track_id == real].tolist() == [TrackState.MOVING]


def test_a_piece_that_crept_into_a_pocket_mouth_and_vanished_is_pocketed() -> None:
    mouth = pocket_centre("SW") + np.array([0.0, 40.0])
    frames = [[(WHITE, tuple(mouth))]] * 4 + [[]] * 25
    out = run(Tracker(), frames)
    gone = [f.in_state(TrackState.POCKETED) for f in out if len(f.in_state(TrackState.POCKETED))]
    assert [g.pocket_name(0) for g in gone] == ["SW"]


def test_no_piece_first_appears_beyond_the_surface_edge() -> None:
    # A mark on the frame detected as a coin, flickering: no track, so nothing "leaves".
    from calibration.geometry import HALF_SURFACE_MM

    mark = (BLACK, (120.0, HALF_SURFACE_MM + 8.0))
    out = run(Tracker(), ([[*REST, mark]] * 4 + [REST] * 4) * 2)
    assert all(len(f) == len(REST) for f in out[2:])
    assert not any(len(f.in_state(TrackState.OFF_BOARD)) for f in out)


def test_a_faint_peak_continues_a_piece_lying_where_it_lay_and_starts_nothing() -> None:
    """A black lying at a pocket's mouth fades under the threshold against the dark hole
    (development video 9112, for seconds), and the queen on the centre spot fades too (9153):
    their faint peaks continue them. Nothing else does."""
    from vision.track.faint import continued

    black, white, striker, queen = BLACK, WHITE, STRIKER, QUEEN
    rest = int(TrackState.AT_REST)
    followed = TrackFrame(
        10, 1.0, np.array([1, 2, 3, 4, 5]), np.array([black, white, striker, queen, white]),
        np.array([[330.0, 300.0], [-330.0, -300.0], [0.0, -250.0], [0.0, 0.0], [-150.0, 100.0]]),
        np.zeros((5, 2)), np.full(5, rest), np.full(5, -1), np.full(5, 0.9),
    )  # fmt: skip
    found = Detections(np.array([[100.0, 50.0]]), np.array([white]), np.array([0.9]))
    faint = Detections(
        np.array(
            [
                [333.0, 302.0],
                [-200.0, 100.0],
                [-327.0, -300.0],
                [0.0, -252.0],
                [102.0, 51.0],
                [1.0, 0.0],
                [-148.0, 101.0],
            ]
        ),
        np.array([black, black, white, striker, white, queen, white]),
        np.full(7, 0.2),
    )
    got = continued(found, faint, followed, 1.0 + 1 / 30)
    # The black lying there, the white lying at a pocket's mouth clear of its hole and the queen
    # on the centre spot, continued; a faint black where nothing lay, a white away from the
    # pockets (faint white peaks lie still where no piece is: 9127), the striker and a faint
    # second look at a piece found: not.
    assert got.xy_mm.tolist() == [[100.0, 50.0], [333.0, 302.0], [-327.0, -300.0], [1.0, 0.0]]
    assert continued(found, faint, None, 1.0) is found
    # The queen come to rest is continued by a peak where she lies, clear of a pocket's mouth
    # (development video 9173: 65 mm from its centre, taken into the pocket a stroke early) or
    # at it (65009: 29 mm from the centre, overhanging the hole), even a peak over the hole's
    # edge (73014: hanging half over it); not by one over the hole itself: she is falling in.
    for from_pocket, towards_hole_mm, kept in (
        (65.0, 1.0, True), (65.0, 6.0, True), (29.0, 1.0, True), (40.0, 2.0, True), (29.0, 6.0, True),
        (22.0, 2.0, True), (20.0, 4.0, False),
    ):  # fmt: skip
        spot = np.array([[347.75 - from_pocket / np.sqrt(2.0), 347.75 - from_pocket / np.sqrt(2.0)]])
        lying = TrackFrame(
            10, 1.0, np.array([4]), np.array([queen]), spot, np.zeros((1, 2)), np.array([rest]),
            np.full(1, -1), np.full(1, 0.9),
        )  # fmt: skip
        peak = Detections(spot + towards_hole_mm / np.sqrt(2.0), np.array([queen]), np.array([0.39]))
        assert (continued(found, peak, lying, 1.0 + 1 / 30) is not found) == kept
        # Seen moving slowly at the mouth, the same.
        moving = TrackFrame(
            10, 1.0, np.array([4]), np.array([queen]), spot, np.zeros((1, 2)),
            np.array([int(TrackState.MOVING)]), np.full(1, -1), np.full(1, 0.9),
        )  # fmt: skip
        assert (continued(found, peak, moving, 1.0 + 1 / 30) is not found) == kept
    # A black slowing to rest at a pocket's lip fades as it stops: continued where it would be
    # by now; one going by fast is blur, weighed elsewhere.
    for speed, kept in ((200.0, True), (900.0, False)):
        slowing = TrackFrame(
            10, 1.0, np.array([1]), np.array([black]), np.array([[326.0, 302.0]]),
            np.array([[speed, 0.0]]), np.array([int(TrackState.MOVING)]), np.full(1, -1), np.full(1, 0.9),
        )  # fmt: skip
        at_lip = Detections(np.array([[326.0 + speed / 30.0, 302.0]]), np.array([black]), np.array([0.2]))
        assert (continued(found, at_lip, slowing, 1.0 + 1 / 30) is not found) == kept
    # A white or the queen slowing to rest at a corner's mouth fades as it stops (development
    # videos 9409 and 9404: 38 and 37 mm from the centre, taken into the pocket): continued
    # where its peak lies clear of the hole; a white whose peak is over the hole's edge is
    # sinking (9127), the queen only once her peak is over the hole itself (73014).
    for item in (white, queen):
        for from_pocket, kept in ((38.0, True), (31.0, True), (27.0, item == queen), (15.0, False)):
            at = POCKET_CENTRE_OFFSET_MM - from_pocket / np.sqrt(2.0)
            slowing = TrackFrame(
                10, 1.0, np.array([7]), np.array([item]), np.array([[at - 3.0, at - 3.0]]),
                np.array([[90.0, 90.0]]), np.array([int(TrackState.MOVING)]), np.full(1, -1), np.full(1, 0.9),
            )  # fmt: skip
            peak = Detections(np.array([[at, at]]), np.array([item]), np.array([0.3]))
            assert (continued(found, peak, slowing, 1.0 + 1 / 30) is not found) == kept


def test_a_faint_striker_peak_continues_the_striker_at_a_pocket_mouth_off_the_hole() -> None:
    """Held-out video 76004 (`warm-lamp`, development data since): the striker slowing into a
    corner's mouth came to rest 23.5 mm from its centre, overhanging the hole, read at 0.37 to
    0.39; lost, its track was let go into the pocket, a foul that cost the board's result. Its
    faint peak continues it there, seen or lost a look before, but not a peak over the hole
    (it is falling in), nor a fainter one, nor one away from the pockets."""
    from vision.track.faint import continued

    found = Detections(np.array([[100.0, 50.0]]), np.array([WHITE]), np.array([0.9]))
    diagonal = np.array([1.0, 1.0]) / np.sqrt(2.0)
    for state, from_pocket, peak_from_pocket, score, kept in (
        (TrackState.MOVING, 31.8, 24.0, 0.39, True),
        (TrackState.OCCLUDED, 31.8, 24.0, 0.39, True),
        (TrackState.AT_REST, 24.0, 24.0, 0.37, True),
        (TrackState.OCCLUDED, 31.8, 23.0, 0.30, True),
        (TrackState.OCCLUDED, 28.0, 20.0, 0.39, False),  # over the hole: falling in
        (TrackState.OCCLUDED, 31.8, 24.0, 0.25, False),  # too faint
        (TrackState.OCCLUDED, 60.0, 52.0, 0.39, False),  # not at the mouth
        (TrackState.OCCLUDED, 31.8, 45.0, 0.39, False),  # not where it was
    ):
        lying = TrackFrame(
            10, 1.0, np.array([3]), np.array([STRIKER]),
            (POCKET_CENTRE_OFFSET_MM - from_pocket * diagonal)[None, :],
            np.zeros((1, 2)), np.array([int(state)]), np.full(1, -1), np.full(1, 0.6),
        )  # fmt: skip
        peak_xy = (POCKET_CENTRE_OFFSET_MM - peak_from_pocket * diagonal)[None, :]
        peak = Detections(peak_xy, np.array([STRIKER]), np.array([score]))
        assert (continued(found, peak, lying, 1.0 + 1 / 30) is not found) == kept, (
            state,
            peak_from_pocket,
            score,
        )
    # A striker peak does not continue a coin there, nor a coin's peak the striker.
    coin = TrackFrame(
        10, 1.0, np.array([1]), np.array([WHITE]), (POCKET_CENTRE_OFFSET_MM - 38.0 * diagonal)[None, :],
        np.zeros((1, 2)), np.array([int(TrackState.AT_REST)]), np.full(1, -1), np.full(1, 0.6),
    )  # fmt: skip
    striker_peak = Detections(
        (POCKET_CENTRE_OFFSET_MM - 36.0 * diagonal)[None, :], np.array([STRIKER]), np.array([0.39])
    )
    assert continued(found, striker_peak, coin, 1.0 + 1 / 30) is found


def _carried_past(stale_xy: tuple[float, float]) -> tuple[Scene, list[tuple[float, float]]]:
    """A striker track left at `stale_xy` (the striker seen there and, for a few frames, also
    where it really lies; then only there), and the striker carried at 0.5 m/s on a line
    that passes close by `stale_xy`, unseen for one frame just before it gets there."""
    start = (-185.0, 260.0)
    frames: Scene = [[*REST, (STRIKER, stale_xy)]] * 4
    frames += [[*REST, (STRIKER, stale_xy), (STRIKER, start)]] * 4
    frames += [[*REST, (STRIKER, start)]] * 30
    path = [(-185.0 - 2.0 * k, 260.0 - 16.0 * k) for k in range(1, 13)]
    for k, xy in enumerate(path):
        frames.append(list(REST) if k == 7 else [*REST, (STRIKER, xy)])
    return frames, path


def test_a_moving_piece_unseen_for_a_frame_is_predicted_over_the_time_unseen() -> None:
    # Development video 9300 (the striker carried past a stale striker track): predicted
    # only one frame on from its last sighting, a piece moving at 0.5 m/s and unseen for a
    # frame lies nearer a piece hidden under a hand, whose track takes its sighting.
    hidden = (WHITE, (-208.0, 128.0))  # covered by the hand from the frame the other is unseen
    frames: Scene = [[*REST, hidden]] * 4
    path = [(-185.0 - 2.0 * k, 260.0 - 16.0 * k) for k in range(12)]
    for k, xy in enumerate(path):
        seen = [] if k == 7 else [(WHITE, xy)]
        frames.append([*REST, *([hidden] if k < 7 else []), *seen])
    out = run(Tracker(), frames)
    hidden_id = id_at(out[3], hidden[1])
    moving = id_at(out[-len(path) + 2], path[2])
    assert moving != hidden_id
    assert id_at(out[-1], path[-1]) == moving
    assert out[-1].state[out[-1].track_id == hidden_id].tolist() == [TrackState.OCCLUDED]


def test_a_stale_striker_track_is_dropped_once_the_striker_is_seen_moving() -> None:
    frames, path = _carried_past((-240.0, 107.0))
    out = run(Tracker(), frames)
    stale = id_at(out[3], (-240.0, 107.0))
    assert stale in out[-len(path) - 2].track_id.tolist()  # kept while the striker lies still
    assert stale not in out[-1].track_id.tolist()
    assert len(out[-1].of_class("striker")) == 1


def test_a_false_striker_lying_still_is_kept_while_the_real_one_moves() -> None:
    mark = (STRIKER, (0.0, 150.0))
    frames = [[*REST, mark, (STRIKER, (0.0, -290.0))]] * 6
    frames += [[*REST, mark, (STRIKER, (0.0, -290.0 + 60.0 * k))] for k in range(1, 4)]
    out = run(Tracker(), frames)
    assert len(out[-1].of_class("striker")) == 2


def test_a_striker_lying_still_is_not_taken_to_a_striker_seen_past_the_surface_edge() -> None:
    """Held-out video 76019 (`warm-lamp`, development data since): a "striker" in the frame's
    wood past the east cushion took the track of the striker lying on its base line 150 mm off
    whenever that one was missed, and a stroke was made of the jumps. One flying over the edge
    is followed there."""
    lying, printed = (250.0, -138.0), (378.0, -55.0)
    frames: Scene = (
        [[*REST, (STRIKER, lying)]] * 5 + [[*REST, (STRIKER, printed)]] * 2 + [[*REST, (STRIKER, lying)]] * 3
    )
    out = run(Tracker(), frames)
    striker = id_at(out[4], lying)
    for frame in out[5:]:
        mine = frame.track_id == striker
        assert mine.any() and np.linalg.norm(frame.xy_mm[mine][0] - lying) < 5.0
        assert not np.any((frame.class_id == STRIKER) & (frame.state == int(TrackState.MOVING)))
    # Struck towards the east cushion and seen flying over it: the same track.
    flight = [[*REST, (STRIKER, (250.0 + 90.0 * k, -138.0))] for k in range(1, 4)]
    out = run(Tracker(), [[*REST, (STRIKER, lying)]] * 5 + flight)
    assert id_at(out[-1], (520.0, -138.0)) == id_at(out[4], lying)


def test_the_striker_read_as_a_coin_in_flight_is_not_a_coin_lost_long_before_found_far_off() -> None:
    """Held-out video 77007 (`warm-lamp`, development data since): the dim striker flying
    into a corner, read as a white there for one look, was taken for a white hidden under a
    hand 480 mm away for a stroke, whose track was then lost at the mouth and ruled pocketed.
    A white found far off with nothing moving there is the hidden one, carried."""
    hidden = (-160.0, -100.0)
    others = [(BLACK, (200.0, 200.0)), (WHITE, (-250.0, 250.0))]
    flight = [(-100.0 + 60.0 * k, -30.0 - 40.0 * k) for k in range(1, 7)]
    frames: Scene = [[*others, (WHITE, hidden)]] * 5 + [others] * 10
    frames += [[*others, (STRIKER, xy)] for xy in flight[:-1]]
    frames += [[*others, (WHITE, flight[-1])]] + [others] * 3 + [[*others, (WHITE, hidden)]] * 3
    out = run(Tracker(), frames)
    white = id_at(out[4], hidden)
    misread = len(frames) - 7
    mine = out[misread].track_id == white
    assert mine.any() and np.linalg.norm(out[misread].xy_mm[mine][0] - hidden) < 5.0
    assert not np.any(out[misread + 3].state == int(TrackState.POCKETED))
    assert id_at(out[-1], hidden) == white
    # Nothing moving where it shows up: the hidden white, carried there under the hand.
    frames = [[*others, (WHITE, hidden)]] * 5 + [others] * 10 + [[*others, (WHITE, flight[-1])]] * 3
    out = run(Tracker(), frames)
    assert id_at(out[-1], flight[-1]) == id_at(out[4], hidden)


def test_a_piece_read_beside_another_running_is_its_blur_not_a_piece_lost_long_before() -> None:
    """Held-out video 90016's break (`phone`): a white flew off the board unseen at the strike
    (its track lost where it lay); a black running towards a corner was read for one look also
    as a white 34 mm off, less surely, and the lost white's track took that sighting (and lost
    it by the corner: "pocketed")."""
    lying = (0.0, -62.0)
    black = [(139.0 + 17.0 * k, -241.0 - 20.0 * k) for k in range(8)]
    beside = (black[5][0] + 30.0, black[5][1] - 15.0)
    frames: list[Detections] = []
    for i in range(12):
        if i < 5:
            xy, cls, score = [lying, black[0]], [WHITE, BLACK], [0.95, 0.85]
        else:
            xy, cls, score = [black[min(i - 4, 7)]], [BLACK], [0.85]
            if i == 9:
                xy, cls, score = [*xy, beside], [BLACK, WHITE], [0.85, 0.50]
        frames.append(Detections(np.array(xy), np.array(cls), np.array(score)))
    tracker = Tracker()
    out = [tracker.update(d, i, i / FPS) for i, d in enumerate(frames)]
    white = id_at(out[4], lying)
    mine = out[9].track_id == white
    assert mine.any() and np.linalg.norm(out[9].xy_mm[mine][0] - np.array(lying)) < 5.0
    assert np.linalg.norm(out[9].xy_mm - np.array(beside), axis=1).min() > 5.0
    # Read as surely as the black, it may be a white: the lost one, found again.
    frames[9] = Detections(frames[9].xy_mm, frames[9].class_id, np.array([0.85, 0.90]))
    tracker = Tracker()
    out = [tracker.update(d, i, i / FPS) for i, d in enumerate(frames)]
    assert id_at(out[9], beside) == white
