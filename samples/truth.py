"""The match-level ground truth of a simulated match, as plain JSON-ready data.

Per stroke: first and last frame, who struck from which side and where the striker started,
the items pocketed in order with pocket and frame, and the overboard items in the order they
jumped, each with three frames: `jump_frame` (the first frame the piece is AIRBORNE, lifted
by the impact), `frame` (the overboard moment: the first frame whose exposure ends with the
piece's centre past the playing surface's edge; the frame the log's evidence gives) and
`gone_frame` (the first frame it is OFF_BOARD, its centre past the frame's outer edge); a
flight within one frame has all three equal. A stroke's last frame includes the flight. Per
placement: frame, items and positions. Per board: its frames and result. Plus the whole
match log and the report the rules engine made of it, and the camera bumps asked for. The
renderer adds the per-frame camera and object truth beside this (samples.render.truth).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from samples.match.simulate import MatchSimulation

TRUTH_SCHEMA = "carrom-synth-match/1"


def match_truth(sim: MatchSimulation) -> dict[str, Any]:
    timeline = sim.timeline
    return {
        "schema": TRUTH_SCHEMA,
        "seed": sim.seed,
        "fps": timeline.fps,
        "oversample": timeline.oversample,
        "num_frames": timeline.num_frames,
        "players": sim.players,
        "strokes": [
            {
                **asdict(s),
                "striker_start_mm": list(s.striker_start_mm),
                "pocketed": list(s.pocketed),
                "overboard": list(s.overboard),
            }
            for s in sim.strokes
        ],
        "placements": [{**asdict(p), "items": list(p.items)} for p in sim.placements],
        "boards": [asdict(b) for b in sim.boards],
        "camera_bumps": [{"frame": f, "time_s": f / timeline.fps} for f in sim.bump_frames],
        "match_log": sim.match_log,
        "report": sim.report,
    }
