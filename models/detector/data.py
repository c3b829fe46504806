"""Generator scenes with exact truth: what the detector is trained and measured on.

A scene is one generator picture: the frame, the calibration of its (known) camera and the
true pieces, each tagged with the condition it shows (models.detector.scenes). A piece less
than `MIN_VISIBLE` in view, or in a `DONT_CARE` state, is one no single answer fits: the
detector is neither required to find it nor wrong to.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.camera import Calibration

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
