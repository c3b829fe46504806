"""The committed ONNX detector on generator pictures with exact truth."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import board_to_rectified
from calibration.geometry import POCKET_RADIUS_MM, arrow_arc_centre, base_circle_centres, pocket_centre
from models.detector.data import Scene
from models.detector.scenes import load_moving, load_still
from vision.detect import load_default_detector
from vision.detect.eval import Result, report, score_scene
from vision.detect.onnx_detector import ModelError, OnnxDetector
from vision.detect.parallax import Viewpoint
from vision.detections import CLASS_NAMES, Detections

# Test seeds: outside the training (0-449, 500-649), validation (450-499), development
# (5000-5999) and figure (20000+, 61000+) ranges.
SEEDS = (30001, 30002, 30003)


@pytest.fixture(scope="module")
def detector():
    return load_default_detector()


@pytest.mark.parametrize("seed", SEEDS)
def test_pieces_at_rest_are_found_named_and_centred(detector, seed: int) -> None:
    scene = load_still(seed)
    result = Result()
    score_scene(scene, detector.detect(scene.image_bgr, scene.calibration), result, scene.condition)
    figures = report(result)["at_rest"]
    assert figures["recall"] >= 0.95
    assert figures["precision"] >= 0.95
    assert figures["class_accuracy"] >= 0.95
    assert figures["median_error_mm"] <= 1.5


def test_the_break_arrangement_is_nineteen_touching_coins(detector) -> None:
    scene = load_still(30005, layout="break", hands=0)
    found = detector.detect(scene.image_bgr, scene.calibration)
    near_centre = found[np.hypot(found.xy_mm[:, 0], found.xy_mm[:, 1]) < 100.0]
    assert sorted(near_centre.class_names) == sorted(["queen"] + ["white"] * 9 + ["black"] * 9)


def test_moving_pieces_are_found_in_their_smear(detector) -> None:
    result = Result()
    for seed in (30006, 30007):
        scene = load_moving(seed)
        score_scene(scene, detector.detect(scene.image_bgr, scene.calibration), result, "moving")
    moving = report(result)["by_condition"]["moving"]
    assert moving["pieces"] >= 8
    assert moving["recall"] >= 0.85


def test_the_time_of_rectifying_and_of_the_network_is_counted_per_look() -> None:
    detector = load_default_detector()
    scene = load_still(30004, layout="sparse", hands=0)
    assert detector.seconds_by_step == {"rectification": 0.0, "network": 0.0}
    detector.detect(scene.image_bgr, scene.calibration)
    once = dict(detector.seconds_by_step)
    detector.detect(scene.image_bgr, scene.calibration)
    assert all(seconds > 0.0 for seconds in once.values())
    assert all(detector.seconds_by_step[step] > once[step] for step in once)


def test_an_empty_board_has_no_pieces(detector) -> None:
    scene = load_still(30004, layout="sparse", hands=0)
    found = detector.detect(scene.image_bgr, scene.calibration)
    truth = np.array([p.xy_mm for p in scene.pieces]).reshape(-1, 2)
    for xy in found.xy_mm:  # every detection is a real piece
        assert np.min(np.linalg.norm(truth - xy, axis=1)) < 12.0


def test_a_missing_model_file_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(ModelError, match="no such detector model"):
        OnnxDetector(model_path=tmp_path / "none.onnx")


def test_a_model_of_another_kind_is_a_clear_error(tmp_path) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load"):
        OnnxDetector(model_path=junk)


class _ScriptedHeat(OnnxDetector):
    """The committed model's geometry with heat maps written by the test: one hot cell per
    wanted (class, board mm, score)."""

    wanted: list[tuple[str, tuple[float, float], float]]

    def heat_maps(self, view_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cells = view_bgr.shape[0] // self.stride
        heat = np.zeros((len(CLASS_NAMES), cells, cells), np.float32)
        offsets = np.zeros((2, cells, cells), np.float32)
        for name, xy, score in self.wanted:
            u, v = board_to_rectified(
                np.array([xy]), self.rectifier.px_per_mm, self.rectifier.half_extent_mm
            )[0]
            u, v = (u + 0.5) / self.stride, (v + 0.5) / self.stride
            col, row = int(u), int(v)
            heat[CLASS_NAMES.index(name), row, col] = score
            offsets[:, row, col] = (u - col - 0.5, v - row - 0.5)
        return heat, offsets


def _seen_lying_at(
    scene: Scene, pieces: list[tuple[str, np.ndarray, float]]
) -> tuple[_ScriptedHeat, Detections]:
    """A scripted detector whose heat peaks at the top faces of pieces lying at the given
    bases (class, board mm, score), and what it finds in `scene`."""
    faces = Viewpoint.of(scene.calibration).base_to_face(np.array([base for _, base, _ in pieces]))
    detector = _ScriptedHeat()
    detector.wanted = [
        (name, tuple(face), score) for (name, _, score), face in zip(pieces, faces, strict=True)
    ]
    return detector, detector.detect(scene.image_bgr, scene.calibration)


def test_a_printed_base_circle_taken_for_a_coin_is_dropped_but_a_striker_on_one_is_kept() -> None:
    scene = load_still(30004, layout="sparse", hands=0)
    circles = np.concatenate([base_circle_centres(seat) for seat in ("S", "N")])
    detector = _ScriptedHeat()
    detector.wanted = [
        ("white", tuple(circles[0]), 0.7),  # the print, as the network sometimes sees it
        ("striker", tuple(circles[1]), 0.7),  # a striker placed over a base circle
        ("black", tuple(circles[2]), 0.95),  # a coin lying there, seen as surely as coins are
        ("white", (100.0, 50.0), 0.7),  # a coin anywhere else
    ]
    found = detector.detect(scene.image_bgr, scene.calibration)
    assert sorted(found.class_names) == ["black", "striker", "white"]
    white = found.xy_mm[np.array(found.class_names) == "white"][0]
    assert np.linalg.norm(white - (100.0, 50.0)) < 5.0


def test_the_centre_circle_taken_for_a_coin_is_dropped_but_a_piece_on_it_is_kept() -> None:
    # The centre circle is printed a carromman's size: development video 9108 (a `phone` board)
    # read it as a white coin at 0.41 to 0.44 whenever the centre lay bare.
    scene = load_still(30004, layout="sparse", hands=0)
    detector = _ScriptedHeat()
    detector.wanted = [("white", (0.0, 0.0), 0.44), ("black", (150.0, 50.0), 0.9)]
    assert detector.detect(scene.image_bgr, scene.calibration).class_names == ["black"]
    # The queen in the pack or put back there, a due under the placing hand: not so faint.
    for piece in (("queen", (0.0, 0.0), 0.6), ("white", (0.0, 0.0), 0.7)):
        detector.wanted = [piece]
        assert detector.detect(scene.image_bgr, scene.calibration).class_names == [piece[0]]


def test_a_red_base_circle_taken_for_a_faint_queen_a_little_off_its_centre_is_the_print() -> None:
    # Development video 9416 (`phone`): a red-filled base circle read as the queen at 0.44 to
    # 0.47, 6.4 mm from its centre (the lens bends the picture), after the real queen was
    # pocketed. A queen seen as surely as pieces are, on a base circle, is the queen.
    scene = load_still(30004, layout="sparse", hands=0)
    circle = base_circle_centres("S")[0]
    detector = _ScriptedHeat()
    detector.wanted = [("queen", (float(circle[0]) + 5.0, float(circle[1]) - 4.0), 0.46)]
    assert detector.detect(scene.image_bgr, scene.calibration).class_names == []
    detector.wanted = [("queen", (float(circle[0]) + 5.0, float(circle[1]) - 4.0), 0.8)]
    assert detector.detect(scene.image_bgr, scene.calibration).class_names == ["queen"]
    # Held-out video 64003 (development data since): the queen come to rest 2.8 mm from a red
    # base circle's centre, read at 0.77, was taken for the print (the cream prints' rule).
    detector.wanted = [("queen", (float(circle[0]) + 2.0, float(circle[1]) + 2.0), 0.77)]
    assert detector.detect(scene.image_bgr, scene.calibration).class_names == ["queen"]


def test_a_piece_lying_just_short_of_a_pockets_hole_is_found_and_one_over_it_is_not() -> None:
    # A slow piece can stop with its centre a fraction of a millimetre short of the hole's
    # edge and lie there; found up to 4 mm off towards the hole (near a corner, development
    # video 9131: 3.5 mm), it must still be found, or it drops out of view and the recorder
    # takes it for pocketed. A piece well over the hole is falling in, and the dark hole
    # itself, which the network can take for a black coin, is no piece either.
    scene = load_still(30004, layout="sparse", hands=0)
    near, far, other = pocket_centre("NE"), pocket_centre("SW"), pocket_centre("NW")
    inward = -near / np.linalg.norm(near)
    bases = np.array(
        [
            near + inward * (POCKET_RADIUS_MM - 4.0),
            far - inward * (POCKET_RADIUS_MM - 8.0),
            other - other / np.linalg.norm(other) * 10.0,
        ]
    )
    detector, found = _seen_lying_at(
        scene, [("black", bases[0], 0.9), ("white", bases[1], 0.9), ("black", bases[2], 0.65)]
    )
    assert found.class_names == ["black"]
    assert np.linalg.norm(found.xy_mm[0] - bases[0]) < 2.0
    # What lies over the holes is reported apart, for the recorder to weigh (a white there is
    # falling in; a black there is most often the hole).
    assert sorted(detector.over_holes.class_names) == ["black", "white"]


def test_a_piece_seen_behind_a_pockets_hole_off_the_surface_is_no_piece() -> None:
    # Held-out video 68016 (development data since): as a white fell into a corner, the dark
    # of the hole beside it read as a black 29 mm from the hole's centre, off the surface, and
    # the recorder took it for a black gone overboard; on development videos the like took
    # the place of a black pocketed elsewhere. One lying at the mouth on the surface, as far
    # from the centre, is a piece.
    scene = load_still(30004, layout="sparse", hands=0)
    centre = pocket_centre("NE")
    outward = centre / np.linalg.norm(centre)
    bases = np.array(
        [
            centre + (POCKET_RADIUS_MM + 7.0) * np.array([0.0, 1.0]),  # behind, over the frame's edge
            centre + (POCKET_RADIUS_MM + 12.0) * np.array([1.0, 0.0]),  # behind, over the side edge
            centre - (POCKET_RADIUS_MM + 7.0) * outward,  # at the mouth, on the surface
        ]
    )
    _, found = _seen_lying_at(
        scene, [("black", bases[0], 0.6), ("white", bases[1], 0.9), ("black", bases[2], 0.9)]
    )
    assert found.class_names == ["black"]
    assert np.linalg.norm(found.xy_mm[0] - bases[2]) < 2.0


def test_a_coin_centred_too_far_into_a_cushion_to_lie_on_the_surface_is_no_piece() -> None:
    # Held-out video 73002 (development data since): as a black went into a corner, a "white"
    # read 5 mm from the cushion beside the hole's mouth was taken into the pocket. A coin
    # against the cushion lies a radius from it, and is found; a striker is bigger, and a coin
    # centred over a hole may be sinking: not judged here.
    from calibration.geometry import COIN_RADIUS_MM, HALF_SURFACE_MM

    scene = load_still(30004, layout="sparse", hands=0)
    edge = HALF_SURFACE_MM
    bases = np.array(
        [
            (-321.0, -(edge - 5.0)),  # beside the SW mouth, 5 mm from the cushion
            (60.0, edge - 8.0),  # mid-cushion, 8 mm from it
            (-150.0, -(edge - COIN_RADIUS_MM)),  # a coin against the cushion
            (edge - COIN_RADIUS_MM + 1.0, 120.0),  # one found a millimetre further out
        ]
    )
    _, found = _seen_lying_at(
        scene,
        [
            ("white", bases[0], 0.9),
            ("black", bases[1], 0.9),
            ("white", bases[2], 0.9),
            ("black", bases[3], 0.9),
        ],
    )
    assert len(found) == 2
    assert all(np.linalg.norm(bases[2:] - xy, axis=1).min() < 2.0 for xy in found.xy_mm)


def test_a_piece_too_faint_to_be_found_is_reported_apart() -> None:
    """A tracker may continue a piece it follows with a faint peak (a black at a pocket's
    mouth against the dark hole, the striker come to rest overhanging a hole), never start
    one: so the faint peaks come apart from what is found."""
    scene = load_still(30004, layout="sparse", hands=0)
    circle = tuple(base_circle_centres("S")[0])
    detector = _ScriptedHeat()
    detector.wanted = [
        ("black", (330.0, 300.0), 0.2),  # faint: reported apart
        ("white", (-100.0, 40.0), 0.1),  # too faint even for that
        ("white", circle, 0.3),  # the print of a base circle
        ("black", (100.0, 50.0), 0.9),  # found
        ("striker", (-320.0, -318.0), 0.25),  # faint: reported apart
    ]
    found = detector.detect(scene.image_bgr, scene.calibration)
    assert found.class_names == ["black"]
    assert sorted(detector.faint.class_names) == ["black", "striker"]
    for name, xy in (("black", (330.0, 300.0)), ("striker", (-320.0, -318.0))):
        assert np.linalg.norm(detector.faint.xy_mm[detector.faint.class_names.index(name)] - xy) < 5.0


def _faces(scene, name: str) -> list[tuple[float, float]]:
    """Where the network would see the top faces of the scene's `name` pieces lying in view."""
    viewpoint = Viewpoint.of(scene.calibration)
    bases = [p.xy_mm for p in scene.pieces if p.name == name and p.visible > 0.99 and not p.moving]
    return [tuple(xy) for xy in viewpoint.base_to_face(np.array(bases))]


def test_a_striker_the_network_is_unsure_of_is_known_by_its_size() -> None:
    # A dim lamp: the network scores the striker and a white coin alike, both too low to
    # be taken as pieces and both a little like a striker; only the striker is its size.
    scene = load_still(30013, layout="sparse", hands=0, style="warm-lamp")
    (striker_face,) = _faces(scene, "striker")
    (coin_face,) = _faces(scene, "white")
    detector = _ScriptedHeat()
    detector.wanted = [
        ("white", striker_face, 0.3),
        ("striker", striker_face, 0.2),
        ("white", coin_face, 0.31),
        ("striker", coin_face, 0.2),
    ]
    found = detector.detect(scene.image_bgr, scene.calibration)
    assert found.class_names == ["striker"]
    striker = next(p for p in scene.pieces if p.name == "striker")
    assert np.linalg.norm(found.xy_mm[0] - striker.xy_mm) < 4.0


def test_no_striker_is_made_up_from_a_coin_when_the_striker_is_not_there() -> None:
    scene = load_still(30013, layout="sparse", hands=0, style="warm-lamp")
    (coin_face,) = _faces(scene, "white")
    detector = _ScriptedHeat()
    detector.wanted = [("white", coin_face, 0.6), ("striker", coin_face, 0.35)]
    found = detector.detect(scene.image_bgr, scene.calibration)
    assert found.class_names == ["white"]


def _rims_by_place(monkeypatch, rims: list[tuple[tuple[float, float], float]]) -> None:
    """Every rim measured reads as given for the nearest of these faces (board mm)."""
    import vision.detect.onnx_detector as onnx_detector

    places = np.array([xy for xy, _ in rims])
    radii = np.array([radius for _, radius in rims])

    def rim_radii_mm(view, centres_mm):
        return radii[np.argmin(np.linalg.norm(centres_mm[:, None] - places[None], axis=2), axis=1)]

    monkeypatch.setattr(onnx_detector, "rim_radii_mm", rim_radii_mm)


def test_the_pale_striker_is_the_striker_sized_peak_the_network_most_thinks_the_striker(monkeypatch) -> None:
    # Under a hand or in flight the real striker is unsure; elsewhere something reads as a
    # striker-sized rim a little larger than the striker's own (development video 9118: a gap
    # ringed by coins), with far less striker heat than the striker, taken for a white coin.
    scene = load_still(30013, layout="sparse", hands=0, style="warm-lamp")
    (striker_face,) = _faces(scene, "striker")
    elsewhere = (150.0, -200.0)
    detector = _ScriptedHeat()
    detector.wanted = [
        ("white", striker_face, 0.63),
        ("striker", striker_face, 0.5),
        ("striker", elsewhere, 0.23),
    ]
    _rims_by_place(monkeypatch, [(striker_face, 20.2), (elsewhere, 20.8)])
    found = detector.detect(scene.image_bgr, scene.calibration)
    assert found.class_names == ["striker"]
    striker = next(p for p in scene.pieces if p.name == "striker")
    assert np.linalg.norm(found.xy_mm[0] - striker.xy_mm) < 4.0


def test_no_pale_striker_is_taken_where_it_would_overlap_a_coin(monkeypatch) -> None:
    # Discs do not overlap: a striker-sized ring 30 mm from a coin's centre is no striker
    # however much striker heat it has (a striker's centre is 36 mm off at the closest).
    scene = load_still(30013, layout="sparse", hands=0, style="warm-lamp")
    (striker_face,) = _faces(scene, "striker")
    (coin_face,) = _faces(scene, "white")
    ring = (coin_face[0] + 30.0, coin_face[1])
    detector = _ScriptedHeat()
    detector.wanted = [("white", coin_face, 0.9), ("striker", ring, 0.35), ("striker", striker_face, 0.25)]
    _rims_by_place(monkeypatch, [(striker_face, 19.5), (ring, 19.5), (coin_face, 14.0)])
    found = detector.detect(scene.image_bgr, scene.calibration)
    assert sorted(found.class_names) == ["striker", "white"]
    striker = next(p for p in scene.pieces if p.name == "striker")
    assert np.linalg.norm(found.xy_mm[np.array(found.class_names) == "striker"][0] - striker.xy_mm) < 4.0
    detector.wanted = detector.wanted[:2]  # the striker not in view: the ring is still none
    assert detector.detect(scene.image_bgr, scene.calibration).class_names == ["white"]


def test_no_pale_striker_is_taken_inside_an_arrows_printed_arc(monkeypatch) -> None:
    # Held-out video 71001 (`phone`, development data since): inside an arrow's arc, 15 mm off
    # its centre, a peak at 0.23 with a striker-sized rim whenever the real striker was hidden;
    # the striker's track jumped there, a stroke was made of it and the real one lost. The
    # same peak clear of the arcs is still taken.
    scene = load_still(30013, layout="sparse", hands=0, style="warm-lamp")
    arc = arrow_arc_centre("NW")
    inside = (float(arc[0]) + 13.0, float(arc[1]) + 8.0)
    clear = (150.0, -200.0)
    detector = _ScriptedHeat()
    for place, found in ((inside, []), (clear, ["striker"])):
        detector.wanted = [("striker", place, 0.23)]
        _rims_by_place(monkeypatch, [(place, 20.5)])
        assert detector.detect(scene.image_bgr, scene.calibration).class_names == found


def test_a_faint_striker_lying_over_a_pockets_mouth_is_the_striker(monkeypatch) -> None:
    # Held-out video 72007 (`phone`, development data since): the striker at rest 33.4 mm from
    # a corner's centre, its disc overhanging the hole, read at 0.36 to 0.38 with a rim of
    # 9 mm (the hole's edge), was never found and was taken into the pocket.
    from calibration.geometry import pocket_centre

    scene = load_still(30013, layout="sparse", hands=0, style="warm-lamp")
    corner = pocket_centre("NW")
    inward = -corner / np.linalg.norm(corner)

    def at(distance_mm: float) -> tuple[float, float]:
        xy = corner + inward * distance_mm
        return (float(xy[0]), float(xy[1]))

    detector = _ScriptedHeat()
    cases = [
        ([("striker", at(33.4), 0.36)], ["striker"]),
        ([("striker", at(33.4), 0.27)], []),  # fainter still: nothing
        ([("striker", at(26.0), 0.36)], []),  # tipping into the hole, what shows of it
        ([("striker", (150.0, -200.0), 0.36)], []),  # mid-board with no striker's rim
        # A confident striker elsewhere is the striker: no second one at the mouth.
        ([("striker", at(33.4), 0.36), ("striker", (150.0, -200.0), 0.9)], ["striker"]),
    ]
    for wanted, found in cases:
        detector.wanted = wanted
        _rims_by_place(monkeypatch, [(xy, 9.0) for _, xy, _ in wanted])
        detections = detector.detect(scene.image_bgr, scene.calibration)
        assert detections.class_names == found
    assert np.linalg.norm(detections.xy_mm[0] - (150.0, -200.0)) < 5.0


def test_a_faint_peak_with_no_rim_is_no_piece_in_a_picture_but_a_tracker_still_gets_it() -> None:
    scene = load_still(30004, layout="sparse", hands=0)
    coin_face = _faces(scene, "white")[1]
    wanted = [
        ("white", coin_face, 0.45),  # a real coin the network is unsure of: its rim shows
        ("white", (200.0, -120.0), 0.45),  # bare board
        ("black", (0.0, 378.0), 0.45),  # the frame's wood past the surface's edge
        ("white", (-150.0, 90.0), 0.7),  # bare board, but as sure as the network is of coins
        ("striker", (-250.0, -60.0), 0.45),  # a pale striker is never dropped so
    ]
    for_picture, for_tracker = _ScriptedHeat(), _ScriptedHeat(for_tracking=True)
    for_picture.wanted = for_tracker.wanted = wanted
    in_picture = for_picture.detect(scene.image_bgr, scene.calibration)
    assert sorted(in_picture.class_names) == ["striker", "white", "white"]
    assert np.linalg.norm(in_picture.xy_mm - (-150.0, 90.0), axis=1).min() < 5.0
    coin = next(p for p in scene.pieces if p.name == "white" and abs(p.xy_mm[0] + 178) < 2)
    assert np.linalg.norm(in_picture.xy_mm - coin.xy_mm, axis=1).min() < 4.0
    tracked = for_tracker.detect(scene.image_bgr, scene.calibration)
    assert sorted(tracked.class_names) == ["black", "striker", "white", "white", "white"]


def test_a_video_frame_is_rectified_from_its_planes_as_from_its_colour_picture(detector) -> None:
    import json

    from calibration.camera import Calibration
    from samples.render.truth import camera_at
    from vision.commands.score import SAMPLE_VIDEO
    from vision.io import open_source

    truth = json.loads(SAMPLE_VIDEO.with_name("sample-board.truth.json").read_text())
    source = open_source(SAMPLE_VIDEO)
    frame = next(f for f in source if f.index == 60)  # the break arrangement, no hands
    source.close()
    calibration = Calibration.from_dict(camera_at(truth, frame.index))
    assert frame.yuv420() is not None
    from_planes = detector.rectifier.view(frame, calibration).image_bgr.astype(int)
    from_colour = detector.rectifier.view(frame.bgr(), calibration).image_bgr.astype(int)
    assert np.abs(from_planes - from_colour).mean() < 1.5
    found, expected = detector.detect(frame, calibration), detector.detect(frame.bgr(), calibration)
    assert len(expected) >= 19
    assert sorted(found.class_names) == sorted(expected.class_names)
    nearest = np.linalg.norm(found.xy_mm[:, None] - expected.xy_mm[None], axis=2).min(axis=1)
    assert nearest.max() < 1.0


def test_the_shipped_network_takes_any_box_on_its_coarsest_cell(detector) -> None:
    assert detector.box_alignment_px == 16
    with pytest.raises(ValueError, match="multiples of 4"):
        detector.rectifier.view(
            np.zeros((720, 1280, 3), np.uint8), load_still(30001).calibration, (2, 0, 64, 64)
        )


def test_a_box_of_the_view_finds_what_the_whole_view_finds_away_from_its_edges(detector) -> None:
    scene = load_still(30001)
    whole = detector.detect(scene.image_bgr, scene.calibration)
    box = (96, 64, 288, 320)
    part = detector.detect_within(scene.image_bgr, scene.calibration, box).found
    rectifier = detector.rectifier

    def inside(found: Detections) -> Detections:
        px = board_to_rectified(found.xy_mm, rectifier.px_per_mm, rectifier.half_extent_mm)
        keep = np.all((px >= np.array(box[:2]) + 32) & (px < np.array(box[2:]) - 32), axis=1)
        return found[keep]

    expected, got = inside(whole), inside(part)
    assert len(expected) >= 3
    assert sorted(got.class_names) == sorted(expected.class_names)
    nearest = np.linalg.norm(got.xy_mm[:, None] - expected.xy_mm[None], axis=2).min(axis=1)
    assert nearest.max() < 0.05


def test_the_dark_left_uncovered_by_a_coin_over_a_hole_is_not_a_black() -> None:
    from vision.detect.onnx_detector import _hole_crescents

    nw = pocket_centre("NW")
    white_over = nw + np.array([-1.9, -25.5])  # a white lying over the hole's edge
    crescent = nw + np.array([-20.3, -1.7])  # inside the edge, on the hole's far side
    bases = np.array([white_over, crescent, (0.0, 0.0)])
    classes = np.array([CLASS_NAMES.index(c) for c in ("white", "black", "black")])
    # Development video 9300: read at 0.42 to 0.46 for a whole board.
    assert _hole_crescents(bases, classes, np.array([0.95, 0.44, 0.9])).tolist() == [False, True, False]
    # Sure of it, or with the hole to itself, it is a black found a little inside the edge.
    assert not _hole_crescents(bases, classes, np.array([0.95, 0.8, 0.9])).any()
    assert not _hole_crescents(bases[1:], classes[1:], np.array([0.44, 0.9])).any()
    # A coin falling in (its centre over the hole) is no coin lying over the edge: a black
    # read beside it is that coin or another falling too (63000, at the break).
    falling = np.array([nw + np.array([10.0, -10.0]), crescent])
    assert not _hole_crescents(falling, classes[:2], np.array([0.9, 0.44])).any()
    # A piece over another pocket's hole says nothing about this one.
    elsewhere = np.array([pocket_centre("SE") + np.array([0.0, 25.0]), crescent])
    assert not _hole_crescents(elsewhere, classes[:2], np.array([0.95, 0.44])).any()
