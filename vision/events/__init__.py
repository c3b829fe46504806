"""Stroke inference: from tracks to the match log (carrom-match-log/1), as play goes on."""

from vision.events.config import EventConfig
from vision.events.departures import ItemEvent
from vision.events.log_writer import MatchLogWriter
from vision.events.recorder import MatchRecorder
from vision.events.seats import SeatAssigner, parse_seats
from vision.events.strokes import PlacementRecord, StrokeRecord, StrokeSegmenter

__all__ = [
    "EventConfig",
    "ItemEvent",
    "MatchLogWriter",
    "MatchRecorder",
    "PlacementRecord",
    "SeatAssigner",
    "StrokeRecord",
    "StrokeSegmenter",
    "parse_seats",
]
