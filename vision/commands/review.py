"""`carrom review OUT --stroke N`: an annotated clip of one stroke of a recording.

OUT is the folder `carrom score` wrote; the clip goes to OUT/review/stroke-NNN.mp4 (or
--out FILE): the stroke from the original video with a margin either side, the striker's
starting place judged by law 130, the paths and each pocketing as it happens.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.review.clip import export_clip


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "review",
        help="export an annotated clip of one recorded stroke",
        description="Cut one stroke out of the video a `carrom score` output folder was made from, "
        "annotated with its evidence.",
    )
    parser.add_argument("recording", type=Path, help="the output folder of `carrom score`")
    parser.add_argument("--stroke", type=int, required=True, help="stroke number, from 1 (as in review/)")
    parser.add_argument("--margin", type=float, default=1.0, help="seconds before and after (default 1)")
    parser.add_argument(
        "--out", type=Path, default=None, help="clip file (default OUT/review/stroke-NNN.mp4)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = export_clip(args.recording, args.stroke, margin_s=args.margin, dest=args.out)
    print(path)
    return 0
