"""Tracking figures over a generator video: MOTA and identity switches, in board mm.

    python -m vision.track.eval VIDEO... [--truth FILE] [--frames 0-1499] [--motmetrics]

Runs the default detector and the tracker on every frame and compares the tracks with the
video's truth (samples.render.truth, `carrom-synth-truth/1`) in the CLEAR-MOT way with a
distance gate in mm: the truth per frame is every piece on the board (seen or under a
hand), the hypotheses are the tracks at rest, moving or occluded. A true piece keeps its
previous track while that track stays within the gate; otherwise pieces and tracks are
paired by the Hungarian method. An identity switch is a true piece paired with another
track than the one it last had. MOTA = 1 - (misses + false tracks + switches) / truths.

VIDEO is a `carrom synth` video with its truth beside it (`NAME.truth.json`, or `truth.json`
in the video's folder, as `python -m vision.eval --make` writes them); with several videos the
figures are given per video and summed, with the identity switches per board.

Beside them, the detector's recall per class on the video's frames for pieces lying still in
plain view (at least 90% visible), found within 12 mm with their own class: H.264 frames of
a whole board, where a style's striker or queen can be much harder to see than on stills.
And every piece in plain view by how fast it moves (lying still, moved by a hand, in flight,
fast): how often it is found with its own class, taken for another piece, or missed, per
video and per style of the generator (the recorder's losses on held-out videos come most from
a striker in flight read as a white coin). `--every N` gives these for the detector alone on
every Nth frame, without the tracking figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.camera import Calibration
from vision.detect.base import Detector
from vision.detections import CLASS_NAMES, Detections
from vision.errors import UsageError
from vision.io import open_source
from vision.track.tracker import Tracker
from vision.tracks import TrackFrame, TrackState

GATE_MM = 20.0
# Detection on video, per class: a piece lying still in plain view (this much of it shows)
# must be found within this distance with its own class.
PLAIN_VIEW = 0.9
FOUND_MM = 12.0
ON_BOARD = 0  # samples.timeline.ObjectState.ON_BOARD
CLAIMS = (int(TrackState.AT_REST), int(TrackState.MOVING), int(TrackState.OCCLUDED))


def _hypotheses(tracks: TrackFrame) -> tuple[np.ndarray, np.ndarray]:
    """Positions and ids of the tracks that claim a piece (at rest, moving or occluded)."""
    claims = np.isin(tracks.state, CLAIMS)
    return tracks.xy_mm[claims], tracks.track_id[claims]


class ClearMot:
    def __init__(self, gate_mm: float = GATE_MM) -> None:
        self.gate = gate_mm
        self.truths = self.misses = self.false = self.switches = 0
        self.distances: list[float] = []
        self._last: dict[int, int] = {}  # true object -> track id

    def frame(self, truth_xy: np.ndarray, truth_ids: np.ndarray, tracks: TrackFrame) -> None:
        hyp_xy, hyp_ids = _hypotheses(tracks)
        self.truths += len(truth_ids)
        pairs: dict[int, int] = {}
        used: set[int] = set()
        for t, oid in enumerate(truth_ids):  # keep correspondences that still hold
            previous = self._last.get(int(oid))
            where = np.flatnonzero(hyp_ids == previous) if previous is not None else []
            if len(where) and np.linalg.norm(hyp_xy[where[0]] - truth_xy[t]) <= self.gate:
                pairs[t] = int(where[0])
                used.add(int(where[0]))
        rest_t = [t for t in range(len(truth_ids)) if t not in pairs]
        rest_h = [h for h in range(len(hyp_ids)) if h not in used]
        if rest_t and rest_h:
            d = np.linalg.norm(truth_xy[rest_t][:, None] - hyp_xy[rest_h][None], axis=2)
            cost = np.where(d <= self.gate, d, 1e6)
            for r, c in zip(*linear_sum_assignment(cost), strict=True):
                if cost[r, c] < 1e6:
                    pairs[rest_t[r]] = rest_h[c]
        for t, h in pairs.items():
            oid, tid = int(truth_ids[t]), int(hyp_ids[h])
            if oid in self._last and self._last[oid] != tid:
                self.switches += 1
            self._last[oid] = tid
            self.distances.append(float(np.linalg.norm(hyp_xy[h] - truth_xy[t])))
        self.misses += len(truth_ids) - len(pairs)
        self.false += len(hyp_ids) - len(pairs)

    def add(self, other: ClearMot) -> None:
        """Sum another video's counts into this one's."""
        self.truths += other.truths
        self.misses += other.misses
        self.false += other.false
        self.switches += other.switches
        self.distances += other.distances

    def figures(self) -> dict[str, float | int]:
        return {
            "truths": self.truths,
            "misses": self.misses,
            "false_tracks": self.false,
            "identity_switches": self.switches,
            "mota": 1.0 - (self.misses + self.false + self.switches) / max(1, self.truths),
            "motp_mm": float(np.mean(self.distances)) if self.distances else float("nan"),
        }


class MotMetrics:
    """The same comparison counted by py-motmetrics (`pip install motmetrics`), the reference
    the issue names: a check on `ClearMot`'s own counting, same truths, tracks and gate."""

    def __init__(self, gate_mm: float = GATE_MM) -> None:
        try:
            import motmetrics
        except ImportError as exc:
            raise UsageError("--motmetrics needs py-motmetrics: pip install motmetrics") from exc
        self._mm = motmetrics
        self.gate = gate_mm
        self._accumulators: list[tuple[str, Any]] = []

    def start(self, name: str) -> None:
        self._accumulators.append((name, self._mm.MOTAccumulator(auto_id=True)))

    def frame(self, truth_xy: np.ndarray, truth_ids: np.ndarray, tracks: TrackFrame) -> None:
        hyp_xy, hyp_ids = _hypotheses(tracks)
        distance = np.linalg.norm(truth_xy.reshape(-1, 1, 2) - hyp_xy.reshape(1, -1, 2), axis=2)
        distance[distance > self.gate] = np.nan  # py-motmetrics: no pairing beyond the gate
        self._accumulators[-1][1].update(truth_ids.tolist(), hyp_ids.tolist(), distance)

    def figures(self) -> dict[str, float | int]:
        names = {
            "num_objects": "truths",
            "num_misses": "misses",
            "num_false_positives": "false_tracks",
            "num_switches": "identity_switches",
            "mota": "mota",
            "motp": "motp_mm",
        }
        summary = self._mm.metrics.create().compute_many(
            [accumulator for _, accumulator in self._accumulators],
            names=[name for name, _ in self._accumulators],
            metrics=list(names),
            generate_overall=True,
        )
        overall = summary.loc["OVERALL"]
        return {ours: float(overall[theirs]) for theirs, ours in names.items()}


class VideoRecall:
    """Per class, how often the detector finds a piece lying still in plain view on video
    frames (the stills' figures hide a style whose striker or queen the video barely shows)."""

    def __init__(self) -> None:
        self.seen = np.zeros(len(CLASS_NAMES), np.int64)
        self.found = np.zeros(len(CLASS_NAMES), np.int64)

    def frame(self, truth_xy: np.ndarray, truth_class: np.ndarray, detections: Detections) -> None:
        for xy, class_id in zip(truth_xy, truth_class, strict=True):
            self.seen[class_id] += 1
            mine = detections.xy_mm[detections.class_id == class_id]
            if len(mine) and float(np.min(np.linalg.norm(mine - xy, axis=1))) <= FOUND_MM:
                self.found[class_id] += 1

    def add(self, other: VideoRecall) -> None:
        self.seen += other.seen
        self.found += other.found

    def figures(self) -> dict[str, dict[str, float | int]]:
        return {
            name: {"pieces": int(n), "recall": round(float(f) / n, 4)}
            for name, n, f in zip(CLASS_NAMES, self.seen, self.found, strict=True)
            if n
        }


# Speed bands (mm/s, from a piece's true positions one frame apart): lying still, moved by a
# hand (the striker slid along a base line or carried: a few hundred mm/s), in flight, fast in
# flight (blurred over more than a striker's width per frame at 30 fps).
SPEED_BANDS: tuple[tuple[str, float], ...] = (
    ("still", 15.0),
    ("by_hand", 300.0),
    ("in_flight", 1500.0),
    ("fast", float("inf")),
)
READS = ("found", "other_class", "missed")


class RecallBySpeed:
    """How the detector reads each class in plain view on video frames, by how fast the piece
    moves: found within `FOUND_MM` with its own class, found there as another class only (a
    pale striker taken for a white coin), or not found."""

    def __init__(self) -> None:
        self.counts = np.zeros((len(CLASS_NAMES), len(SPEED_BANDS), len(READS)), np.int64)

    def frame(self, xy: np.ndarray, class_id: int, speed_mm_s: float, detections: Detections) -> None:
        band = next(i for i, (_, below) in enumerate(SPEED_BANDS) if speed_mm_s < below)
        near = np.linalg.norm(detections.xy_mm.reshape(-1, 2) - xy, axis=1) <= FOUND_MM
        if not near.any():
            read = READS.index("missed")
        elif (detections.class_id[near] == class_id).any():
            read = READS.index("found")
        else:
            read = READS.index("other_class")
        self.counts[class_id, band, read] += 1

    def add(self, other: RecallBySpeed) -> None:
        self.counts += other.counts

    def figures(self) -> dict[str, dict[str, dict[str, float | int]]]:
        out: dict[str, dict[str, dict[str, float | int]]] = {}
        for name, per_band in zip(CLASS_NAMES, self.counts, strict=True):
            for (band, _), row in zip(SPEED_BANDS, per_band, strict=True):
                looks = int(row.sum())
                if looks:
                    out.setdefault(name, {})[band] = {"looks": looks} | {
                        read: round(float(n) / looks, 4) for read, n in zip(READS, row, strict=True)
                    }
        return out


def truth_path(video: Path) -> Path:
    named = video.with_name(video.name.replace(".mp4", ".truth.json"))
    return named if named.is_file() else video.with_name("truth.json")


def track_video(
    video: Path,
    truth: dict,
    detector: Detector,
    first: int = 0,
    last: int | None = None,
    reference: MotMetrics | None = None,
    every: int = 1,
) -> tuple[ClearMot, VideoRecall, RecallBySpeed]:
    """Detector and tracker over frames `first`..`last` of one video, scored against its truth
    (and by `reference` too, when given). With `every` over 1 the detector alone, on every
    `every`-th frame (no tracking figures): a quicker look at what it finds."""
    from samples.render.truth import camera_at, object_tracks, smear_centre

    arrays = object_tracks(truth)
    classes = np.array([CLASS_NAMES.index(o["class"]) for o in truth["objects"]])
    last = arrays["state"].shape[0] - 1 if last is None else last
    fps = float(truth.get("video", {}).get("fps", 30.0))
    tracker, mot, recall, by_speed = Tracker(), ClearMot(), VideoRecall(), RecallBySpeed()
    source = open_source(video, start_frame=first)
    try:
        for frame in source:
            if frame.index > last:
                break
            if frame.index < first or frame.index % every:
                continue
            calibration = Calibration.from_dict(camera_at(truth, frame.index))
            detections = detector.detect(frame, calibration)
            xy = arrays["xy_mm"][frame.index]
            on = arrays["state"][frame.index] == ON_BOARD
            if every == 1:
                tracks = tracker.update(detections, frame.index, frame.time_s)
                mot.frame(xy[on], np.flatnonzero(on), tracks)
                if reference is not None:
                    reference.frame(xy[on], np.flatnonzero(on), tracks)
            if frame.index > 0:
                still = np.all(xy == arrays["xy_mm"][frame.index - 1], axis=1)
                plain = on & still & (arrays["visible"][frame.index] >= PLAIN_VIEW)
                recall.frame(xy[plain], classes[plain], detections)
                in_view = on & (arrays["visible"][frame.index] >= PLAIN_VIEW)
                before = arrays["xy_mm"][frame.index - 1]
                seen = np.flatnonzero(in_view & np.all(np.isfinite(before), axis=1))
                # The truth is where a piece is at the end of the frame's exposure; the detector
                # finds the middle of its smear.
                centres = smear_centre(before[seen], xy[seen])
                speeds = np.linalg.norm(xy[seen] - before[seen], axis=1) * fps
                for k, centre, speed in zip(seen, centres, speeds, strict=True):
                    by_speed.frame(centre, int(classes[k]), float(speed), detections)
    finally:
        source.close()
    return mot, recall, by_speed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("videos", type=Path, nargs="+")
    parser.add_argument("--truth", type=Path, help="the truth of a single VIDEO (default: beside it)")
    parser.add_argument("--frames", default="", help="first-last frame (default: all)")
    parser.add_argument("--model", help="an ONNX model file (default: the committed one)")
    parser.add_argument(
        "--motmetrics", action="store_true", help="count MOTA again with py-motmetrics, as a check"
    )
    parser.add_argument(
        "--every", type=int, default=1, help="the detector alone on every Nth frame (no tracking figures)"
    )
    args = parser.parse_args(argv)
    import cv2

    from vision.detect.onnx_detector import OnnxDetector

    cv2.setNumThreads(1)
    if args.truth and len(args.videos) > 1:
        parser.error("--truth names the truth of one video")
    # Its detections go to a tracker.
    model = {"model_path": Path(args.model)} if args.model else {}
    detector: Detector = OnnxDetector(**model, for_tracking=True)
    first, last = (int(v) for v in args.frames.split("-")) if args.frames else (0, None)
    reference = MotMetrics() if args.motmetrics else None
    per_video, totals, recall_totals = [], ClearMot(), VideoRecall()
    by_style: dict[str, RecallBySpeed] = {}
    boards_total = 0
    for video in args.videos:
        truth = json.loads((args.truth or truth_path(video)).read_text())
        start = time.perf_counter()
        if reference is not None:
            reference.start(str(video))
        mot, recall, by_speed = track_video(video, truth, detector, first, last, reference, args.every)
        style = str(truth.get("video", {}).get("style", "unknown"))
        by_style.setdefault(style, RecallBySpeed()).add(by_speed)
        boards = max(1, len(truth.get("match", {}).get("boards", [])))
        boards_total += boards
        totals.add(mot)
        recall_totals.add(recall)
        per_video.append(
            {
                "video": str(video),
                "seconds": round(time.perf_counter() - start, 1),
                "boards": boards,
                **mot.figures(),
                "still_recall_by_class": recall.figures(),
                "style": style,
                "by_speed": by_speed.figures(),
            }
        )
    figures = {
        "videos": per_video,
        "total": {
            **totals.figures(),
            "boards": boards_total,
            "identity_switches_per_board": round(totals.switches / boards_total, 2),
            "still_recall_by_class": recall_totals.figures(),
            "by_speed_per_style": {style: counts.figures() for style, counts in sorted(by_style.items())},
        },
    }
    if reference is not None:
        figures["py-motmetrics"] = reference.figures()
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
