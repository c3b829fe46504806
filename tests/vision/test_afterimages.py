"""A coin seen stopping dead by a pocket, running over its hole, left an afterimage there."""

from __future__ import annotations

import numpy as np

from calibration.geometry import pocket_centre
from vision.events.afterimages import left_on_the_run_in, stopped_dead, went_in
from vision.events.board import Piece
from vision.events.departures import ItemEvent
from vision.tracks import TrackState

MOVING, AT_REST = int(TrackState.MOVING), int(TrackState.AT_REST)
NE = pocket_centre("NE")


def look(xy: np.ndarray, velocity: tuple[float, float], frame: int, state: int = MOVING) -> Piece:
    speed = float(np.hypot(*velocity))
    return Piece(7, "white", (float(xy[0]), float(xy[1])), state, speed, frame, frame / 30.0, velocity)


def test_a_coin_running_into_a_hole_and_seen_lying_where_it_was_left_an_afterimage() -> None:
    # Up the east cushion at 0.65 m/s, 36 mm short of the corner's centre (79019's white).
    at = NE - (0.0, 36.0)
    stop = stopped_dead(look(at, (0.0, 650.0), 500), look(at + (0.5, 0.0), (0.0, 0.0), 501, AT_REST), 4.0)
    assert stop is not None and (stop.item, stop.pocket, stop.frame) == ("white", "NE", 501)


def test_a_coin_slowing_to_rest_or_moving_on_or_heading_elsewhere_left_none() -> None:
    at = NE - (0.0, 36.0)
    rest = look(at, (0.0, 0.0), 501, AT_REST)
    assert stopped_dead(look(at, (0.0, 300.0), 500), rest, 4.0) is None  # slow enough to stop
    assert stopped_dead(look(at, (0.0, 650.0), 500), look(at + (0.0, 10.0), (0.0, 650.0), 501), 4.0) is None
    assert stopped_dead(look(at, (-650.0, 0.0), 500), rest, 4.0) is None  # heading along the cushion away
    far = NE - (0.0, 120.0)  # a look's run short of the hole: something else stopped it
    assert stopped_dead(look(far, (0.0, 650.0), 500), look(far, (0.0, 0.0), 501, AT_REST), 4.0) is None


def test_an_afterimage_is_believed_with_its_colour_seen_over_its_hole_and_nothing_in_the_way() -> None:
    at = NE - (0.0, 36.0)
    stop = stopped_dead(look(at, (0.0, 650.0), 500), look(at, (0.0, 0.0), 501, AT_REST), 4.0)
    assert stop is not None
    in_hole = ItemEvent("white", "NE", 502, 502 / 30.0, -1, (float(NE[0]), float(NE[1])))
    nothing = np.zeros((0, 2))
    assert went_in(stop, [in_hole], nothing, 1.0)
    assert not went_in(stop, [], nothing, 1.0)
    assert not went_in(stop, [ItemEvent("black", "NE", 502, 502 / 30.0, -1, in_hole.xy)], nothing, 1.0)
    assert not went_in(stop, [ItemEvent("white", "NW", 502, 502 / 30.0, -1, in_hole.xy)], nothing, 1.0)
    # A coin lying at the mouth, in contact: the runner stopped on it and it went in instead.
    assert not went_in(stop, [in_hole], np.array([at + (0.0, 31.5)]), 1.0)


def test_a_coin_first_seen_lying_on_the_run_of_one_of_its_colour_into_a_hole_is_its_afterimage() -> None:
    # Held-out video 88018 (`phone`, development data since): a white ran along the north
    # cushion into the north-east corner and was lost 22 mm from its centre; 11 looks later a
    # "white" was read lying 34 mm out, on the line it had run, and stayed.
    run = [(231.0, 276.0), (258.4, 314.1), (272.2, 333.4), (282.8, 350.0), (295.4, 346.2), (326.5, 352.2)]
    first = look(np.array([315.8, 356.2]), (0.0, 0.0), 108, AT_REST)
    now = look(np.array([314.0, 354.9]), (0.0, 0.0), 120, AT_REST)
    stop = left_on_the_run_in(first, now, "NE", run, 4.0)
    assert stop is not None and (stop.item, stop.pocket, stop.frame, stop.xy) == ("white", "NE", 108, now.xy)
    # Off the run's line by more than a coin's radius, or moved since it was first seen, or
    # on the run but further out than its last stretch into the pocket: a coin.
    aside = look(np.array([300.0, 320.0]), (0.0, 0.0), 108, AT_REST)
    assert left_on_the_run_in(aside, aside, "NE", run, 4.0) is None
    moved = look(np.array([300.0, 350.0]), (0.0, 0.0), 120, AT_REST)
    assert left_on_the_run_in(first, moved, "NE", run, 4.0) is None
    back = look(np.array([240.0, 288.6]), (0.0, 0.0), 108, AT_REST)
    assert left_on_the_run_in(back, back, "NE", run, 4.0) is None
