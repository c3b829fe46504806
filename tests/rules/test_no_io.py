"""The rules package does no I/O (DESIGN.md): it opens no file, whatever it is asked to do.

Two checks: nothing in its source can open, read, write or look at a file; and scoring logs
(with a variant ruleset), rendering the score cards and parsing variants run with every way
to open a file made to fail.
"""

from __future__ import annotations

import ast
import builtins
import io
from pathlib import Path

import pytest

from rules.errors import RulesError
from rules.log import parse_log_text
from rules.random_play import random_log
from rules.render import RENDERERS
from rules.rulesets import parse_ruleset_text
from rules.score import score_log

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
SAMPLE_LOG = ROOT / "samples" / "logs" / "sample-match.yaml"
STARWOOD = ROOT / "samples" / "rulesets" / "starwood.yaml"
# Calls that reach the file system (the builtin, pathlib's and os's), and modules made for it.
FILE_CALLS = {
    "open", "read_text", "read_bytes", "write_text", "write_bytes", "exists", "is_file", "is_dir",
    "iterdir", "glob", "rglob", "stat", "mkdir", "unlink", "rename", "touch", "open_code",
}  # fmt: skip
FILE_MODULES = {"os", "shutil", "tempfile", "glob", "fileinput"}
# Read before any test makes reading fail: the rules are handed text, as their callers do.
LOG_TEXT = SAMPLE_LOG.read_text(encoding="utf-8")
STARWOOD_TEXT = STARWOOD.read_text(encoding="utf-8")


def _sources() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_rules_module_touches_a_file(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in FILE_CALLS:
                found.append(f"line {node.lineno}: {name}()")
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name in FILE_MODULES]
        elif isinstance(node, ast.ImportFrom):
            if node.module in FILE_MODULES:
                found.append(f"line {node.lineno}: from {node.module} import ...")
            # pathlib's pure paths only: a Path can reach the disk.
            if node.module == "pathlib":
                found += [
                    f"line {node.lineno}: {a.name}" for a in node.names if not a.name.startswith("Pure")
                ]
    assert not found, f"{path.relative_to(ROOT)} touches files: {found}"


def test_scoring_and_rendering_open_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the rules opened a file: {args!r}")

    with monkeypatch.context() as patch:
        # Every file opened from Python goes through one of these (pathlib's too).
        patch.setattr(builtins, "open", refuse)
        patch.setattr(io, "open", refuse)
        starwood = parse_ruleset_text(STARWOOD_TEXT, STARWOOD.name)
        log = parse_log_text(LOG_TEXT, SAMPLE_LOG.name)
        reports = [score_log(log), score_log(log, "ecc")]
        reports += [
            score_log(random_log(seed, doubles=bool(seed % 2), ruleset=starwood), starwood)
            for seed in range(3)
        ]
        rendered = [render(report) for report in reports for render in RENDERERS.values()]
        # A log naming a variant file is not opened: its caller must read it.
        with pytest.raises(RulesError, match="reads no files"):
            score_log(log.model_copy(update={"rules": "house.yaml"}))
        # The check itself works: a read from here fails.
        with pytest.raises(AssertionError, match="opened a file"):
            SAMPLE_LOG.read_text(encoding="utf-8")
    assert all(rendered) and all(report.games for report in reports)
    assert [report.rules for report in reports] == ["icf", "ecc"] + ["starwood"] * 3
