"""Stroke inference and the whole recorder measured on generator videos with exact truth.

    python -m vision.eval DIR... [--mode oracle|video|both|video-truth-camera] [--noise MM] [--json FILE]
    python -m vision.eval --simulate A-B [--boards N]

Each DIR is a `carrom synth` output (match.mp4, truth.json, match-log.json, report.json).
Ways to get the recorded log:

- video: the full recorder (`carrom score`'s pipeline) over match.mp4;
- oracle: stroke inference alone, fed tracks made from the video's per-frame truth
  (samples.oracle_tracks: pieces less than half visible are occluded, optional noise);
- video-truth-camera: the full recorder with the truth camera instead of calibration;
- --simulate: stroke inference alone on simulated matches, no video (oracle tracks from the
  simulator's timeline, pieces under a forearm occluded); with --tracker, perfect detections
  (same occlusion) through the real tracker.

Figures (summed over all DIRs), against the truth match log and report:

- strokes: share of boards whose recorded stroke count equals the truth's;
- pocket events: precision and recall of (item, pocket) per matched stroke;
- placements: recall of the carrommen put back (item) before each matched stroke;
- board results: share of boards whose winner and points equal the truth report's.

Strokes are matched to the truth by their strike frame (nearest within `MATCH_FRAMES`).

What no camera sees is declared, not recorded: a concession (law 139), a seat abandoned, a
board called off to be replayed (137, 140). The truth's declarations are put into the
recorded log where the umpire would add them (`carrom rescore` after editing the log), after
the recorded strokes up to the truth's last stroke before each, and counted in the figures
(`declared`): the generator concedes a board that drags past 150 strokes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from samples.render.styles import ANY_STYLE, style_names

MATCH_FRAMES = 20  # a recorded strike this close to the true one is the same stroke
DECLARED = ("concede", "abandon", "replay")  # said at the table, not seen on the board


@dataclass
class Tally:
    boards: int = 0
    boards_count_exact: int = 0
    strokes_truth: int = 0
    strokes_recorded: int = 0
    strokes_matched: int = 0
    pocket_tp: int = 0
    pocket_fp: int = 0
    pocket_fn: int = 0
    placed_truth: int = 0
    placed_found: int = 0
    results_boards: int = 0
    results_equal: int = 0
    declared: int = 0  # declarations taken from the truth into the recorded log
    errors: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            if isinstance(value, int):
                setattr(self, name, getattr(self, name) + value)
        self.errors.extend(other.errors)

    def figures(self) -> dict[str, Any]:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "boards": self.boards,
            "stroke_count_exact": ratio(self.boards_count_exact, self.boards),
            "strokes": [self.strokes_recorded, self.strokes_truth],
            "pocket_precision": ratio(self.pocket_tp, self.pocket_tp + self.pocket_fp),
            "pocket_recall": ratio(self.pocket_tp, self.pocket_tp + self.pocket_fn),
            "placement_recall": ratio(self.placed_found, self.placed_truth),
            "board_results_equal": ratio(self.results_equal, self.results_boards),
            "declared": self.declared,
            "errors": len(self.errors),
        }


# ---------------------------------------------------------------------- reading logs
def _strokes(log: dict[str, Any]) -> list[dict[str, Any]]:
    """Strokes of a log with their event index, strike frame, pocket events and the
    carrommen placed just before them."""
    out: list[dict[str, Any]] = []
    pending: list[str] = []
    for index, event in enumerate(log["events"]):
        if event["type"] == "placed":
            pending.extend(event.get("items", []))
        elif event["type"] == "stroke":
            evidence = event.get("evidence") or {}
            out.append(
                {
                    "index": index,
                    "frame": _strike_frame(evidence),
                    "pockets": Counter(_pocket_events(evidence, event)),
                    "placed": Counter(pending),
                }
            )
            pending = []
    return out


def _strike_frame(evidence: dict[str, Any]) -> int:
    for key in ("frames", "frame_range"):
        if key in evidence:
            return int(evidence[key][0])
    for key in ("first_frame", "start_frame", "strike_frame", "frame"):
        if key in evidence:
            return int(evidence[key])
    raise KeyError("stroke evidence has no frame")


def _pocket_events(evidence: dict[str, Any], event: dict[str, Any]) -> list[tuple[str, str | None]]:
    events = evidence.get("pocket_events") or evidence.get("pocketed") or []
    if events and isinstance(events[0], dict):
        return [(e["item"], e.get("pocket")) for e in events]
    return [(item, None) for item in event.get("pocketed", [])]


def truth_placements(truth: dict[str, Any]) -> list[tuple[int, list[str]]]:
    """(frame, items) of every placement of dues, penalties or the queen in the simulator's
    truth (carrommen returned after going overboard, law 65, are not placements)."""
    placements = (truth.get("match") or {}).get("placements") or []
    out = []
    for p in placements:
        if p.get("reason", "dues") != "dues" or not p["items"]:
            continue
        items = [i["item"] if isinstance(i, dict) else i for i in p["items"]]
        frames = [int(i["frame"]) for i in p["items"] if isinstance(i, dict) and "frame" in i]
        out.append((min(frames) if frames else int(p.get("frame", 0)), items))
    return out


def _board_spans(report: dict[str, Any], strokes: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    by_index = {s["index"]: s for s in strokes}
    boards = []
    for game in report["games"]:
        for board in game["boards"]:
            boards.append([by_index[s["index"]] for s in board["strokes"] if s["index"] in by_index])
    return [b for b in boards if b]


def _board_results(report: dict[str, Any]) -> list[tuple[int, int, str | None, int]]:
    return [
        (game["number"], board["number"], board.get("winner"), board.get("points", 0))
        for game in report["games"]
        for board in game["boards"]
    ]


# ---------------------------------------------------------------------- comparing
def compare(
    truth_log: dict[str, Any],
    truth_report: dict[str, Any],
    recorded_log: dict[str, Any],
    recorded_report: dict[str, Any] | None,
    placements: list[tuple[int, list[str]]] | None = None,
    rotation_free: bool = False,
) -> Tally:
    tally = Tally()
    truth = _strokes(truth_log)
    recorded = _strokes(recorded_log)
    if placements:
        # The simulator's placements, attached to the first stroke after them.
        for s in truth:
            s["placed"] = Counter()
        for frame, items in placements:
            after = next((s for s in truth if s["frame"] >= frame), None)
            if after is not None:
                after["placed"].update(items)
    tally.strokes_truth, tally.strokes_recorded = len(truth), len(recorded)
    boards = _board_spans(truth_report, truth)
    tally.boards = len(boards)
    for b, board in enumerate(boards):
        start = board[0]["frame"] - MATCH_FRAMES if b else -(10**9)
        end = boards[b + 1][0]["frame"] - MATCH_FRAMES if b + 1 < len(boards) else 10**9
        inside = [s for s in recorded if start <= s["frame"] < end]
        tally.boards_count_exact += int(len(inside) == len(board))
    pairs = _match(truth, recorded)
    if rotation_free:
        # A calibrated board is named from the picture (S nearest the bottom edge): compare
        # pockets under the quarter turn that agrees best with the truth's naming.
        best = _best_turn(pairs)
        for r in recorded:
            r["pockets"] = _turned(r["pockets"], best)
    matched_recorded = {id(r) for _, r in pairs}
    for t, r in pairs:
        tp = sum((t["pockets"] & r["pockets"]).values())
        tally.pocket_tp += tp
        tally.pocket_fp += sum(r["pockets"].values()) - tp
        tally.pocket_fn += sum(t["pockets"].values()) - tp
    matched_truth = {id(t) for t, _ in pairs}
    for t in truth:
        if id(t) not in matched_truth:
            tally.pocket_fn += sum(t["pockets"].values())
    for r in recorded:
        if id(r) not in matched_recorded:
            tally.pocket_fp += sum(r["pockets"].values())
    recorded_for = {id(t): r for t, r in pairs}
    for t in truth:
        wanted = t["placed"]
        tally.placed_truth += sum(wanted.values())
        r = recorded_for.get(id(t))
        if r is not None:
            tally.placed_found += sum((wanted & r["placed"]).values())
    tally.strokes_matched = len(pairs)
    truth_results = _board_results(truth_report)
    got = {(g, b): (w, p) for g, b, w, p in _board_results(recorded_report)} if recorded_report else {}
    tally.results_boards = len(truth_results)
    tally.results_equal = sum(1 for g, b, w, p in truth_results if got.get((g, b)) == (w, p))
    return tally


def differences(truth_log: dict[str, Any], recorded_log: dict[str, Any]) -> list[str]:
    """One line per stroke the recorder got wrong: missed, extra, or matched with other
    pocket events, overboard items, touch or player (pockets compared under the quarter
    turn that agrees best, as the figures do)."""
    truth, recorded = _strokes(truth_log), _strokes(recorded_log)
    pairs = _match(truth, recorded)
    best = _best_turn(pairs)
    lines: list[str] = []
    paired_truth = {id(t): r for t, r in pairs}
    paired_recorded = {id(r) for _, r in pairs}
    events_t, events_r = truth_log["events"], recorded_log["events"]
    for t in truth:
        r = paired_truth.get(id(t))
        te = events_t[t["index"]]
        if r is None:
            lines.append(f"missed  frame {t['frame']}: {_describe(te)}")
            continue
        re_ = events_r[r["index"]]
        turned = _turned(r["pockets"], best)
        same = (
            turned == t["pockets"]
            and sorted(te.get("overboard", [])) == sorted(re_.get("overboard", []))
            and te.get("touched", True) == re_.get("touched", True)
            and te.get("player") == re_.get("player")
        )
        if not same:
            lines.append(
                f"differs frame {t['frame']}/{r['frame']}: truth {_describe(te)} | got {_describe(re_)}"
            )
    for r in recorded:
        if id(r) not in paired_recorded:
            lines.append(f"extra   frame {r['frame']}: {_describe(events_r[r['index']])}")
    return lines


def _describe(event: dict[str, Any]) -> str:
    evidence = event.get("evidence") or {}
    pockets = [f"{e['item']}@{e.get('pocket')}" for e in evidence.get("pocket_events", [])]
    parts = [str(event.get("player")), "pocketed " + (",".join(pockets or event.get("pocketed", [])) or "-")]
    if event.get("overboard"):
        parts.append("overboard " + ",".join(event["overboard"]))
    if event.get("touched") is False:
        parts.append("untouched")
    return " ".join(parts)


_TURN = {"NE": "NW", "NW": "SW", "SW": "SE", "SE": "NE"}


def _best_turn(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> int:
    """The quarter turn of the recorded pocket names that agrees best with the truth's."""
    return max(
        range(4), key=lambda k: sum(sum((t["pockets"] & _turned(r["pockets"], k)).values()) for t, r in pairs)
    )


def _turned(pockets: Counter, quarter_turns: int) -> Counter:
    out: Counter = Counter()
    for (item, pocket), n in pockets.items():
        for _ in range(quarter_turns):
            pocket = _TURN.get(pocket, pocket) if pocket else pocket
        out[(item, pocket)] += n
    return out


def _match(truth: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> list[tuple[dict, dict]]:
    """Greedy in time order: each true stroke takes the nearest unused recorded strike."""
    pairs = []
    used: set[int] = set()
    for t in truth:
        best = None
        for k, r in enumerate(recorded):
            if k in used or abs(r["frame"] - t["frame"]) > MATCH_FRAMES:
                continue
            if best is None or abs(r["frame"] - t["frame"]) < abs(recorded[best]["frame"] - t["frame"]):
                best = k
        if best is not None:
            used.add(best)
            pairs.append((t, recorded[best]))
    return pairs


# ---------------------------------------------------------------------- recording
def _seating(truth_log: dict[str, Any]) -> Any:
    from vision.events import SeatAssigner

    seats = truth_log["seats"]
    event = truth_log.get("event", "singles")
    return SeatAssigner(event, seats=seats, first_break=truth_log["first_break"])


def _truth_report(directory: Path, truth_log: dict[str, Any]) -> dict[str, Any]:
    """The truth log scored by the engine as it is now (the report written beside the video
    was made by the engine of its day; both logs must meet the same laws)."""
    try:
        report = _score(truth_log)
    except Exception:  # a truth log the current laws reject: fall back to the stored report
        report = None
    return report if report is not None else json.loads((directory / "report.json").read_text())


def _score(log: dict[str, Any]) -> dict[str, Any] | None:
    from rules.log import parse_log
    from rules.score import score_log

    return score_log(parse_log(log)).model_dump(mode="json")


def record_oracle(directory: Path, truth_log: dict[str, Any], noise_mm: float, seed: int) -> dict[str, Any]:
    from samples.oracle_tracks import OracleNoise, oracle_track_frames, timeline_from_truth
    from vision.events import MatchRecorder

    truth = json.loads((directory / "truth.json").read_text())
    timeline, visible = timeline_from_truth(truth)
    recorder = MatchRecorder(_seating(truth_log), rules=truth_log.get("rules", "icf"))
    frame = None
    for frame in oracle_track_frames(timeline, OracleNoise(position_mm=noise_mm), seed=seed, visible=visible):
        recorder.update(frame)
    if frame is not None:
        recorder.finish(frame.frame_index, frame.time_s)
    return recorder.log()


class TruthCamera:
    """The truth's camera in force at each frame, standing in for calibration and its monitor
    (to measure detection, tracking and events apart from calibration)."""

    def __init__(self, truth: dict[str, Any]) -> None:
        from calibration.camera import Calibration

        self.cameras = [(c["from_frame"], Calibration.from_dict(c["calibration"])) for c in truth["cameras"]]
        self.frame = 0
        self._in_force = self.current()

    def current(self) -> Any:
        chosen = self.cameras[0][1]
        for start, calibration in self.cameras:
            if start <= self.frame:
                chosen = calibration
        return chosen

    def calibrate(self, image_bgr: Any) -> Any:
        self._in_force = self.current()
        return self._in_force

    def monitor(self, calibration: Any, image_bgr: Any) -> TruthCamera:
        return self

    def check(self, gray: Any) -> bool:
        return self.current() is not self._in_force

    def refit(self, image_bgr: Any) -> Any:
        return self.calibrate(image_bgr)

    def follow(self, source: Any) -> Any:
        for frame in source:
            self.frame = frame.index
            yield frame


class _Followed:
    def __init__(self, source: Any, camera: TruthCamera) -> None:
        self.source, self.camera = source, camera
        self.name, self.fps, self.frame_count = source.name, source.fps, source.frame_count

    def __iter__(self) -> Any:
        return self.camera.follow(self.source)

    @property
    def stopped_reason(self) -> str | None:
        return self.source.stopped_reason


def record_video(
    directory: Path, truth_log: dict[str, Any], truth_camera: bool = False, even_light: bool = False
) -> dict[str, Any]:
    from vision.commands.score import make_detector
    from vision.events import MatchRecorder
    from vision.io import open_source
    from vision.pipeline import Pipeline
    from vision.track import Tracker

    if truth_camera:
        seating = _seating(truth_log)
    else:  # the calibration names the sides from the picture: seats follow the first stroke
        from vision.events import SeatAssigner

        breaker = truth_log["first_break"]
        other = next(name for name in truth_log["seats"].values() if name != breaker)
        seating = SeatAssigner("singles", players=(breaker, other), first_break=breaker)
    recorder = MatchRecorder(seating, rules=truth_log.get("rules", "icf"))
    source = open_source(directory / "match.mp4")
    try:
        if truth_camera:
            camera = TruthCamera(json.loads((directory / "truth.json").read_text()))
            pipeline = Pipeline(
                recorder,
                make_detector("auto", even_light),
                Tracker(),
                calibrate=camera.calibrate,
                monitor_factory=camera.monitor,
            )
            pipeline.run(_Followed(source, camera))  # type: ignore[arg-type]
        else:
            Pipeline(recorder, make_detector("auto", even_light), Tracker()).run(source)
    finally:
        source.close()
    return recorder.log()


def evaluate(
    directory: Path,
    mode: str,
    noise_mm: float = 0.5,
    seed: int = 0,
    keep: bool = False,
    reuse: bool = False,
    even_light: bool = False,
) -> Tally:
    """`keep`: write the recorded log beside the video (recorded-MODE.json); `reuse`: score
    that file instead of recording again (to study a change to the comparison or the laws);
    `even_light`: the recorder as `carrom score --even-light` runs it."""
    kept = directory / f"recorded-{mode}.json"
    truth_log = json.loads((directory / "match-log.json").read_text())
    truth_report = _truth_report(directory, truth_log)
    placements = truth_placements(json.loads((directory / "truth.json").read_text()))
    if reuse and kept.is_file():
        return _scored(json.loads(kept.read_text()), truth_log, truth_report, placements, directory, mode)
    if mode == "oracle":
        log = record_oracle(directory, truth_log, noise_mm, seed)
    else:
        from calibration.errors import CalibrationError
        from vision.errors import VisionError

        try:
            log = record_video(
                directory, truth_log, truth_camera=mode == "video-truth-camera", even_light=even_light
            )
        except (CalibrationError, VisionError) as exc:
            tally = Tally(boards=len(_board_results(truth_report)))
            tally.results_boards = tally.boards
            tally.strokes_truth = len(_strokes(truth_log))
            tally.errors.append(f"{directory}: {exc}")
            return tally
    if keep:
        kept.write_text(json.dumps(log, indent=1))
    return _scored(log, truth_log, truth_report, placements, directory, mode)


def _scored(
    log: dict[str, Any],
    truth_log: dict[str, Any],
    truth_report: dict[str, Any],
    placements: list[tuple[int, list[str]]],
    directory: Path,
    mode: str,
) -> Tally:
    log, declared = with_declarations(truth_log, log)
    try:
        report = _score(log)
    except Exception as exc:  # a recorded log the laws reject still counts its strokes
        tally = compare(truth_log, truth_report, log, None, placements, mode == "video")
        tally.errors.append(f"{directory}: {mode}: the rules reject the recorded log: {exc}")
    else:
        tally = compare(truth_log, truth_report, log, report, placements, mode == "video")
    tally.declared = declared
    return tally


def with_declarations(truth_log: dict[str, Any], recorded_log: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The recorded log with the truth's declarations (`DECLARED`) put in, and how many: each
    goes after the recorded strokes struck up to `MATCH_FRAMES` past the truth's last stroke
    before it, and after the placings that followed them."""
    declarations: list[tuple[int, dict[str, Any]]] = []
    last_frame = -1
    for event in truth_log["events"]:
        if event["type"] == "stroke":
            last_frame = _strike_frame(event.get("evidence") or {})
        elif event["type"] in DECLARED:
            declarations.append((last_frame, event))
    if not declarations:
        return recorded_log, 0
    events: list[dict[str, Any]] = []
    pending = list(declarations)
    for event in recorded_log["events"]:
        if event["type"] == "stroke":
            frame = _strike_frame(event.get("evidence") or {})
            while pending and frame > pending[0][0] + MATCH_FRAMES:
                events.append(pending.pop(0)[1])
        events.append(event)
    events.extend(event for _, event in pending)
    return {**recorded_log, "events": events}, len(declarations)


def _as_data(value: Any) -> Any:
    return value.model_dump(mode="json", exclude_none=True) if hasattr(value, "model_dump") else value


def truth_detections(timeline: Any, noise_mm: float, seed: int) -> Any:
    """Per frame, the pieces on or over the board and not wholly under a forearm, as
    detections with position noise: perfect detection, for measuring the tracker and stroke
    inference together."""
    import numpy as np

    from calibration.geometry import HALF_SURFACE_MM
    from samples.oracle_tracks import hand_covers
    from samples.timeline import ObjectState
    from vision.detect.base import VIEW_MARGIN_MM
    from vision.detections import CLASS_NAMES, Detections

    rng = np.random.default_rng(seed)
    classes = np.array([CLASS_NAMES.index(c) for c in timeline.classes])
    shown = [int(ObjectState.ON_BOARD), int(ObjectState.HELD), int(ObjectState.AIRBORNE)]
    for f in range(timeline.num_frames):
        s = f * timeline.oversample + timeline.oversample - 1
        xy = timeline.xy_mm[s].astype(float)
        finite = np.where(np.isfinite(xy), xy, 1e6)
        # A piece flying off is seen while it is over the detector's view of the board.
        in_view = np.all(np.abs(finite) <= HALF_SURFACE_MM + VIEW_MARGIN_MM, axis=1)
        seen = np.isin(timeline.state[s], shown) & in_view
        for hand in timeline.hands[s]:
            seen &= ~hand_covers(hand, finite, timeline.radius_mm)
        noise = rng.normal(0.0, noise_mm, (int(seen.sum()), 2))
        yield f, Detections(xy[seen] + noise, classes[seen], np.ones(int(seen.sum()), np.float32))


def evaluate_simulated(
    seed: int,
    boards: int,
    noise_mm: float,
    through_tracker: bool = False,
    skill: float = 0.85,
    diff: bool = False,
) -> Tally:
    """Stroke inference on a simulated match (no rendering): oracle tracks from the
    simulator's timeline, hands occluding what they cover; or, `through_tracker`, perfect
    detections through the real tracker."""
    from samples.match import simulate_match
    from samples.oracle_tracks import OracleNoise, oracle_track_frames
    from vision.events import MatchRecorder
    from vision.track import Tracker

    sim = simulate_match(seed, boards=boards, skill=skill)
    truth_log, truth_report = _as_data(sim.match_log), _as_data(sim.report)
    recorder = MatchRecorder(_seating(truth_log), rules=truth_log.get("rules", "icf"))
    frame = None
    if through_tracker:
        tracker = Tracker()
        fps = sim.timeline.fps
        for f, detections in truth_detections(sim.timeline, noise_mm, seed):
            frame = tracker.update(detections, f, f / fps)
            recorder.update(frame, detections)
    else:
        for frame in oracle_track_frames(sim.timeline, OracleNoise(position_mm=noise_mm), seed=seed):
            recorder.update(frame)
    if frame is not None:
        recorder.finish(frame.frame_index, frame.time_s)
    log = recorder.log()
    if diff:
        for line in differences(truth_log, log):
            print(f"  seed {seed}: {line}", file=sys.stderr)
    placements = truth_placements({"match": _as_data(sim.truth_dict())})
    try:
        report = _score(log)
    except Exception as exc:  # a recorded log the laws reject still counts its strokes
        tally = compare(truth_log, truth_report, log, None, placements)
        tally.errors.append(f"seed {seed}: the rules reject the recorded log: {exc}")
        return tally
    return compare(truth_log, truth_report, log, report, placements)


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def make_videos(
    out: Path, seeds: list[int], size: tuple[int, int], skill: float, bump_every: int, style: str = ANY_STYLE
) -> None:
    """Generator videos for the figures, like `carrom synth` (one board each), with a camera
    bump halfway through every `bump_every`-th one; `style` names one look for all of them
    (a failing look gathered on its own), else each seed draws its own."""
    from samples.match import simulate_match
    from samples.render.video import render_video

    for k, seed in enumerate(seeds):
        folder = out / f"seed-{seed}"
        if (folder / "report.json").is_file():
            continue
        bumps: tuple[float, ...] = ()
        if bump_every and k % bump_every == bump_every - 1:
            length = simulate_match(seed, boards=1, skill=skill).timeline.num_frames
            bumps = (0.5 * length / 30.0,)
        sim = simulate_match(seed, boards=1, skill=skill, camera_bumps_s=bumps)
        folder.mkdir(parents=True, exist_ok=True)
        truth = render_video(
            sim.timeline, folder / "match.mp4", seed=seed, style=style, size=size, bump_frames=sim.bump_frames
        )
        truth["match"] = _as_data(sim.truth_dict())
        (folder / "truth.json").write_text(json.dumps(truth, separators=(",", ":")))
        (folder / "match-log.json").write_text(json.dumps(_as_data(sim.match_log), indent=1))
        (folder / "report.json").write_text(json.dumps(_as_data(sim.report), indent=1))
        print(
            f"made {folder}: {sim.timeline.num_frames} frames, bumps at {list(sim.bump_frames)}",
            file=sys.stderr,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.eval", description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, help="carrom synth output folders")
    parser.add_argument(
        "--simulate",
        default=None,
        help="seeds (A-B,C) of simulated matches to measure stroke inference alone on, without rendering",
    )
    parser.add_argument("--boards", type=int, default=1, help="boards per simulated match (default 1)")
    parser.add_argument(
        "--tracker", action="store_true", help="with --simulate: perfect detections through the real tracker"
    )
    parser.add_argument("--make", type=Path, default=None, help="render evaluation videos into this folder")
    parser.add_argument("--seeds", default="9100-9119", help="seeds of the videos --make renders")
    parser.add_argument("--size", default="1280x720", help="size of the videos --make renders")
    parser.add_argument(
        "--skill", type=float, default=0.85, help="players' skill in the videos --make renders"
    )
    parser.add_argument(
        "--bump-every", type=int, default=3, help="every Nth video --make renders has a camera bump"
    )
    parser.add_argument(
        "--style",
        choices=style_names(),
        default=ANY_STYLE,
        help="look of the videos --make renders (default: each seed draws one)",
    )
    parser.add_argument(
        "--mode",
        choices=("oracle", "video", "both", "video-truth-camera"),
        default="both",
        help="oracle tracks, the full recorder on the video, both (default), or the recorder with the "
        "truth camera instead of calibration",
    )
    parser.add_argument("--noise", type=float, default=0.5, help="oracle position noise, mm (default 0.5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the oracle noise")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    parser.add_argument(
        "--keep", action="store_true", help="write each recorded log beside its video (recorded-MODE.json)"
    )
    parser.add_argument(
        "--even-light", action="store_true", help="the recorder as `carrom score --even-light` runs it"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="score the recorded logs --keep wrote instead of recording again"
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="print each stroke the recorder got wrong (needs --keep or --reuse)",
    )
    args = parser.parse_args(argv)
    if args.diff and args.dirs and not (args.keep or args.reuse):
        # The differences are read from the kept log: without one written now they would be
        # an older run's.
        parser.error("--diff with videos needs --keep or --reuse")
    if args.make is not None:
        width, height = (int(v) for v in args.size.lower().split("x"))
        make_videos(
            args.make, parse_seeds(args.seeds), (width, height), args.skill, args.bump_every, args.style
        )
        return 0
    modes = ("oracle", "video") if args.mode == "both" else (args.mode,)
    results: dict[str, Any] = {}
    if args.simulate:
        total = Tally()
        name = "simulated-tracker" if args.tracker else "simulated-oracle"
        for seed in parse_seeds(args.simulate):
            tally = evaluate_simulated(seed, args.boards, args.noise, args.tracker, args.skill, args.diff)
            total.add(tally)
            print(f"{name} seed {seed}: {json.dumps(tally.figures())}", file=sys.stderr)
        results[name] = {**total.figures(), "error_list": total.errors}
        print(f"{name}: {json.dumps(total.figures())}")
    if not args.dirs:
        modes = ()
    for mode in modes:
        total = Tally()
        for directory in args.dirs:
            tally = evaluate(
                directory,
                mode,
                args.noise,
                args.seed,
                keep=args.keep,
                reuse=args.reuse,
                even_light=args.even_light,
            )
            if args.diff:
                recorded = directory / f"recorded-{mode}.json"
                if recorded.is_file():
                    truth_log = json.loads((directory / "match-log.json").read_text())
                    for line in differences(truth_log, json.loads(recorded.read_text())):
                        print(f"  {directory.name}: {line}", file=sys.stderr)
            total.add(tally)
            print(f"{mode:6s} {directory}: {json.dumps(tally.figures())}", file=sys.stderr)
        results[mode] = total.figures()
        results[mode]["error_list"] = total.errors
        print(f"{mode}: {json.dumps(total.figures())}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
