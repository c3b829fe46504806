"""Board calibration from one picture, no prior: hypotheses -> pattern snap -> fine fit -> gates.

1. Hypotheses (`surface.surface_candidates`, lazily, most plausible first): quadrilaterals
   of light regions (several thresholds; outlines as they are, opened, merged, and sides
   paired from straight runs), each a rough board -> picture homography.
2. Snap (`search.snap_base_lines`): the base-line pair of every side matched as a pattern in
   short stretches over +-120 mm (with the frame), then +-25 and +-8 mm; after each pass a
   fit of the homography (and from the second pass the lens's k1) to the stretches that
   agree, with a squareness prior for a side that was not found. A hand over a side, an
   outline off by tens of mm and a strongly curved lens are absorbed here.
3. Fine fit (`search.find_landmarks`, `model.fit`): every landmark kind (both edges of the
   thick base lines, the thin base lines, base circles, pockets, the centre and outer
   circles, the arrows' shafts) searched within +-4, 2, 1.5 mm at full resolution, each pass
   followed by a robust fit of the homography, k1, k2 and the marks' nuisance offsets. A fit
   supported by fewer than SURE_SUPPORT of the landmark samples gets a second look with
   windows from +-15 mm, and the better supported of the two is kept.
4. Gates: enough landmark points, spread over the board, agreeing with the fit to a
   fraction of a millimetre, a large enough share of the samples in the picture agreeing,
   and a fit that these points pin down everywhere on the surface (its covariance). The
   best supported fit that passes wins; a sure one ends the search. When none passes, the
   first failure's reason is raised.

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
from calibration.camera import Calibration
from calibration.errors import CalibrationError, NoBoardFound
from calibration.landmarks import Landmark, fine_landmarks
from calibration.model import CameraModel, FitResult, Observations, fit, position_sd_mm
from calibration.search import find_landmarks, snap_base_lines
from calibration.surface import surface_candidates

SOUTH_EDGES = ("bottom", "top", "left", "right")

SNAP_WIDTH_PX = 960  # the pattern snap runs on a copy at most this wide
SNAP_PASSES_MM = (120.0, 25.0, 8.0)  # search ranges of the snap passes
FINE_WINDOWS_MM = (4.0, 2.0, 1.5)  # search windows of the fine passes
WIDE_WINDOWS_MM = (15.0, 6.0, 2.5, 1.5)  # ... of a second look when the first is not sure
FINE_BLUR_PX = 0.8  # light smoothing before the fine profiles (noise, JPEG blocks)
SNAP_PRIOR_MM = 40.0  # how firmly the snap keeps the hypothesis where stretches are missing
SNAP_FIRST_PRIOR_MM = 150.0  # ... in its first, widest pass
MIN_SNAP_POINTS = 8  # stretches found, of 24, to go on with a hypothesis
MIN_SNAP_SIDES = 3
MIN_FIRST_SNAP_SIDES = 2
MIN_SNAP_LENS_POINTS = 16  # ... to let the snap fit k1 too
MAX_HYPOTHESES = 4  # distinct snapped hypotheses carried to the fine fit
SAME_FIT_MM = 1.5  # a snapped hypothesis this close (at the corners) to one tried adds nothing

# Gates on the final fit.
GATE_MIN_POINTS = 60  # landmark points that agree with the fit
GATE_MIN_COVERAGE = 0.3  # their hull's area over the base-line square's
GATE_MEDIAN_MM = 0.6  # median |residual| of the agreeing points
GATE_P95_MM = 1.8  # 95th percentile of |residual| over the agreeing points
GATE_MIN_SUPPORT = 0.6  # agreeing points over the samples searched inside the picture
SURE_SUPPORT = 0.7  # a fit this well supported is taken without trying the other hypotheses
INLIER_MM = 1.5  # a point agrees when within this of the fitted curve
# The landmarks found must pin the board down everywhere on the surface: the predicted
# standard deviation of a mapped point (from the fit's covariance, model.position_sd_mm)
# stays under this across a grid over the whole surface. Fits with every side in view
# reach 0.1 to 0.2 mm; one whose hidden side only the lens and perspective terms place
# goes beyond (and can be centimetres off there).
GATE_MAX_POSITION_SD_MM = 0.3
POSITION_GRID_STEPS = 7
_POSITION_GRID = np.array(
    [[x, y] for x in np.linspace(-1, 1, POSITION_GRID_STEPS) for y in np.linspace(-1, 1, POSITION_GRID_STEPS)]
) * (g.HALF_SURFACE_MM - g.POCKET_DIAMETER_MM)


@dataclass(frozen=True)
class CalibrationResult:
    calibration: Calibration
    reprojection_error_mm: float  # median |residual| of the landmark points used
    landmarks: tuple[str, ...]  # the landmarks that carried the fit
    p95_error_mm: float

    def to_dict(self) -> dict[str, Any]:
        return self.calibration.to_dict()


# ----------------------------------------------------------------------------- helpers


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _surface_model(image_size: tuple[int, int], quad: np.ndarray) -> CameraModel:
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * g.HALF_SURFACE_MM
    h = cv2.getPerspectiveTransform(corners.astype(np.float32), quad.astype(np.float32))
    return CameraModel.from_homography(image_size, h)


def _snap(snap_gray: np.ndarray, scale: float, model: CameraModel) -> CameraModel | None:
    """The snap passes from one hypothesis; None when the base-line pattern is not there."""
    found_before: dict[int, Observations] = {}
    for search in SNAP_PASSES_MM:
        first = search == SNAP_PASSES_MM[0]
        obs, _ncc = snap_base_lines(snap_gray, model, search, scale, with_frame=first)
        sides = set(obs.landmark.tolist())
        if len(sides) < MIN_FIRST_SNAP_SIDES:
            return None
        # A side found before (the wide pattern includes the frame) but not in this pass
        # (a hand over its thin line) keeps what was found: left free, the lens and
        # perspective terms would swing it away.
        kept = [o for side, o in found_before.items() if side not in sides]
        found_before.update({side: _select(obs, obs.landmark == side) for side in sides})
        obs = Observations.concat([obs, *kept])
        # From a rough outline two sides may be all the first pass finds; the squareness
        # prior carries the fit until the narrower passes find a third.
        if len(obs) < MIN_SNAP_POINTS or len(set(obs.landmark.tolist())) < (
            MIN_FIRST_SNAP_SIDES if first else MIN_SNAP_SIDES
        ):
            return None
        # k1 only from all four sides: from three it mostly moves the fourth.
        lens = len(obs) >= MIN_SNAP_LENS_POINTS and not first and len(set(obs.landmark.tolist())) == 4
        # The first pass may move a side far (an arm made the outline wrong): the outline
        # is held loosely, the board's squareness fills in a side that was not found.
        prior = SNAP_FIRST_PRIOR_MM if first else SNAP_PRIOR_MM
        result = fit(model, obs, fit_lens=lens, prior_sd=prior, square=True, robust=False)
        if result.inlier.sum() < MIN_SNAP_POINTS:
            return None
        model = result.model
    return model


def _select(obs: Observations, mask: np.ndarray) -> Observations:
    group, sign = obs.groups()
    return Observations(
        obs.model_mm[mask],
        obs.normal_mm[mask],
        obs.found_px[mask],
        obs.landmark[mask],
        group[mask],
        sign[mask],
    )


def _coverage(points: np.ndarray) -> float:
    """Area of the points' hull (board mm) over the base-line square's."""
    if len(points) < 3:
        return 0.0
    hull = cv2.convexHull(points.astype(np.float32))
    return float(cv2.contourArea(hull)) / (2 * g.OUTER_BASE_LINE_EDGE_MM) ** 2


def _fine(
    gray_f: np.ndarray,
    model: CameraModel,
    landmarks: tuple[Landmark, ...],
    windows: tuple[float, ...] = (),
    spread: np.ndarray | None = None,
) -> tuple[FitResult, Observations, dict[int, tuple[int, int]]]:
    result: FitResult | None = None
    obs = Observations.concat([])
    counts: dict[int, tuple[int, int]] = {}
    for window in windows or FINE_WINDOWS_MM:
        obs, counts = find_landmarks(gray_f, model, landmarks, window, spread)
        if len(obs) < GATE_MIN_POINTS // 2:
            raise CalibrationError(f"only {len(obs)} landmark points were found near the board's fit")
        result = fit(model, obs)
        model, spread = result.model, result.spread_mm
    assert result is not None
    return result, obs, counts


def _support(result: FitResult, counts: dict[int, tuple[int, int]]) -> float:
    """Landmark points that agree with the fit over the samples searched in the picture."""
    agree = int(np.count_nonzero(np.abs(result.residual_mm) < INLIER_MM))
    return agree / max(sum(c[0] for c in counts.values()), 1)


def _judge(
    result: FitResult, obs: Observations, counts: dict[int, tuple[int, int]], landmarks: tuple[Landmark, ...]
) -> tuple[float, float, tuple[str, ...], float]:
    """(median, p95 |residual| of agreeing points, landmarks used, support), or
    CalibrationError."""
    r = np.abs(result.residual_mm)
    agree = r < INLIER_MM
    n = int(agree.sum())
    searched = sum(c[0] for c in counts.values())
    if n < GATE_MIN_POINTS:
        raise CalibrationError(
            f"only {n} landmark points agree with the board's fit (at least {GATE_MIN_POINTS})"
        )
    coverage = _coverage(obs.model_mm[agree])
    if coverage < GATE_MIN_COVERAGE:
        raise CalibrationError(
            f"the landmarks found cover too little of the board ({coverage:.0%} of the base-line square)"
        )
    support = n / max(searched, 1)
    if support < GATE_MIN_SUPPORT:
        raise CalibrationError(
            f"the board fit is doubtful: only {support:.0%} of the printed landmarks agree with it"
        )
    sd = float(np.max(position_sd_mm(result.model, obs, result, _POSITION_GRID)))
    if sd > GATE_MAX_POSITION_SD_MM:
        raise CalibrationError(
            f"the landmarks found leave part of the board loosely placed (to {sd:.2f} mm, 1 sd): "
            "too much of it hidden"
        )
    median, p95 = float(np.median(r[agree])), float(np.percentile(r[agree], 95))
    if median > GATE_MEDIAN_MM or p95 > GATE_P95_MM:
        raise CalibrationError(
            f"the board fit is doubtful: landmark error median {median:.2f} mm, 95th {p95:.2f} mm"
        )
    used = []
    for index, lm in enumerate(landmarks):
        if np.count_nonzero(agree & (obs.landmark == index)) >= max(3, 0.3 * len(lm)):
            used.append(lm.name)
    return median, p95, tuple(used), support


def quarter_turned(homography: np.ndarray, quarter: int) -> np.ndarray:
    """`homography` (board mm -> pixels) with the board frame turned `quarter` times 90
    degrees: the same fit with the sides named the next way round."""
    c, s = np.cos(quarter * np.pi / 2), np.sin(quarter * np.pi / 2)
    return homography @ np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _orient(h: np.ndarray, south: str | None) -> np.ndarray:
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
        hr = quarter_turned(h, quarter)
        south_mid = cv2.perspectiveTransform(np.array([[[0.0, -g.HALF_SURFACE_MM]]]), hr).reshape(2)
        score = float(np.dot(south_mid - centre, target))
        if score > best_score:
            best, best_score = hr, score
    return best / best[2, 2]


def _finish(gray_f: np.ndarray, model: CameraModel, south: str | None) -> tuple[CalibrationResult, float]:
    """The fine fit from a snapped hypothesis, judged: (result, support)."""
    landmarks = fine_landmarks()
    result, obs, counts = _fine(gray_f, model, landmarks)
    if _support(result, counts) < SURE_SUPPORT:
        # Not clearly right: search again from the fit with a wide window. Where the fit is
        # right, the robust fit keeps it; where a hidden side let it go wrong, landmarks
        # seen a little off (circles, arrows, the other lines) pull it back.
        wide = _fine(gray_f, result.model, landmarks, WIDE_WINDOWS_MM, result.spread_mm)
        if _support(wide[0], wide[2]) > _support(result, counts):
            result, obs, counts = wide
    median, p95, used, support = _judge(result, obs, counts, landmarks)
    final = result.model
    h = _orient(final.homography(), south)
    oriented = CameraModel.from_homography(final.image_size, h, final.k1, final.k2)
    return CalibrationResult(oriented.calibration(median, used), median, used, p95), support


def _same_fit(a: CameraModel, b: CameraModel) -> bool:
    """Whether two models put the board in the same place (to a few px at the corners)."""
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * g.HALF_SURFACE_MM
    pa, pb = a.project(corners), b.project(corners)
    scale = np.linalg.norm(pa[0] - pa[2]) / (2 * np.sqrt(2) * g.HALF_SURFACE_MM)  # px per mm
    # Up to the quarter turn that names the sides.
    gap = min(np.max(np.linalg.norm(pa - np.roll(pb, k, axis=0), axis=1)) for k in range(4))
    return bool(gap < SAME_FIT_MM * scale)


def _check_south(south: str | None) -> None:
    if south is not None and south not in SOUTH_EDGES:
        raise CalibrationError(f"south must be one of {', '.join(SOUTH_EDGES)}, got {south!r}")


# ----------------------------------------------------------------------------- API


def calibrate_image(image_bgr: np.ndarray, *, south: str | None = None) -> CalibrationResult:
    """Calibrate from one frame, no prior. Raises NoBoardFound or CalibrationError."""
    _check_south(south)
    if image_bgr is None or image_bgr.ndim < 2 or image_bgr.size == 0:
        raise NoBoardFound("empty picture")
    gray = _gray(image_bgr)
    height, width = gray.shape
    image_size = (width, height)
    scale = min(1.0, SNAP_WIDTH_PX / width)
    snap_gray = cv2.resize(gray, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    snap_gray = cv2.GaussianBlur(snap_gray, (0, 0), 1.0).astype(np.float32)
    gray_f: np.ndarray | None = None
    # Hypotheses in turn, each snapped and, unless it lands where an earlier one did, fitted
    # and judged. The best supported fit that passes the gates wins: a start that was wrong
    # on a hidden side can still pass them with the landmarks of the other sides, never with
    # as many as the right fit. A fit supported well enough ends the search early.
    failures: list[str] = []
    tried: list[CameraModel] = []
    best: tuple[CalibrationResult, float] | None = None
    outlines = fitted = 0
    for quad in surface_candidates(gray):
        outlines += 1
        snapped = _snap(snap_gray, scale, _surface_model(image_size, quad))
        if snapped is None or any(_same_fit(snapped, t) for t in tried):
            continue
        tried.append(snapped)
        fitted += 1
        if gray_f is None:
            gray_f = cv2.GaussianBlur(gray, (0, 0), FINE_BLUR_PX).astype(np.float32)
        try:
            result, support = _finish(gray_f, snapped, south)
        except CalibrationError as exc:
            failures.append(str(exc))
        else:
            tried.append(
                CameraModel.from_calibration(result.calibration)
            )  # later starts landing here add nothing
            if best is None or support > best[1]:
                best = (result, support)
            if support >= SURE_SUPPORT:
                break
        if fitted >= MAX_HYPOTHESES:
            break
    if best is not None:
        return best[0]
    if not outlines:
        raise NoBoardFound("no light, four-sided region that could be a playing surface")
    if not failures:
        raise NoBoardFound("no base lines around a light surface (the printed pattern was not found)")
    raise CalibrationError(failures[0])


def refine(
    gray: np.ndarray,
    h: np.ndarray,
    image_size: tuple[int, int],
    *,
    south: str | None = None,
    k: np.ndarray | None = None,
    dist: np.ndarray | None = None,
    snap: bool = True,
) -> CalibrationResult:
    """Refine an approximate calibration (homography `h` to undistorted pixels, camera
    matrix `k`, distortion `dist`) against the printed landmarks: the warm start after a
    small camera move. The fit works about the nominal camera matrix; a start about another
    one is re-expressed (CameraModel.from_calibration)."""
    _check_south(south)
    gray = _gray(gray)
    d = np.zeros(5) if dist is None else np.asarray(dist, float)
    if k is not None:
        cal = Calibration(image_size, np.asarray(k, float), d, np.asarray(h, float))
        model = CameraModel.from_calibration(cal)
    else:
        model = CameraModel.from_homography(image_size, h, float(d[0]), float(d[1]))
    if snap:
        width = image_size[0]
        scale = min(1.0, SNAP_WIDTH_PX / width)
        snap_gray = cv2.resize(
            gray, (round(width * scale), round(image_size[1] * scale)), interpolation=cv2.INTER_AREA
        )
        snap_gray = cv2.GaussianBlur(snap_gray, (0, 0), 1.0).astype(np.float32)
        for search in SNAP_PASSES_MM[1:]:
            obs, _ncc = snap_base_lines(snap_gray, model, search, scale)
            if len(obs) >= MIN_SNAP_POINTS and len(set(obs.landmark.tolist())) >= MIN_SNAP_SIDES:
                model = fit(model, obs, fit_lens=False, prior_sd=SNAP_PRIOR_MM, robust=False).model
    gray_f = cv2.GaussianBlur(gray, (0, 0), FINE_BLUR_PX).astype(np.float32)
    return _finish(gray_f, model, south)[0]
