"""`carrom synth`: a synthetic match on video with exact truth, or stills for training.

    carrom synth --seed S --boards N --out DIR [--size 1280x720] [--fps 30] [--style NAME]
        DIR/match.mp4 (H.264), DIR/truth.json (carrom-synth-truth/1 with the simulator's
        per-stroke truth under "match"), DIR/match-log.json, DIR/report.json
        (with --name NAME: DIR/NAME.mp4, DIR/NAME.truth.json, DIR/NAME.match-log.json,
        DIR/NAME.report.json, as the committed samples/sample-board.* are)

    carrom synth stills --seed S --count N --out DIR [--size 1280x720] [--style NAME]
        DIR/00000.jpg ... and DIR/truth.json (carrom-stills/1: one entry per image)

Everything is written together or not at all; a bad argument is one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import UsageError
from vision.outputs import OutputSet, write_json_atomic

STILLS_SCHEMA = "carrom-stills/1"
MAX_SIDE_PX = 4096
MIN_SIDE_PX = 160


def parse_size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    try:
        width, height = (int(p) for p in parts)
    except ValueError:
        raise UsageError(f"--size: expected WIDTHxHEIGHT such as 1280x720, got {text!r}") from None
    if not (MIN_SIDE_PX <= width <= MAX_SIDE_PX and MIN_SIDE_PX <= height <= MAX_SIDE_PX):
        raise UsageError(f"--size: each side must be {MIN_SIDE_PX} to {MAX_SIDE_PX} pixels, got {text!r}")
    if width % 2 or height % 2:
        raise UsageError(f"--size: sides must be even for H.264 (yuv420p), got {text!r}")
    return width, height


def check_style(name: str) -> str:
    from samples.render.styles import style_names

    if name not in style_names():
        raise UsageError(f"--style: unknown style {name!r}; choose from {', '.join(style_names())}")
    return name


def _positive(value: int | float, flag: str) -> None:
    if value <= 0:
        raise UsageError(f"{flag}: must be positive, got {value}")


def _as_json(data: Any) -> Any:
    """pydantic models and plain data alike, ready for json.dumps."""
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json", exclude_none=True)
    return data


def output_names(name: str | None) -> dict[str, str]:
    """The four files' names: the defaults, or all prefixed by `name`."""
    if name is None:
        return {"video": "match.mp4", "truth": "truth.json", "log": "match-log.json", "report": "report.json"}
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise UsageError(f"--name: a plain file name prefix such as sample-board, got {name!r}")
    return {
        "video": f"{name}.mp4",
        "truth": f"{name}.truth.json",
        "log": f"{name}.match-log.json",
        "report": f"{name}.report.json",
    }


def run_match(args: argparse.Namespace) -> int:
    if args.out is None:
        raise UsageError("--out: required (the folder to write match.mp4 and its truth into)")
    size = parse_size(args.size)
    style = check_style(args.style)
    output_names(args.name)
    _positive(args.boards, "--boards")
    _positive(args.fps, "--fps")
    from samples.match import simulate_match
    from samples.render.video import render_video, stderr_progress

    bumps = tuple(args.bump_at or ())
    for t in bumps:
        if t < 0:
            raise UsageError(f"--bump-at: a time in seconds from the start, got {t}")
    sim = simulate_match(
        seed=args.seed, boards=args.boards, fps=args.fps, **({"camera_bumps_s": bumps} if bumps else {})
    )
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".match.", suffix=".mp4", dir=out_dir)
    tmp = Path(tmp_name)
    os.close(fd)
    try:
        truth = render_video(
            sim.timeline,
            tmp,
            seed=args.seed,
            style=style,
            size=size,
            bump_frames=tuple(getattr(sim, "bump_frames", ()) or ()),
            progress=None if args.quiet else stderr_progress("carrom synth"),
        )
        names = output_names(args.name)
        truth["video"]["file"] = names["video"]
        truth["match"] = _as_json(sim.truth_dict())
        with OutputSet(out_dir) as out:
            out.add_bytes(names["video"], tmp.read_bytes())
            out.add_text(names["truth"], json.dumps(truth, separators=(",", ":")) + "\n")
            out.add_json(names["log"], _as_json(sim.match_log))
            out.add_json(names["report"], _as_json(sim.report))
    finally:
        tmp.unlink(missing_ok=True)
    return 0


def still_seed(seed: int, index: int) -> int:
    """An independent seed for the index-th still of a run."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def run_stills(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    style = check_style(args.style)
    _positive(args.count, "--count")
    from samples.render.stills import render_still

    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".stills.", dir=out_dir))
    try:
        entries = []
        for k in range(args.count):
            seed = still_seed(args.seed, k)
            image, truth = render_still(seed, style=style, size=size, jpeg=False)
            name = f"{k:05d}.jpg"
            # One compression only, at the quality the style drew for this picture.
            cv2.imwrite(
                str(staging / name), image, [cv2.IMWRITE_JPEG_QUALITY, truth["sensor"]["jpeg_quality"]]
            )
            entries.append({"file": name, **truth})
        index = {"schema": STILLS_SCHEMA, "seed": args.seed, "count": args.count, "images": entries}
        # Every picture is made before any is moved into place: all or nothing.
        for entry in entries:
            os.replace(staging / entry["file"], out_dir / entry["file"])
        write_json_atomic(out_dir / "truth.json", index)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "synth",
        help="render a synthetic match (or stills) with exact ground truth",
        description="Render a synthetic carrom match on video with exact per-frame truth, "
        "or (`carrom synth stills`) single pictures for training and tests.",
    )
    parser.add_argument("--seed", type=int, default=0, help="every random choice follows from it")
    parser.add_argument("--boards", type=int, default=1, help="boards to play (default 1)")
    parser.add_argument(
        "--out", type=Path, help="folder for match.mp4, truth.json, match-log.json, report.json"
    )
    parser.add_argument("--size", default="1280x720", help="frame size WIDTHxHEIGHT (default 1280x720)")
    parser.add_argument("--fps", type=float, default=30.0, help="frames per second (default 30)")
    parser.add_argument(
        "--style", default="any", help="look preset: any (drawn from the seed), tournament, club, ..."
    )
    parser.add_argument(
        "--bump-at",
        type=float,
        action="append",
        metavar="SECONDS",
        help="knock the camera at this time (repeatable); the truth records the new camera",
    )
    parser.add_argument("--name", help="prefix the four files' names (NAME.mp4, NAME.truth.json, ...)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(func=run_match)
    modes = parser.add_subparsers(dest="synth_mode", metavar="[stills]", title="optional mode")
    stills = modes.add_parser(
        "stills", help="single pictures with truth (detector training, calibration tests)"
    )
    stills.add_argument("--seed", type=int, default=0, help="every picture's seed follows from it")
    stills.add_argument("--count", type=int, required=True, help="how many pictures")
    stills.add_argument("--out", type=Path, required=True, help="folder for the pictures and truth.json")
    stills.add_argument("--size", default="1280x720", help="picture size WIDTHxHEIGHT (default 1280x720)")
    stills.add_argument("--style", default="any", help="look preset (default: drawn per picture)")
    stills.set_defaults(func=run_stills)
