"""Single pictures with exact truth, for training the detector and testing calibration.

`render_still(seed)` draws a style, a board, a lamp, a camera, a layout of pieces (the
law 41 break arrangement, a game in progress, or a nearly empty board) and a few hands, and
returns the BGR image with its truth: the camera in calibration.camera's schema and every
object's class, position in mm, state and visible fraction. With the `flying` override a
piece may be caught in the air on its way off the board (state `airborne`, drawn above the
frame and smeared along its flight); it is off by default, so stills made before it existed
stay as they were.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration import geometry as g
from samples.physics.params import PhysicsParams
from samples.render.board import render_board
from samples.render.camera import CameraPose, sample_pose
from samples.render.scene import FrameRenderer, PieceDraw, hand_angle_from_seat, sample_scene
from samples.render.styles import ANY_STYLE, resolve_style
from samples.timeline import HandPose, ObjectState

STILL_SCHEMA = "carrom-still-truth/1"
OBJECT_IDS = tuple([f"W{i}" for i in range(1, 10)] + [f"B{i}" for i in range(1, 10)] + ["Q", "S"])
OBJECT_CLASSES = tuple(["white"] * 9 + ["black"] * 9 + ["queen", "striker"])
LAYOUTS = ("break", "play", "sparse")
STATE_NAMES = {s: s.name.lower() for s in ObjectState}
DEFAULT_SIZE = (1280, 720)
TEXTURE_PX_PER_MM = 2.0
# A flying piece (the `flying` override) is drawn from its own stream of the seed, so asking
# for one changes nothing else in the picture.
FLYING_STREAM = 31
# How fast a piece leaves the board (samples.physics: at least jump_min_speed_m_s; a coin
# hit by the hardest break, 6.5 m/s, flies at about 8.7 m/s) and the exposures a lit board
# is filmed with: the smear along its flight is their product, 10 to 87 mm.
FLYING_SPEED_MM_S = (PhysicsParams().jump_min_speed_m_s * 1000.0, 8700.0)
FLYING_EXPOSURE_S = (1.0 / 250.0, 1.0 / 100.0)
FLYING_BLUR_SAMPLES = 9
# Kept this far (beyond touching) from the pieces on the board in plan view, so that the
# parallax of its height never lays it over one of them (their visible fractions count
# only hands).
FLYING_CLEARANCE_MM = 15.0


@dataclass(frozen=True)
class Layout:
    xy_mm: np.ndarray  # (20, 2), NaN where absent
    state: tuple[ObjectState, ...]
    fall: tuple[float, ...]
    hands: tuple[HandPose, ...]
    motion_mm: np.ndarray | None = None  # (20, 2): travel over the exposure (None: all still)

    def positions(self, i: int) -> np.ndarray:
        """Where piece i is drawn over the exposure: (K, 2), K = 1 unless it moves."""
        xy = self.xy_mm[i][None]
        if self.motion_mm is None or not np.any(self.motion_mm[i]):
            return xy
        return xy + np.linspace(-0.5, 0.5, FLYING_BLUR_SAMPLES)[:, None] * self.motion_mm[i][None]


def spot_is_free(
    xy: np.ndarray,
    radius: float,
    placed: list[tuple[np.ndarray, float]],
    pocket_clearance_mm: float | None = None,
    gap_mm: float = 0.2,
) -> bool:
    """Whether a piece of `radius` fits at `xy`: wholly on the surface, its centre at least
    `pocket_clearance_mm` (default: its radius) beyond every pocket's hole, and `gap_mm` clear
    of the pieces `placed` so far."""
    if not bool(g.on_playing_surface(xy, radius)):
        return False
    clearance = radius if pocket_clearance_mm is None else pocket_clearance_mm
    if np.min(np.linalg.norm(g.pocket_centres() - xy, axis=1)) < g.POCKET_RADIUS_MM + clearance:
        return False
    return all(np.linalg.norm(xy - p) >= radius + r + gap_mm for p, r in placed)


def _random_spot(
    rng: np.random.Generator, radius: float, placed: list[tuple[np.ndarray, float]]
) -> np.ndarray | None:
    for _ in range(200):
        xy = rng.uniform(-g.HALF_SURFACE_MM + radius, g.HALF_SURFACE_MM - radius, 2)
        if spot_is_free(xy, radius, placed):
            return xy
    return None


def _striker_spot(rng: np.random.Generator, seat: g.Seat) -> np.ndarray:
    inward_min, inward_max, along_max = g.striker_legal_range(seat)
    along = float(rng.uniform(-along_max, along_max))
    inward = float(rng.uniform(inward_min, inward_max))
    return g.seat_to_board(seat, along, inward)


def random_layout(rng: np.random.Generator, kind: str | None = None, max_hands: int = 2) -> Layout:
    kind = kind or LAYOUTS[int(rng.integers(len(LAYOUTS)))]
    n = len(OBJECT_IDS)
    xy = np.full((n, 2), np.nan)
    state = [ObjectState.IN_POCKET] * n
    fall = [0.0] * n
    seat: g.Seat = g.SEATS[int(rng.integers(4))]
    striker = _striker_spot(rng, seat)
    xy[n - 1] = striker
    state[n - 1] = ObjectState.ON_BOARD
    placed: list[tuple[np.ndarray, float]] = [(striker, g.STRIKER_RADIUS_MM)]
    if kind == "break":
        whites = iter(range(9))
        blacks = iter(range(9, 18))
        for item, pos in g.break_arrangement(seat):
            i = 18 if item == "queen" else next(whites) if item == "white" else next(blacks)
            xy[i] = pos
            state[i] = ObjectState.ON_BOARD
    else:
        keep = rng.random(19) < (0.7 if kind == "play" else 0.2)
        keep[18] |= kind == "play" and rng.random() < 0.5
        for i in np.flatnonzero(keep):
            spot = _random_spot(rng, g.COIN_RADIUS_MM, placed)
            if spot is None:
                continue
            xy[i] = spot
            state[i] = ObjectState.ON_BOARD
            placed.append((spot, g.COIN_RADIUS_MM))
        gone = [i for i in range(19) if state[i] == ObjectState.IN_POCKET]
        if gone and rng.random() < 0.3:  # one caught dropping into a pocket
            i = int(rng.choice(gone))
            pocket = g.pocket_centres()[int(rng.integers(4))]
            xy[i] = pocket * (1 - rng.uniform(0.0, 0.04))
            state[i] = ObjectState.FALLING
            fall[i] = float(rng.uniform(0.1, 0.9))
    hands: list[HandPose] = []
    skin = int(rng.integers(4))
    if rng.random() < 0.6 and len(hands) < max_hands:
        hands.append(_hand("strike", seat, striker - g.seat_normal(seat) * g.STRIKER_RADIUS_MM, rng, skin))
    if rng.random() < 0.35 and len(hands) < max_hands:
        held = [i for i in range(19) if state[i] == ObjectState.IN_POCKET]
        spot = _random_spot(rng, g.COIN_RADIUS_MM, placed) if held else None
        if spot is not None:
            i = int(rng.choice(held))
            xy[i] = spot
            state[i] = ObjectState.HELD
            other: g.Seat = g.SEATS[int(rng.integers(4))]
            hands.append(_hand("place", other, spot, rng, (skin + 1) % 4))
    if rng.random() < 0.2 and len(hands) < max_hands:
        other = g.SEATS[int(rng.integers(4))]
        tip = rng.uniform(-250, 250, 2)
        hands.append(_hand("reach", other, tip, rng, (skin + 2) % 4))
    xy[[s != ObjectState.ON_BOARD and s != ObjectState.HELD and s != ObjectState.FALLING for s in state]] = (
        np.nan
    )
    return Layout(xy, tuple(state), tuple(fall), tuple(hands))


def add_flying(layout: Layout, rng: np.random.Generator, frame_breadth_mm: float) -> Layout:
    """One piece off the board (pocketed, or not yet placed) caught in the air on its way
    off: over the surface or the frame, clear of the pieces on the board, smeared along a
    random direction. The layout as it was when no such piece is free or no spot is found."""
    free = [i for i, st in enumerate(layout.state) if st == ObjectState.IN_POCKET]
    if not free:
        return layout
    i = int(rng.choice(free))
    radius = g.STRIKER_RADIUS_MM if OBJECT_CLASSES[i] == "striker" else g.COIN_RADIUS_MM
    reach = g.HALF_SURFACE_MM + frame_breadth_mm
    shown = [
        (layout.xy_mm[k], g.STRIKER_RADIUS_MM if OBJECT_CLASSES[k] == "striker" else g.COIN_RADIUS_MM)
        for k in range(len(OBJECT_IDS))
        if np.isfinite(layout.xy_mm[k]).all()
    ]
    angle = float(rng.uniform(0.0, 2 * math.pi))
    travel = float(rng.uniform(*FLYING_SPEED_MM_S)) * float(rng.uniform(*FLYING_EXPOSURE_S))
    motion = travel * np.array([math.cos(angle), math.sin(angle)])
    for _ in range(200):
        xy = rng.uniform(-reach, reach, 2)
        ends = xy[None] + np.array([[-0.5], [0.5]]) * motion[None]
        clear = all(
            np.min(np.linalg.norm(ends - p, axis=1)) >= radius + r + FLYING_CLEARANCE_MM
            and np.linalg.norm(xy - p) >= radius + r + FLYING_CLEARANCE_MM
            for p, r in shown
        )
        if clear:
            break
    else:
        return layout
    xy_all = layout.xy_mm.copy()
    xy_all[i] = xy
    state = list(layout.state)
    state[i] = ObjectState.AIRBORNE
    moves = np.zeros_like(layout.xy_mm) if layout.motion_mm is None else layout.motion_mm.copy()
    moves[i] = motion
    return Layout(xy_all, tuple(state), layout.fall, layout.hands, moves)


def _hand(kind: str, seat: g.Seat, tip: np.ndarray, rng: np.random.Generator, skin: int) -> HandPose:
    angle = hand_angle_from_seat(seat, tip) + float(rng.normal(0.0, 0.15))
    return HandPose(seat, (float(tip[0]), float(tip[1])), angle, kind, float(rng.uniform(0, 1)), skin)


def render_still(seed: int, **overrides: Any) -> tuple[np.ndarray, dict[str, Any]]:
    """One picture and its truth.

    Overrides: style (a preset name or "any"), size ((width, height)), layout ("break",
    "play", "sparse"), hands (max number, 0 for none), fill, tilt_deg, roll_deg, k1, k2,
    noise_sigma, jpeg (False: no compression round trip), flying (the chance, 0 to 1, that
    a piece is caught in the air going overboard; default 0).
    """
    rng = np.random.default_rng(seed)
    style_name = overrides.get("style", ANY_STYLE)
    style = resolve_style(style_name, rng)
    size = tuple(overrides.get("size", DEFAULT_SIZE))
    look = sample_scene(style, rng)
    if "noise_sigma" in overrides:
        from dataclasses import replace

        look = replace(look, sensor=replace(look.sensor, noise_sigma=float(overrides["noise_sigma"])))
    pose = sample_pose(
        style,
        rng,
        (int(size[0]), int(size[1])),
        fill=overrides.get("fill"),
        tilt_deg=overrides.get("tilt_deg"),
        roll_deg=overrides.get("roll_deg"),
        k1=overrides.get("k1"),
        k2=overrides.get("k2"),
    )
    layout = random_layout(rng, overrides.get("layout"), int(overrides.get("hands", 2)))
    flying = float(overrides.get("flying", 0.0))
    if flying > 0.0:
        flight_rng = np.random.default_rng([seed, FLYING_STREAM])
        if flight_rng.random() < flying:
            layout = add_flying(layout, flight_rng, look.board.frame_breadth_mm)
    # Texture detail to match the picture: 1.5 texels per pixel where the board is nearest.
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * g.HALF_SURFACE_MM
    _, jac = pose.jacobians(corners)
    nearest = float(np.sqrt(np.abs(np.linalg.det(jac))).max())
    texture = render_board(look.board, float(np.clip(1.5 * nearest, 1.0, TEXTURE_PX_PER_MM)))
    seats = tuple(dict.fromkeys(h.seat for h in layout.hands)) or None
    if seats is not None and len(seats) == 1:  # the opponent sits opposite
        seats = (*seats, {"S": "N", "N": "S", "E": "W", "W": "E"}[seats[0]])
    renderer = FrameRenderer(look, texture, pose, seats=seats)
    pieces = [
        PieceDraw(i, OBJECT_CLASSES[i], layout.positions(i), layout.state[i], layout.fall[i])
        for i in range(len(OBJECT_IDS))
    ]
    image, visible = renderer.render(pieces, layout.hands, frame_index=int(rng.integers(100)))
    if overrides.get("jpeg", True):
        _ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, look.sensor.jpeg_quality])
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = {
        "schema": STILL_SCHEMA,
        "seed": int(seed),
        "style": look.style,
        "image_size": [int(size[0]), int(size[1])],
        "camera": pose.to_dict(),
        "board": board_truth(look.board),
        "sensor": {
            "noise_sigma": round(look.sensor.noise_sigma, 3),
            "defocus_sigma": round(look.sensor.defocus_sigma, 3),
            "jpeg_quality": look.sensor.jpeg_quality,
        },
        "objects": objects_truth(layout, visible, pose),
        "hands": [hand_truth(h) for h in layout.hands],
    }
    return image, truth


def board_truth(board: Any) -> dict[str, Any]:
    return {
        "frame_breadth_mm": round(float(board.frame_breadth_mm), 3),
        "red_fill": bool(board.red_fill),
        "arrows": board.arrows,
        "centre_design": bool(board.centre_design),
    }


def objects_truth(
    layout: Layout, visible: dict[int, float], pose: CameraPose | None = None
) -> list[dict[str, Any]]:
    """Per object: board mm and, given the camera, where its centre is in the picture."""
    out = []
    shown = np.where(np.isfinite(layout.xy_mm), layout.xy_mm, 0.0)
    pixels = pose.project(shown) if pose is not None else np.full_like(shown, np.nan)
    for i, (oid, cls) in enumerate(zip(OBJECT_IDS, OBJECT_CLASSES, strict=True)):
        xy = layout.xy_mm[i]
        px = None if np.isnan(xy).any() or pose is None else [round(float(v), 2) for v in pixels[i]]
        out.append(
            {
                "id": oid,
                "class": cls,
                "xy_mm": None if np.isnan(xy).any() else [round(float(xy[0]), 3), round(float(xy[1]), 3)],
                "xy_px": px,
                "radius_mm": g.STRIKER_RADIUS_MM if cls == "striker" else g.COIN_RADIUS_MM,
                "state": STATE_NAMES[layout.state[i]],
                "visible": round(float(visible.get(i, 0.0)), 3),
            }
        )
    return out


def hand_truth(hand: HandPose) -> dict[str, Any]:
    return {
        "seat": hand.seat,
        "kind": hand.kind,
        "tip_mm": [round(hand.tip_mm[0], 2), round(hand.tip_mm[1], 2)],
        "angle": round(math.degrees(hand.angle), 2),
    }
