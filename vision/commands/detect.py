"""`carrom detect IMAGE_OR_VIDEO [--frame N] [--out DIR]`: the pieces in one frame.

Writes detections.json (schema carrom-detections/1: the calibration used and `objects` with
class, x_mm, y_mm, score) and detections.png (the frame with every detection drawn on it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.camera import Calibration
from calibration.geometry import COIN_RADIUS_MM, STRIKER_RADIUS_MM
from vision.detections import STRIKER, Detections
from vision.errors import UsageError
from vision.io import read_frame
from vision.outputs import OutputSet

SCHEMA = "carrom-detections/1"
DRAW_COLOURS = {0: (255, 255, 255), 1: (0, 0, 0), 2: (0, 0, 255), 3: (255, 160, 0)}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="find the coins, queen and striker in one frame",
        description="Detect the pieces in an image or one frame of a video; write detections.json "
        "and an annotated detections.png.",
    )
    parser.add_argument("source", help="an image or a video file")
    parser.add_argument("--frame", type=int, default=0, help="frame index of a video (default 0)")
    parser.add_argument("--out", type=Path, default=Path("."), help="output directory (default .)")
    parser.add_argument(
        "--calibration",
        type=Path,
        help="a calibration.json (carrom-calibration/1); default: calibrate from the frame itself",
    )
    parser.add_argument(
        "--detector", choices=("onnx", "classical"), default="onnx", help="which detector (default onnx)"
    )
    parser.set_defaults(func=run)


def load_calibration(path: Path) -> Calibration:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the calibration ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise UsageError(f"{path}: a calibration must be a JSON object")
    return Calibration.from_dict(data, where=str(path))


def calibrate_from_frame(image_bgr: np.ndarray) -> Calibration:
    try:
        from calibration.calibrate import calibrate_image  # type: ignore[import-not-found]
    except ImportError as exc:
        raise UsageError("automatic calibration is not available yet: pass --calibration FILE") from exc
    result = calibrate_image(image_bgr)
    return result if isinstance(result, Calibration) else result.calibration


def make_detector(name: str) -> Any:
    from vision.detect import ClassicalDetector, load_default_detector

    return ClassicalDetector() if name == "classical" else load_default_detector()


def annotate(image_bgr: np.ndarray, detections: Detections, calibration: Calibration) -> np.ndarray:
    """The frame with a ring and a label at every detection."""
    out = image_bgr.copy()
    if not len(detections):
        return out
    centres = calibration.board_to_image(detections.xy_mm)
    for (x, y), cls, name, score, xy_mm in zip(
        centres, detections.class_id, detections.class_names, detections.score, detections.xy_mm, strict=True
    ):
        radius_mm = STRIKER_RADIUS_MM if cls == STRIKER else COIN_RADIUS_MM
        radius_px = radius_mm / calibration.mm_per_pixel_at(xy_mm)
        centre = (round(float(x)), round(float(y)))
        cv2.circle(out, centre, round(radius_px) + 2, (0, 255, 0), 3, cv2.LINE_AA)
        cv2.circle(out, centre, round(radius_px), DRAW_COLOURS[int(cls)], 1, cv2.LINE_AA)
        label = f"{name[0].upper()} {score:.2f}"
        cv2.putText(
            out,
            label,
            (centre[0] - 14, centre[1] - round(radius_px) - 6),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            (0, 255, 0),
            1,
            cv2.LINE_AA,
        )
    return out


def run(args: argparse.Namespace) -> int:
    if args.frame < 0:
        raise UsageError(f"--frame must be 0 or more, got {args.frame}")
    calibration = load_calibration(args.calibration) if args.calibration else None
    detector = make_detector(args.detector)
    frame = read_frame(args.source, args.frame)
    image = frame.bgr()
    if calibration is None:
        calibration = calibrate_from_frame(image)
    if tuple(calibration.image_size) != (image.shape[1], image.shape[0]):
        raise UsageError(
            f"{args.calibration}: calibration is for {calibration.image_size[0]}x{calibration.image_size[1]} "
            f"frames, {args.source} is {image.shape[1]}x{image.shape[0]}"
        )
    detections = detector.detect(image, calibration)
    document = {
        "schema": SCHEMA,
        "source": str(args.source),
        "frame": frame.index,
        "time_s": round(float(frame.time_s), 6),
        "detector": args.detector,
        "calibration": calibration.to_dict(),
        "objects": detections.to_objects(),
    }
    ok, png = cv2.imencode(".png", annotate(image, detections, calibration))
    if not ok:
        raise UsageError("could not encode the annotated image")
    with OutputSet(args.out) as out:
        out.add_json("detections.json", document)
        out.add_bytes("detections.png", png.tobytes())
    counts = {name: detections.class_names.count(name) for name in ("white", "black", "queen", "striker")}
    print(f"{len(detections)} pieces ({', '.join(f'{v} {k}' for k, v in counts.items())}) -> {args.out}")
    return 0
