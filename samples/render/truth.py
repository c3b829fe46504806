"""Per-frame ground truth of a rendered video, stored compactly, and read back.

Schema `carrom-synth-truth/1`:

- `video`: file name, fps, frame count, size, seed, style.
- `cameras`: `[{"from_frame": f, "bump": bool, "calibration": {carrom-calibration/1}}]`; a
  frame's camera is the last entry with `from_frame <= frame` (a bump adds an entry).
  `calibration` loads with `calibration.camera.Calibration.from_dict`.
- `objects`: one entry per object (`id`, `class`, `radius_mm`) with change lists: `xy_mm`
  as `[frame, x, y]` (x and y null while the object is not on or over the board), `state`
  as `[frame, name]`, `visible` as `[frame, fraction]`. A value holds from its frame until
  the next entry. Positions (the centre of the piece's base on the surface; the picture
  shows its top face 7 mm higher, with the parallax that brings) and states are those at
  the end of each frame's exposure;
  `visible` is the share of the piece's disc that is drawn and not under a hand or outside
  the picture (0 when not drawn).
- State names (samples.timeline.ObjectState, lower case): `on_board`, `falling` (sinking
  into the pocket `pocket_of` names; drawn), `in_pocket`, `held` (in fingers above the
  board; drawn), `absent`, `airborne` and `off_board`. An overboard piece is `airborne`
  from the impact that lifts it: it flies in a straight line, drawn above the frame's top
  (nothing but a hand hides it), and its `xy_mm` is the point below it, which passes the
  surface's edge (|x| or |y| over 370 mm: the overboard moment, the `frame` of the
  stroke's overboard entry in `match`) and goes on over the frame; it is `off_board`
  (position null, not drawn) from the frame its centre is past the frame's outer edge (the
  widest ICF frame, 446 mm from the centre). A flight shorter than a frame can go from
  `on_board` straight to `off_board`.

`object_tracks(truth)` expands the lists back into per-frame arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from calibration import geometry as g
from samples.render.camera import CameraPose
from samples.timeline import ObjectState, Timeline

SCHEMA = "carrom-synth-truth/1"
STATE_NAMES = {int(s): s.name.lower() for s in ObjectState}
STATE_VALUES = {v: k for k, v in STATE_NAMES.items()}
POSITION_DECIMALS = 3
VISIBLE_DECIMALS = 3


def _radius(cls: str) -> float:
    return g.STRIKER_RADIUS_MM if cls == "striker" else g.COIN_RADIUS_MM


class TruthRecorder:
    """Collects a video's truth frame by frame, storing only changes."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        n = len(timeline.ids)
        self.cameras: list[dict[str, Any]] = []
        self.xy: list[list[list[Any]]] = [[] for _ in range(n)]
        self.state: list[list[list[Any]]] = [[] for _ in range(n)]
        self.visible: list[list[list[Any]]] = [[] for _ in range(n)]
        self._last_xy: list[Any] = [object()] * n
        self._last_state: list[Any] = [None] * n
        self._last_visible: list[Any] = [None] * n

    def camera(self, frame: int, pose: CameraPose, bump: bool) -> None:
        self.cameras.append({"from_frame": int(frame), "bump": bool(bump), "calibration": pose.to_dict()})

    def frame(self, frame: int, visible: dict[int, float]) -> None:
        t = self.timeline
        last = t.frame_samples(frame).stop - 1
        for i in range(len(t.ids)):
            xy = t.xy_mm[last, i]
            pos = (
                (round(float(xy[0]), POSITION_DECIMALS), round(float(xy[1]), POSITION_DECIMALS))
                if np.isfinite(xy).all()
                else (None, None)
            )
            if pos != self._last_xy[i]:
                self.xy[i].append([frame, pos[0], pos[1]])
                self._last_xy[i] = pos
            state = STATE_NAMES[int(t.state[last, i])]
            if state != self._last_state[i]:
                self.state[i].append([frame, state])
                self._last_state[i] = state
            v = round(float(visible.get(i, 0.0)), VISIBLE_DECIMALS)
            if v != self._last_visible[i]:
                self.visible[i].append([frame, v])
                self._last_visible[i] = v

    def to_dict(self, video: dict[str, Any], board: dict[str, Any]) -> dict[str, Any]:
        t = self.timeline
        return {
            "schema": SCHEMA,
            "video": video,
            "board": board,
            "cameras": self.cameras,
            "objects": [
                {
                    "id": oid,
                    "class": cls,
                    "radius_mm": _radius(cls),
                    "xy_mm": self.xy[i],
                    "state": self.state[i],
                    "visible": self.visible[i],
                }
                for i, (oid, cls) in enumerate(zip(t.ids, t.classes, strict=True))
            ],
        }


def _expand(changes: list[list[Any]], frames: int, width: int, fill: float) -> np.ndarray:
    out = np.full((frames, width), fill, dtype=np.float64)
    for k, change in enumerate(changes):
        start = int(change[0])
        stop = int(changes[k + 1][0]) if k + 1 < len(changes) else frames
        values = [np.nan if v is None else v for v in change[1:]]
        out[start:stop] = values
    return out


def object_tracks(truth: dict[str, Any]) -> dict[str, np.ndarray]:
    """Per-frame arrays: `xy_mm` (F, N, 2) NaN when absent, `state` (F, N) ObjectState values,
    `visible` (F, N)."""
    frames = int(truth["video"]["frames"])
    objs = truth["objects"]
    xy = np.stack([_expand(o["xy_mm"], frames, 2, np.nan) for o in objs], axis=1)
    state = np.stack(
        [_expand([[c[0], STATE_VALUES[c[1]]] for c in o["state"]], frames, 1, -1)[:, 0] for o in objs], axis=1
    ).astype(np.int16)
    visible = np.stack([_expand(o["visible"], frames, 1, 0.0)[:, 0] for o in objs], axis=1)
    return {"xy_mm": xy, "state": state, "visible": visible}


def smear_centre(xy_before: np.ndarray, xy_now: np.ndarray, oversample: int | None = None) -> np.ndarray:
    """Where a piece moving from `xy_before` (the previous frame's truth) to `xy_now` (this
    frame's) is smeared about in this frame: the mean of its exposure's `oversample` samples,
    the last of which is the truth (samples.render.video), the motion taken as even between
    the two. With the generator's four samples a frame, 0.375 of a frame's travel back."""
    if oversample is None:
        from samples.match.simulate import DEFAULT_OVERSAMPLE

        oversample = DEFAULT_OVERSAMPLE
    back = 0.5 * (oversample - 1) / oversample
    return np.asarray(xy_now, float) - back * (np.asarray(xy_now, float) - np.asarray(xy_before, float))


def camera_at(truth: dict[str, Any], frame: int) -> dict[str, Any]:
    """The carrom-calibration/1 dict in force at `frame`."""
    current = truth["cameras"][0]
    for cam in truth["cameras"]:
        if cam["from_frame"] <= frame:
            current = cam
    return current["calibration"]
