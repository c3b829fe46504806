"""`carrom score` and `carrom review` end to end on a rendered scripted match.

The video is drawn by the generator's renderer from a scripted timeline (exact truth). The
camera it was drawn with stands in for calibration, and the truth positions of the frame
being read stand in for the detector (both have their own tests and figures), so these
tests are about the recorder: its files, its evidence, its behaviour on bad input.
"""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
import pytest

from calibration.camera import Calibration
from calibration.errors import NoBoardFound
from rules.log import parse_log
from samples.render.truth import object_tracks
from samples.render.video import render_video
from samples.timeline import ObjectState
from tests.vision.scripted_match import ScriptedMatch
from vision import pipeline
from vision.cli import main
from vision.commands import score as score_command
from vision.detections import CLASS_NAMES, Detections
from vision.io import open_source

pytestmark = pytest.mark.slow


def scripted() -> ScriptedMatch:
    m = ScriptedMatch()
    m.new_board("S")
    m.put_striker("S", 40.0)
    m.strike("S", target="W1", pocket="NE")
    m.put_striker("S", -60.0)
    m.strike("S", target="B3", pocket="SW")
    m.put_striker("N", 0.0)
    m.strike("N", target=None)
    return m


def faststart(src: Path, dest: Path) -> None:
    """Remux with the index at the front, so a cut-off copy still opens (like a stream)."""
    with av.open(str(src)) as inp, av.open(str(dest), "w", options={"movflags": "faststart"}) as out:
        stream = out.add_stream_from_template(inp.streams.video[0])
        for packet in inp.demux(inp.streams.video[0]):
            if packet.dts is None:
                continue
            packet.stream = stream
            out.mux(packet)


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("video")
    raw = folder / "raw.mp4"
    truth = render_video(scripted().timeline(), raw, seed=5, style="club", size=(960, 540))
    faststart(raw, folder / "match.mp4")
    return folder / "match.mp4", truth


class TruthDetector:
    """The truth positions of the frame the source last yielded."""

    def __init__(self, truth: dict) -> None:
        self.tracks = object_tracks(truth)
        self.classes = np.array([CLASS_NAMES.index(o["class"]) for o in truth["objects"]])
        self.frame = 0

    def follow(self, source: object) -> object:
        detector = self

        class Followed:
            def __init__(self) -> None:
                self.name, self.fps, self.frame_count = source.name, source.fps, source.frame_count

            def __iter__(self):
                for frame in source:
                    detector.frame = frame.index
                    yield frame

            @property
            def stopped_reason(self) -> str | None:
                return source.stopped_reason

            def close(self) -> None:
                source.close()

        return Followed()

    def detect(self, image_bgr: np.ndarray, calibration: Calibration) -> Detections:
        xy = self.tracks["xy_mm"][self.frame]
        seen = (self.tracks["state"][self.frame] == int(ObjectState.ON_BOARD)) & np.isfinite(xy).all(axis=1)
        seen &= self.tracks["visible"][self.frame] > 0.5
        return Detections(xy[seen], self.classes[seen], np.ones(int(seen.sum()), np.float32))


@pytest.fixture
def truth_camera(monkeypatch: pytest.MonkeyPatch, video: tuple[Path, dict]) -> None:
    calibration = Calibration.from_dict(video[1]["cameras"][0]["calibration"])
    monkeypatch.setattr(pipeline, "default_calibrate", lambda image: calibration)
    detector = TruthDetector(video[1])
    monkeypatch.setattr(score_command, "make_detector", lambda choice, even_light=False: detector)
    monkeypatch.setattr(score_command, "open_source", lambda spec: detector.follow(open_source(spec)))

    class Still:
        def __init__(self, *args: object) -> None:
            pass

        def check(self, gray: np.ndarray) -> bool:
            return False

    monkeypatch.setattr(pipeline, "default_monitor", Still)


def test_score_writes_the_log_the_card_and_the_review(
    tmp_path: Path, video: tuple[Path, dict], truth_camera: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(["score", str(video[0]), "--players", "Asha,Ben", "--out", str(out), "--quiet"])
    assert code == 0
    for name in ("match-log.json", "report.json", "scoresheet.csv", "scoresheet.html", "recording.json"):
        assert (out / name).is_file(), name
    log = parse_log(json.loads((out / "match-log.json").read_text()))
    strokes = [e for e in log.events if e.type == "stroke"]
    assert len(strokes) == 3
    assert [s.player for s in strokes] == ["Asha", "Asha", "Ben"]
    assert [len(s.pocketed) for s in strokes] == [1, 1, 0]
    assert strokes[0].evidence["pocket_events"][0]["pocket"] == "NE"
    assert strokes[0].evidence["striker_position"]["legal"] is True
    html = (out / "scoresheet.html").read_text()
    for n in (1, 2, 3):
        assert (out / "review" / f"stroke-{n:03d}.png").is_file()
        assert f"review/stroke-{n:03d}.png" in html
    report = json.loads((out / "report.json").read_text())
    assert report["schema"] == "carrom-match-report/1"
    # One clip, annotated, of the second stroke.
    assert main(["review", str(out), "--stroke", "2"]) == 0
    with av.open(str(out / "review" / "stroke-002.mp4")) as clip:
        assert clip.streams.video[0].frames > 20
    assert main(["review", str(out), "--stroke", "7"]) == 2
    assert "strokes 1 to 3" in capsys.readouterr().err


def test_a_cut_off_video_keeps_what_was_recorded_and_says_where_it_stopped(
    tmp_path: Path, video: tuple[Path, dict], truth_camera: None, capsys: pytest.CaptureFixture[str]
) -> None:
    data = video[0].read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: int(len(data) * 0.75)])
    out = tmp_path / "out"
    assert main(["score", str(cut), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "kept the" in err[0] and "frame" in err[0]
    log = json.loads((out / "match-log.json").read_text())
    assert 1 <= len([e for e in log["events"] if e["type"] == "stroke"]) < 3
    recording = json.loads((out / "recording.json").read_text())
    assert recording["stopped_reason"]


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(tmp_path / "missing.mp4"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "junk.mp4").write_bytes(b"not a video at all" * 100)
    assert main(["score", str(tmp_path / "junk.mp4"), "--out", str(tmp_path / "o")]) == 2
    assert "not a readable video" in capsys.readouterr().err
    for args in (["--seats", "S=A,E=B"], ["--players", "A"], ["--players", "A,B", "--first-break", "C"]):
        assert main(["score", *args, "--out", str(tmp_path / "o")]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["score", "--auto-fouls", "thumbing", "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()


def test_a_video_without_a_board_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def nothing(image: np.ndarray) -> Calibration:
        raise NoBoardFound("no playing surface in view")

    monkeypatch.setattr(pipeline, "default_calibrate", nothing)
    blank = tmp_path / "blank.mp4"
    with av.open(str(blank), "w") as container:
        stream = container.add_stream("libx264", rate=10)
        stream.width, stream.height, stream.pix_fmt = 320, 240, "yuv420p"
        for _ in range(30):
            frame = av.VideoFrame.from_ndarray(np.full((240, 320, 3), 90, np.uint8), format="bgr24")
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    out = tmp_path / "out"
    assert main(["score", str(blank), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no carrom board found" in err[0]
    assert not (out / "match-log.json").exists() and not (out / "report.json").exists()
