"""Piece detection: frames + calibration -> `Detections` in board mm.

`load_default_detector()` gives the committed ONNX detector; `ClassicalDetector` is the
learning-free baseline. Both follow the `Detector` protocol.
"""

from __future__ import annotations

from vision.detect.base import BoardRectifier, BoardView, Detector
from vision.detect.classical import ClassicalDetector


def load_default_detector(threads: int = 1, for_tracking: bool = False, even_light: bool = False) -> Detector:
    """The committed ONNX detector (models/detector/detector.onnx); `for_tracking` when its
    detections go to a tracker (which confirms faint ones across frames), not for one picture;
    `even_light` to brighten a dim lamp's dark parts of the board first (vision.detect.lighting)."""
    from vision.detect.onnx_detector import OnnxDetector

    return OnnxDetector(threads=threads, for_tracking=for_tracking, even_light=even_light)


__all__ = ["BoardRectifier", "BoardView", "ClassicalDetector", "Detector", "load_default_detector"]
