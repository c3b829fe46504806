"""Simulated players: striker placement (law 130), shot choice with skill noise, the break."""

from samples.players.aim import Shot, Skill, plan_shot
from samples.players.arrange import break_layout, empty_layout, placement_spot
from samples.players.placement import illegal_placement, is_free, is_legal, legal_placement
from samples.players.player import PlannedStroke, Player, plan_break, plan_stroke

__all__ = [
    "PlannedStroke",
    "Player",
    "Shot",
    "Skill",
    "break_layout",
    "empty_layout",
    "illegal_placement",
    "is_free",
    "is_legal",
    "legal_placement",
    "placement_spot",
    "plan_break",
    "plan_shot",
    "plan_stroke",
]
