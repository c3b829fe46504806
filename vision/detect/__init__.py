"""Piece detection: frames + calibration -> `Detections` in board mm.

`load_default_detector()` gives the committed ONNX detector; `ClassicalDetector` is the
learning-free baseline. Both follow the `Detector` protocol.
"""

from __future__ import annotations

from vision.detect.base import BoardRectifier, BoardView, Detector
from vision.detect.classical import ClassicalDetector


def load_default_detector(threads: int = 1, for_tracking: bool = False) -> Detector:
    """The committed ONNX detector (models/detector/detector.onnx); `for_tracking` when its
    detections go to a tracker (which confirms faint ones across frames), not for one picture."""
    from vision.detect.onnx_detector import OnnxDetector

    return OnnxDetector(threads=threads, for_tracking=for_tracking)


__all__ = ["BoardRectifier", "BoardView", "ClassicalDetector", "Detector", "load_default_detector"]
