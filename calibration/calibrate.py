"""Board calibration from one picture: playing surface -> base lines -> homography (+ k1).

Steps (each narrows the search of the next):
1. the playing surface: the largest light, convex, four-cornered region (Otsu on a
   downscaled picture) gives a coarse homography; its pockets cut the corners, so it is
   only good to a few mm;
2. the surface's four edges: gradient peaks along normals of the projected edges, robust
   line fits; their intersections give a better homography. They are not used for the
   final fit because the frame stands above the surface (its top hides the near edge);
3. the two edges of each side's thick outer base line (8 printed straight edges): gradient
   peaks of the expected sign, searched in a narrow window; all edge points also fix the
   radial distortion k1 (with the nominal camera matrix) as the value that makes the
   printed lines straightest;
4. the final homography maps the 16 intersections of those 8 edges (model) to their
   image intersections (undistorted).

Orientation convention: the markings are four-fold symmetric, so seat S is the side whose
middle is nearest the bottom edge of the image, unless `south` names another image edge
("bottom", "top", "left", "right") where the S seat sits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration import geometry as g
from calibration.camera import Calibration, nominal_camera_matrix
from calibration.errors import CalibrationError, NoBoardFound

WORK_WIDTH_PX = 640  # the surface search runs on a picture this wide
MIN_SURFACE_FRACTION = 0.04  # of the picture area
MIN_SOLIDITY = 0.65  # region area / convex hull area (hands and coins bite into it)
EDGE_SAMPLES = 80  # per printed edge
MIN_EDGE_FOUND = 0.35  # fraction of an edge's samples that must show a peak
MIN_EDGES = 6  # of the 8 outer base line edges, on all four sides
GATE_MEDIAN_MM = 1.0  # residual of the edge points to their model lines
GATE_P95_MM = 2.5
K1_RANGE = (-0.45, 0.45)
SOUTH_EDGES = ("bottom", "top", "left", "right")

# The outer base line's two printed edges, as distances inward from the surface edge.
_OUTER_EDGE_MM = g.BASE_LINE_FROM_FRAME_MM
_INNER_EDGE_MM = g.BASE_LINE_FROM_FRAME_MM + g.OUTER_BASE_LINE_THICKNESS_MM
_LINE_HALF_SPAN_MM = g.BASE_CIRCLE_ALONG_MM - g.BASE_CIRCLE_RADIUS_MM - 8.0  # clear of the circles
_SURFACE_HALF_SPAN_MM = g.HALF_SURFACE_MM - g.POCKET_DIAMETER_MM - 10.0  # clear of the pockets


@dataclass(frozen=True)
class ModelEdge:
    """A straight printed edge: board points on it, its inward unit normal, the sign of the
    brightness step crossing it inwards (+1 light to dark... -1 dark to light)."""

    name: str
    seat: g.Seat
    inward_mm: float  # distance from the surface edge
    half_span_mm: float
    darker_inward: bool  # brightness drops when crossing it towards the centre

    def points(self, n: int) -> np.ndarray:
        along = np.linspace(-self.half_span_mm, self.half_span_mm, n)
        return np.array([g.seat_to_board(self.seat, a, g.HALF_SURFACE_MM - self.inward_mm) for a in along])

    def normal_in(self) -> np.ndarray:
        return -g.seat_normal(self.seat)

    def line(self) -> tuple[np.ndarray, np.ndarray]:
        """(point, unit direction) of the edge in board mm."""
        return g.seat_to_board(self.seat, 0.0, g.HALF_SURFACE_MM - self.inward_mm), g.seat_along(self.seat)


SURFACE_EDGES = tuple(ModelEdge(f"surface_{s}", s, 0.0, _SURFACE_HALF_SPAN_MM, False) for s in g.SEATS)
BASE_LINE_EDGES = tuple(
    ModelEdge(f"base_line_{s}_{part}", s, inward, _LINE_HALF_SPAN_MM, darker)
    for s in g.SEATS
    for part, inward, darker in (("outer", _OUTER_EDGE_MM, True), ("inner", _INNER_EDGE_MM, False))
)


@dataclass(frozen=True)
class CalibrationResult:
    calibration: Calibration
    reprojection_error_mm: float
    landmarks: tuple[str, ...]
    p95_error_mm: float

    def to_dict(self) -> dict[str, Any]:
        return self.calibration.to_dict()


# ----------------------------------------------------------------------------- surface


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners in the order of board corners SW, SE, NE, NW for a non-mirrored view: with
    image y down that is a negative signed area (board anticlockwise = image clockwise)."""
    quad = quad.reshape(4, 2).astype(np.float64)
    x, y = quad[:, 0], quad[:, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return quad if area < 0 else quad[::-1].copy()


def find_surface(gray: np.ndarray) -> np.ndarray:
    """Four image corners (px) of the light playing surface, or NoBoardFound."""
    height, width = gray.shape
    scale = WORK_WIDTH_PX / width
    small = cv2.resize(gray, (WORK_WIDTH_PX, max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    _t, mask = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Close over the thin printed lines and coins, open away thin bright clutter.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _h = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise NoBoardFound("no light playing surface in the picture")
    contour = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(contour)
    if area < MIN_SURFACE_FRACTION * mask.size:
        raise NoBoardFound("no light region large enough to be a playing surface")
    hull = cv2.convexHull(contour)
    solidity = area / max(cv2.contourArea(hull), 1.0)
    if solidity < MIN_SOLIDITY:
        raise NoBoardFound(f"the largest light region is not a square surface (solidity {solidity:.2f})")
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx
            break
    if quad is None:
        raise NoBoardFound("the light region has no four clear corners")
    quad = quad.reshape(4, 2).astype(np.float64)
    margin = 2
    on_border = (quad[:, 0] <= margin) | (quad[:, 0] >= mask.shape[1] - 1 - margin)
    on_border |= (quad[:, 1] <= margin) | (quad[:, 1] >= mask.shape[0] - 1 - margin)
    if on_border.sum() >= 2:
        raise NoBoardFound("the light region runs off the picture: no frame around a playing surface")
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides.min() < 0.4 * sides.max():
        raise NoBoardFound("the light region is not square enough to be a playing surface")
    quad = _refit_sides(contour.reshape(-1, 2).astype(np.float64), quad)
    return _order_corners(quad / scale)


def _ransac_line(
    pts: np.ndarray, rng: np.random.Generator, tol: float = 2.0
) -> tuple[np.ndarray, np.ndarray]:
    best_keep = None
    for _ in range(60):
        a, b = pts[rng.choice(len(pts), 2, replace=False)]
        d = b - a
        if np.hypot(*d) < 1e-6:
            continue
        n = np.array([-d[1], d[0]]) / np.hypot(*d)
        keep = np.abs((pts - a) @ n) < tol
        if best_keep is None or keep.sum() > best_keep.sum():
            best_keep = keep
    line = cv2.fitLine(pts[best_keep].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).reshape(-1)
    return line[2:].astype(np.float64), line[:2].astype(np.float64)


def _refit_sides(contour: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Corners as intersections of straight sides fitted (RANSAC) to the region's outline:
    the pockets round the corners off and hands bulge the outline, the sides stay straight."""
    rng = np.random.default_rng(0)  # fixed: the same picture always gives the same fit
    for _ in range(2):
        lines = []
        for i in range(4):
            a, b = quad[i], quad[(i + 1) % 4]
            d = (b - a) / max(np.hypot(*(b - a)), 1e-9)
            n = np.array([-d[1], d[0]])
            t = (contour - a) @ d
            length = np.hypot(*(b - a))
            near = (np.abs((contour - a) @ n) < 0.08 * length) & (t > 0.1 * length) & (t < 0.9 * length)
            if near.sum() < 10:
                return quad
            lines.append(_ransac_line(contour[near], rng))
        new = np.array([_intersect(*lines[i - 1], *lines[i]) for i in range(4)])
        if not np.all(np.isfinite(new)):
            return quad
        quad = new
    return quad


# ----------------------------------------------------------------------------- edges


def _project(h: np.ndarray, k: np.ndarray, dist: np.ndarray, pts_mm: np.ndarray) -> np.ndarray:
    und = cv2.perspectiveTransform(pts_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
    if not np.any(dist):
        return und
    from calibration.camera import distort_pixels

    return distort_pixels(und, k, dist)


def _undistort(k: np.ndarray, dist: np.ndarray, px: np.ndarray) -> np.ndarray:
    if not np.any(dist) or len(px) == 0:
        return px
    return cv2.undistortPoints(px.reshape(-1, 1, 2), k, dist, P=k).reshape(-1, 2)


def _edge_points(
    gray_f: np.ndarray,
    h: np.ndarray,
    k: np.ndarray,
    dist: np.ndarray,
    edge: ModelEdge,
    search_mm: float,
    signed: bool,
) -> np.ndarray:
    """Subpixel image points (distorted px) of one printed edge, NaN rows where none."""
    pts = edge.points(EDGE_SAMPLES)
    step_mm = 0.5
    offsets = np.arange(-search_mm, search_mm + step_mm / 2, step_mm)
    probe = pts[:, None, :] + offsets[None, :, None] * edge.normal_in()[None, None, :]
    img = _project(h, k, dist, probe.reshape(-1, 2)).astype(np.float32)
    profile = cv2.remap(
        gray_f,
        img[:, 0].reshape(len(pts), -1),
        img[:, 1].reshape(len(pts), -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=np.nan,
    )
    grad = np.gradient(profile, axis=1)  # brightness change per step inwards
    strength = -grad if edge.darker_inward else grad
    if not signed:
        strength = np.abs(grad)
    strength = np.nan_to_num(strength, nan=0.0)
    best = np.argmax(strength, axis=1)
    out = np.full((len(pts), 2), np.nan)
    peaks = strength[np.arange(len(pts)), best]
    floor = max(0.5, 0.3 * float(np.median(peaks)))  # a fraction of the edge's usual contrast
    for i, j in enumerate(best):
        if j <= 0 or j >= len(offsets) - 1 or not np.isfinite(profile[i]).all():
            continue
        s0, s1, s2 = strength[i, j - 1], strength[i, j], strength[i, j + 1]
        if s1 < floor:
            continue
        denom = s0 - 2 * s1 + s2
        frac = 0.5 * (s0 - s2) / denom if denom < 0 else 0.0
        off = offsets[j] + float(np.clip(frac, -0.5, 0.5)) * step_mm
        out[i] = pts[i] + off * edge.normal_in()
    good = np.isfinite(out[:, 0])
    found = np.full((len(pts), 2), np.nan)
    if good.any():
        found[good] = _project(h, k, dist, out[good])
    return found


def _fit_line(px: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Robust line (point, direction) and the inlier mask (two Huber passes + a cut)."""
    line = cv2.fitLine(px.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
    d, p = line[:2].astype(np.float64), line[2:].astype(np.float64)
    n = np.array([-d[1], d[0]])
    r = np.abs((px - p) @ n)
    keep = r < max(1.5, 3.0 * np.median(r) * 1.4826)
    if keep.sum() >= 4:
        line = cv2.fitLine(px[keep].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).reshape(-1)
        d, p = line[:2].astype(np.float64), line[2:].astype(np.float64)
    return p, d, keep


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    a = np.array([d1, -d2]).T
    t = np.linalg.solve(a, p2 - p1)
    return p1 + t[0] * d1


def _straightness(k: np.ndarray, k1: float, edge_px: list[np.ndarray]) -> float:
    dist = np.array([k1, 0.0, 0.0, 0.0, 0.0])
    total = 0.0
    for px in edge_px:
        und = _undistort(k, dist, px)
        _p, d, keep = _fit_line(und)
        n = np.array([-d[1], d[0]])
        r = (und - und[keep].mean(axis=0)) @ n
        total += float(np.sum(np.minimum(r[keep] ** 2, 4.0)))
    return total


def _fit_k1(k: np.ndarray, edge_px: list[np.ndarray]) -> float:
    grid = np.linspace(*K1_RANGE, 19)
    costs = [_straightness(k, k1, edge_px) for k1 in grid]
    i = int(np.argmin(costs))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    phi = (np.sqrt(5) - 1) / 2
    a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
    fa, fb = _straightness(k, a, edge_px), _straightness(k, b, edge_px)
    for _ in range(14):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - phi * (hi - lo)
            fa = _straightness(k, a, edge_px)
        else:
            lo, a, fa = a, b, fb
            b = lo + phi * (hi - lo)
            fb = _straightness(k, b, edge_px)
    return float((lo + hi) / 2)


def _lines_homography(
    edges: tuple[ModelEdge, ...], lines: dict[str, tuple[np.ndarray, np.ndarray]]
) -> np.ndarray:
    """Homography from the intersections of every pair of non-parallel fitted edges."""
    model, image = [], []
    for i, e1 in enumerate(edges):
        for e2 in edges[i + 1 :]:
            if e1.name not in lines or e2.name not in lines:
                continue
            m1, m2 = e1.line(), e2.line()
            if abs(float(np.dot(m1[1], m2[1]))) > 0.5:
                continue  # parallel in the model
            model.append(_intersect(*m1, *m2))
            image.append(_intersect(*lines[e1.name], *lines[e2.name]))
    if len(model) < 4:
        raise CalibrationError("too few printed edges found to fit the board")
    h, _m = cv2.findHomography(np.array(model), np.array(image), 0)
    if h is None:
        raise CalibrationError("the printed edges found give no homography")
    return h / h[2, 2]


def _fit_edges(
    gray_f: np.ndarray,
    h: np.ndarray,
    k: np.ndarray,
    dist: np.ndarray,
    edges: tuple[ModelEdge, ...],
    search_mm: float,
    signed: bool,
) -> dict[str, np.ndarray]:
    found: dict[str, np.ndarray] = {}
    for edge in edges:
        px = _edge_points(gray_f, h, k, dist, edge, search_mm, signed)
        good = np.isfinite(px[:, 0])
        if good.sum() >= MIN_EDGE_FOUND * EDGE_SAMPLES:
            found[edge.name] = px[good]
    return found


def _lines_of(k: np.ndarray, dist: np.ndarray, found: dict[str, np.ndarray]) -> dict[str, tuple]:
    lines = {}
    for name, px in found.items():
        p, d, _keep = _fit_line(_undistort(k, dist, px))
        lines[name] = (p, d)
    return lines


def _orient(h: np.ndarray, image_size: tuple[int, int], south: str | None) -> np.ndarray:
    """Rotate the board frame (a multiple of 90 degrees) so that S sits by the chosen edge."""
    target = {
        "bottom": np.array([0.0, 1.0]),
        "top": np.array([0.0, -1.0]),
        "left": np.array([-1.0, 0.0]),
        "right": np.array([1.0, 0.0]),
    }[south or "bottom"]
    centre = cv2.perspectiveTransform(np.zeros((1, 1, 2)), h).reshape(2)
    best, best_score = h, -np.inf
    for quarter in range(4):
        c, s = np.cos(quarter * np.pi / 2), np.sin(quarter * np.pi / 2)
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        hr = h @ rot
        south_mid = cv2.perspectiveTransform(np.array([[[0.0, -g.HALF_SURFACE_MM]]]), hr).reshape(2)
        score = float(np.dot(south_mid - centre, target))
        if score > best_score:
            best, best_score = hr, score
    return best / best[2, 2]


def _residuals_mm(
    h: np.ndarray, k: np.ndarray, dist: np.ndarray, found: dict[str, np.ndarray], edges: tuple[ModelEdge, ...]
) -> np.ndarray:
    inv = np.linalg.inv(h)
    res = []
    for edge in edges:
        if edge.name not in found:
            continue
        board = cv2.perspectiveTransform(_undistort(k, dist, found[edge.name]).reshape(-1, 1, 2), inv)
        board = board.reshape(-1, 2)
        p, d = edge.line()
        n = np.array([-d[1], d[0]])
        res.append(np.abs((board - p) @ n))
    return np.concatenate(res) if res else np.array([np.inf])


def calibrate_image(image_bgr: np.ndarray, *, south: str | None = None) -> CalibrationResult:
    """Calibrate from one frame, no prior. Raises NoBoardFound or CalibrationError."""
    if south is not None and south not in SOUTH_EDGES:
        raise CalibrationError(f"south must be one of {', '.join(SOUTH_EDGES)}, got {south!r}")
    if image_bgr is None or image_bgr.ndim < 2 or image_bgr.size == 0:
        raise NoBoardFound("empty picture")
    gray = image_bgr if image_bgr.ndim == 2 else cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    height, width = gray.shape
    image_size = (width, height)
    corners = find_surface(gray)
    # The light region is the playing surface, or the surface with its frame where the
    # frame is light too: try both, keep the first fit that passes the gates.
    failures = []
    for half in (g.HALF_SURFACE_MM, g.HALF_SURFACE_MM + g.FRAME_BREADTH_MM):
        model_corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * half
        h = cv2.getPerspectiveTransform(model_corners.astype(np.float32), corners.astype(np.float32))
        try:
            result = refine(gray, h, image_size, south=south)
        except CalibrationError as exc:
            failures.append(str(exc))
            continue
        # The fit must agree with the outline it started from (a fit locked onto the wrong
        # printed lines still has small residuals): pockets cut the corners by < 2 diameters.
        seen = result.calibration.image_to_board(corners)
        off = np.min(np.linalg.norm(seen[:, None, :] - model_corners[None, :, :], axis=2), axis=1)
        if off.max() > 2.5 * g.POCKET_DIAMETER_MM:
            failures.append(f"the printed lines disagree with the surface's outline by {off.max():.0f} mm")
            continue
        return result
    raise CalibrationError(failures[0])


def refine(
    gray: np.ndarray,
    h: np.ndarray,
    image_size: tuple[int, int],
    *,
    south: str | None = None,
    k: np.ndarray | None = None,
    dist: np.ndarray | None = None,
    surface_first: bool = True,
) -> CalibrationResult:
    """Refine an approximate homography against the printed edges."""
    k = nominal_camera_matrix(image_size) if k is None else k
    dist = np.zeros(5) if dist is None else dist
    gray_f = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
    if surface_first:
        found = _fit_edges(gray_f, h, k, dist, SURFACE_EDGES, 25.0, signed=False)
        if len(found) == 4:  # otherwise the base lines are searched wider from the coarse fit
            h = _lines_homography(SURFACE_EDGES, _lines_of(k, dist, found))
    windows = (10.0, 4.0, 2.5) if not surface_first or len(found) == 4 else (18.0, 8.0, 4.0, 2.5)
    landmarks: tuple[str, ...] = ()
    for search_mm in windows:
        found = _fit_edges(gray_f, h, k, dist, BASE_LINE_EDGES, search_mm, signed=True)
        if len(found) < MIN_EDGES or len({name.split("_")[2] for name in found}) < 3:
            raise CalibrationError(
                f"only {len(found)} of the 8 outer base line edges were found (covered or not printed)"
            )
        if search_mm == windows[0] and not np.any(dist):
            k1 = _fit_k1(k, list(found.values()))
            dist = np.array([k1, 0.0, 0.0, 0.0, 0.0]) if abs(k1) > 0.005 else np.zeros(5)
        h = _lines_homography(BASE_LINE_EDGES, _lines_of(k, dist, found))
        landmarks = tuple(sorted(found))
    res = _residuals_mm(h, k, dist, found, BASE_LINE_EDGES)
    h = _orient(h, image_size, south)
    median, p95 = float(np.median(res)), float(np.percentile(res, 95))
    if median > GATE_MEDIAN_MM or p95 > GATE_P95_MM:
        raise CalibrationError(
            f"the board fit is doubtful: edge residual median {median:.2f} mm, 95th {p95:.2f} mm"
        )
    cal = Calibration(image_size, k, dist, h, median, landmarks)
    return CalibrationResult(cal, median, landmarks, p95)
