"""Training views: a scene rectified as the detector rectifies it, and the heat-map targets.

A view is the top-down picture the network sees (vision.detect.onnx_detector), but drawn
with a small random similarity (a fraction of a pixel of shift, a little rotation and scale)
so the network learns sub-pixel centres and some tolerance of calibration error; the pieces
come with their top-face centres in the same view units (`u, v`: pixels from the view's
outer edge, vision.detect.centres), because a face is what the network can see
(vision.detect.parallax moves it to the base).

Targets follow CenterNet: per class, a Gaussian bump at each piece's cell peaking at 1 in the
cell holding the centre; per cell near a centre, the offset to it in cells. Pieces no single
answer fits (less than half visible, sinking into a pocket) carry a mask that keeps the loss
off them; a piece held in fingers above the board is background.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import av
import cv2
import numpy as np

from calibration.geometry import COIN_RADIUS_MM, STRIKER_RADIUS_MM
from models.detector.data import DONT_CARE, MIN_VISIBLE, Scene
from vision.detect.parallax import Viewpoint
from vision.detections import CLASS_NAMES

# The view the shipped detector works on: 0.5 px/mm over 768 mm (the surface and 14 mm of
# frame), 384 px square, and one heat-map cell per 4 px (8 mm).
PX_PER_MM = 0.5
HALF_EXTENT_MM = 384.0
STRIDE = 4
VIEW_PX = int(round(2 * HALF_EXTENT_MM * PX_PER_MM))
# A piece's bump: sigma a third of its radius.
SIGMA_FRACTION = 1.0 / 3.0
# The loss is kept off this close to an ignored piece's centre: a detection there is neither
# right nor wrong (the figures excuse one within 12 mm). Further out it is background, so the
# network does not learn to report the visible sliver of a piece mostly under a hand.
IGNORE_RADIUS_MM = 10.0
OFFSET_REACH_CELLS = 1  # offsets are learned in the 3 x 3 cells around each centre
MAP_STEP_PX = 8


@dataclass(frozen=True, eq=False)
class View:
    image_bgr: np.ndarray  # (VIEW_PX, VIEW_PX, 3) uint8
    uv: np.ndarray  # (N, 2) top-face centres in view units
    class_id: np.ndarray  # (N,) int64 into CLASS_NAMES
    required: np.ndarray  # (N,) bool: a piece the detector must find (else: ignored)


def h264_round_trip(image_bgr: np.ndarray, crf: int) -> np.ndarray:
    """The picture as a video camera's stream delivers it: H.264 (yuv420p) at quality `crf`,
    decoded again. The generator's stills are JPEG; its videos, what the recorder watches,
    are H.264, whose softer chroma and block artefacts the network must also know."""
    height, width = image_bgr.shape[:2]
    with av.open(io.BytesIO(), mode="w", format="h264") as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.options = {"crf": str(crf), "preset": "veryfast", "threads": "1"}
        frame = av.VideoFrame.from_ndarray(image_bgr, format="bgr24")
        packets = [*stream.encode(frame), *stream.encode()]
    codec = av.CodecContext.create("h264", "r")
    for packet in [*packets, None]:  # None flushes the decoder
        for decoded in codec.decode(packet):
            return decoded.to_ndarray(format="bgr24")
    raise RuntimeError("the H.264 round trip gave no picture")


def render_view(scene: Scene, rng: np.random.Generator | None = None, jitter: bool = True) -> View:
    """The scene's view, drawn under a random similarity when `jitter` (as at run time if not)."""
    shift = rng.uniform(-1.0, 1.0, 2) / PX_PER_MM if jitter and rng is not None else np.zeros(2)
    angle = np.deg2rad(rng.uniform(-1.5, 1.5)) if jitter and rng is not None else 0.0
    scale = float(np.exp(rng.uniform(-0.015, 0.015))) if jitter and rng is not None else 1.0
    c, s = np.cos(angle) * scale, np.sin(angle) * scale
    # View units -> board mm: the detector's mapping, then the similarity about the centre.
    to_board = np.array([[c, -s, shift[0]], [s, c, shift[1]], [0, 0, 1]]) @ np.array(
        [[1 / PX_PER_MM, 0, -HALF_EXTENT_MM], [0, -1 / PX_PER_MM, HALF_EXTENT_MM], [0, 0, 1]]
    )
    map_x, map_y = _maps(scene, to_board)
    fixed = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)  # as BoardRectifier remaps
    image = cv2.remap(scene.image_bgr, fixed[0], fixed[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    # A piece held in fingers above the board is not on it: background, so a striker being
    # carried is not reported as some coin (a track the tracker would then keep for ever).
    pieces = [p for p in scene.pieces if np.all(np.isfinite(p.xy_mm)) and p.condition != "held"]
    if not pieces:
        return View(image, np.zeros((0, 2)), np.zeros(0, np.int64), np.zeros(0, bool))
    bases = np.array([p.xy_mm for p in pieces])
    faces = Viewpoint.of(scene.calibration).base_to_face(bases)
    uv = np.hstack([faces, np.ones((len(faces), 1))]) @ np.linalg.inv(to_board).T
    return View(
        image,
        uv[:, :2],
        np.array([CLASS_NAMES.index(p.name) for p in pieces], np.int64),
        np.array([p.visible >= MIN_VISIBLE and p.condition not in DONT_CARE for p in pieces], bool),
    )


def _maps(scene: Scene, to_board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps of the view: the lens model is exact on a grid every `MAP_STEP_PX` view
    pixels and bilinear in between (it is smooth: the error is far below a pixel), which is
    forty times cheaper than projecting every pixel."""
    knots = np.arange(0, VIEW_PX + MAP_STEP_PX, MAP_STEP_PX, dtype=np.float64) + 0.5
    us, vs = np.meshgrid(knots, knots)
    points = np.stack([us.ravel(), vs.ravel(), np.ones(us.size)], axis=1) @ to_board.T
    coarse = (
        scene.calibration.board_to_image(points[:, :2]).astype(np.float32).reshape(len(knots), len(knots), 2)
    )
    where = (np.arange(VIEW_PX, dtype=np.float32)) / MAP_STEP_PX
    wx, wy = np.meshgrid(where, where)
    fine = cv2.remap(coarse, wx, wy, cv2.INTER_LINEAR)
    return np.ascontiguousarray(fine[..., 0]), np.ascontiguousarray(fine[..., 1])


def _radius_px(class_id: np.ndarray) -> np.ndarray:
    striker = class_id == CLASS_NAMES.index("striker")
    return np.where(striker, STRIKER_RADIUS_MM, COIN_RADIUS_MM) * PX_PER_MM


def targets(
    uv: np.ndarray, class_id: np.ndarray, required: np.ndarray, size_px: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For a square of `size_px` view pixels: heat (C, G, G), offsets (2, G, G) in cells,
    offset weight (G, G) and loss weight (G, G) (0 near ignored pieces)."""
    cells = size_px // STRIDE
    heat = np.zeros((len(CLASS_NAMES), cells, cells), np.float32)
    offsets = np.zeros((2, cells, cells), np.float32)
    offset_weight = np.zeros((cells, cells), np.float32)
    weight = np.ones((cells, cells), np.float32)
    centres = (np.arange(cells) + 0.5) * STRIDE
    radius = _radius_px(class_id)
    for (u, v), cls, needed, r in zip(uv, class_id, required, radius, strict=True):
        du = (centres - u)[None, :]
        dv = (centres - v)[:, None]
        d2 = du * du + dv * dv
        if not needed:
            weight[d2 <= (IGNORE_RADIUS_MM * PX_PER_MM) ** 2] = 0.0
            continue
        sigma = SIGMA_FRACTION * r
        np.maximum(heat[cls], np.exp(-d2 / (2 * sigma * sigma)), out=heat[cls])
        col, row = int(np.floor(u / STRIDE)), int(np.floor(v / STRIDE))
        if not (0 <= col < cells and 0 <= row < cells):
            continue
        heat[cls, row, col] = 1.0
        for dr in range(-OFFSET_REACH_CELLS, OFFSET_REACH_CELLS + 1):
            for dc in range(-OFFSET_REACH_CELLS, OFFSET_REACH_CELLS + 1):
                rr, cc = row + dr, col + dc
                if 0 <= rr < cells and 0 <= cc < cells:
                    offsets[0, rr, cc] = u / STRIDE - (cc + 0.5)
                    offsets[1, rr, cc] = v / STRIDE - (rr + 0.5)
                    offset_weight[rr, cc] = 1.0
    # A piece touching an ignored one keeps its own bump.
    weight[heat.max(axis=0) >= 0.5] = 1.0
    return heat, offsets, offset_weight, weight


def turn(
    image: np.ndarray, uv: np.ndarray, quarter_turns: int, mirror: bool
) -> tuple[np.ndarray, np.ndarray]:
    """A square image turned by quarter turns (counter-clockwise, as np.rot90) and mirrored
    left to right, with its points (view units) moved along."""
    size = image.shape[0]
    uv = uv.copy()
    for _ in range(quarter_turns % 4):
        image = np.rot90(image)
        uv = np.stack([uv[:, 1], size - uv[:, 0]], axis=1)
    if mirror:
        image = image[:, ::-1]
        uv[:, 0] = size - uv[:, 0]
    return np.ascontiguousarray(image), uv
