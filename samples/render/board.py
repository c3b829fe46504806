"""The board drawn top-down from calibration.geometry: wood, frame, pockets, markings, wear.

The texture is rendered once per video (or still) at `px_per_mm`, north up, with the
rectified-view convention of calibration.camera (`board_to_rectified`): pixel (col, row)
shows board point (-E + (col + 0.5) / s, E - (row + 0.5) / s) where E is the half extent
(surface plus frame). The camera then warps it into the frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration import geometry as g
from calibration.camera import board_to_rectified
from samples.render.styles import BoardLook
from samples.render.texture import smooth_noise, speckle, wood

_SHIFT = 4  # cv2 fixed-point bits for sub-pixel drawing
_ONE = 1 << _SHIFT
# Drawing details that are a matter of looks, not of the ICF geometry.
ARROW_HEAD_MM = 12.0  # length of each stroke of an arrow's head
CORNER_MARK_MM = 45.0  # cheap boards print a short mark by the pocket instead of an arrow
CENTRE_DESIGN_POINTS = 8
CENTRE_DESIGN_INNER_MM = 28.0


@dataclass(frozen=True)
class BoardTexture:
    image: np.ndarray  # (S, S, 3) uint8 BGR, north up
    px_per_mm: float
    half_extent_mm: float  # surface half-width plus the frame's breadth

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        return board_to_rectified(np.asarray(points_mm, float), self.px_per_mm, self.half_extent_mm)


def _fixed(points_px: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(points_px) * _ONE).astype(np.int32)


class _Painter:
    """Sub-pixel, anti-aliased drawing in board mm on a texture."""

    def __init__(self, image: np.ndarray, px_per_mm: float, half_extent_mm: float) -> None:
        self.image = image
        self.s = px_per_mm
        self.e = half_extent_mm

    def px(self, points_mm: np.ndarray) -> np.ndarray:
        return board_to_rectified(np.asarray(points_mm, float), self.s, self.e)

    def polygon(
        self, points_mm: np.ndarray, colour: tuple[int, int, int], image: np.ndarray | None = None
    ) -> None:
        target = self.image if image is None else image
        cv2.fillPoly(target, [_fixed(self.px(points_mm))], colour, cv2.LINE_AA, _SHIFT)

    def band(
        self, start: np.ndarray, end: np.ndarray, thickness_mm: float, colour: tuple[int, int, int]
    ) -> None:
        a, b = np.asarray(start, float), np.asarray(end, float)
        d = (b - a) / np.linalg.norm(b - a)
        n = np.array([-d[1], d[0]]) * thickness_mm / 2.0
        self.polygon(np.array([a + n, b + n, b - n, a - n]), colour)

    def disc(
        self,
        centre: np.ndarray,
        radius_mm: float,
        colour: tuple[int, int, int],
        image: np.ndarray | None = None,
    ) -> None:
        target = self.image if image is None else image
        c = _fixed(self.px(centre)[0])
        cv2.circle(
            target,
            (int(c[0]), int(c[1])),
            int(round(radius_mm * self.s * _ONE)),
            colour,
            -1,
            cv2.LINE_AA,
            _SHIFT,
        )

    def ring(
        self, centre: np.ndarray, outer_radius_mm: float, thickness_mm: float, colour: tuple[int, int, int]
    ) -> None:
        """A ring whose outer edge is at `outer_radius_mm` (the printed dimension)."""
        self.arc(centre, outer_radius_mm - thickness_mm / 2.0, thickness_mm, 0.0, 360.0, colour)

    def arc(
        self,
        centre: np.ndarray,
        radius_mm: float,
        thickness_mm: float,
        start_deg: float,
        end_deg: float,
        colour: tuple[int, int, int],
    ) -> None:
        angles = np.radians(np.linspace(start_deg, end_deg, max(8, int(abs(end_deg - start_deg) / 2))))
        c = np.asarray(centre, float)
        outer = c + (radius_mm + thickness_mm / 2.0) * np.stack([np.cos(angles), np.sin(angles)], 1)
        inner = c + (radius_mm - thickness_mm / 2.0) * np.stack([np.cos(angles), np.sin(angles)], 1)
        if abs(end_deg - start_deg) >= 360.0:
            mask = np.zeros(self.image.shape[:2], np.uint8)
            cv2.fillPoly(mask, [_fixed(self.px(outer))], 255, cv2.LINE_AA, _SHIFT)
            cv2.fillPoly(mask, [_fixed(self.px(inner))], 0, cv2.LINE_AA, _SHIFT)
            self._blend_mask(mask, colour)
            return
        self.polygon(np.concatenate([outer, inner[::-1]]), colour)

    def _blend_mask(self, mask: np.ndarray, colour: tuple[int, int, int]) -> None:
        ys, xs = np.nonzero(mask)
        if len(ys) == 0:
            return
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        a = mask[y0:y1, x0:x1, None].astype(np.float32) / 255.0
        roi = self.image[y0:y1, x0:x1].astype(np.float32)
        self.image[y0:y1, x0:x1] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def render_board(look: BoardLook, px_per_mm: float = 2.0) -> BoardTexture:
    rng = np.random.default_rng(look.seed)
    half = g.HALF_SURFACE_MM + look.frame_breadth_mm
    size = int(round(2 * half * px_per_mm))
    ring_px = float(rng.uniform(6.0, 14.0)) * px_per_mm
    along_rows = abs(math.sin(look.grain_angle)) > 0.5
    image = wood(rng, (size, size), look.surface_bgr, look.grain, ring_px, along_rows=along_rows)
    painter = _Painter(image, px_per_mm, half)

    _draw_frame(painter, look, rng)
    bare = image.copy()  # the unprinted surface, to clear the inside of unfilled circles
    _draw_markings(painter, look, bare)
    _draw_pockets(painter, look, rng)
    _age(painter, look, rng)
    return BoardTexture(image, px_per_mm, half)


def _draw_frame(p: _Painter, look: BoardLook, rng: np.random.Generator) -> None:
    size = p.image.shape[0]
    breadth_px = int(math.ceil(look.frame_breadth_mm * p.s)) + 2
    h = g.HALF_SURFACE_MM
    e = p.e
    plank_h = wood(rng, (breadth_px, size), look.frame_bgr, 1.0, 5.0 * p.s)
    plank_v = wood(rng, (size, breadth_px), look.frame_bgr, 1.0, 5.0 * p.s, along_rows=True)
    # Mitred sides: each side a trapezoid from the outer edge to the surface edge.
    sides = {
        "N": np.array([[-e, e], [e, e], [h, h], [-h, h]]),
        "S": np.array([[-e, -e], [e, -e], [h, -h], [-h, -h]]),
        "E": np.array([[e, e], [e, -e], [h, -h], [h, h]]),
        "W": np.array([[-e, e], [-e, -e], [-h, -h], [-h, h]]),
    }
    for name, quad in sides.items():
        mask = np.zeros((size, size), np.uint8)
        cv2.fillPoly(mask, [_fixed(p.px(quad))], 255, cv2.LINE_AA, _SHIFT)
        layer = np.zeros_like(p.image)
        if name == "N":
            layer[:breadth_px] = plank_h
        elif name == "S":
            layer[size - breadth_px :] = plank_h[::-1]
        elif name == "W":
            layer[:, :breadth_px] = plank_v
        else:
            layer[:, size - breadth_px :] = plank_v[:, ::-1]
        a = mask[..., None].astype(np.float32) / 255.0
        sel = mask > 0
        p.image[sel] = (p.image[sel] * (1 - a[sel]) + layer[sel] * a[sel]).astype(np.uint8)
    # Varnish highlight along the frame's outer edge and a shadow where it meets the surface.
    shade = np.ones((size, size), np.float32)
    inner = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
    edge = np.zeros((size, size), np.uint8)
    cv2.polylines(edge, [_fixed(p.px(inner))], True, 255, max(1, int(2.5 * p.s)), cv2.LINE_AA, _SHIFT)
    shade -= 0.35 * cv2.GaussianBlur(edge.astype(np.float32) / 255.0, (0, 0), 1.5 * p.s)
    outer = np.array([[-e, e], [e, e], [e, -e], [-e, -e]]) * (1 - 6.0 / e)
    rim = np.zeros((size, size), np.uint8)
    cv2.polylines(rim, [_fixed(p.px(outer))], True, 255, max(1, int(3 * p.s)), cv2.LINE_AA, _SHIFT)
    shade += 0.18 * cv2.GaussianBlur(rim.astype(np.float32) / 255.0, (0, 0), 2.0 * p.s)
    p.image[:] = np.clip(p.image * shade[..., None], 0, 255).astype(np.uint8)


def _draw_markings(p: _Painter, look: BoardLook, bare: np.ndarray) -> None:
    ink, red = look.ink_bgr, look.red_bgr
    for seat in g.SEATS:
        for band in g.base_lines(seat):
            p.band(np.array(band.start), np.array(band.end), band.thickness, ink)
    circles = np.concatenate([g.all_base_circle_centres(), np.zeros((1, 2))])
    radii = [g.BASE_CIRCLE_RADIUS_MM] * 8 + [g.CENTRE_CIRCLE_RADIUS_MM]
    for centre, radius in zip(circles, radii, strict=True):
        # Clear the lines inside the circle, then print the ring (and the red disc).
        mask = np.zeros(p.image.shape[:2], np.uint8)
        p.disc(centre, radius, 255, image=mask)
        sel = mask > 0
        p.image[sel] = bare[sel]
        if look.red_fill:
            p.disc(centre, g.BASE_CIRCLE_RED_DIAMETER_MM / 2.0 * radius / g.BASE_CIRCLE_RADIUS_MM, red)
        p.ring(centre, radius, g.LINE_THICKNESS_MM, ink)
    p.ring(np.zeros(2), g.OUTER_CIRCLE_RADIUS_MM, g.LINE_THICKNESS_MM, ink)
    if look.centre_design:
        _centre_design(p, look)
    for pocket in g.POCKETS:
        _arrow(p, look, pocket)


def _centre_design(p: _Painter, look: BoardLook) -> None:
    """A printed star between the centre and the outer circle (decoration, varies by maker)."""
    n = CENTRE_DESIGN_POINTS
    outer_r = g.OUTER_CIRCLE_RADIUS_MM - 2 * g.LINE_THICKNESS_MM
    angles = np.arange(2 * n) * math.pi / n + math.pi / 8
    radii = np.where(np.arange(2 * n) % 2 == 0, outer_r, CENTRE_DESIGN_INNER_MM)
    star = np.stack([np.cos(angles) * radii, np.sin(angles) * radii], 1)
    for k in range(2 * n):
        a, b = star[k], star[(k + 1) % (2 * n)]
        p.band(a, b, g.LINE_THICKNESS_MM * 0.8, look.ink_bgr)
    p.ring(np.zeros(2), CENTRE_DESIGN_INNER_MM + 4.0, g.LINE_THICKNESS_MM * 0.8, look.ink_bgr)


def _arrow(p: _Painter, look: BoardLook, pocket: g.PocketName) -> None:
    band = g.arrow(pocket)
    tail, tip = np.array(band.start), np.array(band.end)
    d = (tip - tail) / np.linalg.norm(tip - tail)
    if look.arrows == "corner":
        p.band(tip - d * CORNER_MARK_MM, tip, band.thickness * 2, look.ink_bgr)
        return
    p.band(tail, tip, band.thickness, look.ink_bgr)
    # The head points at the pocket.
    for turn in (math.radians(150), math.radians(-150)):
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        p.band(tip, tip + rot @ d * ARROW_HEAD_MM, band.thickness, look.ink_bgr)
    if look.arrows == "arc":
        centre = g.arrow_arc_centre(pocket)
        back = math.degrees(math.atan2(-d[1], -d[0]))
        p.arc(centre, g.ARROW_ARC_DIAMETER_MM / 2.0, band.thickness, back - 130.0, back + 130.0, look.ink_bgr)


def _draw_pockets(p: _Painter, look: BoardLook, rng: np.random.Generator) -> None:
    for pocket in g.POCKETS:
        centre = g.pocket_centre(pocket)
        p.disc(centre, g.POCKET_RADIUS_MM + 0.8, (20, 28, 38))  # the cut edge
        p.disc(centre, g.POCKET_RADIUS_MM, (12, 12, 14))
        if look.nets:
            c = p.px(centre)[0]
            r = g.POCKET_RADIUS_MM * p.s
            x0, y0 = int(c[0] - r), int(c[1] - r)
            n = int(2 * r) + 2
            yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
            mesh = (np.sin((xx + yy) * 0.9) > 0.85) | (np.sin((xx - yy) * 0.9) > 0.85)
            inside = (xx + x0 - c[0]) ** 2 + (yy + y0 - c[1]) ** 2 < (r * 0.92) ** 2
            net = (mesh & inside).astype(np.float32)[..., None] * float(rng.uniform(25, 45))
            roi = p.image[y0 : y0 + n, x0 : x0 + n].astype(np.float32)
            p.image[y0 : y0 + n, x0 : x0 + n] = np.clip(roi + net, 0, 255).astype(np.uint8)


def _age(p: _Painter, look: BoardLook, rng: np.random.Generator) -> None:
    """Wear (faded ink and wood where hands rub) and powder on the surface."""
    size = p.image.shape[0]
    img = p.image.astype(np.float32)
    if look.wear > 0:
        blotch = np.clip(smooth_noise(rng, (size, size), (10, 10)), 0, None)
        fade = np.clip(look.wear * 0.25 * blotch, 0, 0.5)[..., None]
        lighter = np.array(look.surface_bgr, np.float32) * 1.05
        img = img * (1 - fade) + lighter * fade
        for _ in range(int(look.wear * 40)):
            a = rng.uniform(-g.HALF_SURFACE_MM, g.HALF_SURFACE_MM, 2)
            b = a + rng.normal(0, 25, 2)
            pa, pb = _fixed(p.px(np.stack([a, b])))
            cv2.line(
                img,
                tuple(int(v) for v in pa),
                tuple(int(v) for v in pb),
                (235, 235, 235),
                1,
                cv2.LINE_AA,
                _SHIFT,
            )
    if look.powder > 0:
        grains = speckle(rng, (size, size), 0.6)
        cloud = np.clip(smooth_noise(rng, (size, size), (6, 6)) * 0.5 + 0.5, 0, 1)
        img += (look.powder * 55.0 * grains * cloud)[..., None]
        img += (look.powder * 6.0 * cloud)[..., None]
    p.image[:] = np.clip(img, 0, 255).astype(np.uint8)
