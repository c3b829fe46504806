"""The online recorder: frames in, the match log out, one stroke at a time.

    source -> calibrate the first good frame -> per frame: has the camera moved? (re-fit)
           -> motion gate -> detector -> tracker -> stroke inference -> log (flushed per stroke)

Memory stays flat however long the video: frames are handled one at a time and dropped; the
only images kept are the board at rest before the current stroke (for the review) and the
motion probe of the previous frame. Work is skipped while the board is at rest: a frame is
detected while a stroke is under way, when something in the picture changed (a cheap probe
of every 8th pixel of the grey image against the previous frame), and otherwise every
`rest_detect_every`-th frame; `idle_detect_every` and `slow_detect_every` thin detection
further between strokes and while only slow pieces roll (1: off, the default). A detected
frame costs the network's whole pass only where the picture changed: elsewhere the pieces
last found there stand (vision.detect.changed_part, `changed_part_only`).

A source that breaks mid-way stops the loop with its reason recorded; everything recorded up
to the last good frame is kept (the log is already on disk).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

import numpy as np

from calibration.camera import Calibration
from calibration.errors import CalibrationError, NoBoardFound
from vision.detect.changed_part import ChangedPartDetector
from vision.detections import CLASS_NAMES, Detections
from vision.errors import VisionError
from vision.events import MatchRecorder, StrokeRecord
from vision.io import Frame, FrameSource
from vision.track.faint import continued
from vision.tracks import TrackFrame, TrackState

_STRIKER = CLASS_NAMES.index("striker")


class DetectorLike(Protocol):
    def detect(self, image: np.ndarray | Frame, calibration: Calibration) -> Detections: ...


class TrackerLike(Protocol):
    def update(self, detections: Detections, frame_index: int, time_s: float) -> Any: ...


class MonitorLike(Protocol):
    def check(self, gray: np.ndarray) -> bool: ...


class ReviewSink(Protocol):
    """Receives what the review needs: the board at rest before a stroke, and each stroke."""

    def wants_rest_image(self, frame: Frame) -> bool: ...

    def rest_image(self, frame: Frame, calibration: Calibration) -> None: ...

    def stroke(
        self, record: StrokeRecord, event_index: int, frame: Frame, calibration: Calibration
    ) -> None: ...

    def calibrated(self, frame_index: int, calibration: Calibration) -> None: ...


@dataclass(frozen=True)
class PipelineOptions:
    rest_detect_every: int = 3  # nothing seems to change: detect every Nth frame all the same
    idle_detect_every: int = 1  # between strokes, something moves (hands)
    slow_detect_every: int = 1  # a stroke's last pieces rolling slowly
    # Run the detector only over the part of the board that changed since it was last
    # detected there (vision.detect.changed_part), where the detector can.
    changed_part_only: bool = True
    motion_stride: int = 8  # the motion probe reads every Nth pixel of the grey image
    motion_level: int = 12  # grey-level change that counts as a changed probe pixel
    motion_pixels: int = 4  # this many changed probe pixels: something moved
    calibration_attempts: int = 12  # frames tried for the first calibration
    calibration_spacing_s: float = 0.5  # time between those attempts
    progress_every_s: float = 1.0


@dataclass
class RecordingStatus:
    """What happened during a run (written to recording.json beside the log)."""

    source: str
    frames_read: int = 0
    frames_detected: int = 0
    strokes: int = 0
    events: int = 0
    last_frame: int | None = None
    stopped_reason: str | None = None
    recalibrations: list[int] = field(default_factory=list)
    calibration_error_mm: float | None = None
    elapsed_s: float = 0.0
    # Wall time spent in each stage of the loop (`StageClock`): where a slow run's time went.
    seconds_by_stage: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "frames_read": self.frames_read,
            "frames_detected": self.frames_detected,
            "strokes": self.strokes,
            "events": self.events,
            "last_frame": self.last_frame,
            "stopped_reason": self.stopped_reason,
            "recalibrated_at_frames": self.recalibrations,
            "calibration_error_mm": self.calibration_error_mm,
            "elapsed_s": round(self.elapsed_s, 2),
            "fps": round(self.frames_read / self.elapsed_s, 1) if self.elapsed_s > 0 else None,
            "seconds_by_stage": {stage: round(s, 3) for stage, s in self.seconds_by_stage.items()},
        }


# The loop's stages, in the order a frame passes them (`RecordingStatus.seconds_by_stage`):
# "calibration" holds the camera monitor's check of every frame, "stroke inference" writing
# the log, "review" the review images.
STAGES = ("decoding", "calibration", "motion gate", "detection", "tracking", "stroke inference", "review")


@dataclass
class StageClock:
    """Charges wall time to the loop's stages: each `lap` gives the time since the last lap to
    one stage. Waiting for the next frame is "decoding" (the decoder's threads work ahead
    while the recorder works, so this is what decoding costs the loop, not what it costs)."""

    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    _last: float = field(default_factory=time.perf_counter)

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.seconds[stage] += now - self._last
        self._last = now


CalibrateFn = Callable[[np.ndarray], Any]  # image -> CalibrationResult (.calibration)
MonitorFactory = Callable[[Calibration, np.ndarray], MonitorLike]


def default_calibrate(image_bgr: np.ndarray) -> Any:
    try:
        from calibration.calibrate import calibrate_image
    except ImportError as exc:  # a build without board calibration: say so, no traceback
        raise VisionError(f"board calibration is not available in this build ({exc})") from exc
    return calibrate_image(image_bgr)


class _NoMonitor:
    def check(self, gray: np.ndarray) -> bool:
        return False


def default_monitor(calibration: Calibration, image_bgr: np.ndarray) -> MonitorLike:
    try:
        from calibration.monitor import BoardMonitor
    except ImportError:
        return _NoMonitor()  # no camera watch in this build: the first calibration stays
    return BoardMonitor(calibration, image_bgr)


class Pipeline:
    def __init__(
        self,
        recorder: MatchRecorder,
        detector: DetectorLike,
        tracker: TrackerLike,
        calibrate: CalibrateFn | None = None,
        monitor_factory: MonitorFactory | None = None,
        watch_camera: bool = True,
        review: ReviewSink | None = None,
        options: PipelineOptions | None = None,
        progress: TextIO | None = None,
    ) -> None:
        self.recorder = recorder
        self.options = options or PipelineOptions()
        if self.options.changed_part_only and getattr(detector, "box_alignment_px", None) is not None:
            detector = ChangedPartDetector(detector)  # type: ignore[arg-type]
        self.detector = detector
        self.tracker = tracker
        self.calibrate = calibrate if calibrate is not None else default_calibrate
        if not watch_camera:
            monitor_factory = None
        elif monitor_factory is None:
            monitor_factory = default_monitor
        self.monitor_factory = monitor_factory
        self.review = review
        self.progress = progress
        self.calibration: Calibration | None = None
        self._monitor: MonitorLike | None = None
        self._probe: np.ndarray | None = None
        self._striker_unfollowed = False  # the last look saw a striker no track follows yet
        self._followed: TrackFrame | None = None  # the tracks after the last look

    # ------------------------------------------------------------------ calibration
    def _try_calibrate(self, frame: Frame, status: RecordingStatus) -> bool:
        result = self.calibrate(frame.bgr())
        calibration = result.calibration if hasattr(result, "calibration") else result
        self._use_calibration(frame, calibration)
        error = getattr(result, "reprojection_error_mm", None)
        status.calibration_error_mm = None if error is None else float(error)
        return True

    def _use_calibration(self, frame: Frame, calibration: Calibration) -> None:
        self.calibration = calibration
        if self.monitor_factory is not None:
            self._monitor = self.monitor_factory(calibration, frame.bgr())
        if self.review is not None:
            self.review.calibrated(frame.index, calibration)

    def _check_camera(self, frame: Frame, status: RecordingStatus) -> None:
        """A bumped camera is re-fitted; the match goes on (positions are in board mm)."""
        if self._monitor is None or not self._monitor.check(frame.gray()):
            return
        refit = getattr(self._monitor, "refit", None)
        try:
            result = refit(frame.bgr()) if refit is not None else self.calibrate(frame.bgr())
        except CalibrationError:
            return  # a hand over the markings: try again on a later frame
        calibration = result.calibration if hasattr(result, "calibration") else result
        self._use_calibration(frame, calibration)
        status.recalibrations.append(frame.index)

    # ------------------------------------------------------------------ motion gate
    def _moved(self, frame: Frame) -> bool:
        opts = self.options
        probe = frame.gray()[:: opts.motion_stride, :: opts.motion_stride].astype(np.int16)
        previous, self._probe = self._probe, probe
        if previous is None or previous.shape != probe.shape:
            return True
        changed = np.count_nonzero(np.abs(probe - previous) > opts.motion_level)
        return changed >= opts.motion_pixels

    def _wanted(self, frame: Frame, since: int) -> bool:
        """Whether this frame needs the detector. Every frame while a stroke is under way and
        pieces move fast; every other frame once only slow pieces roll; between strokes every
        `idle_detect_every`-th frame while something moves (hands, a striker being placed:
        a strike is caught a frame or two late, its start position is where it rested), and
        every `rest_detect_every`-th frame when nothing changes."""
        opts = self.options
        moved = self._moved(frame)
        if self._striker_unfollowed:
            # A striker just seen that no track follows yet (a track needs two looks running):
            # look again at once, or a striker glimpsed between the aiming hand and the strike
            # is never followed and its stroke is lost (development video 9121, a `phone` board).
            return True
        segmenter = self.recorder.segmenter
        if segmenter.stroke_under_way:
            return since >= (1 if segmenter.fast_motion else opts.slow_detect_every)
        if moved or not segmenter.at_rest:
            return since >= opts.idle_detect_every
        return since >= opts.rest_detect_every

    # ------------------------------------------------------------------ the loop
    def run(self, source: FrameSource) -> RecordingStatus:
        opts = self.options
        status = RecordingStatus(source=source.name)
        started = time.perf_counter()
        last_report = started
        next_attempt_s = 0.0
        attempts = 0
        last_detected = -(10**9)
        last_reason = ""
        frame: Frame | None = None
        clock = StageClock()
        status.seconds_by_stage = clock.seconds
        for frame in source:
            clock.lap("decoding")
            status.frames_read += 1
            status.last_frame = frame.index
            if self.calibration is None:
                if frame.time_s + 1e-9 < next_attempt_s:
                    continue
                attempts += 1
                try:
                    self._try_calibrate(frame, status)
                except CalibrationError as exc:
                    clock.lap("calibration")
                    last_reason = str(exc)
                    if attempts >= opts.calibration_attempts:
                        break
                    next_attempt_s = frame.time_s + opts.calibration_spacing_s
                    continue
            else:
                self._check_camera(frame, status)
            clock.lap("calibration")
            wanted = self._wanted(frame, frame.index - last_detected)
            clock.lap("motion gate")
            if not wanted:
                continue
            last_detected = frame.index
            status.frames_detected += 1
            calibration = self.calibration
            if calibration is None:  # the first calibration failed on this frame
                continue
            detections = self.detector.detect(frame, calibration)
            faint = getattr(self.detector, "faint", None)
            clock.lap("detection")
            if faint is not None:
                detections = continued(detections, faint, self._followed, frame.time_s)
                # The recorder weighs faint carrommen (a coin's lead into a pocket, one counted
                # only faintly at rest); a faint striker only ever continues its track.
                faint = faint[faint.class_id != _STRIKER]
            tracks = self.tracker.update(detections, frame.index, frame.time_s)
            self._followed = tracks if isinstance(tracks, TrackFrame) else None
            self._striker_unfollowed = _striker_unfollowed(detections, tracks)
            clock.lap("tracking")
            # Pieces seen over a pocket's hole are not tracked (they are falling in), but tell
            # the recorder where one went that was never seen on its way.
            over_holes = getattr(self.detector, "over_holes", None)
            events = self.recorder.update(tracks, detections, over_holes, faint)
            clock.lap("stroke inference")
            self._after_events(frame, events, status)
            if self.review is not None and self.recorder.at_rest and self.review.wants_rest_image(frame):
                self.review.rest_image(frame, calibration)
            clock.lap("review")
            now = time.perf_counter()
            if now - last_report >= opts.progress_every_s:
                last_report = now
                self._report_progress(source, status, now - started)
        if self.calibration is None:
            where = f"{source.name}: " if source.name else ""
            seen = f" in {attempts} frame{'s' if attempts != 1 else ''}" if attempts else ""
            reason = f" ({last_reason})" if last_reason else ""
            raise NoBoardFound(f"{where}no carrom board found{seen}{reason}")
        if frame is not None:
            events = self.recorder.finish(frame.index, frame.time_s)
            clock.lap("stroke inference")
            self._after_events(frame, events, status)
            clock.lap("review")
        status.stopped_reason = getattr(source, "stopped_reason", None)
        status.elapsed_s = time.perf_counter() - started
        self._report_progress(source, status, status.elapsed_s, final=True)
        return status

    def _after_events(self, frame: Frame, events: list[dict[str, Any]], status: RecordingStatus) -> None:
        if not events:
            return
        status.events += len(events)
        status.strokes += len(self.recorder.latest)
        if self.review is not None and self.calibration is not None:
            for record, index in self.recorder.latest:
                self.review.stroke(record, index, frame, self.calibration)

    def _report_progress(
        self, source: FrameSource, status: RecordingStatus, elapsed: float, final: bool = False
    ) -> None:
        if self.progress is None:
            return
        fps = status.frames_read / elapsed if elapsed > 0 else 0.0
        total = getattr(source, "frame_count", None)
        parts = [f"frame {status.frames_read}" + (f"/{total}" if total else "")]
        if total and not final:
            done = status.frames_read / total
            bar = "#" * int(done * 20)
            parts.insert(0, f"[{bar:<20}] {done:4.0%}")
            left = (total - status.frames_read) / fps if fps > 0 else float("nan")
            parts.append(f"{left:.0f} s left")
        parts.append(f"{fps:.1f} fps")
        parts.append(f"{status.strokes} strokes")
        end = "\n" if final else "\r"
        self.progress.write("carrom score: " + ", ".join(parts) + end)
        self.progress.flush()


def _striker_unfollowed(detections: Detections, tracks: TrackFrame) -> bool:
    """Whether `detections` hold a striker while no striker track is seen in `tracks`."""
    if not np.any(detections.class_id == _STRIKER):
        return False
    seen = np.isin(tracks.state, (int(TrackState.AT_REST), int(TrackState.MOVING)))
    return not bool(np.any(seen & (tracks.class_id == _STRIKER)))


def stderr_progress() -> TextIO:
    return sys.stderr
