"""`carrom detect`: the files it writes and how it refuses bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from tests.vision.synthetic_board import camera, paint
from vision.cli import main

PIECES = [("white", (0.0, 0.0)), ("black", (100.0, -50.0)), ("striker", (0.0, -290.0))]


def scene(tmp_path: Path) -> tuple[Path, Path]:
    calibration = camera(tilt=0.05)
    image = paint(PIECES, calibration)
    image_path = tmp_path / "board.png"
    cv2.imwrite(str(image_path), image)
    calibration_path = tmp_path / "calibration.json"
    calibration_path.write_text(json.dumps(calibration.to_dict()))
    return image_path, calibration_path


def test_detect_writes_the_detections_document_and_an_annotated_picture(tmp_path: Path) -> None:
    image_path, calibration_path = scene(tmp_path)
    out = tmp_path / "out"
    status = main(
        [
            "detect",
            str(image_path),
            "--calibration",
            str(calibration_path),
            "--out",
            str(out),
            "--detector",
            "classical",
        ]
    )
    assert status == 0
    document = json.loads((out / "detections.json").read_text())
    assert document["schema"] == "carrom-detections/1"
    assert document["calibration"]["schema"] == "carrom-calibration/1"
    objects = document["objects"]
    assert sorted(o["class"] for o in objects) == sorted(name for name, _ in PIECES)
    for name, (x, y) in PIECES:
        match = [o for o in objects if o["class"] == name]
        assert np.hypot(match[0]["x_mm"] - x, match[0]["y_mm"] - y) < 1.5
        assert 0.0 <= match[0]["score"] <= 1.0
    picture = cv2.imread(str(out / "detections.png"))
    assert picture.shape == cv2.imread(str(image_path)).shape
    assert not np.array_equal(picture, cv2.imread(str(image_path)))


def test_a_missing_calibration_file_is_one_line_and_status_2_with_no_outputs(tmp_path: Path, capsys) -> None:
    image_path, _ = scene(tmp_path)
    out = tmp_path / "out"
    status = main(
        ["detect", str(image_path), "--calibration", str(tmp_path / "nope.json"), "--out", str(out)]
    )
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.json" in err[0]
    assert not out.exists() or not any(out.iterdir())


def test_a_calibration_for_another_frame_size_is_refused(tmp_path: Path, capsys) -> None:
    image_path, _ = scene(tmp_path)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(camera((640, 480)).to_dict()))
    status = main(
        [
            "detect",
            str(image_path),
            "--calibration",
            str(other),
            "--out",
            str(tmp_path / "o"),
            "--detector",
            "classical",
        ]
    )
    assert status == 2
    assert "640x480" in capsys.readouterr().err


def test_a_missing_source_is_one_line_and_status_2(tmp_path: Path, capsys) -> None:
    _, calibration_path = scene(tmp_path)
    status = main(["detect", str(tmp_path / "none.png"), "--calibration", str(calibration_path)])
    assert status == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
