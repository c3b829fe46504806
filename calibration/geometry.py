"""The carrom board's geometry: the only place the ICF equipment dimensions live.

Board frame (DESIGN.md): origin at the centre of the playing surface, x east, y north,
millimetres. Seats are sides (S at y = -L/2, E, N, W); pockets are named by corner.

Dimensions come from the ICF "Standard Equipments" (section A of
icf-laws-of-carrom-umpired.txt); where the text gives a range, the nominal value chosen
here is stated beside it. Everything else in the project derives positions from the
functions and constants of this module rather than repeating numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

Seat = Literal["S", "E", "N", "W"]
PocketName = Literal["NE", "NW", "SE", "SW"]

SEATS: tuple[Seat, ...] = ("S", "E", "N", "W")
POCKETS: tuple[PocketName, ...] = ("NE", "NW", "SW", "SE")

# A.1: 735 to 740 mm square; the larger value is the common tournament board.
PLAYING_SURFACE_MM = 740.0
HALF_SURFACE_MM = PLAYING_SURFACE_MM / 2.0
# A.2: breadth 63.5 to 76 mm, height 19 to 25.4 mm above the surface.
FRAME_BREADTH_MM = 70.0
FRAME_BREADTH_RANGE_MM = (63.5, 76.0)
FRAME_HEIGHT_MM = 22.0
# A.3: 44.5 mm (+-1.5) pockets, round, in each corner touching both frame edges.
POCKET_DIAMETER_MM = 44.5
POCKET_RADIUS_MM = POCKET_DIAMETER_MM / 2.0
# A.4 a: two lines per side, 470 mm long; the outer ("lower") one 5 to 6.5 mm thick and
# 101.5 mm from the frame, the inner one 31.8 mm further in. The inner line's thickness is
# not specified; boards print it as a thin rule.
BASE_LINE_LENGTH_MM = 470.0
BASE_LINE_FROM_FRAME_MM = 101.5
BASE_LINE_GAP_MM = 31.8
OUTER_BASE_LINE_THICKNESS_MM = 6.0
INNER_BASE_LINE_THICKNESS_MM = 1.5
# A.4 b: base circles 31.8 mm across with a 25.4 mm red disc, closing each pair of lines.
BASE_CIRCLE_DIAMETER_MM = 31.8
BASE_CIRCLE_RADIUS_MM = BASE_CIRCLE_DIAMETER_MM / 2.0
BASE_CIRCLE_RED_DIAMETER_MM = 25.4
# A.5: arrows at 45 degrees towards each pocket, ending 50 mm from the pocket edge, at most
# 267 mm long, at most 1.5 mm thick; an optional decorative arc of 63.5 mm diameter.
ARROW_GAP_TO_POCKET_MM = 50.0
ARROW_LENGTH_MM = 267.0
ARROW_THICKNESS_MM = 1.5
ARROW_ARC_DIAMETER_MM = 63.5
# A.6 and A.7: the centre circle (31.8 mm, red) and the outer circle (170 mm).
CENTRE_CIRCLE_DIAMETER_MM = 31.8
CENTRE_CIRCLE_RADIUS_MM = CENTRE_CIRCLE_DIAMETER_MM / 2.0
OUTER_CIRCLE_DIAMETER_MM = 170.0
OUTER_CIRCLE_RADIUS_MM = OUTER_CIRCLE_DIAMETER_MM / 2.0
LINE_THICKNESS_MM = 1.5  # printed circles and thin rules
# B and C: carrommen 30.2 to 31.8 mm and 5.25 to 5.5 g; the striker at most 41.3 mm, 15 g.
COIN_DIAMETER_MM = 31.0
COIN_DIAMETER_RANGE_MM = (30.2, 31.8)
COIN_RADIUS_MM = COIN_DIAMETER_MM / 2.0
COIN_MASS_G = 5.4
# B: a carromman is 7.0 to 9.0 mm thick; a camera sees its top face that high (the striker
# is taken as thick).
PIECE_THICKNESS_MM = 7.0
STRIKER_DIAMETER_MM = 41.0
STRIKER_MAX_DIAMETER_MM = 41.3
STRIKER_RADIUS_MM = STRIKER_DIAMETER_MM / 2.0
STRIKER_MASS_G = 15.0

COINS_PER_COLOUR = 9

# Derived positions (see the module docstring for the frame).
POCKET_CENTRE_OFFSET_MM = HALF_SURFACE_MM - POCKET_RADIUS_MM
# How far from the board centre, along either axis, a cushion stops a coin's centre.
COIN_CUSHION_STOP_MM = HALF_SURFACE_MM - COIN_RADIUS_MM
# Distance from the board centre to the outer (frame-side) edge of the outer base line and
# to the inner edge of the inner base line: the base circles span exactly this band.
OUTER_BASE_LINE_EDGE_MM = HALF_SURFACE_MM - BASE_LINE_FROM_FRAME_MM
INNER_BASE_LINE_EDGE_MM = OUTER_BASE_LINE_EDGE_MM - BASE_LINE_GAP_MM
BASE_LINE_MID_MM = (OUTER_BASE_LINE_EDGE_MM + INNER_BASE_LINE_EDGE_MM) / 2.0
# The base circles touch the inner line of the neighbouring side when extended (A.4 b).
BASE_CIRCLE_ALONG_MM = INNER_BASE_LINE_EDGE_MM - BASE_CIRCLE_RADIUS_MM
# Arrows lie on the diagonals; measured from the pocket centre along the diagonal.
ARROW_TIP_FROM_POCKET_MM = POCKET_RADIUS_MM + ARROW_GAP_TO_POCKET_MM
ARROW_TAIL_FROM_POCKET_MM = ARROW_TIP_FROM_POCKET_MM + ARROW_LENGTH_MM


@dataclass(frozen=True)
class Band:
    """A straight printed band: a segment with a thickness, in board mm."""

    start: tuple[float, float]
    end: tuple[float, float]
    thickness: float


# Unit vectors pointing from the board centre towards each seat's side, and the direction
# along that side's base lines (left to right as seen by the seated player).
_SEAT_NORMAL: dict[Seat, tuple[float, float]] = {
    "S": (0.0, -1.0),
    "E": (1.0, 0.0),
    "N": (0.0, 1.0),
    "W": (-1.0, 0.0),
}
_SEAT_ALONG: dict[Seat, tuple[float, float]] = {
    "S": (1.0, 0.0),
    "E": (0.0, 1.0),
    "N": (-1.0, 0.0),
    "W": (0.0, -1.0),
}
_POCKET_SIGN: dict[PocketName, tuple[float, float]] = {
    "NE": (1.0, 1.0),
    "NW": (-1.0, 1.0),
    "SW": (-1.0, -1.0),
    "SE": (1.0, -1.0),
}


def seat_normal(seat: Seat) -> np.ndarray:
    """Unit vector from the board centre towards the seat's side."""
    return np.array(_SEAT_NORMAL[seat])


def seat_along(seat: Seat) -> np.ndarray:
    """Unit vector along the seat's base lines, left to right for the seated player."""
    return np.array(_SEAT_ALONG[seat])


def seat_to_board(seat: Seat, along: float, inward: float) -> np.ndarray:
    """A point given as (along the seat's side, distance from the board centre towards it)."""
    return seat_along(seat) * along + seat_normal(seat) * inward


def board_to_seat(seat: Seat, xy_mm: np.ndarray) -> np.ndarray:
    """Inverse of `seat_to_board` for an (..., 2) array: returns (..., 2) of (along, inward)."""
    xy = np.asarray(xy_mm, dtype=float)
    return np.stack([xy @ seat_along(seat), xy @ seat_normal(seat)], axis=-1)


def pocket_centre(pocket: PocketName) -> np.ndarray:
    sx, sy = _POCKET_SIGN[pocket]
    return np.array([sx * POCKET_CENTRE_OFFSET_MM, sy * POCKET_CENTRE_OFFSET_MM])


def pocket_centres() -> np.ndarray:
    """(4, 2) pocket centres in the order of `POCKETS`."""
    return np.stack([pocket_centre(p) for p in POCKETS])


_POCKET_CENTRES_MM = pocket_centres()  # for the per-frame distance below, built once


def pocket_distance_mm(points_mm: np.ndarray) -> np.ndarray:
    """(N,) distance from each of `points_mm` (N, 2) to the nearest pocket's centre."""
    points = np.asarray(points_mm, dtype=float).reshape(-1, 2)
    return np.linalg.norm(points[:, None, :] - _POCKET_CENTRES_MM[None, :, :], axis=2).min(axis=1)


def nearest_pocket(xy_mm: np.ndarray) -> PocketName:
    distances = np.linalg.norm(_POCKET_CENTRES_MM - np.asarray(xy_mm, dtype=float), axis=1)
    return POCKETS[int(np.argmin(distances))]


def base_lines(seat: Seat) -> tuple[Band, Band]:
    """The seat's (outer, inner) base lines as centre-line segments with their thickness.

    The lines run between the two base circles' centres (the circles close them, A.4 b).
    """
    outer_mid = OUTER_BASE_LINE_EDGE_MM - OUTER_BASE_LINE_THICKNESS_MM / 2.0
    inner_mid = INNER_BASE_LINE_EDGE_MM + INNER_BASE_LINE_THICKNESS_MM / 2.0
    half = BASE_CIRCLE_ALONG_MM
    bands = []
    for inward, thick in (
        (outer_mid, OUTER_BASE_LINE_THICKNESS_MM),
        (inner_mid, INNER_BASE_LINE_THICKNESS_MM),
    ):
        start = seat_to_board(seat, -half, inward)
        end = seat_to_board(seat, half, inward)
        bands.append(Band((float(start[0]), float(start[1])), (float(end[0]), float(end[1])), thick))
    return bands[0], bands[1]


def base_circle_centres(seat: Seat) -> np.ndarray:
    """(2, 2): the seat's left and right base circle centres (as seen by the player)."""
    return np.stack(
        [
            seat_to_board(seat, -BASE_CIRCLE_ALONG_MM, BASE_LINE_MID_MM),
            seat_to_board(seat, BASE_CIRCLE_ALONG_MM, BASE_LINE_MID_MM),
        ]
    )


def all_base_circle_centres() -> np.ndarray:
    """(8, 2) base circle centres, seat by seat in the order of `SEATS`."""
    return np.concatenate([base_circle_centres(s) for s in SEATS])


def arrow(pocket: PocketName) -> Band:
    """The arrow towards `pocket`: from its tail (board-centre end) to its tip."""
    centre = pocket_centre(pocket)
    towards_centre = -centre / np.linalg.norm(centre)
    tail = centre + towards_centre * ARROW_TAIL_FROM_POCKET_MM
    tip = centre + towards_centre * ARROW_TIP_FROM_POCKET_MM
    return Band((float(tail[0]), float(tail[1])), (float(tip[0]), float(tip[1])), ARROW_THICKNESS_MM)


def arrow_arc_centre(pocket: PocketName) -> np.ndarray:
    """Centre of the optional decorative arc drawn at the arrow's tail (A.5)."""
    a = arrow(pocket)
    tail = np.array(a.start)
    direction = np.array(a.end) - tail
    direction /= np.linalg.norm(direction)
    return tail + direction * (ARROW_ARC_DIAMETER_MM / 2.0)


def point_segment_distance(points: np.ndarray, band: Band) -> np.ndarray:
    """Distance from each (..., 2) point to the band's centre-line segment."""
    p = np.asarray(points, dtype=float)
    a = np.array(band.start)
    b = np.array(band.end)
    ab = b - a
    t = np.clip(((p - a) @ ab) / float(ab @ ab), 0.0, 1.0)
    closest = a + t[..., None] * ab
    return np.linalg.norm(p - closest, axis=-1)


def on_playing_surface(xy_mm: np.ndarray, radius: float = 0.0) -> np.ndarray:
    """True where a disc of `radius` centred at each point lies wholly on the surface."""
    xy = np.abs(np.asarray(xy_mm, dtype=float))
    return np.all(xy <= HALF_SURFACE_MM - radius, axis=-1)


def inside_outer_circle(xy_mm: np.ndarray, radius: float = COIN_RADIUS_MM) -> np.ndarray:
    """True where a disc lies wholly inside the outer circle (placing zone, law 84)."""
    return np.linalg.norm(np.asarray(xy_mm, dtype=float), axis=-1) <= OUTER_CIRCLE_RADIUS_MM - radius


@dataclass(frozen=True)
class StrikerPlacement:
    """Law 130 measured for one striker position: each figure is a signed margin in mm
    (positive: the condition holds with that much to spare)."""

    seat: Seat
    outer_line_overlap_mm: float
    inner_line_overlap_mm: float
    base_circle_cover_mm: float | None  # None when the striker is not in a base circle
    arrow_clearance_mm: float

    @property
    def touches_both_base_lines(self) -> bool:
        return self.outer_line_overlap_mm >= 0.0 and self.inner_line_overlap_mm >= 0.0

    @property
    def legal(self) -> bool:
        cover_ok = self.base_circle_cover_mm is None or self.base_circle_cover_mm >= 0.0
        return self.touches_both_base_lines and cover_ok and self.arrow_clearance_mm >= 0.0


def striker_placement(
    seat: Seat, striker_xy_mm: np.ndarray, striker_radius: float = STRIKER_RADIUS_MM
) -> StrikerPlacement:
    """Measure a striker position against law 130 for the given seat.

    The striker must touch both base lines; if it is in a base circle it must cover that
    circle fully, and it must not touch an arrow.
    """
    along, inward = board_to_seat(seat, np.asarray(striker_xy_mm, dtype=float))
    outer, inner = base_lines(seat)
    outer_mid = OUTER_BASE_LINE_EDGE_MM - OUTER_BASE_LINE_THICKNESS_MM / 2.0
    inner_mid = INNER_BASE_LINE_EDGE_MM + INNER_BASE_LINE_THICKNESS_MM / 2.0
    # A disc touches a band when the disc's reach covers the band's nearest edge, and the
    # touching point lies along the drawn segment.
    outer_reach = striker_radius + outer.thickness / 2.0 - abs(inward - outer_mid)
    inner_reach = striker_radius + inner.thickness / 2.0 - abs(inward - inner_mid)
    overlap_along = BASE_CIRCLE_ALONG_MM - abs(along)
    outer_overlap = min(outer_reach, overlap_along + striker_radius)
    inner_overlap = min(inner_reach, overlap_along + striker_radius)

    cover: float | None = None
    circles = base_circle_centres(seat)
    xy = np.asarray(striker_xy_mm, dtype=float)
    for centre in circles:
        gap = float(np.linalg.norm(xy - centre))
        if gap < striker_radius + BASE_CIRCLE_RADIUS_MM:  # the striker overlaps this circle
            cover = striker_radius - BASE_CIRCLE_RADIUS_MM - gap
            break

    arrow_clear = min(
        float(point_segment_distance(xy, arrow(p))) - striker_radius - ARROW_THICKNESS_MM / 2.0
        for p in POCKETS
    )
    return StrikerPlacement(
        seat=seat,
        outer_line_overlap_mm=float(outer_overlap),
        inner_line_overlap_mm=float(inner_overlap),
        base_circle_cover_mm=None if cover is None else float(cover),
        arrow_clearance_mm=float(arrow_clear),
    )


def striker_legal_range(seat: Seat, striker_radius: float = STRIKER_RADIUS_MM) -> tuple[float, float, float]:
    """(inward_min, inward_max, along_max): the box of legal striker centres on the base
    lines, away from the base circles. Positions inside a base circle (covering it
    fully) are also legal; `striker_placement` is the full test."""
    outer_mid = OUTER_BASE_LINE_EDGE_MM - OUTER_BASE_LINE_THICKNESS_MM / 2.0
    inner_mid = INNER_BASE_LINE_EDGE_MM + INNER_BASE_LINE_THICKNESS_MM / 2.0
    inward_min = outer_mid - striker_radius - OUTER_BASE_LINE_THICKNESS_MM / 2.0
    inward_max = inner_mid + striker_radius + INNER_BASE_LINE_THICKNESS_MM / 2.0
    # Leaving the base circles alone: the striker edge stays clear of the circle.
    along_max = BASE_CIRCLE_ALONG_MM - BASE_CIRCLE_RADIUS_MM - striker_radius
    return inward_min, inward_max, along_max


def break_arrangement(white_breaker_seat: Seat = "S") -> list[tuple[str, np.ndarray]]:
    """The law 41 arrangement: the queen in the centre circle, a first ring of six coins
    alternating black and white, a second ring of twelve where three whites form a "Y" with
    the first ring's whites and the rest alternate; all touching, within the outer circle.

    Returns (item, xy_mm) for the 19 carrommen. The "Y" stems point at the breaker's seat's
    neighbours in the usual way; its orientation is a convention of this module.
    """
    d = COIN_DIAMETER_MM
    items: list[tuple[str, np.ndarray]] = [("queen", np.zeros(2))]
    base_angle = math.atan2(*seat_normal(white_breaker_seat)[::-1])
    first_ring_whites = []
    for k in range(6):
        angle = base_angle + k * math.pi / 3.0
        colour = "white" if k % 2 == 0 else "black"
        if colour == "white":
            first_ring_whites.append(angle)
        items.append((colour, d * np.array([math.cos(angle), math.sin(angle)])))
    # Second ring of a hexagonal packing: 6 coins straight out (distance 2d) and 6 between
    # (distance sqrt(3) d). The three straight out behind the first ring's whites form the
    # "Y"; filling the other nine places alternately (black, white, black in each gap) puts
    # white on every straight-out place and black between, 9 of each colour overall.
    for k in range(6):
        angle = base_angle + k * math.pi / 3.0
        items.append(("white", 2 * d * np.array([math.cos(angle), math.sin(angle)])))
        mid = angle + math.pi / 6.0
        items.append(("black", math.sqrt(3) * d * np.array([math.cos(mid), math.sin(mid)])))
    return items
