"""`carrom schema log|report`: print the JSON Schema of a match log or a match report."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rules.log import log_json_schema
from rules.report import report_json_schema

SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {"log": log_json_schema, "report": report_json_schema}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "schema",
        help="print the JSON Schema of the match log or the match report",
        description="Print the JSON Schema of carrom-match-log/1 (log) or carrom-match-report/1 (report).",
    )
    parser.add_argument("document", choices=sorted(SCHEMAS), help="which document's schema to print")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    json.dump(SCHEMAS[args.document](), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
