"""Detection over the part of the board that changed (vision.detect.changed_part)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.camera import Calibration, board_to_rectified
from models.detector.scenes import load_still
from vision.detect import load_default_detector
from vision.detect.base import BoardRectifier
from vision.detect.changed_part import ChangedPartDetector
from vision.detect.onnx_detector import Within
from vision.detections import Detections
from vision.io import Frame


@pytest.fixture(scope="module")
def detector():
    return load_default_detector(for_tracking=True)


def test_over_a_video_the_changed_part_finds_what_the_whole_board_finds(detector) -> None:
    """The sample video (a break, strokes, hands placing the striker): frame by frame the
    detections equal a whole-board pass's but for a few borderline peaks, at a fraction of
    the network's work."""
    from samples.render.truth import camera_at
    from vision.commands.score import SAMPLE_VIDEO
    from vision.io import open_source

    truth = json.loads(SAMPLE_VIDEO.with_name("sample-board.truth.json").read_text())
    changed = ChangedPartDetector(load_default_detector(for_tracking=True))
    work: dict[str, int] = {}
    pieces = unmatched = 0
    source = open_source(SAMPLE_VIDEO)
    for frame in source:
        if frame.index >= 450:
            break
        calibration = Calibration.from_dict(camera_at(truth, frame.index))
        expected = detector.detect(frame, calibration)
        got = changed.detect(frame, calibration)
        work[changed.last_work] = work.get(changed.last_work, 0) + 1
        for one, other in ((expected, got), (got, expected)):
            for xy, class_id in zip(one.xy_mm, one.class_id, strict=True):
                same = other.xy_mm[other.class_id == class_id]
                unmatched += not len(same) or np.linalg.norm(same - xy, axis=1).min() > 3.0
        pieces += len(expected)
    source.close()
    assert pieces > 5000
    assert unmatched <= 0.001 * pieces
    assert work.get("full", 0) <= 0.35 * sum(work.values())
    assert work.get("part", 0) >= 0.5 * sum(work.values())


class _Scripted:
    """A box detector whose answers are scripted, recording the boxes it was asked about."""

    def __init__(
        self,
        found: Detections,
        unsure_mm: np.ndarray,
        pale_striker: bool = False,
        over_holes: Detections | None = None,
        faint: Detections | None = None,
    ) -> None:
        self.rectifier = BoardRectifier(0.5, 384.0)
        self.min_score = 0.4
        self.box_alignment_px = 16
        self.found, self.unsure_mm, self.pale_striker = found, unsure_mm, pale_striker
        self.over_holes = over_holes if over_holes is not None else Detections.empty()
        self.faint = faint if faint is not None else Detections.empty()
        self.boxes: list[object] = []

    def detect_within(self, image, calibration, box=None, striker_elsewhere=False) -> Within:
        self.boxes.append(box)
        return Within(self.found, self.unsure_mm, self.pale_striker, self.over_holes, self.faint)


def _works(changed: ChangedPartDetector, frames: list[Frame], calibration: Calibration) -> list[str]:
    """What each frame cost the changed-part detector."""
    works = []
    for frame in frames:
        changed.detect(frame, calibration)
        works.append(changed.last_work)
    return works


def _still_frames(count: int) -> list[Frame]:
    scene = load_still(30002, hands=0)
    return [Frame.from_bgr(i, i / 30.0, scene.image_bgr) for i in range(count)]


def test_a_still_picture_is_not_looked_at_again_until_the_refresh() -> None:
    scene = load_still(30002, hands=0)
    coin = Detections(np.array([[100.0, 50.0]]), np.array([0]), np.array([0.95], np.float32))
    scripted = _Scripted(coin, np.empty((0, 2)))
    changed = ChangedPartDetector(scripted, refresh_s=1.0)  # type: ignore[arg-type]
    works = _works(changed, _still_frames(40), scene.calibration)
    assert changed.detect(_still_frames(41)[-1], scene.calibration).xy_mm.tolist() == [[100.0, 50.0]]
    assert works[0] == "full" and works[30] == "full"
    assert set(works[1:30]) == {"none"} and set(works[31:]) == {"none"}


def test_where_the_network_was_unsure_it_looks_again_every_frame() -> None:
    """A faint piece (a dim lamp's striker) is seen in some frames of a still board and not in
    others: the whole board's pass would look again, so the part around it is looked at."""
    scene = load_still(30002, hands=0)
    faint = np.array([[-150.0, -250.0]])
    scripted = _Scripted(Detections.empty(), faint)
    changed = ChangedPartDetector(scripted)  # type: ignore[arg-type]
    for frame in _still_frames(5):
        changed.detect(frame, scene.calibration)
    assert scripted.boxes[0] is None  # the first frame: the whole board
    col, row = board_to_rectified(faint, 0.5, 384.0)[0]
    for box in scripted.boxes[1:]:
        col0, row0, col1, row1 = box  # type: ignore[misc]
        assert col0 <= col - 64 and col + 64 <= col1 and row0 <= row - 64 and row + 64 <= row1
        assert (col1 - col0) * (row1 - row0) <= 0.25 * 384 * 384
    assert len(scripted.boxes) == 5


def test_a_pale_striker_in_a_part_is_weighed_against_the_whole_board() -> None:
    """Over the whole board a pale striker is taken only where no striker is found at all, and
    then the likeliest of all candidates: a part with a candidate and no striker anywhere is
    looked at again as the whole board."""
    scene = load_still(30002, hands=0)
    faint = np.array([[-150.0, -250.0]])
    coin = Detections(np.array([[100.0, 50.0]]), np.array([0]), np.array([0.95], np.float32))
    changed = ChangedPartDetector(_Scripted(coin, faint, pale_striker=True))  # type: ignore[arg-type]
    assert _works(changed, _still_frames(3), scene.calibration) == ["full", "full", "full"]
    striker = Detections(np.array([[0.0, -250.0]]), np.array([3]), np.array([0.9], np.float32))
    changed = ChangedPartDetector(_Scripted(striker, faint, pale_striker=True))  # type: ignore[arg-type]
    assert _works(changed, _still_frames(3), scene.calibration) == ["full", "part", "part"]


def test_a_part_that_changed_is_looked_at_until_it_has_settled() -> None:
    """A piece coming to rest sharpens out of its blur after the picture has all but stopped
    changing: the part where it changed is looked at again for `settle_s`, then left."""
    import cv2

    scene = load_still(30002, hands=0)
    moved = scene.image_bgr.copy()
    centre = scene.calibration.board_to_image(np.array([[100.0, 50.0]]))[0]
    cv2.circle(moved, tuple(int(v) for v in centre), 12, (250, 250, 250), -1)
    pictures = [scene.image_bgr] * 3 + [moved] * 15
    frames = [Frame.from_bgr(i, i / 30.0, picture) for i, picture in enumerate(pictures)]
    changed = ChangedPartDetector(_Scripted(Detections.empty(), np.empty((0, 2))), settle_s=0.2)  # type: ignore[arg-type]
    works = _works(changed, frames, scene.calibration)
    assert works[:3] == ["full", "none", "none"]
    assert works[3:10] == ["part"] * 7  # the change, then 0.2 s at 30 fps
    assert set(works[10:]) == {"none"}


def test_pieces_over_the_holes_are_reported_only_where_the_network_looked_this_frame() -> None:
    """A piece seen over a pocket's hole is falling in: news only in the frame that saw it.
    Where the network did not look again, nothing is reported there."""
    import cv2

    from calibration.geometry import pocket_centre

    scene = load_still(30002, hands=0)
    moved = scene.image_bgr.copy()
    centre = scene.calibration.board_to_image(np.array([[100.0, 50.0]]))[0]
    cv2.circle(moved, tuple(int(v) for v in centre), 12, (250, 250, 250), -1)
    frames = [Frame.from_bgr(i, i / 30.0, p) for i, p in enumerate([scene.image_bgr] * 2 + [moved])]
    falling = Detections(pocket_centre("NE")[None], np.array([0]), np.array([0.8], np.float32))
    # A faint black lying at the SW pocket's mouth, as the network saw it in the first frame.
    faint = Detections(np.array([[-330.0, -300.0]]), np.array([1]), np.array([0.2], np.float32))
    scripted = _Scripted(Detections.empty(), np.empty((0, 2)), over_holes=falling, faint=faint)
    changed = ChangedPartDetector(scripted)  # type: ignore[arg-type]
    reported = []
    for frame in frames:
        changed.detect(frame, scene.calibration)
        scripted.faint = Detections.empty()  # what the network would say of the parts again
        reported.append((changed.last_work, len(changed.over_holes), len(changed.faint)))
    # The whole board: seen; nothing looked at: nothing; a part far from the pocket: nothing.
    # A faint piece stands where the picture did not change, as the pieces found do.
    assert reported == [("full", 1, 1), ("none", 0, 1), ("part", 0, 1)]
