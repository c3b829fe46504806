"""The printed landmarks the fit looks for, as sample points on model curves (board mm).

Every position derives from calibration.geometry. Each landmark is a straight or circular
curve with a profile across it: a step `edge` (with the side that is darker) or a thin dark
`ridge` (a printed rule or ring, located at its centre line). Samples keep clear of the
places where another marking touches the curve (a base circle where its lines join it, the
arrow's head and arc), so that a search along the normal sees one structure.

Kinds (several, so that a board without red circles, or with half its markings under
hands and coins, still offers enough): base lines (both edges of the thick outer line, the
thin inner line), base circles, the pockets' rims, the centre circle, the outer circle and
the arrows' shafts (which also cover the short corner marks of cheap boards). The playing
surface's edge is not among them: the frame stands above the surface and its top hides
the edge from a camera beyond it; the coarse search (search.snap_base_lines) uses the
frame only loosely.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from calibration import geometry as g

EDGE = "edge"
RIDGE = "ridge"

# Sampling density along the curves (mm between samples): enough points for a robust fit,
# few enough for the time budget.
LINE_SPACING_MM = 8.0
CIRCLE_SAMPLES = 24
OUTER_CIRCLE_SAMPLES = 48
# Keep this far from where other markings touch a curve.
CLEARANCE_MM = 4.0
# A base circle is sampled on the arc facing away from its two base lines (which join it
# tangentially on the other half): this many degrees either side of that direction.
BASE_CIRCLE_ARC_DEG = 70.0
# The arrow's shaft: clear of its head at the tip and of the decorative arc at the tail.
ARROW_HEAD_CLEAR_MM = 16.0
ARROW_TAIL_CLEAR_MM = 10.0
# A pocket is sampled on the arc facing the board's centre: elsewhere it touches the frame
# (and the frame's wall can hide it).
POCKET_ARC_DEG = 70.0


@dataclass(frozen=True, eq=False)
class Landmark:
    name: str
    kind: str
    profile: str  # EDGE or RIDGE
    darker_along_normal: bool  # EDGE: brightness drops moving along +normal
    points: np.ndarray = field(repr=False)  # (N, 2) board mm
    normals: np.ndarray = field(repr=False)  # (N, 2) unit
    circle: tuple[float, float, float] | None = None  # (cx, cy, r) of a ring landmark
    spread_group: int = 0  # model.fit's ink-spread group of an inked edge (0: none)

    def __len__(self) -> int:
        return len(self.points)

    @property
    def spread_sign(self) -> float:
        """Which way the group's offset moves the curve along the normal: an inked edge away
        from the ink, a ring's centre line outwards."""
        if self.spread_group == 0:
            return 0.0
        if self.profile == RIDGE:
            return 1.0
        return -1.0 if self.darker_along_normal else 1.0


INK_LINES = 1  # offset groups (see calibration.model)
INK_CIRCLES = 2
OUTER_RING = 3
CENTRE_RING = 4
POCKET_EDGE = 5


def _line(
    name: str,
    kind: str,
    profile: str,
    darker: bool,
    seat: g.Seat,
    inward: float,
    half_span: float,
    group: int = 0,
) -> Landmark:
    """A straight landmark parallel to `seat`'s side at `inward` mm from the board centre;
    its normal points towards the centre."""
    n = max(3, int(2 * half_span / LINE_SPACING_MM) + 1)
    along = np.linspace(-half_span, half_span, n)
    pts = np.array([g.seat_to_board(seat, a, inward) for a in along])
    normal = np.tile(-g.seat_normal(seat), (n, 1))
    return Landmark(name, kind, profile, darker, pts, normal, spread_group=group)


def _arc(
    name: str,
    kind: str,
    profile: str,
    darker_outwards: bool,
    centre: np.ndarray,
    radius: float,
    start: float,
    stop: float,
    count: int,
    group: int = 0,
) -> Landmark:
    """A circular landmark sampled between two angles (radians); normals point outwards."""
    full = abs(stop - start) >= 2 * math.pi - 1e-9
    angles = np.linspace(start, stop, count, endpoint=not full)
    radial = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    pts = np.asarray(centre, float) + radius * radial
    return Landmark(
        name,
        kind,
        profile,
        darker_outwards,
        pts,
        radial,
        (float(centre[0]), float(centre[1]), float(radius)),
        group,
    )


@cache
def fine_landmarks() -> tuple[Landmark, ...]:
    """Everything the fine fit searches for."""
    out: list[Landmark] = []
    line_half = g.BASE_CIRCLE_ALONG_MM - g.BASE_CIRCLE_RADIUS_MM - CLEARANCE_MM
    thin_mid = g.INNER_BASE_LINE_EDGE_MM + g.INNER_BASE_LINE_THICKNESS_MM / 2.0
    for seat in g.SEATS:
        # The thick outer line: its frame-side edge (darker towards the centre) and its
        # centre-side edge (lighter towards the centre); the thin inner line as a ridge.
        out.append(
            _line(
                f"base_line_{seat}_outer",
                "base_line",
                EDGE,
                True,
                seat,
                g.OUTER_BASE_LINE_EDGE_MM,
                line_half,
                INK_LINES,
            )
        )
        inner_edge = g.OUTER_BASE_LINE_EDGE_MM - g.OUTER_BASE_LINE_THICKNESS_MM
        out.append(
            _line(f"base_line_{seat}_inner", "base_line", EDGE, False, seat, inner_edge, line_half, INK_LINES)
        )
        out.append(_line(f"base_line_{seat}_thin", "base_line", RIDGE, False, seat, thin_mid, line_half))
    arc = math.radians(BASE_CIRCLE_ARC_DEG)
    for seat in g.SEATS:
        along = g.seat_along(seat)
        for end, centre in zip(("left", "right"), g.base_circle_centres(seat), strict=True):
            away = along if end == "right" else -along  # the side away from the base lines
            mid = math.atan2(away[1], away[0])
            # The printed circle's outer edge: its ring (and red disc) is darker inside.
            out.append(
                _arc(
                    f"base_circle_{seat}_{end}",
                    "base_circle",
                    EDGE,
                    False,
                    centre,
                    g.BASE_CIRCLE_RADIUS_MM,
                    mid - arc,
                    mid + arc,
                    CIRCLE_SAMPLES // 2,
                    INK_CIRCLES,
                )
            )
    out.append(
        _arc(
            "centre_circle",
            "centre_circle",
            EDGE,
            False,
            np.zeros(2),
            g.CENTRE_CIRCLE_RADIUS_MM,
            0,
            2 * math.pi,
            CIRCLE_SAMPLES,
            CENTRE_RING,
        )
    )
    ring_mid = g.OUTER_CIRCLE_RADIUS_MM - g.LINE_THICKNESS_MM / 2.0
    out.append(
        _arc(
            "outer_circle",
            "outer_circle",
            RIDGE,
            False,
            np.zeros(2),
            ring_mid,
            0,
            2 * math.pi,
            OUTER_CIRCLE_SAMPLES,
            OUTER_RING,
        )
    )
    pocket_arc = math.radians(POCKET_ARC_DEG)
    for pocket in g.POCKETS:
        centre = g.pocket_centre(pocket)
        mid = math.atan2(-centre[1], -centre[0])  # towards the board's centre
        # The hole's rim: dark inside (the renderer, and real boards, add a darker cut edge
        # around it, which the group's radius offset takes up).
        out.append(
            _arc(
                f"pocket_{pocket}",
                "pocket",
                EDGE,
                False,
                centre,
                g.POCKET_RADIUS_MM,
                mid - pocket_arc,
                mid + pocket_arc,
                CIRCLE_SAMPLES // 2,
                POCKET_EDGE,
            )
        )
    for pocket in g.POCKETS:
        band = g.arrow(pocket)
        tail, tip = np.array(band.start), np.array(band.end)
        length = float(np.linalg.norm(tip - tail))
        d = (tip - tail) / length
        n = max(3, int((length - ARROW_HEAD_CLEAR_MM - ARROW_TAIL_CLEAR_MM) / LINE_SPACING_MM) + 1)
        t = np.linspace(ARROW_TAIL_CLEAR_MM, length - ARROW_HEAD_CLEAR_MM, n)
        pts = tail + t[:, None] * d
        normal = np.tile([-d[1], d[0]], (n, 1))
        out.append(Landmark(f"arrow_{pocket}", "arrow", RIDGE, False, pts, normal))
    return tuple(out)
