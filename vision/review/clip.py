"""An annotated clip of one recorded stroke, cut from the original video.

Reads what `carrom score` left in its output folder (review/index.json: the video, the
calibrations in force, each stroke's frames and paths; match-log.json: the stroke's
evidence) and writes review/stroke-NNN.mp4: the stroke with a margin either side, the
striker's starting place ringed green (legal by law 130) or red, the paths, and each
pocketing announced from the frame it happened.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.camera import Calibration
from calibration.geometry import COIN_RADIUS_MM, STRIKER_RADIUS_MM, pocket_centre
from vision.errors import UsageError
from vision.io import VideoFileSource
from vision.review.drawing import BAD, GOOD, PATH_COLOURS, put_text
from vision.review.images import INDEX_NAME, REVIEW_DIR, law_130_line


def load_review(out_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    index_path = Path(out_dir) / REVIEW_DIR / INDEX_NAME
    log_path = Path(out_dir) / "match-log.json"
    if not index_path.is_file() or not log_path.is_file():
        raise UsageError(f"{out_dir}: no recording here (run `carrom score VIDEO --out {out_dir}` first)")
    try:
        return json.loads(index_path.read_text()), json.loads(log_path.read_text())
    except (OSError, ValueError) as exc:
        raise UsageError(f"{out_dir}: the recording cannot be read ({exc})") from None


def calibration_at(index: dict[str, Any], frame: int) -> Calibration:
    chosen = None
    for entry in index["calibrations"]:
        if entry["from_frame"] <= frame or chosen is None:
            chosen = entry
    if chosen is None:
        raise UsageError("the recording holds no calibration")
    return Calibration.from_dict(chosen["calibration"])


def export_clip(out_dir: Path, number: int, margin_s: float = 1.0, dest: Path | None = None) -> Path:
    index, log = load_review(out_dir)
    strokes = index["strokes"]
    if not 1 <= number <= len(strokes):
        raise UsageError(f"--stroke {number}: the recording has strokes 1 to {len(strokes)}")
    stroke = strokes[number - 1]
    event = log["events"][stroke["event_index"]]
    evidence = event.get("evidence") or {}
    fps = float(index.get("fps") or 30.0)
    first = max(0, stroke["frames"][0] - int(round(margin_s * fps)))
    last = stroke["frames"][1] + int(round(margin_s * fps))
    dest = Path(dest) if dest is not None else Path(out_dir) / REVIEW_DIR / f"stroke-{number:03d}.mp4"
    source = VideoFileSource(Path(index["video"]), start_frame=first)
    title = f"stroke {number}: {event.get('player') or 'player'} from {stroke['seat']}"
    position = evidence.get("striker_position")
    try:
        _write(source, dest, fps, first, last, index, stroke, title, position)
    finally:
        source.close()
    return dest


def _write(
    source: VideoFileSource,
    dest: Path,
    fps: float,
    first: int,
    last: int,
    index: dict[str, Any],
    stroke: dict[str, Any],
    title: str,
    position: dict[str, Any] | None,
) -> None:
    import av

    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.part")
    container = av.open(str(tmp), "w", format="mp4")
    stream = container.add_stream("libx264", rate=Fraction(fps).limit_denominator(1001))
    stream.pix_fmt = "yuv420p"
    width, height = (v - v % 2 for v in source.size)
    stream.width, stream.height = width, height
    calibration = calibration_at(index, first)
    written = 0
    try:
        for frame in source:
            if frame.index > last:
                break
            if frame.index < first:
                continue
            image = frame.bgr().copy()
            _annotate(image, calibration, frame.index, stroke, title, position)
            av_frame = av.VideoFrame.from_ndarray(
                np.ascontiguousarray(image[:height, :width]), format="bgr24"
            )
            for packet in stream.encode(av_frame):
                container.mux(packet)
            written += 1
        for packet in stream.encode():
            container.mux(packet)
    finally:
        container.close()
    if not written:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"{index['video']}: frames {first}-{last} could not be read")
    tmp.replace(dest)


def _annotate(
    image: np.ndarray,
    calibration: Calibration,
    frame_index: int,
    stroke: dict[str, Any],
    title: str,
    position: dict[str, Any] | None,
) -> None:
    def px(xy: Any) -> tuple[int, int]:
        p = calibration.board_to_image(np.asarray(xy, dtype=float))[0]
        return int(round(p[0])), int(round(p[1]))

    scale = 1.0 / calibration.mm_per_pixel_at(np.zeros(2))
    legal = bool(position["legal"]) if position else True
    start = stroke.get("striker_start_mm")
    if start is not None:  # None: the strike was not seen
        cv2.circle(image, px(start), int(STRIKER_RADIUS_MM * scale), GOOD if legal else BAD, 2, cv2.LINE_AA)
    if frame_index >= stroke["frames"][0]:
        for path in stroke.get("paths", {}).values():
            points = np.array([px(p) for p in path["mm"]], np.int32).reshape(-1, 1, 2)
            if len(points) > 1:
                colour = PATH_COLOURS.get(path["item"], (255, 255, 255))
                cv2.polylines(image, [points], False, colour, 2, cv2.LINE_AA)
    lines = [title + f"  frame {frame_index} ({stroke['frames'][0]}-{stroke['frames'][1]})"]
    if position:
        lines.append(law_130_line(position))
    for order, event in enumerate(stroke.get("pocket_events", []), 1):
        if frame_index >= event["frame"] and event.get("pocket"):
            centre = px(pocket_centre(event["pocket"]))
            cv2.circle(image, centre, int(COIN_RADIUS_MM * 1.8 * scale), (0, 220, 255), 3, cv2.LINE_AA)
            lines.append(f"{order}. {event['item']} into {event['pocket']} at frame {event['frame']}")
    for i, line in enumerate(lines):
        put_text(image, line, (12, 28 + 24 * i), 0.6)
