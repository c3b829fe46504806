import numpy as np

from vision.tracks import NO_POCKET, TrackFrame, TrackState


def make_frame() -> TrackFrame:
    return TrackFrame(
        7,
        0.25,
        [1, 2, 3],
        [0, 1, 3],
        [[0, 0], [10, 5], [-100, 200]],
        [[0, 0], [0, 0], [900, 0]],
        [TrackState.AT_REST, TrackState.POCKETED, TrackState.MOVING],
        [NO_POCKET, 0, NO_POCKET],
        [0.9, 0.8, 0.99],
    )


def test_arrays_are_coerced_to_their_contract_types() -> None:
    frame = make_frame()
    assert frame.xy_mm.dtype == np.float64 and frame.xy_mm.shape == (3, 2)
    assert frame.state.dtype == np.int8 and frame.track_id.dtype == np.int64
    assert len(frame) == 3


def test_selection_by_state_class_and_pocket_name() -> None:
    frame = make_frame()
    pocketed = frame.in_state(TrackState.POCKETED)
    assert pocketed.track_id.tolist() == [2]
    assert pocketed.pocket_name(0) == "NE"
    assert frame.of_class("striker").track_id.tolist() == [3]
    assert frame.pocket_name(0) is None
    assert len(TrackFrame.empty()) == 0
