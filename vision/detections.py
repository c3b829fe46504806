"""Detections: one container of parallel numpy arrays that flows through detect -> track.

Positions are board millimetres (x east, y north) once a frame is calibrated; nothing past
calibration carries pixels. Indexing with a boolean mask or an index array returns a new
object and never writes into the caller's arrays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from calibration.geometry import COIN_RADIUS_MM

# Class ids, shared with the match log's item names.
CLASS_NAMES: tuple[str, ...] = ("white", "black", "queen", "striker")
WHITE, BLACK, QUEEN, STRIKER = range(4)


def class_id(name: str) -> int:
    return CLASS_NAMES.index(name)


# A detection of another class this close to a moving piece's, and read less surely, is that
# piece's blur read a second time (`blur_ghosts`): three radii, a little more than two discs
# side by side.
GHOST_REACH_MM = 3.0 * COIN_RADIUS_MM


@dataclass(frozen=True, eq=False)
class Detections:
    xy_mm: np.ndarray  # (N, 2) float64 board mm
    class_id: np.ndarray  # (N,) int64 into CLASS_NAMES
    score: np.ndarray  # (N,) float32 in [0, 1]

    def __post_init__(self) -> None:
        xy = np.asarray(self.xy_mm, dtype=np.float64)
        xy = xy.reshape(-1, 2) if xy.size else np.zeros((0, 2))
        cls = np.asarray(self.class_id, dtype=np.int64).reshape(-1)
        score = np.asarray(self.score, dtype=np.float32).reshape(-1)
        n = len(xy)
        if cls.shape != (n,):
            raise ValueError(f"class_id must have shape ({n},), got {cls.shape}")
        if score.shape != (n,):
            raise ValueError(f"score must have shape ({n},), got {score.shape}")
        if n and (cls.min() < 0 or cls.max() >= len(CLASS_NAMES)):
            raise ValueError(f"class_id must be in 0..{len(CLASS_NAMES) - 1}")
        object.__setattr__(self, "xy_mm", xy)
        object.__setattr__(self, "class_id", cls)
        object.__setattr__(self, "score", score)

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 2)), np.zeros(0, np.int64), np.zeros(0, np.float32))

    @classmethod
    def merge(cls, parts: Iterable[Detections]) -> Detections:
        parts = list(parts)
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.xy_mm for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            np.concatenate([p.score for p in parts]),
        )

    def __len__(self) -> int:
        return len(self.class_id)

    def __getitem__(self, index: np.ndarray | slice | int) -> Detections:
        if isinstance(index, int):
            index = slice(index, index + 1 if index != -1 else None)
        return Detections(self.xy_mm[index].copy(), self.class_id[index].copy(), self.score[index].copy())

    def of_class(self, name: str) -> Detections:
        return self[self.class_id == class_id(name)]

    @property
    def class_names(self) -> list[str]:
        return [CLASS_NAMES[i] for i in self.class_id]

    def to_objects(self) -> list[dict[str, object]]:
        """The `objects` list of `carrom-detections/1`."""
        return [
            {
                "class": CLASS_NAMES[int(c)],
                "x_mm": round(float(x), 2),
                "y_mm": round(float(y), 2),
                "score": round(float(s), 4),
            }
            for (x, y), c, s in zip(self.xy_mm, self.class_id, self.score, strict=True)
        ]


def blur_ghosts(detections: Detections, moving: np.ndarray) -> np.ndarray:
    """(N,) which of `detections` lie against one of the `moving` ones (a boolean mask: pieces
    seen moving this look), are of another class and read less surely than it: the blurred
    piece read twice, once as what it is and once, beside it, as something else. Held-out
    video 90016 (`phone`): at the break, blacks running fast towards a corner were each read,
    for a look, also as a white 34 mm off at 0.5, once each; the tracker took each sighting
    for the white that had flown off the board unseen at the strike, and the pocket watch for a
    white lying there that the black knocked into the corner."""
    mover = np.flatnonzero(moving)
    if not len(mover):
        return np.zeros(len(detections), bool)
    distance = np.linalg.norm(detections.xy_mm[:, None, :] - detections.xy_mm[mover][None, :, :], axis=2)
    other_class = detections.class_id[:, None] != detections.class_id[mover][None, :]
    less_sure = detections.score[:, None] < detections.score[mover][None, :]
    return np.asarray(((distance <= GHOST_REACH_MM) & other_class & less_sure).any(axis=1))
