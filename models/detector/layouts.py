"""Training layouts the stills rarely draw: touching clusters, pocket mouths, hands over pieces.

`samples.render.stills.random_layout` draws the break, a game in progress and a sparse board;
pieces there never touch (except in the break), never sit at a pocket's mouth and are rarely
under a hand, yet those are the places a recorder must not miss a piece. `crowded_layout`
draws them on purpose: clusters of touching coins, pieces hanging over a pocket's mouth or
pressed against the cushion, coins on the printed base circles and the centre circle (which
look like coins and like the queen), and hands reaching over pieces.

`with_motion` turns a layout into one exposure with some pieces moving: their positions over
the exposure, sampled either finely (a smooth smear) or as the video renderer does it (four
sub-frames over a 1/30 s frame, so a fast piece shows as four faint copies).
"""

from __future__ import annotations

import numpy as np

from calibration import geometry as g
from samples.render.stills import OBJECT_CLASSES, Layout, _hand, spot_is_free
from samples.timeline import HandPose, ObjectState

N_OBJECTS = len(OBJECT_CLASSES)
STRIKER = N_OBJECTS - 1
QUEEN = N_OBJECTS - 2
# Exposures as (samples, seconds between the first and last sample): a still camera's
# 1/60 s smear, and the video renderer's four sub-frames of a 1/30 s frame.
SMEAR = (9, 1.0 / 60.0)
VIDEO_SUBFRAMES = (4, 1.0 / 40.0)
COIN_TOP_SPEED_MM_S = 4000.0
STRIKER_TOP_SPEED_MM_S = 8000.0
SLOWEST_MM_S = 150.0


def _radius(index: int) -> float:
    return g.STRIKER_RADIUS_MM if index == STRIKER else g.COIN_RADIUS_MM


def _fits(xy: np.ndarray, radius: float, placed: list[tuple[np.ndarray, float]]) -> bool:
    # A piece may hang over a pocket's mouth but its centre stays off the hole; touching
    # pieces are drawn a tenth of a millimetre apart.
    return spot_is_free(xy, radius, placed, pocket_clearance_mm=1.0, gap_mm=0.1)


def _touching(
    rng: np.random.Generator, radius: float, placed: list[tuple[np.ndarray, float]]
) -> np.ndarray | None:
    """A spot touching an already placed piece (a gap of at most half a millimetre)."""
    for _ in range(60):
        anchor, r = placed[int(rng.integers(len(placed)))]
        angle = rng.uniform(0, 2 * np.pi)
        xy = anchor + (radius + r + rng.uniform(0.1, 0.6)) * np.array([np.cos(angle), np.sin(angle)])
        if _fits(xy, radius, placed):
            return xy
    return None


def _at_mouth(rng: np.random.Generator, radius: float) -> np.ndarray:
    pocket = g.pocket_centres()[int(rng.integers(4))]
    inward = -pocket / np.linalg.norm(pocket)
    angle = rng.uniform(-0.7, 0.7)
    c, s = np.cos(angle), np.sin(angle)
    direction = np.array([c * inward[0] - s * inward[1], s * inward[0] + c * inward[1]])
    return pocket + direction * (g.POCKET_RADIUS_MM + rng.uniform(1.5, radius + 30.0))


def _at_cushion(rng: np.random.Generator, radius: float) -> np.ndarray:
    along = rng.uniform(-g.HALF_SURFACE_MM + 80.0, g.HALF_SURFACE_MM - 80.0)
    edge = g.HALF_SURFACE_MM - radius - rng.uniform(0.0, 3.0)
    side = int(rng.integers(4))
    return np.array([[along, edge], [along, -edge], [edge, along], [-edge, along]][side])


def _printed_spot(rng: np.random.Generator) -> np.ndarray:
    spots = np.vstack([g.all_base_circle_centres(), np.zeros((1, 2))])
    return spots[int(rng.integers(len(spots)))] + rng.normal(0.0, 1.0, 2)


def crowded_layout(rng: np.random.Generator, max_hands: int = 3) -> Layout:
    xy = np.full((N_OBJECTS, 2), np.nan)
    state = [ObjectState.IN_POCKET] * N_OBJECTS
    placed: list[tuple[np.ndarray, float]] = []
    order = list(rng.permutation(N_OBJECTS))
    count = int(rng.integers(6, N_OBJECTS + 1))
    for index in order[:count]:
        radius = _radius(index)
        way = rng.choice(["cluster", "mouth", "cushion", "printed", "free"], p=[0.45, 0.15, 0.1, 0.1, 0.2])
        spot = None
        if way == "cluster" and placed:
            spot = _touching(rng, radius, placed)
        elif way == "mouth":
            spot = _at_mouth(rng, radius)
        elif way == "cushion":
            spot = _at_cushion(rng, radius)
        elif way == "printed":
            spot = _printed_spot(rng)
        for _ in range(100):
            if spot is not None and _fits(spot, radius, placed):
                break
            spot = rng.uniform(-g.HALF_SURFACE_MM + radius, g.HALF_SURFACE_MM - radius, 2)
        else:
            continue
        xy[index] = spot
        state[index] = ObjectState.ON_BOARD
        placed.append((spot, radius))
    on_board = [i for i in range(N_OBJECTS) if state[i] == ObjectState.ON_BOARD]
    hands: list[HandPose] = []
    skin = int(rng.integers(4))
    for k in range(int(rng.integers(0, max_hands + 1))):
        seat = g.SEATS[int(rng.integers(4))]
        # Over a piece, often: what the recorder sees while a player lines up or reaches.
        if on_board:
            tip = xy[int(rng.choice(on_board))] + rng.normal(0.0, 25.0, 2)
        else:
            tip = rng.uniform(-300, 300, 2)
        kind = str(rng.choice(["reach", "strike", "place"]))
        hands.append(_hand(kind, seat, tip, rng, (skin + k) % 4))
    return Layout(xy, tuple(state), tuple([0.0] * N_OBJECTS), tuple(hands))


def with_motion(
    rng: np.random.Generator, layout: Layout, fraction: float, exposure: tuple[int, float]
) -> tuple[list[np.ndarray], set[int]]:
    """Per object, its positions over the exposure (centred on its layout position, so the
    layout position is the smear's centre), and which objects move."""
    samples, seconds = exposure
    positions: list[np.ndarray] = []
    moving: set[int] = set()
    for i in range(N_OBJECTS):
        xy = layout.xy_mm[i]
        if layout.state[i] != ObjectState.ON_BOARD or rng.random() >= fraction:
            positions.append(xy[None])
            continue
        top = STRIKER_TOP_SPEED_MM_S if i == STRIKER else COIN_TOP_SPEED_MM_S
        speed = float(np.exp(rng.uniform(np.log(SLOWEST_MM_S), np.log(top))))
        angle = rng.uniform(0, 2 * np.pi)
        travel = speed * seconds * np.array([np.cos(angle), np.sin(angle)])
        positions.append(xy[None] + np.linspace(-0.5, 0.5, samples)[:, None] * travel[None])
        moving.add(i)
    return positions, moving
