"""The set of pieces on a carrom board: ids, classes, radii and masses, in one fixed order.

The order is the timeline's object order (samples.timeline): nine whites W1..W9, nine
blacks B1..B9, the queen Q and the striker S last.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import (
    COIN_MASS_G,
    COIN_RADIUS_MM,
    COINS_PER_COLOUR,
    STRIKER_MASS_G,
    STRIKER_RADIUS_MM,
)


@dataclass(frozen=True)
class PieceSet:
    ids: tuple[str, ...]
    classes: tuple[str, ...]  # "white" | "black" | "queen" | "striker"
    radius_mm: np.ndarray  # (N,)
    mass_g: np.ndarray  # (N,)

    @property
    def count(self) -> int:
        return len(self.ids)

    @property
    def striker(self) -> int:
        return self.classes.index("striker")

    @property
    def queen(self) -> int:
        return self.classes.index("queen")

    def of_class(self, cls: str) -> list[int]:
        return [i for i, c in enumerate(self.classes) if c == cls]


def standard_pieces() -> PieceSet:
    ids = [f"W{k}" for k in range(1, COINS_PER_COLOUR + 1)]
    ids += [f"B{k}" for k in range(1, COINS_PER_COLOUR + 1)]
    ids += ["Q", "S"]
    classes = ["white"] * COINS_PER_COLOUR + ["black"] * COINS_PER_COLOUR + ["queen", "striker"]
    radius = np.array([STRIKER_RADIUS_MM if c == "striker" else COIN_RADIUS_MM for c in classes])
    mass = np.array([STRIKER_MASS_G if c == "striker" else COIN_MASS_G for c in classes])
    return PieceSet(tuple(ids), tuple(classes), radius, mass)
