"""`carrom score [VIDEO]`: a video in, the ICF score card out, with the evidence for every ruling.

Writes, in --out: match-log.json (appended and flushed as each stroke comes to rest: a crash
keeps what was recorded), report.json, scoresheet.csv and scoresheet.html (the rules
renderers; each stroke links to its review image), review/ (per stroke before/after
top-down images, index.json for `carrom review`), and recording.json (frames read and
detected, re-calibrations, where decoding stopped, the seconds each stage took). With no
VIDEO it scores the embedded sample video, samples/sample-board.mp4.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import samples
from rules.log import parse_log
from rules.render import render_csv, render_html, render_json
from vision.errors import UsageError
from vision.events import MatchLogWriter, MatchRecorder, SeatAssigner, parse_seats
from vision.events.recorder import AUTO_FOULS
from vision.io import open_source
from vision.outputs import OutputSet, write_json_atomic
from vision.pipeline import Pipeline, PipelineOptions, RecordingStatus

SAMPLE_VIDEO = Path(samples.__file__).resolve().parent / "sample-board.mp4"
LOG_NAME = "match-log.json"
RESULT_NAMES = ("match-log.json", "report.json", "scoresheet.csv", "scoresheet.html", "recording.json")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="record a match from a video and write the ICF score card with evidence",
        description="Watch a video of a carrom match (overhead camera) and write the match log, the "
        "ICF score card (report.json, scoresheet.csv, scoresheet.html) and per-stroke review images. "
        "With no VIDEO, scores the embedded sample video.",
    )
    parser.add_argument("video", nargs="?", default=None, help="video file, camera:N or stream URL")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--players", help="singles players, first to break first: A,B")
    who.add_argument("--seats", help="who sits where: S=A,N=B (singles) or S=A,E=C,N=B,W=D (doubles)")
    parser.add_argument("--first-break", help="who breaks the first board (default: the first player)")
    parser.add_argument("--rules", default="icf", help="icf, ecc, basic or a variant file (default icf)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: out/<video name>)")
    parser.add_argument(
        "--auto-fouls",
        default="",
        help="fouls to call from the video itself: striker-position (law 130). Default: none, "
        "the measurements are recorded as evidence only",
    )
    parser.add_argument(
        "--out-of-turn",
        action="store_true",
        help="record a stroke played from a seat the laws do not give the turn to as a stroke out of "
        "turn (law 51 in the ICF text). Default: it is recorded as the laws' turn and flagged in its "
        "evidence (seen_player, turn_note), since a missed pocketing is likelier than a player "
        "striking out of turn",
    )
    parser.add_argument(
        "--detector", choices=("auto", "onnx", "classical"), default="auto", help="piece detector"
    )
    parser.add_argument(
        "--even-light",
        action="store_true",
        help="brighten a dim lamp's dark corners before the detector looks (vision/RECORDER_CARD.md: "
        "better on dim development boards, mixed on others)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def seating_from(args: argparse.Namespace) -> SeatAssigner:
    if args.seats:
        seats = parse_seats(args.seats)
        return SeatAssigner(
            "doubles" if len(seats) == 4 else "singles", seats=seats, first_break=args.first_break
        )
    players = None
    if args.players:
        players = tuple(name.strip() for name in args.players.split(",") if name.strip())
        if len(players) != 2 or len(set(players)) != 2:
            raise UsageError(f"--players: give two different names, A,B (got {args.players!r})")
    return SeatAssigner("singles", players=players, first_break=args.first_break)


def auto_fouls_from(text: str) -> tuple[str, ...]:
    fouls = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [f for f in fouls if f not in AUTO_FOULS]
    if unknown:
        raise UsageError(f"--auto-fouls: unknown {', '.join(unknown)}; known: {', '.join(AUTO_FOULS)}")
    return fouls


def make_detector(choice: str, even_light: bool = False) -> Any:
    from vision.detect import ClassicalDetector
    from vision.detect.onnx_detector import default_model_path

    if choice == "classical" or (choice == "auto" and not default_model_path().is_file()):
        return ClassicalDetector()
    from vision.detect import load_default_detector

    return load_default_detector(for_tracking=True, even_light=even_light)


def run(args: argparse.Namespace) -> int:
    seating = seating_from(args)
    auto_fouls = auto_fouls_from(args.auto_fouls)
    video = args.video if args.video is not None else str(SAMPLE_VIDEO)
    out_dir = args.out if args.out is not None else Path("out") / Path(video).stem
    source = open_source(video)
    detector = make_detector(args.detector, even_light=args.even_light)
    from vision.review import ReviewWriter
    from vision.track import Tracker

    for name in RESULT_NAMES:  # results of an earlier run must not mix with this one's
        (out_dir / name).unlink(missing_ok=True)
    recorder = MatchRecorder(
        seating,
        rules=args.rules,
        auto_fouls=auto_fouls,
        writer=MatchLogWriter(out_dir / LOG_NAME),
        out_of_turn=args.out_of_turn,
    )
    review = ReviewWriter(out_dir, video, source.fps)
    pipeline = Pipeline(
        recorder,
        detector,
        Tracker(),
        review=review,
        options=PipelineOptions(),
        progress=None if args.quiet else sys.stderr,
    )
    try:
        status = pipeline.run(source)
    finally:
        source.close()
    write_results(out_dir, recorder, review.links, status)
    for name in RESULT_NAMES:
        print(out_dir / name)
    if status.stopped_reason:
        print(
            f"carrom score: error: {status.stopped_reason}; kept the {status.strokes} strokes recorded "
            f"up to frame {status.last_frame} (see {out_dir / 'recording.json'})",
            file=sys.stderr,
        )
        return 2
    print(
        f"carrom score: {status.strokes} strokes recorded from {status.frames_read} frames", file=sys.stderr
    )
    return 0


def final_log(recorder: MatchRecorder) -> dict[str, Any]:
    """The recorded log, with the seating filled in when no stroke fixed it."""
    doc = recorder.log()
    if "seats" not in doc:
        seating = recorder.seating
        seats = seating.seats or {"S": seating.players[0], "N": seating.players[1]}
        doc["seats"] = seats
        doc["first_break"] = seating.first_break or next(iter(seats.values()))
    return doc


def write_results(
    out_dir: Path, recorder: MatchRecorder, links: dict[int, str], status: RecordingStatus
) -> None:
    from rules.score import score_log

    doc = final_log(recorder)
    write_json_atomic(out_dir / LOG_NAME, doc)
    # The ruleset the recorder ruled by (a variant file was read once, when it started).
    report = score_log(parse_log(doc), recorder.guard.ruleset)
    with OutputSet(out_dir) as outputs:
        outputs.add_text("report.json", render_json(report))
        outputs.add_text("scoresheet.csv", render_csv(report))
        outputs.add_text("scoresheet.html", render_html(report, stroke_links=links))
        outputs.add_json("recording.json", status.to_dict())
