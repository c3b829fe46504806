from collections.abc import Callable
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from vision.errors import SourceError
from vision.io import open_source, read_frame


def _moving_disc(i: int, size: tuple[int, int]) -> np.ndarray:
    image = np.full((size[1], size[0], 3), 40, np.uint8)
    cv2.circle(image, (10 + 6 * i, 60), 8, (255, 255, 255), -1)
    return image


def _write_video(
    path: Path,
    frames: int = 20,
    size: tuple[int, int] = (160, 120),
    picture: Callable[[int, tuple[int, int]], np.ndarray] = _moving_disc,
) -> None:
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height = size
        stream.pix_fmt = "yuv420p"
        for i in range(frames):
            for packet in stream.encode(av.VideoFrame.from_ndarray(picture(i, size), format="bgr24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def test_video_frames_in_order_with_times_and_grey_from_luma(tmp_path):
    video = tmp_path / "v.mp4"
    _write_video(video)
    source = open_source(video)
    frames = list(source)
    assert [f.index for f in frames] == list(range(20))
    assert frames[3].time_s == pytest.approx(3 / 30, abs=1e-3)
    grey = frames[5].gray()
    assert grey.shape == (120, 160)
    assert abs(int(grey[60, 40]) - 235) < 30  # the white disc at x = 10 + 6*5
    assert frames[5].bgr().shape == (120, 160, 3)
    assert source.stopped_reason is None


def test_truncated_video_stops_cleanly_with_a_reason(tmp_path):
    video = tmp_path / "v.mp4"
    _write_video(video, frames=60)
    data = video.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) * 2 // 3])
    try:
        source = open_source(cut)
    except SourceError:
        return  # the moov atom was cut away: unreadable from the start, also acceptable
    frames = list(source)
    assert len(frames) < 60
    assert source.stopped_reason is not None


def test_missing_and_garbage_files_are_user_errors(tmp_path):
    with pytest.raises(SourceError, match="no such file"):
        open_source(tmp_path / "nope.mp4")
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 100)
    with pytest.raises(SourceError, match=r"junk\.mp4"):
        open_source(junk)


def test_image_source_and_read_frame(tmp_path):
    image = np.zeros((30, 40, 3), np.uint8)
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), image)
    frame = read_frame(path)
    assert frame.bgr().shape == (30, 40, 3)
    video = tmp_path / "v.mp4"
    _write_video(video)
    assert read_frame(video, 7).index == 7
    with pytest.raises(SourceError, match="no frame 99"):
        read_frame(video, 99)


def _coloured_discs(i: int, size: tuple[int, int]) -> np.ndarray:
    """Coloured discs on a wood-brown ground: colours the conversion must keep."""
    image = np.zeros((size[1], size[0], 3), np.uint8)
    image[:] = (60, 120, 180)
    for k, colour in enumerate([(255, 255, 255), (20, 20, 20), (40, 40, 200), (200, 220, 235)]):
        cv2.circle(image, (50 + 70 * k, 120), 25, colour, -1)
    return image


def test_frames_turn_into_the_colours_ffmpeg_gives_and_hand_over_their_planes(tmp_path):
    video = tmp_path / "colour.mp4"
    _write_video(video, frames=3, size=(320, 240), picture=_coloured_discs)
    frame = next(iter(open_source(video)))
    planes = frame.yuv420()
    assert planes is not None
    assert [p.shape for p in planes] == [(240, 320), (120, 160), (120, 160)]
    ffmpeg = frame._av_frame.to_ndarray(format="bgr24").astype(int)
    difference = np.abs(frame.bgr().astype(int) - ffmpeg)
    # The same colours; only where the chroma is interpolated differently (the discs' rims).
    assert np.median(difference) <= 1 and np.percentile(difference, 95) <= 4
    assert abs(int(frame.bgr()[120, 190, 2]) - 200) < 12  # the red disc is red
