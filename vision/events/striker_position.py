"""Law 130 measured at the moment of the strike, recorded as evidence.

In self-umpired play a striker-position foul must be called by a player, so the figures are
only turned into an improper stroke when the user asks (`--auto-fouls striker-position`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from calibration.geometry import Seat, striker_placement

IMPROPER_STRIKER_POSITION = "striker_position"


def striker_position_evidence(seat: Seat, xy_mm: np.ndarray) -> dict[str, Any]:
    """The law-130 margins in mm (positive: the condition holds with that much to spare)."""
    placement = striker_placement(seat, np.asarray(xy_mm, dtype=float))
    cover = placement.base_circle_cover_mm
    return {
        "law": "130",
        "legal": bool(placement.legal),
        "touches_both_base_lines": bool(placement.touches_both_base_lines),
        "outer_line_overlap_mm": round(placement.outer_line_overlap_mm, 1),
        "inner_line_overlap_mm": round(placement.inner_line_overlap_mm, 1),
        "base_circle_cover_mm": None if cover is None else round(cover, 1),
        "arrow_clearance_mm": round(placement.arrow_clearance_mm, 1),
    }


def start_position_evidence(seat: str | None, xy_mm: tuple[float, float] | None) -> dict[str, Any] | None:
    """The figures above for a stroke's striker start, or None where the strike was not seen."""
    if seat is None or xy_mm is None:
        return None
    return striker_position_evidence(seat, np.asarray(xy_mm, dtype=float))  # type: ignore[arg-type]
