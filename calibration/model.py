"""The camera model the fit adjusts, and the robust least-squares fit itself.

The model is the one `Calibration` stores: a homography from board mm to undistorted pixels
and OpenCV's radial lens model (k1, k2) about a nominal camera matrix (principal point at
the picture's centre, focal length `nominal_camera_matrix`). Inside the fit it is held in
normalised units (board mm over half the surface, pixels over the focal length) so that
the ten parameters have comparable scales.

Observations are points found in the picture, each known to lie on a model curve (a printed
edge, line or ring): the residual of one is its distance, along the curve's projected
normal, from where the model puts that curve, expressed in board mm.

Printed ink spreads (and a picture's blur and tone curve move a dark-on-light edge's
steepest point towards the light side): a single edge of a printed mark is seen a little
outside the mark's nominal outline, and a printed circle's radius is only as exact as its
printing. The fit therefore carries a few nuisance offsets, estimated with the camera: the
spread of the thick base lines' edges (both edges of each line pin it down; their middle,
which carries the geometry, does not move), the radius of the base circles as seen, the
outer circle's, the centre circle's (the queen sits on it at the break) and the pockets'
(a cut edge around the hole). Their centres and shapes still inform the fit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration import geometry as g
from calibration.camera import Calibration, nominal_camera_matrix

BOARD_UNIT_MM = g.HALF_SURFACE_MM  # board coordinates are divided by this inside the fit
N_CAMERA = 10  # eight homography entries (h33 = 1), k1, k2
# Offsets of: 1 the base lines' edges, 2 the base circles' radius, 3 the outer circle's, 4 the
# centre circle's, 5 the pockets' (see calibration.landmarks).
SPREAD_GROUPS = 5
N_PARAMS = N_CAMERA + SPREAD_GROUPS
SPREAD_PRIOR_SD_MM = 2.0
# A board seen from a camera tilted up to about 15 degrees still looks nearly square at its
# centre: the two axes' scales differ by 1 - cos(tilt) (3.4 % at 15 degrees) and stay
# nearly perpendicular. This prior spread lets a fit with a side hidden (three sides' lines
# leave the fourth's distance free) put it where a square board has it.
SQUARE_PRIOR_SD = 0.05
# Prior spreads of the lens coefficients in the nominal camera's units: phones reach
# k1 = -0.3 with a focal length shorter than the nominal one, which makes the nominal k1
# up to about -0.7; k2 is mostly unobservable on a board and only pulled towards 0.
K1_PRIOR_SD = 1.0
K2_PRIOR_SD = 0.15
FD_STEP = 1e-6  # finite-difference step on the normalised parameters
CONVERGED_STEP = 1e-7  # normalised parameter change (about 1e-4 px) that ends the iterations
CONVERGED_COST = 1e-4  # ... or relative decrease of the cost


@dataclass(frozen=True)
class CameraModel:
    image_size: tuple[int, int]
    hn: np.ndarray  # (3, 3) normalised board -> normalised undistorted image, hn[2, 2] = 1
    k1: float = 0.0
    k2: float = 0.0

    @property
    def focal(self) -> float:
        return float(nominal_camera_matrix(self.image_size)[0, 0])

    @property
    def centre(self) -> np.ndarray:
        w, h = self.image_size
        return np.array([w / 2.0, h / 2.0])

    # ------------------------------------------------------------------ conversions
    @classmethod
    def from_homography(
        cls, image_size: tuple[int, int], h: np.ndarray, k1: float = 0.0, k2: float = 0.0
    ) -> CameraModel:
        """From a board mm -> undistorted pixel homography."""
        k = nominal_camera_matrix(image_size)
        scale = np.diag([BOARD_UNIT_MM, BOARD_UNIT_MM, 1.0])
        hn = np.linalg.inv(k) @ np.asarray(h, float) @ scale
        return cls(image_size, hn / hn[2, 2], float(k1), float(k2))

    @classmethod
    def from_calibration(cls, cal: Calibration) -> CameraModel:
        """Re-expressed about the nominal camera matrix: exact for a camera with square
        pixels and its principal point at the picture's centre (the lens's coefficients
        scale with the focal length's ratio), approximate otherwise."""
        k = np.asarray(cal.camera_matrix, float)
        nominal = nominal_camera_matrix(cal.image_size)
        ratio = float(k[0, 0] / nominal[0, 0])  # picture focal over nominal focal
        hn = (
            np.linalg.inv(k)
            @ np.asarray(cal.homography, float)
            @ np.diag([BOARD_UNIT_MM, BOARD_UNIT_MM, 1.0])
        )
        hn = np.diag([ratio, ratio, 1.0]) @ (hn / hn[2, 2])
        k1, k2 = (float(v) for v in np.asarray(cal.dist_coeffs, float).reshape(-1)[:2])
        return cls(cal.image_size, hn / hn[2, 2], k1 / ratio**2, k2 / ratio**4)

    def homography(self) -> np.ndarray:
        k = nominal_camera_matrix(self.image_size)
        h = k @ self.hn @ np.diag([1.0 / BOARD_UNIT_MM, 1.0 / BOARD_UNIT_MM, 1.0])
        return h / h[2, 2]

    def calibration(self, error_mm: float = 0.0, landmarks: tuple[str, ...] = ()) -> Calibration:
        dist = np.array([self.k1, self.k2, 0.0, 0.0, 0.0])
        return Calibration(
            self.image_size,
            nominal_camera_matrix(self.image_size),
            dist,
            self.homography(),
            error_mm,
            landmarks,
        )

    def params(self) -> np.ndarray:
        return np.concatenate([self.hn.reshape(-1)[:8], [self.k1, self.k2]])

    def with_params(self, p: np.ndarray) -> CameraModel:
        """From the first N_CAMERA entries of a parameter vector."""
        hn = np.append(p[:8], 1.0).reshape(3, 3)
        return CameraModel(self.image_size, hn, float(p[8]), float(p[9]))

    # ------------------------------------------------------------------ projection
    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N, 2) pixels in the (distorted) picture."""
        return _project(self.params(), np.asarray(points_mm, float), self.focal, self.centre)

    def scale_px_per_mm(self, points_mm: np.ndarray, directions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """At each board point, the picture's unit vector of a board direction and how many
        pixels one mm along it spans."""
        step = 0.5
        a = self.project(points_mm)
        b = self.project(points_mm + step * directions)
        d = b - a
        length = np.linalg.norm(d, axis=1)
        return d / np.maximum(length, 1e-12)[:, None], length / step

    def inside(self, px: np.ndarray, margin: float = 2.0) -> np.ndarray:
        w, h = self.image_size
        return (
            (px[:, 0] >= margin)
            & (px[:, 0] <= w - 1 - margin)
            & (px[:, 1] >= margin)
            & (px[:, 1] <= h - 1 - margin)
        )


def _project(p: np.ndarray, pts_mm: np.ndarray, focal: float, centre: np.ndarray) -> np.ndarray:
    x = pts_mm[:, 0] / BOARD_UNIT_MM
    y = pts_mm[:, 1] / BOARD_UNIT_MM
    w = p[6] * x + p[7] * y + 1.0
    w = np.where(np.abs(w) < 1e-9, 1e-9, w)
    u = (p[0] * x + p[1] * y + p[2]) / w
    v = (p[3] * x + p[4] * y + p[5]) / w
    r2 = u * u + v * v
    factor = (1.0 + p[8] * r2 + p[9] * r2 * r2) * focal
    out = np.empty((len(x), 2))
    out[:, 0] = u * factor + centre[0]
    out[:, 1] = v * factor + centre[1]
    return out


def _squareness(p: np.ndarray) -> np.ndarray:
    """(relative scale difference, cosine) of the board's axes at its centre, undistorted."""
    x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]) * 1e-3
    w = p[6] * x[:, 0] + p[7] * x[:, 1] + 1.0
    u = (p[0] * x[:, 0] + p[1] * x[:, 1] + p[2]) / w
    v = (p[3] * x[:, 0] + p[4] * x[:, 1] + p[5]) / w
    ax = np.array([u[1] - u[0], v[1] - v[0]])
    ay = np.array([u[2] - u[0], v[2] - v[0]])
    lx, ly = np.linalg.norm(ax), np.linalg.norm(ay)
    return np.array([(lx - ly) / max(lx + ly, 1e-12) * 2.0, float(ax @ ay) / max(lx * ly, 1e-12)])


@dataclass(frozen=True)
class Observations:
    """Points found in the picture, each on a known model curve.

    `model_mm` is the model point the search started from, `normal_mm` the curve's unit
    normal there (board), `found_px` where the curve was seen, `landmark` an integer label
    of the landmark the point belongs to (for the quality figures), `spread_group` the
    ink-spread group of the edge (0: none) and `spread_sign` which way spreading moves it
    along the normal (+1, -1, or 0 for a centre line)."""

    model_mm: np.ndarray  # (N, 2)
    normal_mm: np.ndarray  # (N, 2)
    found_px: np.ndarray  # (N, 2)
    landmark: np.ndarray  # (N,) int index into a names list
    spread_group: np.ndarray | None = None  # (N,) int
    spread_sign: np.ndarray | None = None  # (N,) float

    def groups(self) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.model_mm)
        group = np.zeros(n, int) if self.spread_group is None else self.spread_group
        sign = np.zeros(n) if self.spread_sign is None else self.spread_sign
        return group, sign

    def __len__(self) -> int:
        return len(self.model_mm)

    @staticmethod
    def concat(parts: list[Observations]) -> Observations:
        parts = [p for p in parts if len(p)]
        if not parts:
            z = np.zeros((0, 2))
            return Observations(z, z, z, np.zeros(0, int))
        return Observations(
            np.concatenate([p.model_mm for p in parts]),
            np.concatenate([p.normal_mm for p in parts]),
            np.concatenate([p.found_px for p in parts]),
            np.concatenate([p.landmark for p in parts]),
            np.concatenate([p.groups()[0] for p in parts]),
            np.concatenate([p.groups()[1] for p in parts]),
        )


@dataclass(frozen=True)
class FitResult:
    model: CameraModel
    residual_mm: np.ndarray  # per observation, signed, at the final model
    weight: np.ndarray  # final robust weight per observation (0: rejected)
    inlier: np.ndarray  # bool per observation
    spread_mm: np.ndarray  # (SPREAD_GROUPS,) ink spread estimates


def residuals_mm(model: CameraModel, obs: Observations, spread_mm: np.ndarray | None = None) -> np.ndarray:
    """Signed distance (board mm, along the model normal) of each found point from where
    the model expects it, to first order: the pixel offset along the projected normal over
    the local scale."""
    n_img, px_per_mm = model.scale_px_per_mm(obs.model_mm, obs.normal_mm)
    offset_px = np.sum((obs.found_px - model.project(obs.model_mm)) * n_img, axis=1)
    group, sign = obs.groups()
    spreads = np.concatenate([[0.0], np.zeros(SPREAD_GROUPS) if spread_mm is None else spread_mm])
    return offset_px / px_per_mm - sign * spreads[group]


def _project_jac(p: np.ndarray, pts_mm: np.ndarray, focal: float, centre: np.ndarray):
    """Pixels (N, 2) and their derivatives (N, 2, N_CAMERA) with respect to the camera
    parameters."""
    x = pts_mm[:, 0] / BOARD_UNIT_MM
    y = pts_mm[:, 1] / BOARD_UNIT_MM
    w = p[6] * x + p[7] * y + 1.0
    w = np.where(np.abs(w) < 1e-9, 1e-9, w)
    iw = 1.0 / w
    u = (p[0] * x + p[1] * y + p[2]) * iw
    v = (p[3] * x + p[4] * y + p[5]) * iw
    r2 = u * u + v * v
    f_rad = 1.0 + p[8] * r2 + p[9] * r2 * r2
    df_dr2 = p[8] + 2.0 * p[9] * r2
    # d(U, V)/d(u, v), U = u F f + cx, V = v F f + cy.
    du_u = focal * (f_rad + 2.0 * u * u * df_dr2)
    du_v = focal * (2.0 * u * v * df_dr2)
    dv_v = focal * (f_rad + 2.0 * v * v * df_dr2)
    n = len(x)
    d_uv = np.zeros((n, 2, N_CAMERA))  # d(u, v)/dp for the homography entries
    d_uv[:, 0, 0], d_uv[:, 0, 1], d_uv[:, 0, 2] = x * iw, y * iw, iw
    d_uv[:, 1, 3], d_uv[:, 1, 4], d_uv[:, 1, 5] = x * iw, y * iw, iw
    d_uv[:, 0, 6], d_uv[:, 0, 7] = -u * x * iw, -u * y * iw
    d_uv[:, 1, 6], d_uv[:, 1, 7] = -v * x * iw, -v * y * iw
    jac = np.empty((n, 2, N_CAMERA))
    jac[:, 0, :] = du_u[:, None] * d_uv[:, 0, :] + du_v[:, None] * d_uv[:, 1, :]
    jac[:, 1, :] = du_v[:, None] * d_uv[:, 0, :] + dv_v[:, None] * d_uv[:, 1, :]
    jac[:, 0, 8], jac[:, 0, 9] = focal * u * r2, focal * u * r2 * r2
    jac[:, 1, 8], jac[:, 1, 9] = focal * v * r2, focal * v * r2 * r2
    px = np.empty((n, 2))
    px[:, 0] = u * f_rad * focal + centre[0]
    px[:, 1] = v * f_rad * focal + centre[1]
    return px, jac


def fit(
    model: CameraModel,
    obs: Observations,
    *,
    fit_lens: bool = True,
    prior_sd: float | None = None,
    square: bool = False,
    iterations: int = 12,
    min_scale_mm: float = 0.3,
    robust: bool = True,
) -> FitResult:
    """Robust Gauss-Newton (Levenberg damping, Tukey weights from the residuals' MAD).

    The normals and scales are taken at the starting model and kept (point-to-tangent
    distances, as in ICP); callers re-search and re-fit as the model moves. `prior_sd`, in
    board mm, softly ties the homography to the starting model where the observations leave
    it free (a side covered by a hand). Without `robust`, plain least squares: for
    observations already screened (a whole side may legitimately move by several mm, which
    the robust weights would take for outliers). `square` adds the prior that the board
    looks nearly square at its centre (SQUARE_PRIOR_SD)."""
    p0 = np.concatenate([model.params(), np.zeros(SPREAD_GROUPS)])
    focal, centre = model.focal, model.centre
    group, sign = obs.groups()
    n_img, px_per_mm = model.scale_px_per_mm(obs.model_mm, obs.normal_mm)
    pts = obs.model_mm
    target = np.sum(obs.found_px * n_img, axis=1)
    free = list(range(N_CAMERA)) if fit_lens else list(range(8))
    free += [N_CAMERA + k - 1 for k in range(1, SPREAD_GROUPS + 1) if np.any((group == k) & (sign != 0))]
    free_idx = np.array(free)
    prior_pts = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1], [0, 0]], float) * g.HALF_SURFACE_MM
    prior_px0 = _project(p0, prior_pts, focal, centre)
    prior_scale = model.scale_px_per_mm(prior_pts, np.tile([1.0, 0.0], (len(prior_pts), 1)))[1]
    # The spread columns of the Jacobian: constant.
    spread_jac = np.zeros((len(obs), SPREAD_GROUPS))
    for k in range(1, SPREAD_GROUPS + 1):
        spread_jac[:, k - 1] = np.where(group == k, sign, 0.0)

    def obs_resid(p: np.ndarray, with_jac: bool) -> tuple[np.ndarray, np.ndarray | None]:
        spreads = np.concatenate([[0.0], p[N_CAMERA:]])
        if not with_jac:
            px = _project(p, pts, focal, centre)
            jac = None
        else:
            px, dpx = _project_jac(p, pts, focal, centre)
            along_normal = dpx[:, 0, :] * n_img[:, :1] + dpx[:, 1, :] * n_img[:, 1:]
            jac = np.concatenate([along_normal / px_per_mm[:, None], spread_jac], axis=1)
        r = (np.sum(px * n_img, axis=1) - target) / px_per_mm + sign * spreads[group]
        return r, jac

    def prior_resid(p: np.ndarray, with_jac: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        rows = [np.array([p[8] / K1_PRIOR_SD, p[9] / K2_PRIOR_SD]), p[N_CAMERA:] / SPREAD_PRIOR_SD_MM]
        jacs = []
        if with_jac:
            j_lens = np.zeros((2, N_PARAMS))
            j_lens[0, 8], j_lens[1, 9] = 1.0 / K1_PRIOR_SD, 1.0 / K2_PRIOR_SD
            j_spread = np.zeros((SPREAD_GROUPS, N_PARAMS))
            j_spread[:, N_CAMERA:] = np.eye(SPREAD_GROUPS) / SPREAD_PRIOR_SD_MM
            jacs += [j_lens, j_spread]
        if prior_sd is not None:
            px, dpx = _project_jac(p, prior_pts, focal, centre)
            denom = prior_scale[:, None] * prior_sd
            rows.append(((px - prior_px0) / denom).reshape(-1))
            if with_jac:
                j_moved = np.zeros((2 * len(prior_pts), N_PARAMS))
                j_moved[:, :N_CAMERA] = (dpx / denom[:, :, None]).reshape(-1, N_CAMERA)
                jacs.append(j_moved)
        if square:
            sq = _squareness(p) / SQUARE_PRIOR_SD
            rows.append(sq)
            if with_jac:
                j_sq = np.zeros((2, N_PARAMS))
                for k in range(8):  # lens and offsets do not enter
                    step = np.zeros(N_PARAMS)
                    step[k] = FD_STEP
                    j_sq[:, k] = (_squareness(p + step) / SQUARE_PRIOR_SD - sq) / FD_STEP
                jacs.append(j_sq)
        return np.concatenate(rows), (np.concatenate(jacs) if with_jac else None)

    def cost(p: np.ndarray, weight: np.ndarray) -> float:
        r, _j = obs_resid(p, False)
        return float(np.sum(weight * r * r) + np.sum(prior_resid(p)[0] ** 2))

    n = len(obs)
    p = p0.copy()
    lam = 1e-3
    for it in range(iterations):
        r, jac_obs = obs_resid(p, True)
        assert jac_obs is not None
        scale = max(min_scale_mm, 1.4826 * float(np.median(np.abs(r - np.median(r))))) if n else min_scale_mm
        c = 4.685 * scale
        u = np.clip(np.abs(r) / c, 0.0, 1.0)
        weight = (1.0 - u * u) ** 2 if robust else np.ones(n)
        if it == 0 and robust:
            weight = np.where(np.abs(r) < max(c, 3.0 * min_scale_mm), weight, 0.0)
        rp, jac_prior = prior_resid(p, True)
        assert jac_prior is not None
        jo = jac_obs[:, free_idx]
        jp = jac_prior[:, free_idx]
        a = jo.T @ (jo * weight[:, None]) + jp.T @ jp
        b = jo.T @ (weight * r) + jp.T @ rp
        cost0 = float(np.sum(weight * r * r) + np.sum(rp * rp))
        improved = False
        delta = np.zeros(len(free_idx))
        for _ in range(6):
            try:
                delta = np.linalg.solve(a + lam * np.diag(np.diag(a) + 1e-12), -b)
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            trial = p.copy()
            trial[free_idx] += delta
            new_cost = cost(trial, weight)
            if new_cost < cost0:
                p = trial
                lam = max(lam / 3, 1e-7)
                improved = True
                break
            lam *= 10
        if not improved or np.max(np.abs(delta)) < CONVERGED_STEP:
            break
        if it > 0 and cost0 - new_cost < CONVERGED_COST * cost0:
            break
    final = model.with_params(p)
    r, _j = obs_resid(p, False)
    scale = max(min_scale_mm, 1.4826 * float(np.median(np.abs(r - np.median(r))))) if n else min_scale_mm
    u = np.clip(np.abs(r) / (4.685 * scale), 0.0, 1.0)
    weight = (1.0 - u * u) ** 2
    return FitResult(final, r, weight, weight > 0, p[N_CAMERA:].copy())


def position_sd_mm(
    model: CameraModel, obs: Observations, result: FitResult, points_mm: np.ndarray, floor_mm: float = 0.1
) -> np.ndarray:
    """How well the fit's observations pin the board down at each point: the standard
    deviation (board mm, the larger axis) of where a picture point maps, from the
    parameters' covariance (weighted residual variance, at least `floor_mm` squared, times the
    inverse normal matrix with the lens and offset priors). Large where nothing was seen
    near a point and the lens and perspective terms extrapolate."""
    n = len(obs)
    group, sign = obs.groups()
    p = np.concatenate([model.params(), result.spread_mm])
    n_img, px_per_mm = model.scale_px_per_mm(obs.model_mm, obs.normal_mm)
    _px, dpx = _project_jac(p, obs.model_mm, model.focal, model.centre)
    jac = np.zeros((n, N_PARAMS))
    jac[:, :N_CAMERA] = (dpx[:, 0, :] * n_img[:, :1] + dpx[:, 1, :] * n_img[:, 1:]) / px_per_mm[:, None]
    for k in range(1, SPREAD_GROUPS + 1):
        jac[:, N_CAMERA + k - 1] = np.where(group == k, sign, 0.0)
    w = result.weight
    free = np.flatnonzero(np.any(jac[w > 0] != 0.0, axis=0))
    prior = np.zeros(N_PARAMS)
    prior[8], prior[9] = 1.0 / K1_PRIOR_SD**2, 1.0 / K2_PRIOR_SD**2
    prior[N_CAMERA:] = 1.0 / SPREAD_PRIOR_SD_MM**2
    jf = jac[:, free]
    a = jf.T @ (jf * w[:, None]) + np.diag(prior[free])
    dof = max(float(w.sum()) - len(free), 1.0)
    variance = max(float(np.sum(w * result.residual_mm**2)) / dof, floor_mm**2)
    try:
        cov = variance * np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return np.full(len(points_mm), np.inf)
    _q, dq = _project_jac(p, points_mm, model.focal, model.centre)
    dq = dq[:, :, free[free < N_CAMERA]]
    cov_cam = cov[np.ix_(free < N_CAMERA, free < N_CAMERA)]
    pix_cov = dq @ cov_cam @ np.transpose(dq, (0, 2, 1))  # (M, 2, 2) pixels^2
    # Pixels to board mm: the inverse of the local board -> picture Jacobian.
    step = 0.5
    base = model.project(points_mm)
    dx = (model.project(points_mm + [step, 0.0]) - base) / step
    dy = (model.project(points_mm + [0.0, step]) - base) / step
    local = np.stack([dx, dy], axis=2)  # (M, 2, 2): d(px)/d(mm)
    inv = np.linalg.inv(local)
    board_cov = inv @ pix_cov @ np.transpose(inv, (0, 2, 1))
    return np.sqrt(np.linalg.eigvalsh(board_cov)[:, -1])
