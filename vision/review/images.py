"""Per-stroke review images: the board at rest before the stroke and after it, top-down, with
the paths, the striker's starting place and its law-130 figures, and the pocket events.

`ReviewWriter` is the pipeline's review sink: it keeps one image (the latest board at rest),
writes `review/stroke-NNN.png` as each stroke is recorded, and keeps `review/index.json`
(video, calibrations, strokes and their frames and paths) for `carrom review` to export a
clip later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.camera import Calibration
from calibration.geometry import FRAME_BREADTH_MM, HALF_SURFACE_MM
from vision.detect.base import BoardRectifier
from vision.events.striker_position import start_position_evidence
from vision.events.strokes import StrokeRecord
from vision.io import Frame
from vision.outputs import write_json_atomic
from vision.review.drawing import TopDownCanvas, caption_strip

REVIEW_DIR = "review"
INDEX_NAME = "index.json"
INDEX_SCHEMA = "carrom-review-index/1"
REVIEW_PX_PER_MM = 0.7  # about 620 px across the board and frame: enough to see every coin
REST_IMAGE_EVERY_S = 0.25


def stroke_image_name(number: int) -> str:
    return f"stroke-{number:03d}.png"


class ReviewWriter:
    def __init__(self, out_dir: Path, video: str, fps: float) -> None:
        self.dir = Path(out_dir) / REVIEW_DIR
        self.dir.mkdir(parents=True, exist_ok=True)
        self.rectifier = BoardRectifier(REVIEW_PX_PER_MM, HALF_SURFACE_MM + FRAME_BREADTH_MM)
        self.index: dict[str, Any] = {
            "schema": INDEX_SCHEMA,
            "video": str(Path(video).resolve()) if video else "",
            "fps": fps,
            "calibrations": [],
            "strokes": [],
        }
        self._rest: tuple[int, float, np.ndarray] | None = None
        self.links: dict[int, str] = {}

    # -- ReviewSink -------------------------------------------------------------------------
    def calibrated(self, frame_index: int, calibration: Calibration) -> None:
        self.index["calibrations"].append({"from_frame": frame_index, "calibration": calibration.to_dict()})
        self._save_index()

    def wants_rest_image(self, frame: Frame) -> bool:
        return self._rest is None or frame.time_s - self._rest[1] >= REST_IMAGE_EVERY_S

    def rest_image(self, frame: Frame, calibration: Calibration) -> None:
        self._rest = (frame.index, frame.time_s, self._top_down(frame.bgr(), calibration))

    def stroke(self, record: StrokeRecord, event_index: int, frame: Frame, calibration: Calibration) -> None:
        number = len(self.index["strokes"]) + 1
        after = self._top_down(frame.bgr(), calibration)
        before = self._rest[2].copy() if self._rest is not None else np.zeros_like(after)
        image = compose_review(record, before, after, number, self.rectifier)
        name = stroke_image_name(number)
        cv2.imwrite(str(self.dir / name), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        self.links[event_index] = f"{REVIEW_DIR}/{name}"
        self.index["strokes"].append(
            {
                "number": number,
                "event_index": event_index,
                "frames": [record.start_frame, record.end_frame],
                "image": name,
                "seat": record.seat,
                "striker_start_mm": (
                    None if record.striker_start_xy is None else list(record.striker_start_xy)
                ),
                "pocket_events": [
                    {"item": e.item, "pocket": e.pocket, "frame": e.frame} for e in record.pocketed
                ],
                "paths": {
                    str(tid): {"item": item, "mm": [[round(x, 1), round(y, 1)] for x, y in points]}
                    for tid, (item, points) in record.paths.items()
                },
            }
        )
        self._save_index()

    # -- helpers --------------------------------------------------------------------------
    def _top_down(self, image_bgr: np.ndarray, calibration: Calibration) -> np.ndarray:
        return self.rectifier.view(image_bgr, calibration).image_bgr

    def _save_index(self) -> None:
        write_json_atomic(self.dir / INDEX_NAME, self.index)


def law_130_line(position: dict[str, Any]) -> str:
    verdict = "legal" if position["legal"] else "NOT legal"
    cover = position["base_circle_cover_mm"]
    circle = "not in a base circle" if cover is None else f"base circle covered by {cover} mm"
    return (
        f"law 130: {verdict}; outer line {position['outer_line_overlap_mm']} mm, "
        f"inner line {position['inner_line_overlap_mm']} mm, {circle}, "
        f"arrow clearance {position['arrow_clearance_mm']} mm"
    )


def compose_review(
    record: StrokeRecord, before: np.ndarray, after: np.ndarray, number: int, rectifier: BoardRectifier
) -> np.ndarray:
    """Before | after, annotated, with a caption of the stroke's evidence underneath."""
    scale, half = rectifier.px_per_mm, rectifier.half_extent_mm
    position = start_position_evidence(record.seat, record.striker_start_xy)
    left = TopDownCanvas(before, scale, half)
    for item, xy in record.before.values():
        left.piece(item, xy)
    if record.striker_start_xy is not None and position is not None:
        left.striker_start(record.striker_start_xy, position["legal"])
    left.text(f"before (frame {record.start_frame})", (10, 22), 0.6)
    right = TopDownCanvas(after, scale, half)
    for item, points in record.paths.values():
        right.path(item, points)
    for item, xy in record.after.values():
        right.piece(item, xy)
    for order, event in enumerate(record.pocketed, 1):
        if event.pocket is not None:
            right.pocket_mark(event.pocket, f"{order}. {event.item}")
    right.text(f"after (frame {record.end_frame})", (10, 22), 0.6)
    pocketed = ", ".join(f"{e.item}->{e.pocket} @{e.frame}" for e in record.pocketed) or "nothing"
    seat = record.seat or "a seat not seen"
    lines = [
        f"stroke {number} from {seat}, frames {record.start_frame}-{record.end_frame}; "
        f"touched: {'yes' if record.touched else 'no'}{'; new board' if record.new_board else ''}",
        law_130_line(position) if position is not None else "law 130: the striker was not seen at the strike",
        f"pocketed: {pocketed}",
    ]
    if record.overboard:
        lines.append("overboard: " + ", ".join(e.item for e in record.overboard))
    if record.vanished:
        lines.append("vanished (not pocketed): " + ", ".join(f"{k} x{v}" for k, v in record.vanished.items()))
    pair = np.hstack([left.image, np.full((left.image.shape[0], 6, 3), 255, np.uint8), right.image])
    return np.vstack([pair, caption_strip(pair.shape[1], lines)])
