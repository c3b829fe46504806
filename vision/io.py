"""Frame sources: a video file, a still image, a live camera or stream, one abstraction.

Frames are decoded once and handed on one at a time (the pipeline is online). A `Frame`
converts lazily: the grey image of a YUV video frame is its luma plane, so a stage that
only needs grey (the movement check, most frames) never pays for a colour conversion.

A source that breaks mid-way (a truncated or corrupt file, a dropped stream) does not
raise from the iterator: it stops and records why in `stopped_reason`, so a long job keeps
everything recorded up to the last good frame. A source that cannot be opened at all
raises `SourceError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import SourceError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


def i420_to_bgr(luma: np.ndarray, cb: np.ndarray, cr: np.ndarray) -> np.ndarray:
    """Colour from 4:2:0 planes (chroma at half size each way, the luma's height a multiple of
    4 so that the chroma planes stack in whole luma-width rows, as I420 lays them out)."""
    width = luma.shape[1]
    return cv2.cvtColor(
        np.concatenate([luma, cb.reshape(-1, width), cr.reshape(-1, width)]), cv2.COLOR_YUV2BGR_I420
    )


@dataclass(eq=False)
class Frame:
    """One decoded frame. `bgr()` and `gray()` convert on first use and cache."""

    index: int
    time_s: float
    width: int
    height: int
    _bgr: np.ndarray | None = None
    _gray: np.ndarray | None = None
    _yuv: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    _av_frame: Any = field(default=None, repr=False)

    @classmethod
    def from_bgr(cls, index: int, time_s: float, image: np.ndarray) -> Frame:
        return cls(index, time_s, int(image.shape[1]), int(image.shape[0]), _bgr=image)

    def bgr(self) -> np.ndarray:
        if self._bgr is None:
            planes = self.yuv420()
            if planes is not None and self.height % 4 == 0:
                # OpenCV turns the planes into colour several times faster than FFmpeg's
                # general scaler (0.6 against 2-4 ms a 1080p frame here), in the same BT.601
                # limited-range colours within a grey level or two.
                self._bgr = i420_to_bgr(*planes)
            else:
                self._bgr = self._av_frame.to_ndarray(format="bgr24")
        return self._bgr

    def yuv420(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The decoded planes (luma, then blue and red chroma at half size each way) without
        conversion, when the video holds 4:2:0 limited-range colour of even size (H.264 as
        cameras and encoders write it); None otherwise. What samples only part of a frame (the
        board's rectification) can skip turning the whole frame into colour."""
        av_frame = self._av_frame
        if av_frame is None or av_frame.format.name != "yuv420p" or self.width % 2 or self.height % 2:
            return None
        if self._yuv is None:
            self._yuv = tuple(  # type: ignore[assignment]
                np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)[:, : plane.width]
                for plane in av_frame.planes
            )
        return self._yuv

    def gray(self) -> np.ndarray:
        if self._gray is None:
            if (
                self._bgr is None
                and self._av_frame is not None
                and self._av_frame.format.name
                in (
                    "yuv420p",
                    "yuvj420p",
                    "yuv422p",
                    "yuv444p",
                    "nv12",
                )
            ):
                plane = self._av_frame.planes[0]
                luma = np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)
                self._gray = luma[:, : self.width]
            else:
                self._gray = cv2.cvtColor(self.bgr(), cv2.COLOR_BGR2GRAY)
        return self._gray


class FrameSource(Protocol):
    """Anything that yields frames in order."""

    name: str
    fps: float
    size: tuple[int, int]
    frame_count: int | None
    stopped_reason: str | None

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class VideoFileSource:
    """A video file decoded with PyAV (FFmpeg), threads on, frame-accurate timestamps."""

    def __init__(self, path: Path, start_frame: int = 0) -> None:
        import av

        self.path = Path(path)
        self.name = str(path)
        if not self.path.is_file():
            raise SourceError(f"{path}: no such file")
        try:
            self._container = av.open(str(self.path))
        except (av.error.FFmpegError, OSError) as exc:
            raise SourceError(f"{path}: not a readable video ({_short(exc)})") from exc
        if not self._container.streams.video:
            self._container.close()
            raise SourceError(f"{path}: holds no video stream")
        self._stream = self._container.streams.video[0]
        self._stream.thread_type = "AUTO"
        rate = self._stream.average_rate or self._stream.guessed_rate
        self.fps = float(rate) if rate else 30.0
        self.size = (int(self._stream.codec_context.width), int(self._stream.codec_context.height))
        self.frame_count = int(self._stream.frames) or None
        self.start_frame = start_frame
        self.stopped_reason: str | None = None
        self.last_good_frame: int | None = None

    def __iter__(self) -> Iterator[Frame]:
        import av

        index = -1
        try:
            for av_frame in self._container.decode(self._stream):
                index += 1
                if index < self.start_frame:
                    continue
                time_s = float(av_frame.time) if av_frame.time is not None else index / self.fps
                self.last_good_frame = index
                yield Frame(index, time_s, av_frame.width, av_frame.height, _av_frame=av_frame)
        except (av.error.FFmpegError, OSError, ValueError) as exc:
            self.stopped_reason = f"{self.name}: decoding stopped after frame {index} ({_short(exc)})"
        last = self.last_good_frame
        expected = self.frame_count
        if self.stopped_reason is None and expected and last is not None and last + 1 < expected:
            self.stopped_reason = (
                f"{self.name}: the file ends after frame {last} "
                f"of the {self.frame_count} its header announces (truncated?)"
            )

    def close(self) -> None:
        self._container.close()


class ImageSource:
    """A single still image, as a one-frame source."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.name = str(path)
        if not self.path.is_file():
            raise SourceError(f"{path}: no such file")
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"{path}: not a readable image")
        self._image = image
        self.fps = 0.0
        self.size = (int(image.shape[1]), int(image.shape[0]))
        self.frame_count = 1
        self.stopped_reason: str | None = None

    def __iter__(self) -> Iterator[Frame]:
        yield Frame.from_bgr(0, 0.0, self._image)

    def close(self) -> None:
        pass


class LiveSource:
    """A camera index (`camera:0`) or a network stream URL, read through OpenCV.

    Timestamps come from the stream where it gives them, else from the frame count.
    """

    def __init__(self, spec: str) -> None:
        self.name = spec
        match = re.fullmatch(r"camera:(\d+)", spec)
        target: int | str = int(match.group(1)) if match else spec
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            raise SourceError(f"{spec}: cannot open the camera or stream")
        self.fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 30.0)
        self.size = (
            int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
            int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT)),
        )
        self.frame_count = None
        self.stopped_reason: str | None = None

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while True:
            ok, image = self._capture.read()
            if not ok:
                self.stopped_reason = f"{self.name}: the stream ended or dropped after frame {index - 1}"
                return
            millis = self._capture.get(cv2.CAP_PROP_POS_MSEC)
            time_s = millis / 1000.0 if millis > 0 else index / self.fps
            yield Frame.from_bgr(index, time_s, image)
            index += 1

    def close(self) -> None:
        self._capture.release()


def open_source(spec: str | Path, start_frame: int = 0) -> FrameSource:
    """Open a file (video or image), `camera:N`, or an rtsp/http(s) stream URL."""
    text = str(spec)
    if re.fullmatch(r"camera:\d+", text) or re.match(r"^(rtsp|rtmp|http|https|udp|tcp)://", text):
        return LiveSource(text)
    path = Path(text)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource(path)
    return VideoFileSource(path, start_frame=start_frame)


def read_frame(spec: str | Path, index: int = 0) -> Frame:
    """One frame of a video (or the image itself), for the single-frame commands."""
    source = open_source(spec, start_frame=index)
    try:
        for frame in source:
            if frame.index == index:
                frame.bgr()  # decode now: the container closes below
                return frame
    finally:
        source.close()
    raise SourceError(f"{spec}: has no frame {index}")


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:160]
