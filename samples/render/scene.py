"""One frame of the scene: the warped board, the pieces, the hands, the lamp and the sensor.

`FrameRenderer` keeps everything that only changes with the camera (the warped and lit
board, the lamp's gain per pixel, sprites at the right scale) and composites the moving
things on a copy for every frame, in small regions of interest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration import geometry as g
from samples.render import hands as hand_art
from samples.render.backdrop import lamp_gain, table_around_board
from samples.render.board import BoardTexture
from samples.render.camera import CameraPose
from samples.render.pieces import (
    FLIGHT_HEIGHT_MM,
    HELD_HEIGHT_MM,
    LIGHT_DIRECTIONS,
    PIECE_THICKNESS_MM,
    SHADOW_STRENGTH,
    PieceLook,
    make_shadow,
    make_sprite,
    piece_radius,
    sprite_affine,
)
from samples.render.styles import (
    BoardLook,
    LampLook,
    SensorLook,
    Style,
    sample_board,
    sample_lamp,
    sample_sensor,
)
from samples.timeline import HandPose, ObjectState

CLASSES = ("white", "black", "queen", "striker")
DRAWN_STATES = (ObjectState.ON_BOARD, ObjectState.FALLING, ObjectState.HELD, ObjectState.AIRBORNE)
# Above the frame's top: the frame hides none of these (only hands do).
RAISED_STATES = (ObjectState.HELD, ObjectState.AIRBORNE)
# Drawing order: what sinks into a pocket first, what lies on the surface, then raised things.
DRAW_ORDER = {ObjectState.FALLING: 0, ObjectState.ON_BOARD: 1, ObjectState.HELD: 2, ObjectState.AIRBORNE: 3}
FLOORS: tuple[tuple[int, int, int], ...] = (
    (60, 70, 85),
    (40, 45, 50),
    (90, 110, 130),
    (70, 60, 60),
    (30, 50, 80),
)
NOISE_POOL = 6
BLUR_MIN_PX = 0.75  # below this much travel in a frame a piece is drawn once, sharp
HAND_SHADOW_STRENGTH = 0.45
SIDE_SHADE = 0.6  # a piece's edge is lit from above at a grazing angle: darker than its face
WALL_SHADE = 0.55  # the frame's inner wall, facing sideways, against the frame's lit top
GLARE_MM = 80.0  # size of the lamp's reflection in a varnished surface
FINGER_CREASE = 0.35
TORSO_HALF_WIDTH_MM = 230.0  # a seated player seen from above: half the shoulders' width
TORSO_DEPTH_MM = 140.0
HEAD_RADIUS_MM = 95.0  # how much darker the lines between fingers are
SPRITE_OVERSIZE = 1.25  # sprites a little finer than the picture, so warping them stays sharp
# A grid of points over the unit disc: a piece's visible fraction is the share of them seen.
_STEP = 1.0 / 6.0
_g = np.arange(-1.0, 1.0 + 1e-9, _STEP)
_xx, _yy = np.meshgrid(_g, _g)
DISC_POINTS = np.stack([_xx.ravel(), _yy.ravel()], 1)[(_xx.ravel() ** 2 + _yy.ravel() ** 2) <= 1.0]


@dataclass(frozen=True)
class SceneLook:
    style: str
    board: BoardLook
    lamp: LampLook
    sensor: SensorLook
    pieces: PieceLook
    floor_bgr: tuple[int, int, int]
    skin_offset: int
    sleeve_from: tuple[float, ...]  # per player skin index: where the sleeve starts
    sleeve_bgr: tuple[tuple[int, int, int], ...]
    seed: int


def sample_scene(style: Style, rng: np.random.Generator) -> SceneLook:
    return SceneLook(
        style=style.name,
        board=sample_board(style, rng),
        lamp=sample_lamp(style, rng),
        sensor=sample_sensor(style, rng),
        pieces=PieceLook.sample(rng),
        floor_bgr=FLOORS[int(rng.integers(len(FLOORS)))],
        skin_offset=int(rng.integers(len(hand_art.SKIN_TONES))),
        sleeve_from=tuple(float(v) for v in rng.choice([0.15, 0.4, 0.7, 1.0], len(hand_art.SKIN_TONES))),
        sleeve_bgr=tuple(
            hand_art.SLEEVES[int(i)]
            for i in rng.integers(len(hand_art.SLEEVES), size=len(hand_art.SKIN_TONES))
        ),
        seed=int(rng.integers(2**31)),
    )


@dataclass(frozen=True)
class PieceDraw:
    """One object to draw in a frame."""

    index: int  # position in the caller's object list (for the visible fractions)
    cls: str
    positions_mm: np.ndarray  # (K, 2) over the frame's exposure (K = 1: no blur)
    state: ObjectState
    fall: float = 0.0  # 0..1: how far into the pocket a falling piece has gone


class FrameRenderer:
    def __init__(
        self, look: SceneLook, texture: BoardTexture, pose: CameraPose, seats: tuple[str, ...] | None = None
    ) -> None:
        """`seats`: where players sit (drawn beyond the frame); None: two opposite sides."""
        self.look = look
        self.texture = texture
        self.seats = seats
        self.lamp_xy = np.array(look.lamp.hotspot_xy) * g.HALF_SURFACE_MM
        self.glare_xy = self.lamp_xy * 0.6
        self.set_pose(pose)
        self._noise: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        levels = np.arange(256, dtype=np.float64) / 255.0
        self._tone = np.clip(255.0 * levels ** (1.0 / look.sensor.gamma), 0, 255).astype(np.uint8)

    def _sensor_noise(self, frame_index: int) -> tuple[np.ndarray, np.ndarray]:
        """(positive, negative) parts of one noise field; a pool of them is cycled through,
        each made from its own seed when first needed (a still needs only one)."""
        key = frame_index % NOISE_POOL
        if key not in self._noise:
            rng = np.random.default_rng([self.look.seed, key])
            sigma = self.look.sensor.noise_sigma
            width, height = self.pose.image_size
            # Mostly luminance noise, some per channel (as a Bayer sensor after demosaicing).
            n = rng.normal(0.0, sigma * 0.6, (height, width, 1)).astype(np.float32)
            n = n + rng.normal(0.0, sigma * 0.4, (height, width, 3)).astype(np.float32)
            self._noise[key] = (np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8))
        return self._noise[key]

    # ---- once per camera pose -------------------------------------------------------------
    def set_pose(self, pose: CameraPose) -> None:
        """Warp and light the board for this camera; make the sprites at its scale."""
        self.pose = pose
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1], [0, 0]], float) * g.HALF_SURFACE_MM
        _, jac = pose.jacobians(corners)
        scales = np.sqrt(np.abs(np.linalg.det(jac)))
        self.px_per_mm = float(scales[-1])
        grid = pose.board_grid()
        view, on_surface = self._board_view(grid, texels_per_mm=1.5 * float(scales.max()))
        self.gain = lamp_gain(self.look.lamp, self.lamp_xy, grid, pose.image_size)
        lit = view * self.gain
        glare = self.look.lamp.glare
        if glare > 0:
            # The lamp's reflection in a varnished surface: washed-out, on the surface only.
            d2 = (
                (grid[..., 0] - self.glare_xy[0]) ** 2 + (grid[..., 1] - self.glare_xy[1]) ** 2
            ) / GLARE_MM**2
            lit += (255.0 * glare * np.exp(-d2) * on_surface)[..., None]
        self.background = np.clip(lit, 0, 255).astype(np.uint8)
        sp = self.px_per_mm * SPRITE_OVERSIZE
        self.sprite_scale = sp
        angles = np.arange(LIGHT_DIRECTIONS) * (2 * math.pi / LIGHT_DIRECTIONS)
        self.sprites = {
            c: [self._premultiplied(make_sprite(c, self.look.pieces, sp, float(a))) for a in angles]
            for c in CLASSES
        }
        self.sides = {c: self._side(self.sprites[c][0]) for c in CLASSES}
        self.shadows = {c: make_shadow(c, sp) for c in CLASSES}

    def _board_view(self, grid: np.ndarray, texels_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """(float BGR picture of the board and the table, unlit; mask of the visible surface).

        The frame stands FRAME_HEIGHT_MM above the surface: where a pixel's ray meets the
        frame's top first, it shows the frame (and hides the surface behind it, recorded in
        `frame_cover`); where it passes the top inside the surface's edge but lands beyond it,
        it shows the frame's inner wall. Elsewhere it shows the surface or the table.
        """
        tex = self.texture
        image, s = tex.image, tex.px_per_mm
        if texels_per_mm < s:  # shrink first: remap does not average
            side = int(round(image.shape[0] * texels_per_mm / s))
            image = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
            s = side / (2 * tex.half_extent_mm)
        e = tex.half_extent_mm
        top = self.pose.board_grid(g.FRAME_HEIGHT_MM)
        reach_top = np.maximum(np.abs(top[..., 0]), np.abs(top[..., 1]))
        reach_surface = np.maximum(np.abs(grid[..., 0]), np.abs(grid[..., 1]))
        on_frame_top = (reach_top > g.HALF_SURFACE_MM) & (reach_top <= e)
        wall = ~on_frame_top & (reach_top <= g.HALF_SURFACE_MM) & (reach_surface > g.HALF_SURFACE_MM)
        source = np.where(on_frame_top[..., None], top, grid)
        map_x = (source[..., 0] + e) * s - 0.5
        map_y = (e - source[..., 1]) * s - 0.5
        warped = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        warped = warped.astype(np.float32)
        warped[wall] = np.array(self.look.board.frame_bgr, np.float32) * WALL_SHADE
        outside = np.where(on_frame_top | wall, -1.0, reach_surface - e)
        view = np.where(
            (outside <= 0)[..., None], warped, table_around_board(self.look, grid, outside, self.seats)
        )
        self.frame_cover = on_frame_top & (reach_surface <= g.HALF_SURFACE_MM)
        on_surface = ~on_frame_top & ~wall & (reach_surface <= g.HALF_SURFACE_MM)
        return view, on_surface

    @staticmethod
    def _side(sprite: np.ndarray) -> np.ndarray:
        """The piece's edge: its silhouette in a darker shade of its mean colour."""
        alpha = sprite[..., 3:4]
        mean = sprite[..., :3].reshape(-1, 3).sum(0) / max(float(alpha.sum()), 1e-6)
        side = np.empty_like(sprite)
        side[..., :3] = mean * SIDE_SHADE * alpha
        side[..., 3:4] = alpha
        return side

    @staticmethod
    def _premultiplied(sprite: np.ndarray) -> np.ndarray:
        out = sprite.copy()
        out[..., :3] *= sprite[..., 3:4] / 255.0
        out[..., 3] /= 255.0
        return out

    # ---- per frame ---------------------------------------------------------------------------
    def render(
        self, pieces: list[PieceDraw], hands: tuple[HandPose, ...], frame_index: int = 0
    ) -> tuple[np.ndarray, dict[int, float]]:
        frame = self.background.copy()
        order = sorted(pieces, key=lambda p: DRAW_ORDER.get(p.state, len(DRAW_ORDER)))
        for piece in order:
            if piece.state in DRAWN_STATES:
                self._draw_piece(frame, piece)
        occlusion = None
        if hands:
            occlusion = np.zeros(frame.shape[:2], np.uint8)
            for hand in hands:
                self._draw_hand(frame, hand, occlusion)
        out = frame
        if self.look.sensor.defocus_sigma > 0.3:
            out = cv2.GaussianBlur(out, (0, 0), self.look.sensor.defocus_sigma)
        if self.look.sensor.gamma != 1.0:
            out = cv2.LUT(out, self._tone)
        pos, neg = self._sensor_noise(frame_index)
        out = cv2.subtract(cv2.add(out, pos), neg)
        return out, self.visible_fractions(pieces, occlusion)

    def visible_fractions(self, pieces: list[PieceDraw], occlusion: np.ndarray | None) -> dict[int, float]:
        shown = [p for p in pieces if p.state in DRAWN_STATES]
        result = {p.index: 0.0 for p in pieces}
        if not shown:
            return result
        width, height = self.pose.image_size
        centres = np.stack([p.positions_mm.mean(0) for p in shown])
        scales = np.array([self._scale(p) * piece_radius(p.cls) for p in shown])
        pts = centres[:, None, :] + scales[:, None, None] * DISC_POINTS[None]
        faces = np.array([self._face_height(p) for p in shown])
        px = np.zeros_like(pts)
        for face in np.unique(faces):
            px[faces == face] = self.pose.project(pts[faces == face].reshape(-1, 2), face).reshape(
                -1, len(DISC_POINTS), 2
            )
        px = px.reshape(-1, 2)
        seen = (px[:, 0] >= 0) & (px[:, 0] <= width - 1) & (px[:, 1] >= 0) & (px[:, 1] <= height - 1)
        cols = np.clip(np.round(px[:, 0]).astype(int), 0, width - 1)
        rows = np.clip(np.round(px[:, 1]).astype(int), 0, height - 1)
        raised = np.repeat([p.state in RAISED_STATES for p in shown], len(DISC_POINTS))
        seen &= raised | ~self.frame_cover[rows, cols]  # held or flying pieces are above the frame
        if occlusion is not None:
            seen &= occlusion[rows, cols] < 128
        frac = seen.reshape(len(shown), -1).mean(1)
        for p, f in zip(shown, frac, strict=True):
            area = self._scale(p) ** 2 if p.state == ObjectState.FALLING else 1.0
            result[p.index] = float(f * area)
        return result

    @staticmethod
    def _face_height(piece: PieceDraw) -> float:
        """Height of the face the camera sees: a coin's top (it is 7 mm thick), a piece in the
        fingers, a piece flying off the board, or a sinking piece (drawn at the surface)."""
        if piece.state == ObjectState.HELD:
            return HELD_HEIGHT_MM
        if piece.state == ObjectState.AIRBORNE:
            return FLIGHT_HEIGHT_MM
        if piece.state == ObjectState.FALLING:
            return 0.0
        return PIECE_THICKNESS_MM

    @staticmethod
    def _scale(piece: PieceDraw) -> float:
        if piece.state == ObjectState.FALLING:
            return 1.0 - 0.45 * piece.fall
        if piece.state == ObjectState.HELD:
            return 1.06
        return 1.0

    def _accumulate(
        self, src: np.ndarray, affines: list[np.ndarray]
    ) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
        h, w = src.shape[:2]
        corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], float)
        pts = np.concatenate([corners @ a.T for a in affines])
        width, height = self.pose.image_size
        x0, y0 = np.floor(pts.min(0)).astype(int) - 1
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        if x1 <= x0 or y1 <= y0:
            return None
        total = None
        for a in affines:
            shifted = a.copy()
            shifted[:, 2] -= (x0, y0)
            patch = cv2.warpAffine(
                src,
                shifted,
                (int(x1 - x0), int(y1 - y0)),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=0,
            )
            total = patch if total is None else total + patch
        return total / len(affines), (int(x0), int(y0), int(x1), int(y1))

    def _draw_piece(self, frame: np.ndarray, piece: PieceDraw) -> None:
        positions = np.asarray(piece.positions_mm, float).reshape(-1, 2)
        face = self._face_height(piece)
        px, jac = self.pose.jacobians(positions, height_mm=face)
        if len(positions) > 1 and float(np.linalg.norm(px.max(0) - px.min(0))) < BLUR_MIN_PX:
            positions = positions.mean(0, keepdims=True)
            px, jac = self.pose.jacobians(positions, height_mm=face)
        scale = self._scale(piece)
        sp = self.sprite_scale
        raised = piece.state in RAISED_STATES
        if piece.state != ObjectState.FALLING:
            # The shadow falls away from the lamp, the further the higher the piece's top.
            away = positions - self.lamp_xy
            offset = away * face / (self.look.lamp.height_mm - face)
            spx, sjac = self.pose.jacobians(positions + offset)
            shadow = self.shadows[piece.cls]
            affines = [
                sprite_affine(sjac[k], spx[k], shadow.shape[0], sp, scale) for k in range(len(positions))
            ]
            got = self._accumulate(shadow, affines)
            if got is not None:
                alpha, (x0, y0, x1, y1) = got
                alpha = alpha * ~self.frame_cover[y0:y1, x0:x1]
                shaded = frame[y0:y1, x0:x1] * (1.0 - SHADOW_STRENGTH * alpha)[..., None]
                frame[y0:y1, x0:x1] = shaded.astype(np.uint8)
        if piece.state != ObjectState.FALLING:
            # The piece's edge: its base disc, darker, under the top face. Together they draw
            # the short cylinder a tilted camera sees.
            bpx, bjac = self.pose.jacobians(positions, height_mm=face - PIECE_THICKNESS_MM)
            side = self.sides[piece.cls]
            affines = [
                sprite_affine(bjac[k], bpx[k], side.shape[0], sp, scale) for k in range(len(positions))
            ]
            self._composite(frame, side, affines, 1.0, not raised)
        towards_lamp = self.lamp_xy - positions.mean(0)
        turn = math.atan2(towards_lamp[1], towards_lamp[0]) % (2 * math.pi)
        sprite = self.sprites[piece.cls][
            int(round(turn / (2 * math.pi) * LIGHT_DIRECTIONS)) % LIGHT_DIRECTIONS
        ]
        affines = [sprite_affine(jac[k], px[k], sprite.shape[0], sp, scale) for k in range(len(positions))]
        darken = 1.0 - 0.75 * piece.fall if piece.state == ObjectState.FALLING else 1.0
        self._composite(frame, sprite, affines, darken, not raised)

    def _composite(
        self, frame: np.ndarray, sprite: np.ndarray, affines: list[np.ndarray], darken: float, framed: bool
    ) -> None:
        """Alpha-composite a premultiplied sprite (averaged over `affines`: motion blur), lit
        by the lamp; `framed`: the raised frame hides it where it covers the surface."""
        got = self._accumulate(sprite, affines)
        if got is None:
            return
        patch, (x0, y0, x1, y1) = got
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        alpha = patch[..., 3:4]
        if framed:
            visible = ~self.frame_cover[y0:y1, x0:x1, None]
            alpha = alpha * visible
            patch = patch * visible
        roi = roi * (1.0 - alpha) + patch[..., :3] * darken * self.gain[y0:y1, x0:x1]
        frame[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)

    def _draw_hand(self, frame: np.ndarray, hand: HandPose, occlusion: np.ndarray) -> None:
        look = self.look
        player = hand.skin % len(look.sleeve_from)
        shape = hand_art.hand_shape(hand, look.sleeve_from[player])
        skin_px = [self.pose.project(p, hand_art.HAND_DRAW_HEIGHT_MM) for p in shape.skin]
        sleeve_px = [self.pose.project(p, hand_art.HAND_DRAW_HEIGHT_MM) for p in shape.sleeve]
        every = np.concatenate(skin_px + sleeve_px)
        width, height = self.pose.image_size
        centre = hand_art.centroid(hand)
        away = centre - self.lamp_xy
        reach = hand_art.HAND_HEIGHT_MM / (look.lamp.height_mm - hand_art.HAND_HEIGHT_MM)
        offset_mm = away * reach + away / max(float(np.linalg.norm(away)), 1.0) * 12.0
        _c_px, jac = self.pose.jacobians(centre[None])
        shift = jac[0] @ offset_mm
        blur = max(2.0, 10.0 * self.px_per_mm)
        pad = int(np.ceil(np.abs(shift).max() + 3 * blur)) + 2
        x0 = max(int(np.floor(every[:, 0].min())) - pad, 0)
        y0 = max(int(np.floor(every[:, 1].min())) - pad, 0)
        x1 = min(int(np.ceil(every[:, 0].max())) + pad, width)
        y1 = min(int(np.ceil(every[:, 1].max())) + pad, height)
        if x1 <= x0 or y1 <= y0:
            return
        roi_box = (x0, y0, x1, y1)
        skin = hand_art.rasterise(skin_px, roi_box)
        sleeve = hand_art.rasterise(sleeve_px, roi_box) if sleeve_px else np.zeros_like(skin)
        whole = np.maximum(skin, sleeve)
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        # Shadow: the silhouette shifted away from the lamp and blurred (at quarter size: cheap).
        small = (
            cv2.resize(whole, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
        )
        m = np.float32([[1, 0, shift[0] / 4], [0, 1, shift[1] / 4]])
        small = cv2.warpAffine(small, m, (small.shape[1], small.shape[0]))
        small = cv2.GaussianBlur(small, (0, 0), blur / 4)
        shadow = cv2.resize(small, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
        roi *= (1.0 - HAND_SHADOW_STRENGTH * shadow)[..., None]
        # Rounded look: darker towards the silhouette's edges.
        dist = cv2.distanceTransform((whole > 127).astype(np.uint8), cv2.DIST_L2, 3)
        rounding = 0.68 + 0.32 * np.clip(dist / max(1.0, 18.0 * self.px_per_mm), 0, 1)
        tone = np.array(
            hand_art.SKIN_TONES[(hand.skin + look.skin_offset) % len(hand_art.SKIN_TONES)], np.float32
        )
        cloth = np.array(look.sleeve_bgr[player], np.float32)
        sleeve_a = (sleeve.astype(np.float32) / 255.0)[..., None]
        colour = (tone * (1 - sleeve_a) + cloth * sleeve_a) * rounding[..., None] * self.gain[y0:y1, x0:x1]
        a = (whole.astype(np.float32) / 255.0)[..., None]
        roi = roi * (1 - a) + colour * a
        # The creases between fingers, and between fingers and palm.
        seams = np.zeros_like(whole)
        for finger in skin_px[: shape.fingers]:
            fixed = np.round((finger - (x0, y0)) * 16).astype(np.int32)
            cv2.polylines(seams, [fixed], True, 255, 1, cv2.LINE_AA, 4)
        palm = hand_art.rasterise([skin_px[shape.fingers]], roi_box)  # no lines across the palm
        crease = np.minimum(seams, whole).astype(np.float32) * (255 - palm) / 255.0**2
        crease = crease[..., None] * FINGER_CREASE
        roi = roi * (1 - crease)
        frame[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        np.maximum(occlusion[y0:y1, x0:x1], whole, out=occlusion[y0:y1, x0:x1])


def hand_angle_from_seat(seat: str, tip_mm: np.ndarray) -> float:
    """Arm direction for a hand coming in over `seat`'s side towards `tip_mm`."""
    normal = g.seat_normal(seat)  # type: ignore[arg-type]
    elbow = normal * (g.HALF_SURFACE_MM + 250.0) + np.asarray(tip_mm) * 0.3
    d = np.asarray(tip_mm) - elbow
    return math.atan2(d[1], d[0])
