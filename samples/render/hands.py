"""Hands and forearms over the board, drawn from the timeline's `HandPose`s.

Each hand is a few capsules and ellipses in board mm (forearm, sleeve, palm, fingers,
thumb) projected into the frame. The hand is treated as lying in the board plane: the
renderer and the truth use the same mask, so the visible fractions agree with the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from samples.timeline import HandPose

# Skin tones (BGR), indexed by HandPose.skin.
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (95, 130, 180),
    (70, 100, 150),
    (120, 160, 205),
    (55, 80, 120),
    (140, 175, 220),
    (85, 120, 165),
)
SLEEVES: tuple[tuple[int, int, int], ...] = (
    (160, 60, 30),
    (40, 40, 40),
    (230, 230, 230),
    (40, 120, 200),
    (60, 130, 60),
    (120, 40, 110),
    (30, 30, 150),
)
FOREARM_LENGTH_MM = 420.0
WRIST_WIDTH_MM = 64.0
ELBOW_WIDTH_MM = 96.0
FINGER_WIDTH_MM = 17.0
HAND_HEIGHT_MM = 60.0  # above the surface, for the shadow's length
HAND_DRAW_HEIGHT_MM = 30.0  # the plane the hand is drawn in (fingertips low, forearm higher)


@dataclass(frozen=True)
class HandShape:
    skin: list[np.ndarray]  # polygons in board mm
    sleeve: list[np.ndarray]
    fingers: int = 0  # the first `fingers` skin polygons are fingers and thumb (outlined)


def _capsule(a: np.ndarray, b: np.ndarray, wa: float, wb: float, n: int = 10) -> np.ndarray:
    d = b - a
    length = float(np.linalg.norm(d))
    u = d / max(length, 1e-9)
    v = np.array([-u[1], u[0]])
    ts = np.linspace(-math.pi / 2, math.pi / 2, n)
    cap_b = [b + (wb / 2) * (math.cos(t) * u + math.sin(t) * v) for t in ts]
    cap_a = [a + (wa / 2) * (-math.cos(t) * u - math.sin(t) * v) for t in ts]
    return np.array(cap_b + cap_a)


def _ellipse(c: np.ndarray, u: np.ndarray, ra: float, rb: float, n: int = 20) -> np.ndarray:
    v = np.array([-u[1], u[0]])
    ts = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.array([c + ra * math.cos(t) * u + rb * math.sin(t) * v for t in ts])


def hand_shape(pose: HandPose, sleeve_from: float) -> HandShape:
    """`sleeve_from`: where the sleeve starts along the forearm, 0 (wrist) .. 1 (no sleeve)."""
    a = np.array([math.cos(pose.angle), math.sin(pose.angle)])
    n = np.array([-a[1], a[0]])
    tip = np.array(pose.tip_mm, float)
    spread = float(np.clip(pose.spread, 0.0, 1.0))
    skin: list[np.ndarray] = []
    if pose.kind == "place":
        palm = tip - a * 78
        skin.append(_capsule(palm + a * 22 + n * 12, tip + n * 5, FINGER_WIDTH_MM, FINGER_WIDTH_MM * 0.9))
        skin.append(_capsule(palm - n * 30, tip - n * 7, FINGER_WIDTH_MM * 1.2, FINGER_WIDTH_MM))
        skin.append(_ellipse(palm + a * 28 + n * 28, a, 26, 20))
    elif pose.kind == "reach":
        palm = tip - a * 95
        for k, off in enumerate((-24.0, -8.0, 8.0, 24.0)):
            reach = 88 - abs(k - 1.5) * 8
            end = palm + a * reach + n * off * (1 + spread)
            skin.append(_capsule(palm + a * 30 + n * off * 0.8, end, FINGER_WIDTH_MM, FINGER_WIDTH_MM * 0.85))
        skin.append(
            _capsule(
                palm - n * 30 - a * 10,
                palm - n * (50 + 20 * spread) + a * 35,
                FINGER_WIDTH_MM * 1.3,
                FINGER_WIDTH_MM,
            )
        )
    else:  # strike: a fist behind the striker, the index finger curled against it
        palm = tip - a * 62
        skin.append(_capsule(palm + a * 18 + n * 14, tip + n * 2, FINGER_WIDTH_MM * 1.05, FINGER_WIDTH_MM))
        skin.append(_ellipse(palm + a * 22 - n * 16, a, 24, 22))
        skin.append(
            _capsule(palm - a * 8 - n * 34, palm + a * 20 - n * 42, FINGER_WIDTH_MM * 1.3, FINGER_WIDTH_MM)
        )
    fingers = len(skin)
    skin.append(_ellipse(palm, a, 50, 44))
    wrist = palm - a * 42
    elbow = wrist - a * FOREARM_LENGTH_MM
    sleeve_start = wrist + (elbow - wrist) * sleeve_from
    skin.append(_capsule(elbow, wrist, ELBOW_WIDTH_MM, WRIST_WIDTH_MM))
    sleeve = []
    if sleeve_from < 1.0:
        w_start = WRIST_WIDTH_MM + (ELBOW_WIDTH_MM - WRIST_WIDTH_MM) * sleeve_from + 10
        sleeve.append(_capsule(elbow - a * 120, sleeve_start, ELBOW_WIDTH_MM + 14, w_start))
    return HandShape(skin, sleeve, fingers)


def centroid(pose: HandPose) -> np.ndarray:
    a = np.array([math.cos(pose.angle), math.sin(pose.angle)])
    return np.array(pose.tip_mm, float) - a * 90


def rasterise(polygons_px: list[np.ndarray], roi: tuple[int, int, int, int]) -> np.ndarray:
    """uint8 anti-aliased mask of the polygons inside roi = (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = roi
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for polygon in polygons_px:  # one at a time: fillPoly would cut holes where they overlap
        fixed = np.round((polygon - (x0, y0)) * 16).astype(np.int32)
        cv2.fillPoly(mask, [fixed], 255, cv2.LINE_AA, 4)
    return mask
