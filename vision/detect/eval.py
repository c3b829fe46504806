"""Detector figures on generator scenes, per condition.

    python -m vision.detect.eval --seeds 20000-20299 [--moving-seeds 21000-21099]
        [--detector onnx|classical] [--min-score S] [--for-tracking] [--cache DIR] [--json FILE]

Stills (`--seeds`) give the pieces at rest; pictures with pieces in motion (`--moving-seeds`)
give the moving ones. Use seeds never used in training or development (the model card lists
the ones that were). Each true piece is tagged with a condition (models.detector.scenes):
open board, break arrangement, under a hand (at least half visible), at a pocket mouth,
moving. Pieces less than half visible, dropping into a pocket or held in fingers are not
required, and a detection on them is not counted as false.

A detection matches a true piece within `MATCH_MM` (Hungarian, by distance). Figures:
recall per condition, precision (per scene layout, since a false detection belongs to no
piece), class accuracy and median / 95th percentile centre error over matched pieces.
`--cache DIR` keeps the rendered scenes (models.detector.cache) for the next run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from models.detector.data import DONT_CARE, MIN_VISIBLE, Scene
from models.detector.scenes import load_moving, load_still, parse_seeds
from vision.detect.base import Detector
from vision.detections import CLASS_NAMES, Detections

MATCH_MM = 12.0
CONDITIONS = ("open", "break", "under_hand", "pocket_mouth", "moving")


@dataclass
class Tally:
    required: int = 0
    found: int = 0
    right_class: int = 0
    errors: list[float] = field(default_factory=list)

    def figures(self) -> dict[str, float | int]:
        errors = np.array(self.errors) if self.errors else np.zeros(1)
        return {
            "pieces": self.required,
            "recall": self.found / self.required if self.required else float("nan"),
            "class_accuracy": self.right_class / self.found if self.found else float("nan"),
            "median_error_mm": float(np.median(errors)),
            "p95_error_mm": float(np.percentile(errors, 95)),
        }


@dataclass
class Result:
    by_condition: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    detections: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    false: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    seconds: float = 0.0
    scenes: int = 0


def required(piece_condition: str, visible: float) -> bool:
    return piece_condition not in DONT_CARE and visible >= MIN_VISIBLE


def score_scene(scene: Scene, found: Detections, result: Result, layout: str) -> None:
    pieces = list(scene.pieces)
    truth = np.array([p.xy_mm for p in pieces]).reshape(-1, 2)
    matched_det: set[int] = set()
    if len(pieces) and len(found):
        distance = np.linalg.norm(found.xy_mm[:, None] - truth[None], axis=2)
        cost = np.where(distance <= MATCH_MM, distance, 1e6)
        rows, cols = linear_sum_assignment(cost)
        pairs = {int(c): int(r) for r, c in zip(rows, cols, strict=True) if cost[r, c] < 1e6}
    else:
        pairs = {}
    for index, piece in enumerate(pieces):
        d = pairs.get(index)
        if d is not None:
            matched_det.add(d)
        if not required(piece.condition, piece.visible):
            continue
        tally = result.by_condition[piece.condition]
        tally.required += 1
        if d is None:
            continue
        tally.found += 1
        tally.right_class += int(CLASS_NAMES[int(found.class_id[d])] == piece.name)
        tally.errors.append(float(np.linalg.norm(found.xy_mm[d] - piece.xy_mm)))
    # Unmatched detections near a piece that is not required are not false either.
    for d in range(len(found)):
        if d in matched_det:
            continue
        near = np.linalg.norm(truth - found.xy_mm[d], axis=1) <= MATCH_MM if len(truth) else np.zeros(0, bool)
        if np.any(near & ~np.array([required(p.condition, p.visible) for p in pieces])):
            continue
        result.false[layout] += 1
    result.detections[layout] += len(found)


def evaluate(
    detector: Detector,
    still_seeds: list[int],
    moving_seeds: list[int],
    progress: bool = True,
    cache: Path | None = None,
) -> Result:
    result = Result()
    jobs = [(s, False) for s in still_seeds] + [(s, True) for s in moving_seeds]
    for i, (seed, moving) in enumerate(jobs):
        if cache is not None:
            from models.detector.cache import load_cached

            scene = load_cached("moving" if moving else "still", seed, cache)[0]
        else:
            scene = load_moving(seed) if moving else load_still(seed)
        start = time.perf_counter()
        found = detector.detect(scene.image_bgr, scene.calibration)
        result.seconds += time.perf_counter() - start
        result.scenes += 1
        score_scene(scene, found, result, "moving" if moving else scene.condition)
        if progress and ((i + 1) % 25 == 0 or i + 1 == len(jobs)):
            print(f"{i + 1}/{len(jobs)} scenes", file=sys.stderr)
    return result


def report(result: Result) -> dict[str, object]:
    conditions = {c: result.by_condition[c].figures() for c in CONDITIONS if c in result.by_condition}
    at_rest = Tally()
    for c in ("open", "break", "under_hand", "pocket_mouth"):
        t = result.by_condition.get(c)
        if t:
            at_rest.required += t.required
            at_rest.found += t.found
            at_rest.right_class += t.right_class
            at_rest.errors += t.errors
    precision = {}
    for layout, count in result.detections.items():
        precision[layout] = (count - result.false[layout]) / count if count else float("nan")
    rest_dets = sum(v for k, v in result.detections.items() if k != "moving")
    rest_false = sum(v for k, v in result.false.items() if k != "moving")
    return {
        "scenes": result.scenes,
        "detect_ms_per_frame": 1000.0 * result.seconds / max(1, result.scenes),
        "at_rest": {
            **at_rest.figures(),
            "precision": (rest_dets - rest_false) / rest_dets if rest_dets else None,
        },
        "by_condition": conditions,
        "precision_by_layout": precision,
        "false_detections": dict(result.false),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", default="20000-20199", help="still seeds (pieces at rest)")
    parser.add_argument("--moving-seeds", default="", help="seeds of pictures with moving pieces")
    parser.add_argument("--detector", choices=("onnx", "classical"), default="onnx")
    parser.add_argument("--model", help="an ONNX model file (default: the committed one)")
    parser.add_argument("--min-score", type=float, help="the ONNX detector's score threshold")
    parser.add_argument(
        "--for-tracking",
        action="store_true",
        help="the ONNX detector as the recorder runs it (faint peaks with no rim kept for the tracker)",
    )
    parser.add_argument("--cache", type=Path, help="keep rendered scenes here and reuse them")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    if args.detector == "classical":
        from vision.detect.classical import ClassicalDetector

        detector: Detector = ClassicalDetector()
    else:
        from vision.detect.onnx_detector import OnnxDetector

        options: dict[str, Any] = {"for_tracking": args.for_tracking}
        if args.min_score is not None:
            options["min_score"] = args.min_score
        if args.model:
            options["model_path"] = Path(args.model)
        detector = OnnxDetector(**options)
    result = evaluate(detector, parse_seeds(args.seeds), parse_seeds(args.moving_seeds), cache=args.cache)
    figures = {
        "detector": args.detector,
        "for_tracking": args.for_tracking,
        "seeds": args.seeds,
        "moving_seeds": args.moving_seeds,
        **report(result),
    }
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
