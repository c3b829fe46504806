"""Training and test scenes from the generator, and the labelled patches cut from them.

A scene is one generator still: the frame, the calibration of its (known) camera and the
true pieces. Patches are cut exactly as the detector cuts them at run time (the same
rectifier, candidate search and `cut_patches`), labelled by the nearest true piece:
- a candidate within `LABEL_RADIUS_MM` of a visible piece: that piece's class and the offset
  from the patch centre to the piece's centre;
- a candidate far from every piece: background;
- in between, or near a piece mostly hidden (under a hand, sinking into a pocket): left out,
  since no single answer is right.
Each visible piece also gets patches cut around jittered positions, so the classifier learns
to recentre from wherever a candidate lands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from calibration.camera import Calibration, board_to_rectified
from vision.detect.base import BoardRectifier
from vision.detect.classical import search_candidates
from vision.detect.onnx_detector import BLOB_CANDIDATES, CANDIDATE_MIN_STRENGTH
from vision.detect.patches import BACKGROUND, PATCH_CLASSES, cut_patches, patch_centres, patch_origins

# A blurred piece's candidate can land 10 mm off its centre; the offset head brings it back.
LABEL_RADIUS_MM = 10.0
BACKGROUND_RADIUS_MM = 16.0
JITTER_PX = 8
JITTERED_PER_PIECE = 2
MIN_VISIBLE = 0.5  # fraction of a piece that must show for it to count as seen
DONT_CARE = ("falling", "held")  # sinking into a pocket, or lifted in fingers: no one answer


@dataclass(frozen=True, eq=False)
class Piece:
    name: str  # white | black | queen | striker
    xy_mm: np.ndarray
    visible: float  # fraction of the piece in view, 0..1
    moving: bool
    condition: str  # what the still shows about this piece (for per-condition figures)


@dataclass(frozen=True, eq=False)
class Scene:
    seed: int
    image_bgr: np.ndarray
    calibration: Calibration
    pieces: tuple[Piece, ...]
    condition: str  # the still's arrangement


@dataclass(frozen=True, eq=False)
class PatchSet:
    patches: np.ndarray  # (N, P, P, 3) uint8
    labels: np.ndarray  # (N,) int64 into PATCH_CLASSES
    offsets: np.ndarray  # (N, 2) float32 view px from the patch centre to the piece centre

    def __len__(self) -> int:
        return len(self.labels)

    @classmethod
    def concat(cls, parts: Iterable[PatchSet]) -> PatchSet:
        parts = list(parts)
        return cls(
            np.concatenate([p.patches for p in parts]),
            np.concatenate([p.labels for p in parts]),
            np.concatenate([p.offsets for p in parts]),
        )


def scene_patches(scene: Scene, rng: np.random.Generator, rectifier: BoardRectifier) -> PatchSet:
    view = rectifier.view(scene.image_bgr, scene.calibration)
    found = search_candidates(view, CANDIDATE_MIN_STRENGTH, BLOB_CANDIDATES)
    pieces = [p for p in scene.pieces if np.all(np.isfinite(p.xy_mm))]
    truth_px = (
        board_to_rectified(np.array([p.xy_mm for p in pieces]), view.px_per_mm, view.half_extent_mm)
        if pieces
        else np.zeros((0, 2))
    )
    seen = np.array([p.visible >= MIN_VISIBLE and p.condition not in DONT_CARE for p in pieces], bool)
    label_of = np.array([PATCH_CLASSES.index(p.name) for p in pieces], np.int64)

    origins_list, labels, offsets = [], [], []
    candidate_origins = patch_origins(found.xy_px)
    centres = patch_centres(candidate_origins)
    for origin, centre in zip(candidate_origins, centres, strict=True):
        if len(pieces):
            gaps = np.linalg.norm(truth_px - centre, axis=1) / view.px_per_mm
            nearest = int(np.argmin(gaps))
            gap = gaps[nearest]
        else:
            gap, nearest = np.inf, -1
        if gap <= LABEL_RADIUS_MM and seen[nearest]:
            origins_list.append(origin)
            labels.append(label_of[nearest])
            offsets.append(truth_px[nearest] - centre)
        elif gap >= BACKGROUND_RADIUS_MM:
            origins_list.append(origin)
            labels.append(BACKGROUND)
            offsets.append(np.zeros(2))
    for index in np.flatnonzero(seen):
        for _ in range(JITTERED_PER_PIECE):
            at = truth_px[index] + rng.uniform(-JITTER_PX, JITTER_PX, 2)
            origin = patch_origins(at)[0]
            origins_list.append(origin)
            labels.append(label_of[index])
            offsets.append(truth_px[index] - patch_centres(origin[None])[0])
    if not origins_list:
        return PatchSet(
            np.zeros((0, 48, 48, 3), np.uint8), np.zeros(0, np.int64), np.zeros((0, 2), np.float32)
        )
    origins = np.array(origins_list, np.int64)
    return PatchSet(
        cut_patches(view.image_bgr, origins),
        np.array(labels, np.int64),
        np.array(offsets, np.float32),
    )
