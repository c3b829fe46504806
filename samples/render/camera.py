"""The synthetic camera: a pinhole over the board with OpenCV's radial lens model.

A `CameraPose` is built from physical parameters (field of view, in-plane rotation, tilt,
the board point it looks at, fill), and gives exactly what calibration.camera's
`Calibration` holds: the homography board mm -> undistorted pixels, the camera matrix and
the distortion coefficients (k1, k2; p1 = p2 = k3 = 0). `project` is the forward model the
truth is written with; `board_maps` inverts it per pixel to warp the board texture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from calibration import geometry as g
from calibration.camera import Calibration
from samples.render.styles import Style

# Plausible lenses for an overhead rig or a phone: horizontal field of view in degrees.
FIELD_OF_VIEW_DEG = (45.0, 75.0)
# The whole playing surface stays this far (in pixels) inside the frame.
SURFACE_MARGIN_PX = 4.0


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


@dataclass(frozen=True)
class CameraParams:
    image_size: tuple[int, int]  # (width, height)
    fov_deg: float
    roll: float  # radians: in-plane rotation of the board in the picture
    tilt: float  # radians: how far the optical axis leans from vertical
    tilt_azimuth: float  # radians: which way it leans
    target_mm: tuple[float, float]  # the board point on the optical axis
    distance_mm: float  # camera centre to target
    k1: float
    k2: float


@dataclass(frozen=True, eq=False)
class CameraPose:
    params: CameraParams
    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray  # (5,) OpenCV order k1 k2 p1 p2 k3
    homography: np.ndarray  # board mm -> undistorted px
    extrinsics: np.ndarray = field(default_factory=lambda: np.zeros((3, 4)))  # [R | t], world -> camera
    # plane_homography per height: a video asks for the same few heights millions of times.
    _planes: dict[float, np.ndarray] = field(default_factory=dict, init=False, repr=False)

    @property
    def image_size(self) -> tuple[int, int]:
        return self.params.image_size

    def calibration(self) -> Calibration:
        return Calibration(
            self.image_size, self.camera_matrix.copy(), self.dist_coeffs.copy(), self.homography.copy()
        )

    def to_dict(self) -> dict:
        return self.calibration().to_dict()

    def undistorted(self, points_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        pts = np.asarray(points_mm, float).reshape(-1, 2)
        h = self.plane_homography(height_mm)
        w = pts @ h[2, :2] + h[2, 2]
        out = np.empty_like(pts)  # filled column by column: np.stack's overhead was a tenth of a video
        np.divide(pts @ h[0, :2] + h[0, 2], w, out=out[:, 0])
        np.divide(pts @ h[1, :2] + h[1, 2], w, out=out[:, 1])
        return out

    def distort(self, undistorted_px: np.ndarray) -> np.ndarray:
        k = self.camera_matrix
        fx, fy, cx, cy = k[0, 0], k[1, 1], k[0, 2], k[1, 2]
        x = (undistorted_px[:, 0] - cx) / fx
        y = (undistorted_px[:, 1] - cy) / fy
        r2 = x * x + y * y
        factor = 1.0 + self.params.k1 * r2 + self.params.k2 * r2 * r2
        out = np.empty((len(x), 2))
        out[:, 0] = x * factor * fx + cx
        out[:, 1] = y * factor * fy + cy
        return out

    def project(self, points_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Board mm -> pixels in the (distorted) frame; the same as Calibration.board_to_image.
        With `height_mm`, the points are that far above the surface (a coin's top face, a
        hand)."""
        return self.distort(self.undistorted(points_mm, height_mm))

    def jacobians(
        self, points_mm: np.ndarray, step_mm: float = 0.5, height_mm: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """(N, 2) pixel positions and (N, 2, 2) d(pixel)/d(board mm) at each point."""
        p = np.asarray(points_mm, float).reshape(-1, 2)
        probes = np.concatenate([p, p + [step_mm, 0.0], p + [0.0, step_mm]])
        img = self.project(probes, height_mm).reshape(3, -1, 2)
        jac = np.empty((len(p), 2, 2))
        jac[:, :, 0] = (img[1] - img[0]) / step_mm
        jac[:, :, 1] = (img[2] - img[0]) / step_mm
        return img[0], jac

    def undistort_pixels(self, distorted_px: np.ndarray) -> np.ndarray:
        """Exact inverse of `distort` for the radial model (a monotonic 1-D lookup)."""
        k = self.camera_matrix
        fx, fy, cx, cy = k[0, 0], k[1, 1], k[0, 2], k[1, 2]
        xd = (distorted_px[..., 0] - cx) / fx
        yd = (distorted_px[..., 1] - cy) / fy
        rd = np.sqrt(xd * xd + yd * yd)
        if self.params.k1 == 0.0 and self.params.k2 == 0.0:
            return np.asarray(distorted_px, float)
        ru = np.linspace(0.0, max(2.0, float(rd.max()) * 1.5), 4096)
        rdist = ru * (1.0 + self.params.k1 * ru**2 + self.params.k2 * ru**4)
        increasing = np.concatenate([[True], np.diff(rdist) > 0])
        stop = int(np.argmin(increasing)) if not increasing.all() else len(ru)
        scale = np.ones_like(rd)
        inverse = np.interp(rd, rdist[:stop], ru[:stop])
        nonzero = rd > 1e-12
        scale[nonzero] = inverse[nonzero] / rd[nonzero]
        return np.stack([xd * scale * fx + cx, yd * scale * fy + cy], axis=-1)

    def plane_homography(self, height_mm: float) -> np.ndarray:
        """Points (x, y) of the plane `height_mm` above the surface -> undistorted pixels."""
        if height_mm == 0.0:
            return self.homography
        cached = self._planes.get(height_mm)
        if cached is not None:
            return cached
        r, t = self.extrinsics[:, :3], self.extrinsics[:, 3]
        h = self.camera_matrix @ np.column_stack([r[:, 0], r[:, 1], t + height_mm * r[:, 2]])
        h = h / h[2, 2]
        h.flags.writeable = False
        self._planes[height_mm] = h
        return h

    def pixels_to_board(self, distorted_px: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Where each pixel's ray meets the plane `height_mm` above the surface, in board mm."""
        und = self.undistort_pixels(distorted_px)
        inv = np.linalg.inv(self.plane_homography(height_mm))
        x, y = und[..., 0], und[..., 1]
        w = inv[2, 0] * x + inv[2, 1] * y + inv[2, 2]
        return np.stack(
            [
                (inv[0, 0] * x + inv[0, 1] * y + inv[0, 2]) / w,
                (inv[1, 0] * x + inv[1, 1] * y + inv[1, 2]) / w,
            ],
            -1,
        )

    def board_grid(self, height_mm: float = 0.0) -> np.ndarray:
        """(H, W, 2) float32: where the ray of every pixel centre meets the plane `height_mm`
        above the surface (0: the playing surface itself), in board mm."""
        width, height = self.image_size
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
        return self.pixels_to_board(np.stack([xs, ys], -1), height_mm).astype(np.float32)


def build_pose(params: CameraParams) -> CameraPose:
    width, height = params.image_size
    f = (width / 2.0) / math.tan(math.radians(params.fov_deg) / 2.0)
    k = np.array([[f, 0.0, width / 2.0], [0.0, f, height / 2.0], [0.0, 0.0, 1.0]])
    # World: board plane z = 0, x east, y north, z up. Camera axes: x right, y down, z forward.
    nadir = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])
    roll = _rotation(np.array([0.0, 0.0, 1.0]), params.roll)
    axis = np.array([math.cos(params.tilt_azimuth), math.sin(params.tilt_azimuth), 0.0])
    tilt = _rotation(axis, params.tilt)
    r = tilt @ roll @ nadir  # world -> camera
    forward_world = r[2]
    target = np.array([params.target_mm[0], params.target_mm[1], 0.0])
    centre = target - forward_world * params.distance_mm
    t = -r @ centre
    h = k @ np.column_stack([r[:, 0], r[:, 1], t])
    h /= h[2, 2]
    dist = np.array([params.k1, params.k2, 0.0, 0.0, 0.0])
    return CameraPose(params, k, dist, h, np.column_stack([r, t]))


def _corners(half: float) -> np.ndarray:
    return np.array([[-half, -half], [half, -half], [half, half], [-half, half]], float)


def _side_px(quad_px: np.ndarray) -> float:
    """The side of the square with the projected quadrilateral's area (shoelace formula)."""
    x, y = quad_px[:, 0], quad_px[:, 1]
    area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
    return math.sqrt(area)


def fit_pose(params: CameraParams, fill: float, offset: tuple[float, float]) -> CameraPose:
    """Move the camera so the board (with its frame) is `fill` of the frame height across
    (the side of a square of the same area in the picture, whatever the rotation) and
    its centre sits `offset` (fractions of the free room, -1..1) from the frame centre."""
    width, height = params.image_size
    outer = _corners(g.HALF_SURFACE_MM + g.FRAME_BREADTH_MM)
    pose = build_pose(params)
    for _ in range(6):
        pts = pose.project(outer)
        span = _side_px(pts)
        params = replace(params, distance_mm=params.distance_mm * span / (fill * height))
        pose = build_pose(params)
        pts = pose.project(outer)
        lo, hi = pts.min(0), pts.max(0)
        room = np.maximum(np.array([width, height]) - (hi - lo), 0.0) / 2.0
        want = np.array([width, height]) / 2.0 + room * np.asarray(offset) - (lo + hi) / 2.0
        # Shift the aim point so the picture moves by `want` pixels (local scale at the centre).
        _, jac = pose.jacobians(np.array([params.target_mm]))
        delta = np.linalg.solve(jac[0], want)
        target = (params.target_mm[0] - delta[0], params.target_mm[1] - delta[1])
        params = replace(params, target_mm=target)
        pose = build_pose(params)
    return pose


def surface_inside(pose: CameraPose, margin_px: float = SURFACE_MARGIN_PX) -> bool:
    """Whether the whole playing surface (its edges, densely) lies inside the frame."""
    h = g.HALF_SURFACE_MM
    t = np.linspace(-h, h, 41)
    edge = np.concatenate(
        [np.stack([t, np.full_like(t, s)], 1) for s in (-h, h)]
        + [np.stack([np.full_like(t, s), t], 1) for s in (-h, h)]
    )
    px = pose.project(edge)
    width, height = pose.image_size
    return bool(
        np.all(px[:, 0] >= margin_px)
        and np.all(px[:, 0] <= width - 1 - margin_px)
        and np.all(px[:, 1] >= margin_px)
        and np.all(px[:, 1] <= height - 1 - margin_px)
    )


def _roll_deg(rng: np.random.Generator) -> float:
    """Any rotation, but half the time near a seat's view (cameras are usually squared up)."""
    if rng.random() < 0.5:
        return float(rng.choice([0.0, 90.0, 180.0, 270.0]) + rng.normal(0.0, 4.0))
    return float(rng.uniform(0.0, 360.0))


def sample_pose(
    style: Style,
    rng: np.random.Generator,
    image_size: tuple[int, int],
    fill: float | None = None,
    tilt_deg: float | None = None,
    roll_deg: float | None = None,
    k1: float | None = None,
    k2: float | None = None,
) -> CameraPose:
    """A random camera for the style; explicit values override the style's ranges."""
    fill = float(rng.uniform(*style.fill)) if fill is None else float(fill)
    params = CameraParams(
        image_size=image_size,
        fov_deg=float(rng.uniform(*FIELD_OF_VIEW_DEG)),
        roll=math.radians(_roll_deg(rng) if roll_deg is None else roll_deg),
        tilt=math.radians(float(rng.uniform(*style.tilt_deg)) if tilt_deg is None else tilt_deg),
        tilt_azimuth=float(rng.uniform(0.0, 2 * math.pi)),
        target_mm=(0.0, 0.0),
        distance_mm=1500.0,
        k1=float(rng.uniform(*style.k1)) if k1 is None else float(k1),
        k2=float(rng.uniform(*style.k2)) if k2 is None else float(k2),
    )
    offset = (float(rng.uniform(-0.8, 0.8)), float(rng.uniform(-0.8, 0.8)))
    pose = fit_pose(params, fill, offset)
    # Never lose a corner of the playing surface: shrink until it all fits.
    while not surface_inside(pose) and fill > 0.2:
        fill *= 0.95
        pose = fit_pose(pose.params, fill, offset)
    return pose


def bump_pose(pose: CameraPose, rng: np.random.Generator) -> CameraPose:
    """The camera knocked: a small turn, lean and shift (a few pixels to tens of pixels)."""
    p = pose.params
    moved = replace(
        p,
        roll=p.roll + math.radians(float(rng.uniform(-3.0, 3.0))),
        tilt=max(0.0, p.tilt + math.radians(float(rng.uniform(-1.5, 1.5)))),
        target_mm=(
            p.target_mm[0] + float(rng.uniform(-20, 20)),
            p.target_mm[1] + float(rng.uniform(-20, 20)),
        ),
        distance_mm=p.distance_mm * float(rng.uniform(0.97, 1.03)),
    )
    bumped = build_pose(moved)
    if not surface_inside(bumped):
        bumped = build_pose(replace(moved, target_mm=p.target_mm))
    return bumped if surface_inside(bumped) else pose
