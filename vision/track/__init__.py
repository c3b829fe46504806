"""Tracking pieces across frames in board millimetres: see `vision.track.tracker`."""

from vision.track.tracker import Tracker, TrackerConfig

__all__ = ["Tracker", "TrackerConfig"]
