"""Issue 2's packaging contract: the distribution, its console script and extras, and CI
running exactly the README's test command (an empty test run fails it)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_distribution_python_and_console_script() -> None:
    project = _pyproject()["project"]
    assert project["name"] == "carrom-recorder"
    assert project["requires-python"] == ">=3.11"
    assert project["scripts"] == {"carrom": "vision.cli:main"}


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~ \[;]", req, maxsplit=1)[0].lower() for req in requirements}


def test_test_tools_are_an_extra_not_runtime_dependencies() -> None:
    project = _pyproject()["project"]
    runtime = _names(project["dependencies"])
    assert {"pytest", "hypothesis"} <= _names(project["optional-dependencies"]["test"])
    assert not runtime & {"pytest", "hypothesis", "ruff", "torch"}


def test_ci_runs_the_readme_test_command_exactly() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [line.strip() for line in readme.splitlines() if line.strip().endswith("-m pytest")]
    assert len(commands) == 1, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[0] in ci.splitlines()
    assert "set -euo pipefail" in ci  # a failing command, the test run included, fails CI


def test_an_empty_test_run_fails(tmp_path: Path) -> None:
    """pytest exits 5 when it collects nothing, so `set -e` in .ci/run fails an empty suite."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 5, done.stdout
