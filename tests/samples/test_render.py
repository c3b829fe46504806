"""Renderer: the camera model, motion blur, hands, and videos whose truth matches the timeline."""

from __future__ import annotations

import math
from pathlib import Path

import av
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration import geometry as g
from calibration.camera import Calibration
from samples.render.board import render_board
from samples.render.camera import CameraParams, _side_px, build_pose, fit_pose, sample_pose, surface_inside
from samples.render.scene import FrameRenderer, PieceDraw, sample_scene
from samples.render.styles import STYLES
from samples.render.toy import toy_timeline
from samples.render.truth import camera_at, object_tracks
from samples.render.video import render_video
from samples.timeline import HandPose, ObjectState


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    roll=st.floats(0.0, 360.0),
    tilt=st.floats(0.0, 15.0),
    azimuth=st.floats(0.0, 360.0),
    fill=st.floats(0.4, 1.0),
    k1=st.floats(-0.3, 0.05),
    k2=st.floats(0.0, 0.1),
)
def test_camera_model_round_trips_and_matches_calibration(roll, tilt, azimuth, fill, k1, k2) -> None:
    params = CameraParams(
        (1280, 720), 60.0, math.radians(roll), math.radians(tilt), math.radians(azimuth), (0, 0), 1500, k1, k2
    )
    pose = fit_pose(params, fill, (0.0, 0.0))
    outer = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (g.HALF_SURFACE_MM + g.FRAME_BREADTH_MM)
    assert _side_px(pose.project(outer)) == pytest.approx(fill * 720, rel=1e-3)
    points = np.random.default_rng(0).uniform(-g.HALF_SURFACE_MM, g.HALF_SURFACE_MM, (30, 2))
    px = pose.project(points)
    np.testing.assert_allclose(pose.pixels_to_board(px), points, atol=1e-3)
    cal = Calibration.from_dict(pose.to_dict())
    np.testing.assert_allclose(cal.board_to_image(points), px, atol=1e-6)


@pytest.mark.parametrize("name", sorted(STYLES))
def test_sampled_cameras_keep_the_whole_surface_in_view(name: str) -> None:
    rng = np.random.default_rng(5)
    for _ in range(10):
        pose = sample_pose(STYLES[name], rng, (1280, 720))
        assert surface_inside(pose)
        assert pose.params.tilt <= math.radians(15.0) + 1e-9


def _renderer(seed: int = 0) -> FrameRenderer:
    rng = np.random.default_rng(seed)
    look = sample_scene(STYLES["tournament"], rng)
    pose = build_pose(CameraParams((640, 480), 60.0, 0.0, 0.0, 0.0, (0.0, 0.0), 1500.0, 0.0, 0.0))
    pose = fit_pose(pose.params, 0.9, (0.0, 0.0))
    return FrameRenderer(look, render_board(look.board, 1.0), pose)


def test_motion_blur_spreads_a_moving_piece_over_its_path() -> None:
    r = _renderer()
    still = PieceDraw(0, "black", np.array([[0.0, -200.0]]), ObjectState.ON_BOARD)
    path = np.stack([np.zeros(8), np.linspace(-260.0, -140.0, 8)], 1)
    moving = PieceDraw(0, "black", path, ObjectState.ON_BOARD)
    empty, _ = r.render([], ())
    sharp, _ = r.render([still], ())
    blurred, _ = r.render([moving], ())
    changed_sharp = (np.abs(sharp.astype(int) - empty).sum(2) > 30).sum()
    changed_blur = (np.abs(blurred.astype(int) - empty).sum(2) > 30).sum()
    assert changed_blur > 2 * changed_sharp
    # Where the sharp piece is dark, the blurred one is lighter: it is smeared along its path.
    x, y = np.round(r.pose.project(np.array([[0.0, -200.0]]))[0]).astype(int)
    patch = np.s_[y - 2 : y + 3, x - 2 : x + 3]
    assert blurred[patch].mean() > sharp[patch].mean() + 20


def test_a_hand_hides_what_it_covers_and_the_fraction_says_so() -> None:
    r = _renderer()
    coin = PieceDraw(3, "white", np.array([[0.0, -250.0]]), ObjectState.ON_BOARD)
    far = PieceDraw(4, "white", np.array([[200.0, 200.0]]), ObjectState.ON_BOARD)
    hand = HandPose("S", (0.0, -230.0), math.pi / 2, "reach", 0.5, 0)
    _, visible = r.render([coin, far], (hand,))
    assert visible[3] < 0.5
    assert visible[4] == 1.0
    _, visible = r.render([coin, far], ())
    assert visible[3] == 1.0


def test_falling_pieces_shrink_and_pocketed_ones_vanish() -> None:
    r = _renderer()
    centre = g.pocket_centre("NE")[None]
    _, v_start = r.render([PieceDraw(0, "white", centre, ObjectState.FALLING, 0.0)], ())
    _, v_late = r.render([PieceDraw(0, "white", centre, ObjectState.FALLING, 0.9)], ())
    _, v_gone = r.render([PieceDraw(0, "white", centre, ObjectState.IN_POCKET)], ())
    assert v_start[0] > v_late[0] > 0.0
    assert v_gone[0] == 0.0


@pytest.fixture(scope="module")
def toy_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, object]:
    timeline = toy_timeline(seconds=3.0, fps=30.0, oversample=4, seed=2)
    path = tmp_path_factory.mktemp("video") / "toy.mp4"
    truth = render_video(timeline, path, seed=9, style="tournament", size=(640, 360), bump_frames=(60,))
    return path, truth, timeline


def _frames(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        assert stream.codec_context.pix_fmt == "yuv420p"
        return [f.to_ndarray(format="bgr24") for f in container.decode(stream)]


def test_video_has_every_frame_at_the_asked_size(toy_video) -> None:
    path, truth, timeline = toy_video
    frames = _frames(path)
    assert len(frames) == timeline.num_frames == truth["video"]["frames"]
    assert frames[0].shape == (360, 640, 3)


def test_truth_matches_the_timeline_at_the_end_of_each_exposure(toy_video) -> None:
    _, truth, timeline = toy_video
    tracks = object_tracks(truth)
    ends = [timeline.frame_samples(f).stop - 1 for f in range(timeline.num_frames)]
    np.testing.assert_allclose(tracks["xy_mm"], timeline.xy_mm[ends], atol=1e-3)
    np.testing.assert_array_equal(tracks["state"], timeline.state[ends])
    assert [o["id"] for o in truth["objects"]] == list(timeline.ids)
    # The coin that is pocketed is invisible exactly from the frame it is in the pocket.
    w1 = truth["objects"][0]
    gone = next(f for f, s in w1["state"] if s == "in_pocket")
    assert tracks["visible"][gone:, 0].max() == 0.0
    assert tracks["visible"][: gone - 12, 0].min() == 1.0


def test_camera_bump_changes_the_truth_camera_and_the_picture(toy_video) -> None:
    path, truth, _ = toy_video
    assert [c["from_frame"] for c in truth["cameras"]] == [0, 60]
    assert truth["cameras"][1]["bump"]
    before = Calibration.from_dict(camera_at(truth, 59))
    after = Calibration.from_dict(camera_at(truth, 60))
    assert not np.allclose(before.homography, after.homography)
    frames = _frames(path)
    # Each frame shows the pockets (dark) where its own camera says they are.
    for frame_index, cal in ((59, before), (60, after)):
        for pocket in g.pocket_centres():
            x, y = np.round(cal.board_to_image(pocket[None])[0]).astype(int)
            assert frames[frame_index][y - 1 : y + 2, x - 1 : x + 2].mean() < 70


def test_pieces_in_the_video_are_where_the_truth_says(toy_video) -> None:
    path, truth, _ = toy_video
    frame = _frames(path)[5]
    cal = Calibration.from_dict(camera_at(truth, 5))
    tracks = object_tracks(truth)
    for i, obj in enumerate(truth["objects"]):
        if obj["class"] != "black":
            continue
        x, y = np.round(cal.board_to_image(tracks["xy_mm"][5, i][None])[0]).astype(int)
        assert frame[y - 1 : y + 2, x - 1 : x + 2].mean() < 90


def test_the_hand_positioning_the_striker_hides_part_of_it(toy_video) -> None:
    _, truth, timeline = toy_video
    tracks = object_tracks(truth)
    striker = timeline.ids.index("S")
    assert tracks["visible"][0, striker] < 1.0
    assert tracks["visible"][-1, striker] == 1.0


def test_same_seed_same_video(tmp_path: Path) -> None:
    timeline = toy_timeline(seconds=0.5, seed=1)
    a = render_video(timeline, tmp_path / "a.mp4", seed=4, size=(320, 240))
    b = render_video(timeline, tmp_path / "b.mp4", seed=4, size=(320, 240))
    c = render_video(timeline, tmp_path / "c.mp4", seed=5, size=(320, 240))
    assert a["video"].pop("file") != b["video"].pop("file")
    assert a == b
    assert a["cameras"] != c["cameras"]
    # The pictures are the same; the encoder may round a few pixels differently.
    for x, y in zip(_frames(tmp_path / "a.mp4"), _frames(tmp_path / "b.mp4"), strict=True):
        assert np.abs(x.astype(int) - y).mean() < 1.0


def test_the_raised_frame_hides_the_edge_of_the_surface_from_a_camera_beyond_it() -> None:
    # A camera leaning 15 degrees with its centre beyond the east edge of the board: the
    # east frame (22 mm high) hides a strip of the surface next to it.
    best = None
    for azimuth in np.radians([0.0, 90.0, 180.0, 270.0]):
        params = CameraParams(
            (1280, 720), 70.0, 0.0, math.radians(15.0), azimuth, (200.0, 0.0), 1500.0, 0.0, 0.0
        )
        pose = build_pose(params)
        r, t = pose.extrinsics[:, :3], pose.extrinsics[:, 3]
        centre = -r.T @ t
        if best is None or centre[0] > best[1][0]:
            best = (pose, centre)
    pose, centre = best
    assert centre[0] > g.HALF_SURFACE_MM
    rng = np.random.default_rng(1)
    look = sample_scene(STYLES["tournament"], rng)
    r = FrameRenderer(look, render_board(look.board, 1.0), pose)
    edge = g.HALF_SURFACE_MM - g.COIN_RADIUS_MM
    east = PieceDraw(0, "black", np.array([[edge, 0.0]]), ObjectState.ON_BOARD)
    middle = PieceDraw(1, "black", np.array([[0.0, 0.0]]), ObjectState.ON_BOARD)
    _, visible = r.render([east, middle], ())
    assert 0.0 < visible[0] < 1.0
    assert visible[1] == 1.0
