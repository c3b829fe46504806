"""The report as JSON text, exactly the `carrom-match-report/1` document of DESIGN.md."""

from __future__ import annotations

import json

from rules.report import MatchReport


def render_json(report: MatchReport) -> str:
    return json.dumps(report.to_data(), indent=2, ensure_ascii=False) + "\n"
