"""`carrom synth`: the files it promises, all or nothing, one-line errors."""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from calibration.camera import Calibration
from samples.render.toy import toy_timeline
from samples.timeline import ObjectState, Timeline
from vision.cli import main


@dataclass
class FakeSimulation:
    """Stands in for samples.match's result: the CLI's plumbing is tested on its own."""

    timeline: Timeline
    bump_frames: tuple[int, ...] = (10,)

    @property
    def match_log(self) -> dict:
        return {"schema": "carrom-match-log/1", "events": []}

    @property
    def report(self) -> dict:
        return {"schema": "carrom-match-report/1", "games": []}

    def truth_dict(self) -> dict:
        return {"strokes": [{"first_frame": 3, "last_frame": 20}]}


@pytest.fixture
def fake_match(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    calls: list[dict] = []

    def simulate_match(seed: int, boards: int, fps: float, **_: object) -> FakeSimulation:
        calls.append({"seed": seed, "boards": boards, "fps": fps})
        return FakeSimulation(toy_timeline(seconds=1.0, fps=fps, seed=seed))

    module = types.ModuleType("samples.match")
    module.simulate_match = simulate_match  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "samples.match", module)
    return calls


def test_synth_writes_the_four_files(fake_match: list[dict], tmp_path: Path) -> None:
    out = tmp_path / "run"
    rc = main(["synth", "--seed", "3", "--boards", "1", "--out", str(out), "--size", "320x240", "--quiet"])
    assert rc == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "match-log.json",
        "match.mp4",
        "report.json",
        "truth.json",
    ]
    assert fake_match == [{"seed": 3, "boards": 1, "fps": 30.0}]
    truth = json.loads((out / "truth.json").read_text())
    assert truth["schema"] == "carrom-synth-truth/1"
    assert truth["video"]["file"] == "match.mp4" and truth["video"]["frames"] == 30
    assert truth["match"] == {"strokes": [{"first_frame": 3, "last_frame": 20}]}
    assert [c["from_frame"] for c in truth["cameras"]] == [0, 10]
    Calibration.from_dict(truth["cameras"][1]["calibration"])
    assert json.loads((out / "match-log.json").read_text())["schema"] == "carrom-match-log/1"
    with av.open(str(out / "match.mp4")) as container:
        assert sum(1 for _ in container.decode(video=0)) == 30


def test_a_failure_leaves_no_files(
    fake_match: list[dict], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import samples.render.video as video

    def broken(*args: object, **kwargs: object) -> dict:
        raise RuntimeError("renderer broke")

    monkeypatch.setattr(video, "render_video", broken)
    out = tmp_path / "run"
    with pytest.raises(RuntimeError):
        main(["synth", "--seed", "1", "--out", str(out), "--size", "320x240", "--quiet"])
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["synth", "--seed", "1", "--out", "X", "--size", "big"], "--size"),
        (["synth", "--seed", "1", "--out", "X", "--size", "321x240"], "even"),
        (["synth", "--seed", "1", "--out", "X", "--style", "disco"], "--style"),
        (["synth", "--seed", "1", "--out", "X", "--boards", "0"], "--boards"),
        (["synth", "--seed", "1"], "--out"),
        (["synth", "stills", "--count", "0", "--out", "X"], "--count"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], message: str, capsys, tmp_path: Path) -> None:
    argv = [str(tmp_path / a) if a == "X" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not (tmp_path / "X").exists()


def test_stills_writes_pictures_and_their_truth(tmp_path: Path) -> None:
    out = tmp_path / "stills"
    assert (
        main(["synth", "stills", "--seed", "2", "--count", "3", "--out", str(out), "--size", "480x270"]) == 0
    )
    index = json.loads((out / "truth.json").read_text())
    assert index["schema"] == "carrom-stills/1" and index["count"] == 3
    assert sorted(p.name for p in out.iterdir()) == ["00000.jpg", "00001.jpg", "00002.jpg", "truth.json"]
    seeds = set()
    for entry in index["images"]:
        image = cv2.imread(str(out / entry["file"]))
        assert image.shape == (270, 480, 3)
        cal = Calibration.from_dict(entry["camera"])
        assert cal.image_size == (480, 270)
        assert len(entry["objects"]) == 20
        seeds.add(entry["seed"])
    assert len(seeds) == 3
    # The same command gives the same pictures.
    again = tmp_path / "again"
    main(["synth", "stills", "--seed", "2", "--count", "1", "--out", str(again), "--size", "480x270"])
    first = cv2.imread(str(out / "00000.jpg")).astype(int)
    assert np.array_equal(first, cv2.imread(str(again / "00000.jpg")).astype(int))


@pytest.mark.slow
def test_a_real_board_agrees_with_the_simulators_truth(tmp_path: Path) -> None:
    """End to end through both commands: `carrom synth` writes a board whose per-frame truth
    agrees with its log, and `carrom rescore` of that log gives the report written beside it.

    Rendering is nearly all the cost and none of these checks reads a pixel, so the board is a
    short one (seed 12: 31 strokes, 18 pocketings, 2 placements, 108 s) at a small size."""
    from samples.render.truth import object_tracks

    out = tmp_path / "board"
    argv = ["synth", "--seed", "12", "--boards", "1", "--out", str(out), "--size", "240x160", "--quiet"]
    assert main([*argv, "--name", "b", "--bump-at", "20"]) == 0
    truth = json.loads((out / "b.truth.json").read_text())
    log = json.loads((out / "b.match-log.json").read_text())
    report = json.loads((out / "b.report.json").read_text())
    assert truth["match"]["match_log"] == log and truth["match"]["report"] == report
    rescored = tmp_path / "rescored"
    assert main(["rescore", str(out / "b.match-log.json"), "--out", str(rescored), "--format", "json"]) == 0
    assert json.loads((rescored / "report.json").read_text()) == report
    assert report["games"][0]["boards"][0]["winner"] in report["sides"]  # played to its end
    assert any(event["type"] == "placed" for event in log["events"])
    assert truth["match"]["num_frames"] == truth["video"]["frames"]
    assert [c["from_frame"] for c in truth["cameras"]] == [0, 600]
    tracks = object_tracks(truth)
    ids = [o["id"] for o in truth["objects"]]
    states = {int(s): s.name.lower() for s in ObjectState}
    pocketed = 0
    for stroke in truth["match"]["strokes"]:
        for item in stroke["pocketed"]:
            k = ids.index(item["id"])
            frame = int(item["frame"])
            assert stroke["first_frame"] <= frame <= stroke["last_frame"]
            # On the board before the stroke; in the pocket (and not drawn) by the stroke's end.
            assert states[int(tracks["state"][stroke["first_frame"], k])] == "on_board"
            assert states[int(tracks["state"][frame, k])] in ("falling", "in_pocket")
            assert states[int(tracks["state"][stroke["last_frame"], k])] == "in_pocket"
            assert tracks["visible"][stroke["last_frame"], k] == 0.0
            pocketed += 1
    assert pocketed > 0


SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_the_committed_sample_video_matches_its_truth_and_the_laws() -> None:
    """samples/sample-board.* (README's embedded default) are one consistent set; when the
    rules engine or the generator changes, remake them with the command in samples/README.md."""
    from rules.log import parse_log_text
    from rules.score import score_log

    video = SAMPLES / "sample-board.mp4"
    truth = json.loads((SAMPLES / "sample-board.truth.json").read_text())
    log_text = (SAMPLES / "sample-board.match-log.json").read_text()
    report = json.loads((SAMPLES / "sample-board.report.json").read_text())
    assert video.stat().st_size <= 10_000_000
    assert truth["video"]["file"] == video.name and truth["video"]["size"] == [1280, 720]
    assert len(truth["match"]["boards"]) == 1
    assert truth["match"]["match_log"] == json.loads(log_text)
    assert truth["match"]["report"] == report
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.frames in (0, truth["video"]["frames"])  # 0: the container does not say
        assert (stream.codec_context.width, stream.codec_context.height) == (1280, 720)
    rescored = score_log(parse_log_text(log_text, "sample-board.match-log.json"))
    assert json.loads(json.dumps(rescored.to_data())) == report
