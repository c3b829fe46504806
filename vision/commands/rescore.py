"""`carrom rescore LOG`: score a match log by the laws and write the ICF score card.

This is what an umpire runs after a dispute: correct the log by hand, score it again. The
report (report.json), the card as CSV (scoresheet.csv) and as a printable page
(scoresheet.html) are written together or not at all (vision.outputs.OutputSet); any
mistake in the log is one line naming the event index and field, and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules.errors import LogError
from rules.log import MatchLog, locate, parse_log_text
from rules.render import RENDERERS
from rules.report import MatchReport
from vision.errors import UsageError
from vision.outputs import OutputSet
from vision.rulesets import load_ruleset

# Which file each format is written to.
FILE_NAMES = {"json": "report.json", "csv": "scoresheet.csv", "html": "scoresheet.html"}
DEFAULT_FORMATS = "json,csv,html"


def read_log_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LogError("no such file", source=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"cannot read: {exc}", source=str(path)) from None


def load_log(path: Path) -> MatchLog:
    """A match log read from a YAML or JSON file (JSON when it ends in .json)."""
    return parse_log_text(read_log_text(path), str(path))


def _looks_like_a_file(rules: str) -> bool:
    return "/" in rules or "\\" in rules or rules.lower().endswith((".yaml", ".yml", ".json"))


def resolve_rules_path(log: MatchLog, log_path: Path) -> MatchLog:
    """A variant file the log names by a relative path is found beside the log, not the cwd.

    A log travels with its house-rules file; `rules: starwood.yaml` in club/final.yaml means
    club/starwood.yaml wherever the command is run from. A path that does not exist there is
    left alone for the ruleset loader to report.
    """
    if not _looks_like_a_file(log.rules) or Path(log.rules).is_absolute():
        return log
    beside = Path(log_path).parent / log.rules
    return log.model_copy(update={"rules": str(beside)}) if beside.is_file() else log


def parse_formats(spec: str) -> list[str]:
    formats = [part.strip().lower() for part in spec.split(",") if part.strip()]
    unknown = [name for name in formats if name not in FILE_NAMES]
    if not formats or unknown:
        named = ", ".join(unknown) or repr(spec)
        raise UsageError(f"--format: unknown format {named}; choose from json, csv, html")
    return list(dict.fromkeys(formats))


def score(log: MatchLog, text: str, source: str) -> MatchReport:
    """The report under the log's `rules` (a variant file is read here: the rules package
    reads no files); an impossible event names the file and the line the event starts on."""
    from rules.score import score_log

    ruleset = load_ruleset(log.rules)
    try:
        return score_log(log, ruleset)
    except LogError as exc:
        raise locate(exc, text, source) from None


def render(report: MatchReport, formats: list[str]) -> dict[str, str]:
    """File name -> text for every asked-for format (all rendered before anything is written)."""
    return {FILE_NAMES[name]: RENDERERS[name](report) for name in formats}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rescore",
        help="score a match log and write the ICF score card",
        description="Score a match log (carrom-match-log/1, YAML or JSON) by the Laws of Carrom and write "
        "report.json, scoresheet.csv and scoresheet.html.",
    )
    parser.add_argument("log", type=Path, help="the match log (.yaml, .yml or .json)")
    parser.add_argument(
        "--rules",
        default=None,
        help="ruleset to score by, overriding the log's own: icf, ecc, basic or a variant file",
    )
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: out/<log name>)")
    parser.add_argument(
        "--format",
        default=DEFAULT_FORMATS,
        help=f"comma-separated formats to write: json, csv, html (default: {DEFAULT_FORMATS})",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    formats = parse_formats(args.format)
    text = read_log_text(args.log)
    log = parse_log_text(text, str(args.log))
    if args.rules is not None:
        log = log.model_copy(update={"rules": args.rules})
    else:
        log = resolve_rules_path(log, args.log)
    report = score(log, text, str(args.log))
    texts = render(report, formats)
    out_dir = args.out if args.out is not None else Path("out") / args.log.stem
    with OutputSet(out_dir) as outputs:
        for name, text in texts.items():
            outputs.add_text(name, text)
    for name in texts:
        print(out_dir / name)
    games = {side: sum(1 for game in report.games if game.winner == side) for side in report.sides}
    result = " - ".join(f"{side} {games[side]}" for side in report.sides)
    winner = f"; match won by {report.winner}" if report.winner else "; match not finished"
    print(f"carrom rescore: {result} (games){winner}", file=sys.stderr)
    return 0
