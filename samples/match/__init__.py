"""Whole simulated matches: players + physics + the rules engine -> timeline, log, report."""

from samples.match.choreography import Pace
from samples.match.simulate import (
    BoardRecord,
    MatchSimulation,
    PlacementRecord,
    StrokeRecord,
    simulate_match,
)

__all__ = ["BoardRecord", "MatchSimulation", "Pace", "PlacementRecord", "StrokeRecord", "simulate_match"]
