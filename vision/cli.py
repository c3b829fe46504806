"""The `carrom` command: a thin dispatcher over one module per subcommand.

Each module in vision/commands/ (found automatically) provides `register(subparsers)`, which
adds its parser and sets `func` to a callable taking the parsed arguments and returning an exit status. User
mistakes (any package's error type) become one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import vision.commands


def command_modules() -> list[str]:
    """Every module in vision/commands/, so a package adds a command without editing this file."""
    return sorted(
        f"vision.commands.{info.name}"
        for info in pkgutil.iter_modules(vision.commands.__path__)
        if not info.name.startswith("_")
    )


def user_error_types() -> tuple[type[BaseException], ...]:
    from calibration.errors import CalibrationError
    from rules.errors import RulesError
    from vision.errors import VisionError

    return (RulesError, CalibrationError, VisionError)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="carrom", description="Carrom match recorder.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_modules():
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except user_error_types() as exc:
        print(f"carrom {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"carrom {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
