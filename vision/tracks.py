"""Tracks: the tracker's per-frame output, the contract between vision.track and vision.events.

A `TrackFrame` is one frame's view of every track the tracker knows, as parallel numpy
arrays in board millimetres (like `Detections`). Identities are stable integers; a track
that has gone into a pocket or off the board stays listed (with its final state) for the
frame it went and is then dropped, so stroke inference sees every disappearance exactly once
with its cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from calibration.geometry import POCKETS
from vision.detections import CLASS_NAMES


class TrackState(IntEnum):
    AT_REST = 0  # seen, not moving
    MOVING = 1  # seen, moving faster than the rest threshold
    OCCLUDED = 2  # not seen this frame but believed still on the board (under a hand, blurred out)
    POCKETED = 3  # went into the pocket in `pocket` this frame
    OFF_BOARD = 4  # left the playing surface this frame (overboard)
    HELD = 5  # lifted by a hand (seen over the board away from where it rested, e.g. being placed)


NO_POCKET = -1


@dataclass(frozen=True, eq=False)
class TrackFrame:
    frame_index: int
    time_s: float
    track_id: np.ndarray  # (N,) int64, stable across frames
    class_id: np.ndarray  # (N,) int64 into vision.detections.CLASS_NAMES
    xy_mm: np.ndarray  # (N, 2) float64 board mm (last known position when OCCLUDED)
    velocity_mm_s: np.ndarray  # (N, 2) float64
    state: np.ndarray  # (N,) int8 of TrackState
    pocket: np.ndarray  # (N,) int8 index into calibration.geometry.POCKETS, NO_POCKET if none
    score: np.ndarray  # (N,) float32: detection confidence / class certainty

    def __post_init__(self) -> None:
        n = len(np.asarray(self.track_id).reshape(-1))
        arrays = {
            "track_id": (np.int64, (n,)),
            "class_id": (np.int64, (n,)),
            "xy_mm": (np.float64, (n, 2)),
            "velocity_mm_s": (np.float64, (n, 2)),
            "state": (np.int8, (n,)),
            "pocket": (np.int8, (n,)),
            "score": (np.float32, (n,)),
        }
        for name, (dtype, shape) in arrays.items():
            value = np.asarray(getattr(self, name), dtype=dtype).reshape(shape)
            object.__setattr__(self, name, value)

    @classmethod
    def empty(cls, frame_index: int = 0, time_s: float = 0.0) -> TrackFrame:
        return cls(
            frame_index,
            time_s,
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
            np.zeros((0, 2)),
            np.zeros((0, 2)),
            np.zeros(0, np.int8),
            np.zeros(0, np.int8),
            np.zeros(0, np.float32),
        )

    def __len__(self) -> int:
        return len(self.track_id)

    def select(self, mask: np.ndarray) -> TrackFrame:
        return TrackFrame(
            self.frame_index,
            self.time_s,
            self.track_id[mask],
            self.class_id[mask],
            self.xy_mm[mask],
            self.velocity_mm_s[mask],
            self.state[mask],
            self.pocket[mask],
            self.score[mask],
        )

    def in_state(self, *states: TrackState) -> TrackFrame:
        return self.select(np.isin(self.state, [int(s) for s in states]))

    def of_class(self, name: str) -> TrackFrame:
        return self.select(self.class_id == CLASS_NAMES.index(name))

    def pocket_name(self, i: int) -> str | None:
        p = int(self.pocket[i])
        return POCKETS[p] if p != NO_POCKET else None
