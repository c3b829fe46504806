"""Finding landmarks in the picture near where a camera model puts them.

Two searches:
- `find_landmarks` (fine): for every sample of a landmark, an intensity profile along the
  projected normal, a few mm either side; the step edge of the expected polarity, or the
  centre of a thin dark ridge, to a fraction of a pixel.
- `snap_base_lines` (coarse): for each side, short stretches of the base-line pair (the
  thick outer line and the thin inner line 31.8 mm further in) matched as a pattern by
  normalised cross-correlation over a wide range of positions; it survives a start that
  is tens of mm off, coins and a hand over part of a side.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import cv2
import numpy as np

from calibration import geometry as g
from calibration.landmarks import EDGE, RIDGE, Landmark
from calibration.model import SPREAD_GROUPS, CameraModel, Observations

PROFILE_STEP_PX = 0.5  # fine profiles: samples this far apart in the picture
MIN_EDGE_STEP = 2.0  # grey levels per pixel a fine edge must show (noise is ~1 after blur)
RELATIVE_FLOOR = 0.3  # and this share of the landmark's typical strength
MIN_RIDGE_DEPTH = 3.0  # grey levels a thin printed rule must darken the surface by
RIDGE_REACH_PX = 2.5  # a ridge is compared with the surface this far either side (pixels)
RIDGE_REACH_MIN_MM = 3.0  # ... and at least this far (board mm), clear of the line itself

# Coarse pattern search of the base lines.
SNAP_SEGMENTS = 6  # stretches per side
SNAP_ALONG_SAMPLES = 9  # profiles per stretch (their median resists coins and fingers)
SNAP_STEP_MM = 1.0
# The pattern, in mm in from the surface's edge: the base-line pair alone, or with the
# frame (darker than the surface on every board met so far, though not by much on some).
# The frame's inner wall and the shadow along it make the last mm before the surface
# uncertain (and the frame's top can hide the surface's edge from a camera beyond it):
# that stretch is left out of the comparison.
# Each part is compared on its own and the parts' correlations averaged, the thick line's
# being required: a single correlation over the whole pattern also rewards the thin line's
# template lying on the thick line (a lure 26 to 32 mm outwards when the pattern is
# partly hidden).
PART_MARGIN_MM = 12.0  # bare surface either side of a line in its part of the comparison
_THICK_AT = g.BASE_LINE_FROM_FRAME_MM
_THIN_AT = g.BASE_LINE_FROM_FRAME_MM + g.BASE_LINE_GAP_MM
BAND_PART_MM = (_THICK_AT - PART_MARGIN_MM, _THICK_AT + g.OUTER_BASE_LINE_THICKNESS_MM + PART_MARGIN_MM)
THIN_PART_MM = (_THIN_AT - PART_MARGIN_MM, _THIN_AT + g.INNER_BASE_LINE_THICKNESS_MM + PART_MARGIN_MM)
# The frame's part reaches this far either side of the surface's edge: less than the
# narrowest frame, so it stays on the frame, and well short of the thick line.
FRAME_CONTEXT_MM = 40.0
FRAME_PART_MM = (-FRAME_CONTEXT_MM, FRAME_CONTEXT_MM)
FRAME_SKIP_MM = (-12.0, 6.0)  # ... less the frame's inner wall and its shadow
SNAP_LINES_MM = (BAND_PART_MM[0], THIN_PART_MM[1])
SNAP_FRAME_MM = (FRAME_PART_MM[0], THIN_PART_MM[1])
assert min(g.FRAME_BREADTH_RANGE_MM[0], BAND_PART_MM[0]) > FRAME_CONTEXT_MM
THIN_FLOAT = 5.0  # mm either side the thin line may sit from where the thick one puts it
FRAME_FLOAT = 20.0  # ... and the frame
MIN_SNAP_NCC = 0.55  # a stretch counts when the pattern correlates at least this well
# ... and not much worse than the picture's clear stretches do (lures under arms and
# shadows correlate, but less well than the printed pattern where it is in view).
SNAP_NCC_BELOW_CLEAR = 0.2
CLEAR_QUANTILE = 75
# The stretches of one side must agree: their positions follow a smooth curve (the start's
# error and the lens bend a side's line gently) to within this, or the odd ones out go.
SIDE_AGREE_MM = 3.0
MAX_SIDE_BOW_MM = 25.0  # the most a side's base line may bow over its length, against the start
REMAP_COLUMNS = 1024  # cv2.remap wants maps narrower than 32767: samples go in rows


@dataclass(frozen=True)
class FoundSamples:
    """Per sample: the offset (board mm along the normal) where the landmark was seen (NaN
    where not) and the peak strength."""

    offset_mm: np.ndarray
    strength: np.ndarray


def sample(gray_f: np.ndarray, px: np.ndarray) -> np.ndarray:
    """Bilinear samples at (..., 2) pixel positions; NaN outside the picture."""
    shape = px.shape[:-1]
    flat = px.reshape(-1, 2).astype(np.float32)
    n = len(flat)
    cols = REMAP_COLUMNS if n > REMAP_COLUMNS else max(n, 1)
    rows = -(-n // cols)
    maps = np.full((rows * cols, 2), -1e4, np.float32)  # padding samples fall outside
    maps[:n] = flat
    out = cv2.remap(
        gray_f,
        maps[:, 0].reshape(rows, cols),
        maps[:, 1].reshape(rows, cols),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=np.nan,
    )
    return out.reshape(-1)[:n].reshape(shape)


def _subpixel(s: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Parabolic refinement of peaks at columns j of the rows of s."""
    rows = np.arange(len(j))
    s0, s1, s2 = s[rows, j - 1], s[rows, j], s[rows, j + 1]
    denom = s0 - 2 * s1 + s2
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(denom < 0, 0.5 * (s0 - s2) / denom, 0.0)
    return j + np.clip(frac, -0.5, 0.5)


def ridge_reach(step_mm: float, px_per_mm: float) -> int:
    """How many profile steps either side a ridge is compared with the bare surface."""
    return max(2, round(max(RIDGE_REACH_PX / px_per_mm, RIDGE_REACH_MIN_MM) / step_mm))


def detect(
    prof: np.ndarray, step_mm: float, px_per_mm: float, profile: str, darker: bool, margin: int = 0
) -> FoundSamples:
    """Locate the landmark in each profile (mm from the profile's middle), looking at all but
    `margin` samples at either end. Peaks under the absolute floor are dropped here; the
    relative floor is the caller's (it depends on which landmark a profile belongs to)."""
    n, m = prof.shape
    centre = (m - 1) / 2.0
    valid = np.isfinite(prof).all(axis=1)
    p = np.nan_to_num(prof, nan=0.0)
    if profile == EDGE:
        grad = np.gradient(p, axis=1) / (step_mm * px_per_mm)  # grey levels per pixel
        s = -grad if darker else grad
        floor = MIN_EDGE_STEP
    else:
        reach = ridge_reach(step_mm, px_per_mm)
        s = np.full_like(p, -np.inf)
        if m > 2 * reach + 2:
            left, right = p[:, : m - 2 * reach], p[:, 2 * reach :]
            s[:, reach : m - reach] = np.minimum(left, right) - p[:, reach : m - reach]
        floor = MIN_RIDGE_DEPTH
    if margin > 0:
        s[:, :margin] = -np.inf
        s[:, m - margin :] = -np.inf
    j = np.argmax(s, axis=1)
    peak = s[np.arange(n), j]
    ok = valid & (j > margin) & (j < m - 1 - margin) & (peak >= floor)
    jj = np.clip(j, 1, m - 2)
    pos = _subpixel(np.where(np.isfinite(s), s, -1e9), jj)
    offset = np.where(ok, (pos - centre) * step_mm, np.nan)
    return FoundSamples(offset, np.where(ok, peak, 0.0))


@cache
def _stacked(landmarks: tuple[Landmark, ...]) -> dict[str, np.ndarray]:
    """Every sample of every landmark in flat arrays, with its landmark's attributes."""
    index = np.concatenate([np.full(len(lm), i) for i, lm in enumerate(landmarks)])
    pick = {
        "points": np.concatenate([lm.points for lm in landmarks]),
        "normals": np.concatenate([lm.normals for lm in landmarks]),
        "index": index,
        "ridge": np.array([lm.profile != EDGE for lm in landmarks])[index],
        "darker": np.array([lm.darker_along_normal for lm in landmarks])[index],
        "group": np.array([lm.spread_group for lm in landmarks])[index],
        "sign": np.array([lm.spread_sign for lm in landmarks])[index],
    }
    return pick


def find_landmarks(
    gray_f: np.ndarray,
    model: CameraModel,
    landmarks: tuple[Landmark, ...],
    window_mm: float,
    spread_mm: np.ndarray | None = None,
) -> tuple[Observations, dict[int, tuple[int, int]]]:
    """Search every landmark's samples within +-window_mm of where the model (and the
    offsets `spread_mm` of calibration.model's groups) put them: all profiles in one pass.

    Returns the observations (landmark index per point) and, per landmark index, (samples
    searched inside the picture, samples found)."""
    st = _stacked(landmarks)
    inside = model.inside(model.project(st["points"]), margin=4.0)
    counts = {i: (0, 0) for i in range(len(landmarks))}
    if not inside.any():
        return Observations.concat([]), counts
    pts, nrm, index = st["points"][inside], st["normals"][inside], st["index"][inside]
    ridge, darker = st["ridge"][inside], st["darker"][inside]
    group, sign = st["group"][inside], st["sign"][inside]
    spreads = np.concatenate([[0.0], np.zeros(SPREAD_GROUPS) if spread_mm is None else spread_mm])
    shift = sign * spreads[np.minimum(group, len(spreads) - 1)]
    _dirs, scale = model.scale_px_per_mm(pts, nrm)
    px_per_mm = float(np.median(scale))
    step = PROFILE_STEP_PX / max(px_per_mm, 1e-6)
    margin = ridge_reach(step, px_per_mm)
    half = max(window_mm, 2.0 * step) + margin * step
    offsets = np.arange(-half, half + step / 2, step)
    offsets -= offsets.mean()
    probe = pts[:, None, :] + (offsets[None, :, None] + shift[:, None, None]) * nrm[:, None, :]
    px = model.project(probe.reshape(-1, 2)).reshape(len(pts), len(offsets), 2)
    prof = sample(gray_f, px)
    offset = np.full(len(pts), np.nan)
    peak = np.zeros(len(pts))
    for is_ridge, is_darker in ((False, False), (False, True), (True, False)):
        rows = (ridge == is_ridge) & (is_ridge | (darker == is_darker))
        if not rows.any():
            continue
        found = detect(prof[rows], step, px_per_mm, RIDGE if is_ridge else EDGE, is_darker, margin)
        offset[rows], peak[rows] = found.offset_mm, found.strength
    good = np.isfinite(offset)
    # Relative floor per landmark: a fraction of its typical strength.
    for i in np.unique(index[good]):
        mine = good & (index == i)
        good[mine] &= peak[mine] >= RELATIVE_FLOOR * float(np.median(peak[mine]))
    searched = np.bincount(index, minlength=len(landmarks))
    kept = np.bincount(index[good], minlength=len(landmarks))
    counts = {i: (int(searched[i]), int(kept[i])) for i in range(len(landmarks))}
    seen = pts[good] + (offset[good, None] + shift[good, None]) * nrm[good]
    obs = Observations(pts[good], nrm[good], model.project(seen), index[good], group[good], sign[good])
    return obs, counts


# ----------------------------------------------------------------------------- snap


def _pattern(d_mm: np.ndarray, blur_mm: float) -> np.ndarray:
    """Expected brightness across a side (1 bare surface, 0 ink or frame), d in mm in from
    the surface edge, blurred like the picture."""
    outer = g.BASE_LINE_FROM_FRAME_MM
    thick = g.OUTER_BASE_LINE_THICKNESS_MM
    thin_at = g.BASE_LINE_FROM_FRAME_MM + g.BASE_LINE_GAP_MM
    fine = np.arange(d_mm[0] - 20, d_mm[-1] + 20, 0.1)
    dark = ((fine >= outer) & (fine <= outer + thick)) | (
        (fine >= thin_at) & (fine <= thin_at + g.INNER_BASE_LINE_THICKNESS_MM)
    )
    dark |= fine < 0
    signal = 1.0 - dark.astype(float)
    sigma = max(blur_mm, 0.3) / 0.1
    radius = int(3 * sigma) + 1
    kernel = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
    smooth = np.convolve(signal, kernel / kernel.sum(), mode="same")
    return np.interp(d_mm, fine, smooth)


def _part_scores(
    profile: np.ndarray,
    win: int,
    d_mm: np.ndarray,
    blur_mm: float,
    with_frame: bool,
    float_scale: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """(combined score, thick line's correlation) of every window of length `win` along the
    last axis of `profile`, each part's normalised cross-correlation with the pattern on its
    own samples (window sums from cumulative sums, the cross terms in one product)."""
    template = _pattern(d_mm, blur_mm)
    parts = [BAND_PART_MM, THIN_PART_MM] + ([FRAME_PART_MM] if with_frame else [])
    masks = []
    for lo, hi in parts:
        mask = (d_mm >= lo) & (d_mm <= hi)
        if (lo, hi) == FRAME_PART_MM:
            mask &= ~((d_mm >= FRAME_SKIP_MM[0]) & (d_mm <= FRAME_SKIP_MM[1]))
        masks.append(mask)
    n = profile.shape[-1] - win + 1
    zero = np.zeros((*profile.shape[:-1], 1))
    c1 = np.concatenate([zero, np.cumsum(profile, axis=-1)], axis=-1)
    c2 = np.concatenate([zero, np.cumsum(profile * profile, axis=-1)], axis=-1)
    centred = []
    for mask in masks:
        t = np.where(mask, template, 0.0)
        t = np.where(mask, t - t.sum() / mask.sum(), 0.0)
        centred.append(t / max(float(np.linalg.norm(t)), 1e-9))
    windows = np.lib.stride_tricks.sliding_window_view(profile, win, axis=-1)
    cross = windows @ np.stack(centred, axis=1)  # (..., n, parts)
    scores = []
    for k, mask in enumerate(masks):
        # Window sums over the mask's runs of consecutive samples.
        edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
        s1 = np.zeros((*profile.shape[:-1], n))
        s2 = np.zeros_like(s1)
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            s1 += c1[..., b : b + n] - c1[..., a : a + n]
            s2 += c2[..., b : b + n] - c2[..., a : a + n]
        count = float(mask.sum())
        var = np.maximum(s2 - s1 * s1 / count, 0.0)
        std = np.sqrt(var)
        ncc = cross[..., k] / np.maximum(std, 1e-6)
        # A flat stretch (under half a grey level across the part) says nothing.
        scores.append(np.where(std > 0.5 * np.sqrt(count), ncc, 0.0))
    # The thin line and the frame are looked for a little either side of where the thick
    # line puts them: a rough start has the scale across a side wrong by up to ~15 %.
    floats = [0.0, THIN_FLOAT, FRAME_FLOAT][: len(scores)]
    step = float(d_mm[1] - d_mm[0]) if len(d_mm) > 1 else 1.0
    for k in range(1, len(scores)):
        reach = int(round(floats[k] * float_scale / step))
        if reach > 0:
            padded = np.pad(
                scores[k], [(0, 0)] * (scores[k].ndim - 1) + [(reach, reach)], constant_values=-1.0
            )
            scores[k] = np.lib.stride_tricks.sliding_window_view(padded, 2 * reach + 1, axis=-1).max(axis=-1)
    return np.mean(scores, axis=0), scores[0]


@cache
def _combos(n: int, k: int) -> np.ndarray:
    return np.array(list(combinations(range(n), k)), int)


def _agreeing(along: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """Indices of the stretches of one side that lie on one smooth curve (a line for three,
    a parabola of bounded bow for more): the largest such set of at least three, else none."""
    n = len(along)
    if n < 3:
        return np.zeros(0, int)
    half = max(float(np.ptp(along)), 1.0) / 2.0
    a = (along - along.mean()) / half  # in [-1, 1]: the parabola's bow is its a^2 term
    degree = 1 if n == 3 else 2
    combos = _combos(n, degree + 1)
    vander = a[combos][..., None] ** np.arange(degree + 1)  # (C, d+1, d+1)
    ok = np.abs(np.linalg.det(vander)) > 1e-9
    combos, vander = combos[ok], vander[ok]
    if len(combos) == 0:
        return np.zeros(0, int)
    coef = np.linalg.solve(vander, shift[combos][..., None])[..., 0]  # (C, d+1)
    if degree == 2:
        keep = np.abs(coef[:, 2]) <= MAX_SIDE_BOW_MM
        combos, coef = combos[keep], coef[keep]
        if len(combos) == 0:
            return np.zeros(0, int)
    fitted = (a[None, :, None] ** np.arange(degree + 1)) @ coef[..., None]  # (C, n, 1)
    err = np.abs(fitted[..., 0] - shift[None, :])
    inlier = err < SIDE_AGREE_MM
    count = inlier.sum(axis=1)
    total = np.where(inlier, err, 0.0).sum(axis=1)
    best = int(np.lexsort((total, -count))[0])
    chosen = np.flatnonzero(inlier[best])
    return chosen if len(chosen) >= 3 else np.zeros(0, int)


def snap_base_lines(
    gray_f: np.ndarray, model: CameraModel, search_mm: float, px_scale: float = 1.0, with_frame: bool = False
) -> tuple[Observations, np.ndarray]:
    """Observations of the outer base line's frame-side edge, one per stretch whose pattern
    was found, and the per-stretch correlation (sides x stretches).

    `gray_f` may be a reduced copy of the picture, `px_scale` its size over the picture's;
    `with_frame` adds the frame's edge to the pattern (for a wide search)."""
    lo, hi = SNAP_FRAME_MM if with_frame else SNAP_LINES_MM
    d = np.arange(lo - search_mm, hi + search_mm + SNAP_STEP_MM / 2, SNAP_STEP_MM)
    win = int(round((hi - lo) / SNAP_STEP_MM)) + 1
    shifts = d[: len(d) - win + 1] - lo  # template start positions -> shift in mm
    half = g.BASE_CIRCLE_ALONG_MM - g.BASE_CIRCLE_RADIUS_MM - 4.0
    edges = np.linspace(-half, half, SNAP_SEGMENTS + 1)
    # Sample positions for every side, stretch, profile and depth at once: (4, S, A, D, 2).
    frac = np.linspace(0.0, 1.0, SNAP_ALONG_SAMPLES)
    along = edges[:-1, None] + (edges[1:] - edges[:-1])[:, None] * frac[None, :]  # (S, A)
    seat_along = np.array([g.seat_along(s) for s in g.SEATS])  # (4, 2)
    seat_normal = np.array([g.seat_normal(s) for s in g.SEATS])
    inward = g.HALF_SURFACE_MM - d  # (D,)
    pts = (
        seat_along[:, None, None, None, :] * along[None, :, :, None, None]
        + seat_normal[:, None, None, None, :] * inward[None, None, None, :, None]
    )
    shape = pts.shape[:-1]
    px = model.project(pts.reshape(-1, 2)).reshape(*shape, 2) * px_scale
    prof = sample(gray_f, px)  # (4, S, A, D), NaN outside the picture
    finite = np.isfinite(prof)
    covered = finite.mean(axis=2) > 0.5  # (4, S, D)
    if finite.all():
        p = np.median(prof, axis=2)  # (4, S, D)
    else:  # parts of the search run off the picture: the median of what is in it
        count = finite.sum(axis=2)
        ordered = np.sort(np.where(finite, prof, np.inf), axis=2)
        middle = np.maximum(count - 1, 0) // 2
        p = np.take_along_axis(ordered, middle[:, :, None, :], axis=2)[:, :, 0, :]
        p = np.where(count > 0, p, np.nan)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            fill = np.nanmean(p, axis=2, keepdims=True)
        p = np.where(np.isfinite(p), p, np.nan_to_num(fill))
    mid_px_per_mm = float(model.scale_px_per_mm(np.zeros((1, 2)), np.array([[1.0, 0.0]]))[1][0])
    blur_mm = max(1.0, 1.2 / max(mid_px_per_mm * px_scale, 1e-6))
    # Only the first, widest pass starts from a rough outline (scale uncertain); later
    # passes start from a fit.
    float_scale = 1.0 if with_frame else 0.2
    ncc, band = _part_scores(p, win, np.arange(win) * SNAP_STEP_MM + lo, blur_mm, with_frame, float_scale)
    ncc = np.where(band >= MIN_SNAP_NCC, ncc, np.minimum(ncc, band))
    j = np.argmax(ncc, axis=2)  # (4, S)
    scores = np.take_along_axis(ncc, j[..., None], axis=2)[..., 0]
    enough = covered.mean(axis=2) >= 0.6
    floor = MIN_SNAP_NCC
    if enough.any():
        floor = max(floor, float(np.percentile(scores[enough], CLEAR_QUANTILE)) - SNAP_NCC_BELOW_CLEAR)
    ok = enough & (scores >= floor) & (j > 0) & (j < ncc.shape[2] - 1)
    scores = np.where(enough, scores, 0.0)
    si, k = np.nonzero(ok)
    if len(si) == 0:
        return Observations.concat([]), scores
    pos = _subpixel(ncc[si, k], j[si, k])
    shift = shifts[0] + pos * SNAP_STEP_MM
    a_mid = along[k].mean(axis=1)
    keep = np.zeros(len(si), bool)
    for side in range(4):
        mine = np.flatnonzero(si == side)
        keep[mine[_agreeing(a_mid[mine], shift[mine])]] = True
    si, k, shift, a_mid = si[keep], k[keep], shift[keep], a_mid[keep]
    if len(si) == 0:
        return Observations.concat([]), scores
    normal_in = -seat_normal[si]
    model_pts = seat_along[si] * a_mid[:, None] + seat_normal[si] * g.OUTER_BASE_LINE_EDGE_MM
    seen = model_pts + normal_in * shift[:, None]
    obs = Observations(model_pts, normal_in, model.project(seen), si.astype(int))
    return obs, scores
