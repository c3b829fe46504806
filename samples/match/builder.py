"""Accumulate a match's timeline sample by sample: still poses, hand-made motions, strokes.

The builder keeps the board as it is now (a physics Layout, plus pieces HELD in fingers)
and appends segments; `timeline()` concatenates them into a samples.timeline.Timeline.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from samples.physics.pieces import PieceSet
from samples.physics.simulate import Layout, StrokeResult
from samples.timeline import HandPose, ObjectState, Timeline

SHOWN = (int(ObjectState.ON_BOARD), int(ObjectState.FALLING), int(ObjectState.HELD))
POCKETED = (int(ObjectState.FALLING), int(ObjectState.IN_POCKET))

Hands = tuple[HandPose, ...]


class TimelineBuilder:
    def __init__(self, pieces: PieceSet, sample_rate: float, oversample: int, layout: Layout) -> None:
        self.pieces = pieces
        self.sample_rate = sample_rate
        self.oversample = oversample
        self.layout = layout
        self._xy: list[np.ndarray] = []
        self._state: list[np.ndarray] = []
        self._pocket: list[np.ndarray] = []
        self._hands: list[Hands] = []
        self.samples = 0

    def seconds(self, s: float) -> int:
        return max(1, round(s * self.sample_rate))

    def frame_of(self, sample: int) -> int:
        return sample // self.oversample

    # -- the board as it is now ------------------------------------------------------------
    def _now(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        layout = self.layout
        shown = np.isin(layout.state, SHOWN)
        xy = np.where(shown[:, None], layout.xy_mm, np.nan).astype(np.float32)
        pocket = np.where(np.isin(layout.state, POCKETED), layout.pocket_of, -1).astype(np.int8)
        return xy, layout.state.astype(np.uint8), pocket

    def set_piece(self, piece: int, xy: np.ndarray | None, state: ObjectState, pocket: int = -1) -> None:
        self.layout = self.layout.with_piece(piece, xy, int(state), pocket)

    # -- segments ----------------------------------------------------------------------------
    def hold(self, n: int, hands: Sequence[Hands] | Hands = ()) -> None:
        """n samples of the board as it is, with the given hands (one pose set, or one per sample)."""
        if n <= 0:
            return
        xy, state, pocket = self._now()
        per_sample = _per_sample(hands, n)
        self._append(
            np.repeat(xy[None], n, 0), np.repeat(state[None], n, 0), np.repeat(pocket[None], n, 0), per_sample
        )

    def move(self, piece: int, points: np.ndarray, state: ObjectState, hands: Sequence[Hands]) -> None:
        """One piece carried or slid along `points` (n, 2); everything else stays put. The
        piece ends at the last point in `state`."""
        n = len(points)
        if n == 0:
            return
        xy, st, pocket = self._now()
        xy_n = np.repeat(xy[None], n, 0)
        st_n = np.repeat(st[None], n, 0)
        pocket_n = np.repeat(pocket[None], n, 0)
        xy_n[:, piece] = points
        st_n[:, piece] = int(state)
        pocket_n[:, piece] = -1
        self._append(xy_n, st_n, pocket_n, _per_sample(hands, n))
        self.set_piece(piece, points[-1], state)

    def stroke(self, result: StrokeResult, hands: Sequence[Hands]) -> int:
        """Append a simulated stroke; returns the sample index of its strike (its sample 0)."""
        start = self.samples
        self._append(result.xy_mm, result.state, result.pocket_of, _per_sample(hands, result.num_samples))
        self.layout = result.final
        return start

    def _append(self, xy: np.ndarray, state: np.ndarray, pocket: np.ndarray, hands: list[Hands]) -> None:
        self._xy.append(xy.astype(np.float32))
        self._state.append(state.astype(np.uint8))
        self._pocket.append(pocket.astype(np.int8))
        self._hands.extend(hands)
        self.samples += len(state)

    def pad_to_frame(self) -> None:
        """Hold still until the sample count is whole frames."""
        self.hold((-self.samples) % self.oversample)

    def timeline(self) -> Timeline:
        return Timeline(
            sample_rate=self.sample_rate,
            oversample=self.oversample,
            ids=self.pieces.ids,
            classes=self.pieces.classes,
            xy_mm=np.concatenate(self._xy),
            state=np.concatenate(self._state),
            pocket_of=np.concatenate(self._pocket),
            hands=tuple(self._hands),
            radius_mm=self.pieces.radius_mm.astype(np.float32),
        )


def _per_sample(hands: Sequence[Hands] | Hands, n: int) -> list[Hands]:
    if len(hands) == 0:
        return [()] * n
    if isinstance(hands[0], HandPose):
        return [tuple(hands)] * n  # type: ignore[arg-type]
    listed = [tuple(h) for h in hands]  # type: ignore[union-attr]
    if len(listed) < n:
        listed += [()] * (n - len(listed))
    return listed[:n]
