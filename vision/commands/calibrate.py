"""`carrom calibrate VIDEO_OR_IMAGE [--frame N] [--out DIR] [--south EDGE]`.

Writes calibration.json (schema carrom-calibration/1), overlay.png (the fitted markings over
the frame) and board.png (the rectified top-down board, north up). A picture in which no
board passes the gates: exit status 2, "no carrom board found: REASON", nothing written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from calibration import geometry as g
from calibration.calibrate import SOUTH_EDGES, calibrate_image
from calibration.camera import Calibration, board_extent_mm, rectify_maps
from calibration.errors import CalibrationError, NoBoardFound
from vision.errors import UsageError
from vision.io import read_frame
from vision.outputs import OutputSet

BOARD_PX_PER_MM = 1.0  # board.png: one pixel per board millimetre
OVERLAY_COLOUR = (0, 255, 0)
SOUTH_COLOUR = (0, 0, 255)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="find the board in one frame: calibration.json, overlay.png, board.png",
        description="Fit the board-to-image mapping from the printed markings of one frame.",
    )
    parser.add_argument("source", help="an image or a video file")
    parser.add_argument("--frame", type=int, default=0, help="frame index of a video (default 0)")
    parser.add_argument("--out", type=Path, default=Path("."), help="output directory (default .)")
    parser.add_argument(
        "--south",
        choices=SOUTH_EDGES,
        default=None,
        help="the image edge seat S sits by (default: bottom, the side nearest the image's bottom edge)",
    )
    parser.set_defaults(func=run)


def _polyline(calibration: Calibration, pts_mm: np.ndarray) -> np.ndarray:
    return np.round(calibration.board_to_image(pts_mm)).astype(np.int32).reshape(-1, 1, 2)


def overlay(image_bgr: np.ndarray, calibration: Calibration) -> np.ndarray:
    """The frame with the model markings drawn where the fit puts them; S in red."""
    out = image_bgr.copy()
    half = g.HALF_SURFACE_MM
    t = np.linspace(-half, half, 60)
    for seat in g.SEATS:
        colour = SOUTH_COLOUR if seat == "S" else OVERLAY_COLOUR
        edge = np.array([g.seat_to_board(seat, a, half) for a in t])
        cv2.polylines(out, [_polyline(calibration, edge)], False, colour, 1, cv2.LINE_AA)
        for band in g.base_lines(seat):
            seg = np.linspace(band.start, band.end, 30)
            cv2.polylines(out, [_polyline(calibration, seg)], False, colour, 1, cv2.LINE_AA)
    angles = np.linspace(0, 2 * np.pi, 90)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    rings = [(np.zeros(2), g.OUTER_CIRCLE_RADIUS_MM), (np.zeros(2), g.CENTRE_CIRCLE_RADIUS_MM)]
    rings += [(c, g.BASE_CIRCLE_RADIUS_MM) for c in g.all_base_circle_centres()]
    rings += [(c, g.POCKET_RADIUS_MM) for c in g.pocket_centres()]
    for centre, radius in rings:
        cv2.polylines(
            out, [_polyline(calibration, centre + radius * circle)], True, OVERLAY_COLOUR, 1, cv2.LINE_AA
        )
    return out


def board_view(image_bgr: np.ndarray, calibration: Calibration) -> np.ndarray:
    map_x, map_y = rectify_maps(calibration, BOARD_PX_PER_MM, board_extent_mm())
    return cv2.remap(image_bgr, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def run(args: argparse.Namespace) -> int:
    if args.frame < 0:
        raise UsageError(f"--frame must be 0 or more, got {args.frame}")
    frame = read_frame(args.source, args.frame)
    image = frame.bgr()
    try:
        result = calibrate_image(image, south=args.south)
    except CalibrationError as exc:
        raise NoBoardFound(f"{args.source}: no carrom board found: {exc}") from exc
    pngs = {}
    for name, picture in (
        ("overlay.png", overlay(image, result.calibration)),
        ("board.png", board_view(image, result.calibration)),
    ):
        ok, png = cv2.imencode(".png", picture)
        if not ok:
            raise UsageError(f"could not encode {name}")
        pngs[name] = png.tobytes()
    with OutputSet(args.out) as out:
        out.add_json("calibration.json", result.to_dict())
        for name, data in pngs.items():
            out.add_bytes(name, data)
    print(
        f"board found: landmark error {result.reprojection_error_mm:.2f} mm (95th "
        f"{result.p95_error_mm:.2f} mm) over {len(result.landmarks)} printed landmarks, "
        f"k1 {result.calibration.dist_coeffs[0]:+.3f} -> {args.out}"
    )
    return 0
