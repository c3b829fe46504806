"""A cheap per-frame check that the board has not moved relative to the camera.

At start, a few hundred pixel pairs straddle the fitted printed edges (outer base lines and
the surface's edges): one pixel just outside each edge, one just inside, chosen where the
calibration frame shows the expected brightness step. In later frames the share of pairs
that still show that step stays high (hands and coins cover only some of them) while a
moved board breaks most of them at once.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

import cv2
import numpy as np

from calibration.calibrate import CalibrationResult, quarter_turned, refine
from calibration.camera import Calibration
from calibration.errors import CalibrationError
from calibration.geometry import HALF_SURFACE_MM
from calibration.landmarks import EDGE, Landmark, fine_landmarks

PAIR_OFFSET_MM = 2.0  # each pixel of a pair lies this far from the edge
SAMPLES_PER_EDGE = 40
MIN_STEP = 12.0  # grey levels a pair must show in the calibration frame to be kept
MOVED_FRACTION = 0.55  # moved when fewer than this share of the kept pairs still hold


class BoardMonitor:
    def __init__(self, calibration: Calibration, image_bgr: np.ndarray) -> None:
        self.calibration = calibration
        gray = _gray(image_bgr)
        outside, inside = [], []
        for edge in _monitored_edges():
            outside.append(_offset_points(edge, -PAIR_OFFSET_MM))
            inside.append(_offset_points(edge, PAIR_OFFSET_MM))
        out_px = calibration.board_to_image(np.concatenate(outside))
        in_px = calibration.board_to_image(np.concatenate(inside))
        h, w = gray.shape
        idx_out = np.round(out_px).astype(int)
        idx_in = np.round(in_px).astype(int)
        ok = (idx_out[:, 0] >= 0) & (idx_out[:, 0] < w) & (idx_out[:, 1] >= 0) & (idx_out[:, 1] < h)
        ok &= (idx_in[:, 0] >= 0) & (idx_in[:, 0] < w) & (idx_in[:, 1] >= 0) & (idx_in[:, 1] < h)
        idx_out, idx_in = idx_out[ok], idx_in[ok]
        step = gray[idx_out[:, 1], idx_out[:, 0]].astype(np.int16) - gray[idx_in[:, 1], idx_in[:, 0]]
        keep = np.abs(step) >= MIN_STEP
        self._out = (idx_out[keep, 1], idx_out[keep, 0])
        self._in = (idx_in[keep, 1], idx_in[keep, 0])
        self._sign = np.sign(step[keep]).astype(np.int16)

    @property
    def pairs(self) -> int:
        return int(self._sign.size)

    def still_fraction(self, gray: np.ndarray) -> float:
        if self._sign.size == 0:
            return 0.0
        step = gray[self._out].astype(np.int16) - gray[self._in]
        return float(np.mean(step * self._sign >= MIN_STEP / 2))

    def check(self, gray: np.ndarray) -> bool:
        """True when the board has moved relative to the camera."""
        return self.still_fraction(_gray(gray)) < MOVED_FRACTION

    def refit(self, image_bgr: np.ndarray) -> CalibrationResult:
        """Re-fit after a move: from the old fit (a bump moves the board a little) and cold,
        whichever lies closer to the printed markings. A warm start a bump's move away can
        settle on the wrong edges and still fit them closely (held-out video 71018,
        `warm-lamp`, development data since: re-fitted from the old fit 4 to 33 mm off across
        the board, 0.26 mm from its markings, the cold fit 0.5 mm off and 0.14 mm from them;
        pieces going into the south corners were read past the edge and taken to have gone
        overboard). A cold fit alone can fail (hands over the markings): then the warm one."""
        from calibration.calibrate import calibrate_image

        gray = _gray(image_bgr)
        cal = self.calibration
        fits = []
        with contextlib.suppress(CalibrationError):  # the warm start fails after a big move
            fits.append(
                refine(gray, cal.homography, cal.image_size, k=cal.camera_matrix, dist=cal.dist_coeffs)
            )
        try:
            fits.append(calibrate_image(image_bgr))
        except CalibrationError:
            if not fits:
                raise
        result = min(fits, key=lambda fit: fit.reprojection_error_mm)
        # Either fit names the sides by the picture's edges (`calibrate._orient`).
        result = turned_like(result, cal)
        self.__init__(result.calibration, image_bgr)  # type: ignore[misc]
        return result


def turned_like(result: CalibrationResult, before: Calibration) -> CalibrationResult:
    """A re-fit's board frame turned by the quarter that puts the board's corners nearest
    where the fit it replaces put them. A fit names the sides by the picture's edges; a bump
    moves the camera a little and never turns the board (held-out video 71018, `warm-lamp`,
    development data since: re-fitted at its bump with the sides turned a quarter, the players
    struck from sides nobody sat at and the second half of the match went unrecorded)."""
    corners = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]) * HALF_SURFACE_MM
    where_before = before.board_to_image(corners)
    fitted = result.calibration
    turns = []
    for quarter in range(4):
        homography = quarter_turned(fitted.homography, quarter)
        turned = replace(fitted, homography=homography / homography[2, 2])
        gap = float(np.linalg.norm(turned.board_to_image(corners) - where_before, axis=1).max())
        turns.append((gap, quarter, turned))
    _, _, best = min(turns, key=lambda t: (t[0], t[1]))
    return replace(result, calibration=best)


def _monitored_edges() -> list[Landmark]:
    """The thick base lines' printed edges: long, sharp and spread over the board."""
    return [lm for lm in fine_landmarks() if lm.kind == "base_line" and lm.profile == EDGE]


def _offset_points(edge: Landmark, offset_mm: float) -> np.ndarray:
    """Points `offset_mm` along the edge's normal (negative: against it), SAMPLES_PER_EDGE of
    them spread along the edge."""
    t = np.linspace(0.0, len(edge.points) - 1.0, SAMPLES_PER_EDGE)
    pts = np.stack([np.interp(t, np.arange(len(edge.points)), edge.points[:, i]) for i in range(2)], axis=1)
    return pts + offset_mm * edge.normals[:1]


def _gray(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
