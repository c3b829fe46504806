"""The evaluation's handling of what a camera cannot see: declarations are the umpire's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vision.eval import MATCH_FRAMES, with_declarations


def stroke(frame: int, player: str = "Asha") -> dict[str, Any]:
    return {"type": "stroke", "player": player, "pocketed": [], "evidence": {"frames": [frame, frame + 40]}}


def test_a_concession_goes_after_the_recorded_strokes_up_to_the_truths_last_one() -> None:
    concede = {"type": "concede", "player": "Ben", "scope": "board"}
    truth = {"events": [stroke(100), stroke(200, "Ben"), concede, stroke(900)]}
    placed = {"type": "placed", "items": ["white"], "evidence": {"frame": 230}}
    # The recorder struck the second stroke a few frames late and saw a placing after it.
    recorded = {"events": [stroke(101), stroke(200 + MATCH_FRAMES - 1, "Ben"), placed, stroke(903)]}
    spliced, declared = with_declarations(truth, recorded)
    assert declared == 1
    assert [e["type"] for e in spliced["events"]] == ["stroke", "stroke", "placed", "concede", "stroke"]
    assert recorded["events"][2] is placed and len(recorded["events"]) == 4  # not changed in place


def test_a_log_with_nothing_declared_is_scored_as_recorded() -> None:
    truth = {"events": [stroke(100)]}
    recorded = {"events": [stroke(100), stroke(400)]}
    assert with_declarations(truth, recorded) == (recorded, 0)


def test_a_concession_after_the_last_stroke_ends_the_recorded_log() -> None:
    truth = {"events": [stroke(100), {"type": "concede", "player": "Ben", "scope": "board"}]}
    spliced, _ = with_declarations(truth, {"events": [stroke(98)]})
    assert spliced["events"][-1]["type"] == "concede"


def test_differences_of_videos_need_a_log_kept_now_or_reused(tmp_path: Path) -> None:
    """`--diff` reads the kept log: without `--keep` or `--reuse` it would print an older run's
    differences as this run's, so it is refused as a usage error (status 2)."""
    from vision.eval import main

    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path), "--mode", "video", "--diff"])
    assert exit_info.value.code == 2
