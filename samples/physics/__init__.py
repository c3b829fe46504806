"""Physics of discs on a powdered carrom board (see simulate.py and params.py)."""

from samples.physics.params import PhysicsParams
from samples.physics.pieces import PieceSet, standard_pieces
from samples.physics.simulate import Layout, OverboardEvent, PocketEvent, StrokeResult, simulate_stroke

__all__ = [
    "Layout",
    "OverboardEvent",
    "PhysicsParams",
    "PieceSet",
    "PocketEvent",
    "StrokeResult",
    "simulate_stroke",
    "standard_pieces",
]
