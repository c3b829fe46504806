"""Coarse board hypotheses: where the light playing surface might be.

The surface is the largest light, roughly square region; lamps, light frames, arms and
clutter make any one threshold unreliable, so several are tried and each light region
gives up to three outlines: as it is, with thin protrusions (arms, light clutter touching
it) opened away, and merged with the other large light pieces (an arm across the board
splits it). Each outline's four sides are straight lines fitted to the region's contour
away from the rounded corners (the pockets cut them). The quadrilaterals are only a start:
`calibrate` verifies each against the printed markings.
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

WORK_WIDTH_PX = 640  # the search runs on a picture this wide
MIN_REGION_FRACTION = 0.02  # of the picture's area
REGIONS_PER_MASK = 2
OPEN_FRACTION = 0.06  # opening radius over the region's size: removes arms, keeps the board
MERGE_FRACTION = 0.05  # light pieces at least this share of the largest are merged with it
SIDE_BAND = 0.1  # contour points this close to a side (share of its length) belong to it
SIDE_CLEAR = 0.15  # ... and this far from its ends (clear of the pockets' rounding)
MIN_SIDE_RATIO = 0.35  # shortest over longest side of a plausible quadrilateral
DUPLICATE_PX = 6.0  # quads whose corners all lie this close (work pixels) are one
# Outlines cut by an arm: straight runs of the contour (Hough lines) paired into sides.
HOUGH_VOTES = 0.2  # a line needs this share of the region's size (sqrt of area) in votes
MAX_LINES = 8
SAME_LINE_DEG = 4.0
SAME_LINE_PX = 6.0
PARALLEL_DEG = 20.0  # opposite sides of a square seen with up to 15 degrees of tilt
SQUARE_RATIO = 1.6  # the two pairs' spacings differ by less than this factor
SUPPORT_PX = 2.5  # an outline point within this of a side supports it
MIN_LINE_SUPPORT = 0.45  # share of the quad's sides (clear of the corners) on the outline
LINE_QUADS = 2  # the best supported line quads kept per region


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners in the order of board corners SW, SE, NE, NW for a non-mirrored view: with
    image y down that is a negative signed area (board anticlockwise = image clockwise)."""
    quad = quad.reshape(4, 2).astype(np.float64)
    x, y = quad[:, 0], quad[:, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return quad if area < 0 else quad[::-1].copy()


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    a = np.array([d1, -d2]).T
    if abs(np.linalg.det(a)) < 1e-9:
        return np.array([np.nan, np.nan])
    t = np.linalg.solve(a, p2 - p1)
    return p1 + t[0] * d1


def _refit_sides(contour: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Corners as intersections of straight sides fitted to the contour near each side."""
    for _ in range(2):
        lines = []
        for i in range(4):
            a, b = quad[i], quad[(i + 1) % 4]
            length = float(np.hypot(*(b - a)))
            if length < 1e-6:
                return None
            d = (b - a) / length
            n = np.array([-d[1], d[0]])
            t = (contour - a) @ d
            near = np.abs((contour - a) @ n) < SIDE_BAND * length
            near &= (t > SIDE_CLEAR * length) & (t < (1 - SIDE_CLEAR) * length)
            pts = contour[near]
            if len(pts) < 8:
                return None
            line = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
            lines.append((line[2:].astype(np.float64), line[:2].astype(np.float64)))
        quad = np.array([_intersect(*lines[i - 1], *lines[i]) for i in range(4)])
        if not np.all(np.isfinite(quad)):
            return None
    return quad


def _quad_of(region: np.ndarray) -> np.ndarray | None:
    contours, _h = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = np.concatenate(contours)  # a region merged from pieces has several
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.06, 0.08, 0.1):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = _refit_sides(contour.reshape(-1, 2).astype(np.float64), order_corners(approx))
            return None if quad is None else order_corners(quad)
    return None


def _hough_lines(outline: np.ndarray, size: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Distinct straight runs of an outline image: (point, unit direction) per line."""
    found = cv2.HoughLines(outline, 1, np.pi / 180, max(15, int(HOUGH_VOTES * size)))
    if found is None:
        return []
    lines: list[tuple[float, float]] = []
    for rho, theta in found.reshape(-1, found.shape[-1])[:, :2]:
        duplicate = False
        for r0, t0 in lines:
            dt = abs(theta - t0)
            if min(dt, np.pi - dt) < np.radians(SAME_LINE_DEG) and abs(abs(rho) - abs(r0)) < SAME_LINE_PX:
                duplicate = True
                break
        if not duplicate:
            lines.append((float(rho), float(theta)))
        if len(lines) >= MAX_LINES:
            break
    out = []
    for rho, theta in lines:
        normal = np.array([np.cos(theta), np.sin(theta)])
        out.append((normal * rho, np.array([-normal[1], normal[0]])))
    return out


def _line_quads(region: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals from pairs of nearly parallel straight runs of the region's outline,
    best supported first: they survive an arm that cuts a side or a corner."""
    contours, _h = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return []
    size = float(np.sqrt(max(sum(cv2.contourArea(c) for c in contours), 1.0)))
    outline = np.zeros_like(region)
    cv2.drawContours(outline, contours, -1, 255, 1)
    lines = _hough_lines(outline, size)
    if len(lines) < 4:
        return []
    distance = cv2.distanceTransform(255 - outline, cv2.DIST_L2, 3)
    angle = [np.arctan2(d[1], d[0]) % np.pi for _p, d in lines]
    pairs = []
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            da = abs(angle[i] - angle[j])
            if min(da, np.pi - da) > np.radians(PARALLEL_DEG):
                continue
            (p1, d1), (p2, _d2) = lines[i], lines[j]
            gap = abs(float((p2 - p1) @ np.array([-d1[1], d1[0]])))
            if gap > 0.3 * size:
                pairs.append((i, j, gap))
    scored = []
    for a in range(len(pairs)):
        for b in range(a + 1, len(pairs)):
            i, j, gap_a = pairs[a]
            k, m, gap_b = pairs[b]
            if len({i, j, k, m}) < 4 or max(gap_a, gap_b) > SQUARE_RATIO * min(gap_a, gap_b):
                continue
            da = abs(angle[i] - angle[k])
            if min(da, np.pi - da) < np.radians(90.0 - PARALLEL_DEG):
                continue
            sides = [lines[i], lines[k], lines[j], lines[m]]
            quad = np.array([_intersect(*sides[q - 1], *sides[q]) for q in range(4)])
            if not np.all(np.isfinite(quad)):
                continue
            quad = order_corners(quad)
            support = _outline_support(distance, quad)
            if support >= MIN_LINE_SUPPORT:
                scored.append((support, quad))
    scored.sort(key=lambda sq: -sq[0])
    return [q for _s, q in scored[:LINE_QUADS]]


def _outline_support(distance: np.ndarray, quad: np.ndarray) -> float:
    """Share of the quad's sides (clear of the corners) that lie on the outline."""
    t = np.linspace(SIDE_CLEAR, 1 - SIDE_CLEAR, 40)
    pts = np.concatenate([quad[i] + t[:, None] * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    h, w = distance.shape
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    ix = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
    iy = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
    return float(np.mean(inside & (distance[iy, ix] <= SUPPORT_PX)))


def _plausible(quad: np.ndarray, shape: tuple[int, int]) -> bool:
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides.min() < MIN_SIDE_RATIO * sides.max():
        return False
    # Convex, and not absurdly far outside the picture.
    cross = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        u, v = b - a, c - b
        cross.append(u[0] * v[1] - u[1] * v[0])
    if not (all(c < 0 for c in cross) or all(c > 0 for c in cross)):
        return False
    h, w = shape
    return bool(np.all(quad > -0.5 * np.array([w, h])) and np.all(quad < 1.5 * np.array([w, h])))


def _regions(mask: np.ndarray) -> list[tuple[np.ndarray, bool]]:
    """Light regions to outline, each with whether its straight runs are worth pairing (not
    for an opened copy: opening rounds what an arm cut)."""
    n, labels, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_area = MIN_REGION_FRACTION * mask.size
    ranked = sorted(range(1, n), key=lambda i: -stats[i, cv2.CC_STAT_AREA])
    big = [i for i in ranked if stats[i, cv2.CC_STAT_AREA] >= min_area]
    out = []
    for i in big[:REGIONS_PER_MASK]:
        region = (labels == i).astype(np.uint8) * 255
        r = max(2, int(OPEN_FRACTION * np.sqrt(stats[i, cv2.CC_STAT_AREA])))
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        out += [(region, True), (cv2.morphologyEx(region, cv2.MORPH_OPEN, kernel), False)]
    if big:
        largest = stats[big[0], cv2.CC_STAT_AREA]
        keep = [i for i in ranked if stats[i, cv2.CC_STAT_AREA] >= MERGE_FRACTION * largest]
        if len(keep) >= 2:
            out.append((np.isin(labels, keep).astype(np.uint8) * 255, True))
    return out


def surface_candidates(gray: np.ndarray) -> Iterator[np.ndarray]:
    """Candidate quadrilaterals (full-resolution pixels, corners ordered by `order_corners`),
    most plausible first, found lazily: a caller satisfied by the first stops the search."""
    height, width = gray.shape
    scale = WORK_WIDTH_PX / width
    small = cv2.resize(gray, (WORK_WIDTH_PX, max(1, round(height * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    t_otsu, _m = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = small[small > t_otsu]
    t_high = t_otsu
    if bright.size > 16:
        t_high, _m = cv2.threshold(bright.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    quads: list[np.ndarray] = []
    close = np.ones((5, 5), np.uint8)  # bridges the printed lines, not the frame
    for t in dict.fromkeys((float(t_otsu), (t_otsu + t_high) / 2.0, float(t_high))):
        mask = cv2.morphologyEx(((small > t) * 255).astype(np.uint8), cv2.MORPH_CLOSE, close)
        for region, lines in _regions(mask):
            outline_quad = _quad_of(region)
            found = ([] if outline_quad is None else [outline_quad]) + (_line_quads(region) if lines else [])
            for quad in found:
                if not _plausible(quad, small.shape):
                    continue
                if any(np.max(np.linalg.norm(quad - q, axis=1)) < DUPLICATE_PX for q in quads):
                    continue
                quads.append(quad)
                yield quad / scale
