"""The contract between the match simulator and the renderer.

The simulator (physics + players + rules) produces a `Timeline`: where every object is, at
a fixed sample rate, and where the players' hands are. The renderer turns a timeline into
frames; the ground truth of a video is written from the same timeline, so the pictures and
the truth cannot disagree.

Positions are board mm (calibration.geometry's frame). Samples are taken `oversample`
times per video frame so the renderer can integrate motion blur over the exposure; video
frame `f` starts at sample `f * oversample`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from calibration.geometry import Seat


class ObjectState(IntEnum):
    ON_BOARD = 0  # lying on the playing surface (at rest or moving)
    FALLING = 1  # inside a pocket's mouth, dropping: drawn sinking, not yet gone
    IN_POCKET = 2  # gone into a pocket (the pocket is in `pocket_of`)
    OFF_BOARD = 3  # jumped off the board: flown past the frame's outer edge, out of play
    HELD = 4  # in a player's or umpire's fingers over the board (being placed)
    ABSENT = 5  # not on or over the board (striker between strokes, coin not yet placed)
    # Lifted by a hard impact and flying (over the surface, then over the frame) on its way
    # off the board; it touches nothing. Numbered last so the values above keep their meaning.
    AIRBORNE = 6


@dataclass(frozen=True)
class HandPose:
    """One forearm and hand over the board.

    The arm enters over the frame on `seat`'s side and ends at the fingertip `tip_mm`;
    `angle` is the arm's direction (radians, board frame, pointing from elbow to fingertip).
    `kind` says what the hand is doing: "strike" (positioning or flicking the striker),
    "place" (putting a coin or the queen down) or "reach" (passing over the board).
    """

    seat: Seat
    tip_mm: tuple[float, float]
    angle: float
    kind: str = "strike"
    spread: float = 0.0  # 0 closed fist .. 1 open hand
    skin: int = 0  # index into the renderer's skin tones; fixed per player


@dataclass(frozen=True)
class Timeline:
    sample_rate: float  # samples per second
    oversample: int  # samples per video frame
    ids: tuple[str, ...]  # object ids: "W1".."W9", "B1".."B9", "Q", "S"
    classes: tuple[str, ...]  # "white" | "black" | "queen" | "striker", per id
    xy_mm: np.ndarray  # (T, N, 2) float32; NaN where the object is not on/over the board
    # (an AIRBORNE piece has its position: the point of the surface, or beyond it over the
    # frame, that it is above)
    state: np.ndarray  # (T, N) uint8 of ObjectState
    pocket_of: np.ndarray  # (T, N) int8: index into geometry.POCKETS while FALLING/IN_POCKET, else -1
    hands: tuple[tuple[HandPose, ...], ...]  # per sample
    radius_mm: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (N,) per object

    @property
    def fps(self) -> float:
        return self.sample_rate / self.oversample

    @property
    def num_samples(self) -> int:
        return int(self.state.shape[0])

    @property
    def num_frames(self) -> int:
        return self.num_samples // self.oversample

    def frame_samples(self, frame: int) -> slice:
        start = frame * self.oversample
        return slice(start, start + self.oversample)
