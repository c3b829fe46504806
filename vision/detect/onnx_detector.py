"""The learned detector: circle-vote candidates, then an ONNX patch classifier.

The candidate search (vision.detect.candidates) is tuned for recall; for every candidate a
small CNN (models/detector) looks at a 48 mm patch of the rectified board and says what it
is (white, black, queen, striker or background) and where the piece's centre is relative to
the patch's centre. Candidates of one piece merge into the most confident.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime as ort

from calibration.camera import Calibration
from calibration.geometry import COIN_RADIUS_MM
from vision.detect.base import BoardRectifier
from vision.detect.classical import search_candidates
from vision.detect.patches import BACKGROUND, PATCH_PX, cut_patches, patch_centres, patch_origins
from vision.detections import Detections
from vision.errors import VisionError

DEFAULT_MODEL = "detector.onnx"
# Candidates: rim-vote peaks of at least this strength, plus this many blob peaks (for
# pieces blurred by motion). Training cuts its patches with the same settings.
CANDIDATE_MIN_STRENGTH = 0.35
BLOB_CANDIDATES = 25
MIN_SCORE = 0.5
# Two kept detections closer than this are one piece seen from two candidates.
MERGE_DISTANCE_MM = 1.2 * COIN_RADIUS_MM


class ModelError(VisionError):
    """A detector model file that cannot be loaded or does not fit this code."""


def default_model_path() -> Path:
    return Path(str(resources.files("models") / "detector" / DEFAULT_MODEL))


def _session(path: Path, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelError(f"{path}: cannot load the detector model ({exc})") from exc


def merge_duplicates(xy_mm: np.ndarray, score: np.ndarray, radius_mm: float) -> np.ndarray:
    """Indices kept after greedy suppression of detections closer than `radius_mm`."""
    order = np.argsort(-score, kind="stable")
    ordered = xy_mm[order]
    close = np.linalg.norm(ordered[:, None, :] - ordered[None, :, :], axis=2) < radius_mm
    alive = np.ones(len(order), bool)
    for i in range(len(order)):
        if alive[i]:
            alive[i + 1 :] &= ~close[i, i + 1 :]
    return np.sort(order[alive])


@dataclass(eq=False)
class OnnxDetector:
    model_path: Path = field(default_factory=default_model_path)
    min_score: float = MIN_SCORE
    threads: int = 1
    rectifier: BoardRectifier = field(default_factory=BoardRectifier)

    def __post_init__(self) -> None:
        self.model_path = Path(self.model_path)
        if not self.model_path.is_file():
            raise ModelError(f"{self.model_path}: no such detector model")
        self._session = _session(self.model_path, self.threads)
        meta = self._session.get_modelmeta().custom_metadata_map
        patch = int(meta.get("patch_px", PATCH_PX))
        scale = float(meta.get("px_per_mm", self.rectifier.px_per_mm))
        if patch != PATCH_PX or abs(scale - self.rectifier.px_per_mm) > 1e-9:
            raise ModelError(
                f"{self.model_path}: model wants {patch} px patches at {scale} px/mm, "
                f"this code cuts {PATCH_PX} px at {self.rectifier.px_per_mm} px/mm"
            )
        self._input = self._session.get_inputs()[0].name

    def classify(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 5) class probabilities and (N, 2) centre offsets in patch pixels."""
        if len(patches) == 0:
            return np.zeros((0, 5), np.float32), np.zeros((0, 2), np.float32)
        probs, offsets = self._session.run(None, {self._input: patches})
        return probs, offsets

    def detect(self, image_bgr: np.ndarray, calibration: Calibration) -> Detections:
        view = self.rectifier.view(image_bgr, calibration)
        found = search_candidates(view, CANDIDATE_MIN_STRENGTH, BLOB_CANDIDATES)
        if not len(found):
            return Detections.empty()
        origins = patch_origins(found.xy_px)
        probs, offsets = self.classify(cut_patches(view.image_bgr, origins))
        classes = probs.argmax(axis=1)
        score = probs[np.arange(len(probs)), classes]
        keep = (classes != BACKGROUND) & (score >= self.min_score)
        if not np.any(keep):
            return Detections.empty()
        xy_px = patch_centres(origins[keep]) + offsets[keep]
        xy_mm = view.to_board(xy_px)
        kept = merge_duplicates(xy_mm, score[keep], MERGE_DISTANCE_MM)
        return Detections(xy_mm[kept], classes[keep][kept], score[keep][kept])
