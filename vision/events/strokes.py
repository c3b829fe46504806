"""Stroke segmentation from tracks: strike, what happened, rest; and what was put back between.

The segmenter consumes one `TrackFrame` at a time (frames may be skipped while the board is
at rest) and returns records as soon as they are known:

- a `PlacementRecord` when a stroke starts and carrommen appeared on the board since the
  previous stroke ended (dues, penalties, the queen put back);
- a `StrokeRecord` when the board has come to rest after a stroke.

A stroke starts when the striker, resting on a base line, moves off faster than a hand
slides it (`EventConfig.strike_speed_mm_s`) and travels clear of where it rested; a striker
nudged into place never gets that far and is not a stroke. Pocketings are counted only if
the counts at rest before and after the stroke agree that the piece is gone: a coin that
vanished under a hand is not pocketed, a "pocketing" of a coin still lying there is dropped
(vision.events.reconcile weighs the departures seen against the counts).
"""

from __future__ import annotations

import functools
from collections import Counter, deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace

import numpy as np

from calibration.geometry import (
    BASE_CIRCLE_ALONG_MM,
    BASE_CIRCLE_RADIUS_MM,
    COIN_CUSHION_STOP_MM,
    COIN_DIAMETER_MM,
    COIN_MASS_G,
    COIN_RADIUS_MM,
    OUTER_CIRCLE_RADIUS_MM,
    POCKET_RADIUS_MM,
    POCKETS,
    STRIKER_MASS_G,
    STRIKER_RADIUS_MM,
    board_to_seat,
    nearest_pocket,
    on_playing_surface,
    pocket_centre,
    pocket_centres,
    pocket_distance_mm,
    seat_normal,
    striker_legal_range,
)
from vision.detections import Detections
from vision.events.afterimages import Afterimage, left_on_the_run_in, stopped_dead, went_in
from vision.events.board import (
    CARROMMEN,
    COIN_COLOURS,
    FULL_SET,
    Piece,
    arrangement_reach_mm,
    carrommen_counts,
    is_break_arrangement,
    item_name,
)
from vision.events.break_losses import pocketed_unseen_at_break
from vision.events.centre_queen import CentreQueen
from vision.events.config import EventConfig
from vision.events.departures import (
    POCKET_CAPTURE_MM,
    POCKET_GUESS_MM,
    REAPPEAR_S,
    SAME_DEPARTURE_S,
    ItemEvent,
    at_its_mouth,
    at_its_pocket,
    near_any,
)
from vision.events.pocket_watch import Drop, PocketWatch
from vision.events.reconcile import reconcile_departures
from vision.events.rest_counts import PHANTOM_MM, SAME_DISC_MM, RestCounter
from vision.events.seats import side_of
from vision.tracks import TrackFrame, TrackState

# Dues, penalties, the queen and jumped carrommen are put back within the outer circle (law
# 4(9)), or as near it as the pieces already there allow: two coins' width beyond it.
PLACING_ZONE_MM = OUTER_CIRCLE_RADIUS_MM + 2.0 * COIN_DIAMETER_MM
# A carromman found this near where its track lay when the last stroke ended has lain there
# since (a piece at rest is found within a millimetre or two of where it lies); and this
# near the edge of where dues go, it may be counted on either side of it.
LAY_STILL_MM = 5.0
# A piece last seen with its centre this close to a pocket's centre and gone since sank
# (it crept over the rim), even if it looked still: nothing rests with its centre over the
# hole (a detection's error and the last millimetres it crept are the margin). One lying
# further out overhangs the hole and stays.
POCKET_MOUTH_MM = POCKET_RADIUS_MM + 0.25 * COIN_RADIUS_MM
# Pocket watch: a piece seen this close to a pocket's centre just before it vanished (a fast
# piece travels a coin's width between frames).
POCKET_ZONE_MM = POCKET_RADIUS_MM + 3.0 * COIN_RADIUS_MM
# How far ahead a lost piece's path is followed to the pocket it was heading for.
LOOKAHEAD_S = 0.15
# A piece lost running slower than this, its path heading into a pocket, went in: it is below
# the speed at which a disc skims over a hole (about 3 m/s) or is lifted over the frame by a
# cushion (a hit that lifts a coin leaves it 4 m/s or more).
HEADING_TRUSTED_MM_S = 2500.0
# A run passing this close to a piece may have struck it: a striker's contact, give or take a
# coin's radius for what a look misses of a fast piece.
RUN_REACH_MM = STRIKER_RADIUS_MM + 2.0 * COIN_RADIUS_MM
# A disc struck from rest leaves along the line of centres; a run whose contact, as the looks
# place it, lies within this of that line through the piece to a pocket could have sent it in
# (a look's position of a fast piece errs by a coin's radius; a cushion beside the piece
# turns a glancing hit along it).
KNOCK_CONE_DEG = 60.0
# A piece lying this close to a pocket's centre, its edge within a coin's radius of the
# striker's capture, may be knocked in from any side (development video 9338: a white 44 mm
# from a corner's centre, the striker running on past it).
KNOCKED_IN_ANYHOW_MM = POCKET_CAPTURE_MM + COIN_RADIUS_MM
# The striker's run counts as touching a carromman when it passes this much beyond contact:
# a detection's error (a near miss closer than this is beyond what a camera can tell).
TOUCH_MARGIN_MM = 2.0
# A carromman out of sight at the strike for at most this long lies under the aiming hand.
HIDDEN_AT_STRIKE_S = 2.0
# A piece first seen flying this fast (a hand carries the striker at about 1 m/s) on a line
# through the spot the striker was aimed from, within this distance of it, was struck from it.
STRANGER_SPEED_MM_S = 1500.0
STRANGER_LINE_MM = 40.0
# A striker leaving its rest no faster than a hand slides it (`EventConfig.soft_strike_speed_mm_s`
# up to `strike_speed_mm_s`) was struck only if it crosses its base lines: sin 30°, the share
# of its speed across them, leaves out a slide along them and few soft strokes.
SOFT_STRIKE_ACROSS = 0.5
# A coin that lay on the board seen flying this fast (in one of two looks running) with the
# striker nowhere in sight was struck unseen (`_struck_unseen`); a hand carrying the striker,
# read as a coin, can be as fast, and a stroke so started that changes nothing is dropped.
# Slower, down to a strike's speed, when it is heading into a pocket: nobody hands a coin
# into a pocket (development video 9319, a dim lamp: a black sent gently into a corner at
# 0.6 to 0.8 m/s by a striker never seen, the stroke and its pocketing lost).
UNSEEN_STRIKE_SPEED_MM_S = 1000.0
# A coin's centre this near the striker's would have the two discs overlap by more than a
# detection's error: what is seen there is the striker itself, read as a coin.
ON_THE_STRIKER_MM = COIN_RADIUS_MM + STRIKER_RADIUS_MM - 3.0
# A hand carrying the striker across the board moves it at 0.5 to 1.5 m/s; one aiming it, or
# sliding it along the base line into place, at a few hundred mm/s at most.
CARRYING_SPEED_MM_S = 450.0
# Far below a frame's time: what two frame times computed from their indices may differ by
# from the exact difference.
TIME_EPSILON_S = 1e-6
# Frames a carromman must be seen displaced from where it rested to count as touched.
TOUCH_FRAMES = 3
# A striker last seen flying is taken to be in flight, unseen, this long: across the board and
# back off the far cushion at 3 m/s.
STRIKER_UNSEEN_FLIGHT_S = 1.0
# A piece last seen this long before the striker was seen moving was in view at the strike.
STRIKE_LOOKBACK_S = 0.1
# Enough of the striker's latest sightings to cover two aims' time at every frame.
STRIKER_SIGHTINGS_KEPT = 16
# A striker first seen in flight is traced back along it this far, in these steps, to the base
# band it was struck from: a strike's first 0.4 s cover 300 mm or more, past where a dim
# striker is found again.
TRACE_BACK_STEPS_S = np.arange(0.0, 0.4, 0.005)
# A track lying at rest found this far off a look later, with nothing moving for this long,
# was handed another piece: no resting piece is knocked so far unseen (`_swapped`).
SWAP_JUMP_MM = 2.0 * COIN_DIAMETER_MM
SWAP_QUIET_S = 0.1
# The striker slowing into a pocket's mouth, lost to the detector there, comes to rest within
# about its own width of where it was last seen (`_striker_read_as_a_coin`).
STRIKER_SETTLED_WITHIN_MM = 2.0 * STRIKER_RADIUS_MM
# Paths for the review images: a point is kept once the piece has moved this far.
PATH_STEP_MM = 4.0
# A coin struck head-on by the striker leaves at most 2 m_s / (m_s + m_c) times as fast as the
# striker came (an elastic collision; a glancing one gives it less).
STRUCK_COIN_SPEEDUP = 2.0 * STRIKER_MASS_G / (STRIKER_MASS_G + COIN_MASS_G)
# A carromman that lay on the board, seen this many looks running flying at a strike's speed
# and further from where it lay at each (by more than a detection's error), is in flight: a
# track jumping to a hand reads fast for a look or two but does not go on getting further.
COIN_FLIGHT_LOOKS = 4
# How far a detected piece's centre may lie past where its disc would touch a cushion.
AIRBORNE_MARGIN_MM = 0.5 * COIN_RADIUS_MM
# A carromman whose centre lies this near a pocket's has its edge at the hole's.
FAINT_AT_MOUTH_MM = POCKET_RADIUS_MM + COIN_RADIUS_MM
COIN_FLIGHT_STEP_MM = 10.0
# A sliding disc's deceleration on a carrom board's surface (sliding friction, mu about 0.1):
# how far a striker last seen at a speed can have slid on unseen before it stopped.
SLIDING_DECELERATION_MM_S2 = 980.0
# How many times harder than that a board may brake a disc before a striker found lying still
# too far from its spot too soon is taken for a jump, not a stroke (`_slid_and_stopped_mm`).
STOPPED_DEAD_MARGIN = 4.0


def sliding_distance_mm(speed_mm_s: float) -> float:
    """How far a disc sliding at `speed_mm_s` goes on before it stops."""
    return speed_mm_s**2 / (2.0 * SLIDING_DECELERATION_MM_S2)


def _slid_and_stopped_mm(seconds: float) -> float:
    """The furthest a disc set sliding from rest can be found lying still `seconds` later:
    sliding until it stops, it goes half its deceleration times the time squared (cushions
    and knocks only shorten that), with `STOPPED_DEAD_MARGIN` for boards and powders that
    brake harder than `SLIDING_DECELERATION_MM_S2`."""
    return STOPPED_DEAD_MARGIN * 0.5 * SLIDING_DECELERATION_MM_S2 * seconds**2


@dataclass(frozen=True)
class PlacementRecord:
    frame: int
    time_s: float
    items: tuple[str, ...]
    positions: tuple[tuple[float, float], ...]
    # Of `items`, dues put back before an earlier stroke and counted only now (`_late_dues`).
    late: tuple[str, ...] = ()
    # Of `items`, the queen the laws had put back, not seen (`_queen_put_back_unseen`).
    unseen: tuple[str, ...] = ()


@dataclass(frozen=True)
class StrokeRecord:
    seat: str | None  # None: the strike was not seen (`_struck_unseen`)
    start_frame: int
    end_frame: int
    start_time_s: float
    end_time_s: float
    striker_start_xy: tuple[float, float] | None  # None where the seat is
    pocketed: tuple[ItemEvent, ...]  # reconciled, in the order they fell
    overboard: tuple[ItemEvent, ...]
    touched: bool
    new_board: bool
    counts_before: dict[str, int]
    counts_after: dict[str, int]
    dropped_pocket_events: tuple[ItemEvent, ...] = ()
    # Carrommen counted lying at a pocket's mouth that were a coin's afterimage (`afterimages`).
    afterimages: tuple[Afterimage, ...] = ()
    vanished: dict[str, int] = field(default_factory=dict)  # gone unseen: not pocketed
    # Gone unseen at the break and taken to have jumped off (law 65), not seen going.
    unseen_overboard: dict[str, int] = field(default_factory=dict)
    returned_unseen: dict[str, int] = field(default_factory=dict)  # put back, owed to nobody
    settled: bool = True  # False when the video ended or the time limit closed it
    striker_start_traced: bool = False  # the start traced back from the flight, not seen
    before: dict[int, tuple[str, tuple[float, float]]] = field(default_factory=dict)
    after: dict[int, tuple[str, tuple[float, float]]] = field(default_factory=dict)
    paths: dict[int, tuple[str, tuple[tuple[float, float], ...]]] = field(default_factory=dict)


@dataclass
class _Stroke:
    """A stroke being watched (unconfirmed until the striker is clear of its resting place)."""

    start_frame: int
    start_time_s: float
    striker_id: int
    striker_start: np.ndarray | None  # None (and no seat): the strike was not seen
    seat: str | None
    snapshot: dict[int, Piece]
    # When the striker was last seen lying at `striker_start` before the strike (if known),
    # and since when it had lain there.
    rest_s: float | None = None
    rest_since_s: float | None = None
    counts_before: Counter[str] = field(default_factory=Counter)
    # Of those, pieces gone unseen in earlier strokes and still counted (`_close`).
    carried_vanished: Counter[str] = field(default_factory=Counter)
    returned_unseen: Counter[str] = field(default_factory=Counter)  # back from off the board
    placing_zone_before: Counter[str] = field(default_factory=Counter)
    confirmed: bool = False
    last_motion_s: float = 0.0
    moved_s: dict[int, float] = field(default_factory=dict)  # per track, its last motion
    events: list[ItemEvent] = field(default_factory=list)
    seen_ids: set[int] = field(default_factory=set)
    touched: bool = False
    paths: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    path_items: dict[int, str] = field(default_factory=dict)
    striker_path: list[tuple[float, float]] = field(default_factory=list)  # every sighting
    placement: PlacementRecord | None = None
    new_board: bool = False
    striker_start_traced: bool = False
    # Known only by the striker found far from its rest (`_unseen_strike`): maybe a carry.
    found_far_from_rest: bool = False
    striker_moving_frames: int = 0
    striker_far_looks: int = 0  # looks at it a strike's distance out, off its lines (`_confirm_or_cancel`)
    anchors: dict[int, tuple[float, float]] = field(default_factory=dict)
    displaced: dict[int, int] = field(default_factory=dict)
    swapped: set[int] = field(default_factory=set)  # tracks handed another piece (`_swapped`)
    # Per carromman's track seen stopping dead by a pocket, what it left there (`afterimages`).
    stopped_dead: dict[int, Afterimage] = field(default_factory=dict)
    # Per carromman seen flying off where it lay: how far it was, and looks running so
    # (`_coin_flying`).
    coin_flight: dict[int, tuple[float, int]] = field(default_factory=dict)
    first_seen: dict[int, float] = field(default_factory=dict)  # pieces new since the strike
    # Their first look in view, not in a hand: what they were, where and how fast they ran.
    born: dict[int, Piece] = field(default_factory=dict)
    # Pieces of the strike's own tracks seen again after the tracker lost them, in view and not
    # in a hand: each first look again, with how it ran at the next (`_note_refound`); and a
    # first look again waiting for its next.
    refound: dict[int, list[Piece]] = field(default_factory=dict)
    refound_first: dict[int, Piece] = field(default_factory=dict)
    # Per track, whether every look since it was last seen running has seen it (a track found
    # again reads the jump from where it was lost as its speed): `_lost_lying_still`.
    ran_to_rest_in_view: dict[int, bool] = field(default_factory=dict)
    last_seen: dict[int, tuple[int, float, tuple[float, float], tuple[float, float]]] = field(
        default_factory=dict
    )
    # Per pocket, the striker's last sighting on the surface near it (`POCKET_GUESS_MM` of its
    # centre) and clear of the holes (`POCKET_MOUTH_MM`).
    striker_near_pocket_s: dict[str, float] = field(default_factory=dict)
    # Carrommen's tracks handed the striker, read as their coin, where it was lost
    # (`_coin_took_the_striker`): where the striker then lay.
    took_the_striker: dict[int, tuple[float, float]] = field(default_factory=dict)
    # When the strike itself is dated later than the rest the stroke is counted from (frame,
    # time), the striker being unseen between (`_carromman_struck`): the record's start.
    struck_at: tuple[int, float] | None = None
    # Where the striker lies since when (`_note_striker_rest`), and the first spot it lay still
    # at long enough to have come to rest there.
    striker_lay: tuple[tuple[float, float], float] | None = None
    striker_rested_at: tuple[float, float] | None = None
    # Faint carrommen seen at a strike nobody saw (`_board_moved`).
    faint_at_strike_mm: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    # The board counted at rest before the strike (`counts_before` was first taken from it).
    board_before: _CountsThen | None = None
    # Where a striker (under any track) was seen lying still, away from the spot it was struck
    # from, in the moment before the strike (`_jumped_back`).
    lay_before_mm: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))


class _CountsThen:
    """The carrommen on the board at one moment, counted only if asked: the striker lying
    still is noted every look, with the board as it was, and only the look a stroke starts
    from is ever counted (counting every look cost a quarter of a millisecond a frame)."""

    def __init__(
        self,
        window: RestCounter,
        pieces: dict[int, Piece],
        striker_mm: np.ndarray | None = None,
        striker_lies_mm: np.ndarray | None = None,
    ) -> None:
        # The looks at rest when the caller has detections, else the tracks themselves.
        self._window = None if window.empty else window.snapshot()
        self._pieces = None if self._window is not None else dict(pieces)
        # The frame's tracks, not copied: the segmenter replaces its dict every frame, and
        # lets lost tracks go from it only when closing a stroke, after which no board noted
        # before is counted.
        self._tracks = pieces
        self._given_striker_mm = striker_mm
        # Where the striker is known to lie, read as a coin: no coin lies there, whatever the
        # looks saw of the striker before (`StrokeSegmenter._striker_settled_as_a_coin`).
        self._striker_lies_mm = striker_lies_mm

    @functools.cached_property
    def _striker_mm(self) -> np.ndarray:
        """Where the striker's track lies (default: in the tracks): under a dim lamp the
        striker at rest can be read as a white coin look after look, its track out of sight,
        and counted as a coin it made a white pocketed in that stroke look still on the board
        (development video 9110)."""
        if self._given_striker_mm is not None:
            return self._given_striker_mm
        return _tracks_mm(self._tracks, ("striker",))

    @functools.cached_property
    def counts(self) -> Counter[str]:
        if self._window is None:
            return carrommen_counts(self._pieces or {})
        if self._striker_lies_mm is not None:
            return Counter({item: len(self.lying(item)) for item in CARROMMEN})
        return self._window.counts(self._striker_mm)

    @functools.cached_property
    def faint(self) -> Counter[str]:
        """Of `counts`, the pieces only ever seen faintly (none when counted from tracks)."""
        if self._window is None:
            return Counter()
        if self._striker_lies_mm is not None:
            return Counter(item for item, _ in self.faint_pieces)
        return self._window.faint_counts(self._striker_mm)

    @functools.cached_property
    def faint_pieces(self) -> list[tuple[str, np.ndarray]]:
        """Where the pieces of `faint` lie, with their colours."""
        return self._faint(with_phantoms=False)

    def faint_spots(self) -> list[tuple[str, np.ndarray]]:
        """`faint_pieces` and the faint spots at known phantoms (`RestCounter.phantoms`)."""
        return self._faint(with_phantoms=True)

    def _faint(self, with_phantoms: bool) -> list[tuple[str, np.ndarray]]:
        if self._window is None:
            return []
        return [
            (item, xy)
            for item in CARROMMEN
            for xy in self._off_the_striker(
                self._window.faint_pieces(item, self._striker_mm, with_phantoms=with_phantoms)
            )
        ]

    def counted_at(self, item: str, xy_mm: np.ndarray) -> bool:
        """Whether `counts` includes a piece of `item` lying at `xy_mm` (a coin's width apart
        is another coin); every track is counted when counted from the tracks."""
        return self._window is None or near_any(xy_mm, self.lying(item), COIN_RADIUS_MM)

    def lying(self, item: str) -> np.ndarray:
        """(N, 2) where the pieces of `item` that `counts` counts lie."""
        if self._window is None:
            return _tracks_mm(self._pieces or {}, (item,))
        return self._off_the_striker(self._window.pieces(item, self._striker_mm))

    def _off_the_striker(self, spots: np.ndarray) -> np.ndarray:
        """`spots` less one where the striker is known to lie."""
        if self._striker_lies_mm is None or not len(spots):
            return spots
        return spots[np.linalg.norm(spots - self._striker_lies_mm, axis=1) > SAME_DISC_MM]

    @functools.cached_property
    def placing_zone(self) -> Counter[str]:
        """Carrommen lying where dues are put back."""
        if self._window is None:
            return Counter(
                p.item
                for p in (self._pieces or {}).values()
                if p.on_board and p.item in CARROMMEN and float(np.hypot(*p.xy)) <= PLACING_ZONE_MM
            )
        if self._striker_lies_mm is not None:
            return Counter(
                {item: int(np.sum(np.hypot(*self.lying(item).T) <= PLACING_ZONE_MM)) for item in CARROMMEN}
            )
        return self._window.counts_within(PLACING_ZONE_MM, self._striker_mm)


@dataclass
class _Rest:
    """The striker's latest still moment and the board as it was then."""

    frame: int
    time_s: float
    xy: np.ndarray
    track_id: int
    snapshot: dict[int, Piece]
    board: _CountsThen
    positioned: bool = True  # put there since the last stroke (not where that stroke left it)
    since_s: float = 0.0  # first seen still at this spot
    traced: bool = False  # not seen: traced back from the striker's flight
    # Its track unseen for longer than a strike's window before: the speed that made it still
    # was measured across the gap (a striker found again mid-flight can read slow).
    after_gap: bool = False
    # Its track unseen for longer than a blur explains before: its speed too was measured
    # across the gap, though a short one (a hand lifting off the striker hides it a moment).
    after_blur: bool = False
    # Seen lying at this very spot before that gap: it lay here all along (`_glimpsed_in_flight`).
    lay_here_before: bool = False
    # Seen once after that gap, its speed unknown (`_watch_striker`).
    glimpsed: bool = False

    @property
    def counts(self) -> Counter[str]:
        return self.board.counts

    @property
    def placing_zone(self) -> Counter[str]:
        """Pieces seen where dues go."""
        return self.board.placing_zone


class StrokeSegmenter:
    def __init__(self, config: EventConfig | None = None) -> None:
        self.config = config or EventConfig()
        self.pieces: dict[int, Piece] = {}
        self._previous: dict[int, Piece] = {}
        self._striker_rest: _Rest | None = None
        self._stroke: _Stroke | None = None
        self._end_state: dict[int, Piece] | None = None  # the board when the last stroke ended
        self._ended_s = float("-inf")  # and when (none yet)
        self._end_counts: Counter[str] = Counter()
        self._end_zone: Counter[str] = Counter()  # pieces lying where dues go when it ended
        self._end_overboard: Counter[str] = Counter()
        self._end_vanished: Counter[str] = Counter()  # counted on the board, gone unseen
        self._end_unseen_overboard: Counter[str] = Counter()  # `_jumped_unseen` at the break
        # Dues a recorded placing put back fewer of than the laws owed (`_late_dues`).
        self._short_placed: Counter[str] = Counter()
        # Afterimages of coins gone into pockets, still seen lying at the mouths: no coins.
        self._afterimages: list[Afterimage] = []
        self._departed: set[int] = set()  # tracks judged gone that the tracker still lists
        # Where the striker lay when the last stroke ended; it must be put somewhere else
        # before it can be struck again.
        self._striker_after: tuple[int, tuple[float, float]] | None = None
        self._repositioned = True
        # Before the first stroke the breaker has put the striker down, seen doing it or not
        # (development video 9318, `warm-lamp`: a pale striker unseen until it flew into the
        # break's pack; as never handled, its flight started no stroke and the break, with the
        # black it pocketed, was lost, and every later turn of the board went to the wrong
        # player).
        self._striker_handled = True
        self._handled_at_s = 0.0  # when it was first in a hand since the last stroke
        self._striker_slid_s = float("-inf")  # when last seen sliding (a hand's push)
        self._put_down_s: float | None = None  # when seen brought to a new spot, still moving
        self._last_visible_piece: dict[int, Piece] = {}
        # When a striker was last seen, under whatever track (kept or dropped since).
        self._striker_seen_s = float("-inf")
        # The last stroke sent the striker into a pocket or off the board (`_close`).
        self._striker_left_at_end = False
        # The tracks' sightings before their last (a dim striker in flight is seen in looks a
        # few frames apart: `_flight_strike`; so is a coin struck unseen: `_struck_unseen`).
        self._seen_before: dict[int, Piece] = {}
        # The striker's latest sightings, under whatever track (`_lay_still_jittering`,
        # `_coin_took_the_striker`).
        self._striker_sightings: deque[Piece] = deque(maxlen=STRIKER_SIGHTINGS_KEPT)
        self._idle_events: deque[ItemEvent] = deque(maxlen=32)
        self._pocket_watch = PocketWatch()
        # The seats players sit at, once known (None: any seat may strike, as before the first
        # stroke of a match whose seating is inferred).
        self.occupied_seats: frozenset[str] | None = None
        # What the laws require put back before the next stroke, as far as the strokes recorded
        # so far go (the recorder asks its rules engine; None: not known, any piece put back
        # is a placing).
        self.owed: Callable[[], Counter[str] | None] | None = None
        self._centre_queen = CentreQueen()
        self._rest_counter = RestCounter(CARROMMEN)
        self._faint_mm = np.zeros((0, 2))  # the latest look's faint peaks
        self.frames_seen = 0

    @property
    def in_stroke(self) -> bool:
        return self._stroke is not None and self._stroke.confirmed

    @property
    def stroke_under_way(self) -> bool:
        """A strike seen (confirmed or not) and the board not yet at rest."""
        return self._stroke is not None

    @property
    def fast_motion(self) -> bool:
        """Some piece moves fast enough to need every frame (to follow it into a pocket)."""
        fast = self.config.fast_speed_mm_s
        return any(p.speed_mm_s > fast for p in self.pieces.values() if p.state == int(TrackState.MOVING))

    @property
    def at_rest(self) -> bool:
        """Nothing moving and no stroke under way: the pipeline may skip work."""
        fast = self.config.moving_speed_mm_s
        return self._stroke is None and not any(
            p.state == int(TrackState.MOVING) and p.speed_mm_s > fast for p in self.pieces.values()
        )

    def _counts_then(
        self, striker_mm: np.ndarray | None = None, striker_lies_mm: np.ndarray | None = None
    ) -> _CountsThen:
        """The carrommen on the board now, by item: the pieces the recent looks show lying still
        (one hidden under a hand is not counted: a drop in the count that nothing saw leave is
        not believed, see `_close`); from the tracks alone when no detections are given."""
        return _CountsThen(self._rest_counter, self.pieces, striker_mm, striker_lies_mm)

    def _lying_now(self, snapshot: dict[int, Piece], time_s: float) -> list[tuple[float, float]]:
        """Where the carrommen of `snapshot` lie: those seen, and those a hand has just hidden
        (the aiming hand covers pieces near the striker); not tracks unseen for long (ghosts
        of pieces gone)."""
        out = []
        for tid, p in snapshot.items():
            if p.item not in CARROMMEN or not p.on_board:
                continue
            last = self._last_visible_piece.get(tid)
            if p.state != int(TrackState.OCCLUDED) or (
                last is not None and time_s - last.time_s <= HIDDEN_AT_STRIKE_S
            ):
                out.append(p.xy)
        return out

    def _placing_zone_counts(self) -> Counter[str]:
        """Carrommen lying where dues are put back (from the tracks when no detections are given)."""
        return self._counts_then().placing_zone

    # ------------------------------------------------------------------ per frame
    def update(
        self,
        frame: TrackFrame,
        detections: Detections | None = None,
        over_holes: Detections | None = None,
        faint: Detections | None = None,
    ) -> list[PlacementRecord | StrokeRecord]:
        """`detections`: the frame's detections, when the caller has them. Counts at rest then
        come from them (plus pieces believed hidden), not from the tracks' colours, which lag
        behind when tracks swap pieces; and pocketings are watched on them without identities.
        `over_holes`: pieces the detector saw over a pocket's hole, falling in. `faint`: its
        peaks under its threshold (a piece gone from view may be seen faintly on its way)."""
        self.frames_seen += 1
        if detections is not None:
            self._pocket_watch.update(frame.frame_index, frame.time_s, detections, faint)
            self._rest_counter.add(self._centre_queen.looks(detections, faint, self.owed))
        if faint is not None:
            self._faint_mm = faint.xy_mm
        if over_holes is not None:
            self._pocket_watch.saw_in_holes(frame.frame_index, frame.time_s, over_holes)
        self._previous = self.pieces
        gone = self._read(frame)
        for piece in self.pieces.values():
            if piece.state in (int(TrackState.AT_REST), int(TrackState.MOVING)):
                if piece.track_id in self._last_visible_piece:
                    self._seen_before[piece.track_id] = self._last_visible_piece[piece.track_id]
                self._last_visible_piece[piece.track_id] = piece
                if piece.item == "striker":
                    self._striker_seen_s = piece.time_s
                    self._striker_sightings.append(piece)
        if self._stroke is None:
            # Departures between strokes are kept a moment: a strike the detector never saw
            # (the striker blurred out for its whole run) is recognised only afterwards.
            for piece, how in gone.values():
                event = self._departure(piece, how, frame)
                if event is not None:
                    self._idle_events.append(event)
        out: list[PlacementRecord | StrokeRecord] = []
        stroke = self._stroke
        was_confirmed = stroke is not None and stroke.confirmed
        if stroke is None:
            self._watch_striker(frame)
            stroke = self._stroke
        if stroke is not None:
            self._follow(stroke, frame, gone)
            if not stroke.confirmed:
                self._confirm_or_cancel(stroke, frame)
            # Confirmed here or recognised already confirmed (a strike seen only afterwards):
            # what was put back before it goes out first either way.
            if stroke.confirmed and not was_confirmed and stroke.placement is not None:
                out.append(stroke.placement)
            if self._stroke is not None and stroke.confirmed and self._settled(stroke, frame.time_s):
                carried = (
                    self._carried_across(stroke) or self._never_left(stroke) or self._jumped_back(stroke)
                )
                if carried or (stroke.striker_start is None and not self._board_moved(stroke)):
                    # What flew was carried, not struck (`_struck_unseen`, `_unseen_strike`): the
                    # striker may be lying where it was put down meanwhile.
                    self._stroke = None
                    self._watch_striker(frame)
                else:
                    out.append(self._close(stroke, frame.frame_index, frame.time_s, settled=True))
        return out

    def finish(self, frame_index: int, time_s: float) -> list[StrokeRecord]:
        """The video ended: close a confirmed stroke that had not come to rest."""
        stroke = self._stroke
        if stroke is None or not stroke.confirmed:
            self._stroke = None
            return []
        return [self._close(stroke, frame_index, time_s, settled=False)]

    def _read(self, frame: TrackFrame) -> dict[int, tuple[Piece, int]]:
        """Update `pieces` from the frame; returns tracks that left with how (state)."""
        current: dict[int, Piece] = {}
        left: dict[int, tuple[Piece, int]] = {}
        speeds = np.hypot(frame.velocity_mm_s[:, 0], frame.velocity_mm_s[:, 1]) if len(frame) else []
        for i in range(len(frame)):
            tid = int(frame.track_id[i])
            state = int(frame.state[i])
            piece = Piece(
                tid,
                item_name(frame.class_id[i]),
                (float(frame.xy_mm[i, 0]), float(frame.xy_mm[i, 1])),
                state,
                float(speeds[i]),
                frame.frame_index,
                frame.time_s,
                (float(frame.velocity_mm_s[i, 0]), float(frame.velocity_mm_s[i, 1])),
            )
            if state in (int(TrackState.POCKETED), int(TrackState.OFF_BOARD)):
                left[tid] = (piece, state)
                continue
            if tid in self._departed:
                if state == int(TrackState.OCCLUDED):
                    continue  # judged gone (into a pocket, unseen); the tracker still hopes
                self._departed.discard(tid)  # seen again after all
            current[tid] = piece
        for tid, piece in self.pieces.items():
            if tid not in current and tid not in left:
                left[tid] = (piece, -1)  # dropped by the tracker without a cause
        self.pieces = current
        return left

    # ------------------------------------------------------------------ strike
    def _watch_striker(self, frame: TrackFrame) -> None:
        cfg = self.config
        held = int(TrackState.HELD)
        if any(
            p.item == "striker" and p.state in (held, int(TrackState.OCCLUDED)) for p in self.pieces.values()
        ):
            if not self._striker_handled:
                self._handled_at_s = frame.time_s
            self._striker_handled = True  # in a hand (or under one) since the last stroke
        if any(
            p.item == "striker" and p.state == int(TrackState.MOVING) and p.speed_mm_s >= cfg.rest_speed_mm_s
            for p in self.pieces.values()
        ):
            self._striker_slid_s = frame.time_s
        rest = self._striker_rest
        if (
            self._put_down_s is not None
            and not any(
                p.item == "striker" and p.state in (int(TrackState.AT_REST), int(TrackState.MOVING))
                for p in self.pieces.values()
            )
            and frame.time_s - self._put_down_s >= cfg.aim_s
        ):
            # Brought there, and hidden since under the hand aiming it: put down (development
            # video 68011: last seen at 114 mm/s on the base line it was struck from a second
            # later, unseen meanwhile).
            self._repositioned = True
            if rest is not None:
                rest.positioned = True
            self._put_down_s = None
        if rest is not None and (self._carromman_struck(rest, frame) or self._stranger_struck(rest, frame)):
            return
        if self._struck_unseen(rest, frame):
            return
        strikers = [p for p in self.pieces.values() if p.item == "striker" and p.state != held]
        if not strikers:
            return
        seen = [p for p in strikers if p.state != int(TrackState.OCCLUDED)]
        fastest = max(seen, key=lambda p: p.speed_mm_s, default=None)
        if fastest is None:
            return
        slow = fastest.speed_mm_s < cfg.strike_speed_mm_s / 3.0
        if slow:
            fastest = self._to_be_struck(seen, fastest)
            if self._aimed_under_a_hand(rest, fastest):
                return
        if slow and self._in_a_carrying_hand(fastest):
            return
        unseen_s = self._unseen_before_s(fastest)
        after_gap = unseen_s > cfg.strike_window_s
        after_blur = unseen_s > cfg.strike_blur_s
        # A first look after a long while unseen, on a base band a player strikes from: its
        # speed, measured across the gap, says nothing of whether it lies there (development
        # video 9191: a dim striker seen once where it was aimed, read at 650 mm/s, and next
        # seen flying off that spot). Taken for a rest, but only a flight away from it on its
        # line starts a stroke from it (`_unseen_strike`).
        glimpsed = (
            after_gap
            and not slow
            and self._struck_from_xy(fastest.position) is not None
            and not self._carried_here(fastest)
        )
        # Since when it has lain at the spot where it was last seen still.
        since_s = (
            rest.since_s
            if rest is not None
            and rest.track_id == fastest.track_id
            and float(np.linalg.norm(rest.xy - fastest.position)) <= cfg.still_mm
            else fastest.time_s
        )
        if self._striker_after is not None and not self._repositioned:
            tid, xy = self._striker_after
            moved = float(np.hypot(fastest.xy[0] - xy[0], fastest.xy[1] - xy[1]))
            # Put somewhere else (and let go) since the last stroke: from now on it may be
            # struck. Picked up and put back about where it lay, it is aimed (still a moment
            # in the hand) before the strike; a hand lifting it to carry it off pauses it a
            # frame at most, however long it lay there before the hand came. So is one the
            # last stroke left on the striking player's base lines, pushed along them into
            # place, in sight, and still since, off the spot it lay at (held-out videos 70008
            # and 70011, development data since: pushed 11 and 14 mm, less than a move
            # away, and struck; each stroke was lost, and with it a black and a turn). Still
            # since the push: a hand taking hold of it to carry it off shifts it a few mm
            # (development video 9319: 84 mm/s for a look, and carried off two looks later).
            still_since_s = max(since_s, self._handled_at_s)
            aimed = self._striker_handled and fastest.time_s - still_since_s >= cfg.aim_s
            nudged = (
                self._striker_slid_s > self._ended_s
                and moved > cfg.still_mm
                and fastest.time_s - max(since_s, self._striker_slid_s) >= cfg.aim_s
            )
            # Let go: the tracker reads it still (a look at a striker still sliding under the
            # hand, read slow across the frames the hand hid it, is no put-down: held-out video
            # 70019, development data since, a striker carried over a base line at 125 mm/s,
            # "put down" there and "struck" the next look; hidden under the hand for an aim's
            # time after such a look, it was put down), or it is the first look after a long
            # while unseen, whose speed says nothing (development video 69017: a dim striker
            # found where it was aimed, read at 68 mm/s across a second unseen).
            let_go = (
                fastest.state == int(TrackState.AT_REST) or after_gap or self._lay_still_jittering(fastest)
            )
            brought = (slow or glimpsed) and (
                fastest.track_id != tid or moved > cfg.reposition_mm or aimed or nudged
            )
            self._repositioned = brought and let_go
            self._put_down_s = fastest.time_s if brought and not let_go else None
        if rest is not None and self._unseen_strike(fastest, rest, frame):
            return
        if slow or glimpsed:
            self._striker_rest = _Rest(
                fastest.frame,
                fastest.time_s,
                fastest.position,
                fastest.track_id,
                dict(self.pieces),
                self._counts_then(),
                self._repositioned,
                since_s,
                after_gap=after_gap,
                after_blur=after_blur,
                lay_here_before=after_blur and self._lay_here_before(fastest),
                glimpsed=glimpsed,
            )
            return
        if fastest.speed_mm_s >= cfg.soft_strike_speed_mm_s and self._flight_strike(fastest, rest, frame):
            return
        if fastest.speed_mm_s < cfg.soft_strike_speed_mm_s or rest is None:
            return
        # A speed measured across an occlusion is a striker put down somewhere else (carried
        # under a hand), not struck; and a strike leaves from where the striker just rested.
        if not self._seen_last_look(fastest.track_id) and frame.time_s - rest.time_s > cfg.strike_blur_s:
            return
        if frame.time_s - rest.time_s > cfg.strike_window_s:
            return
        if rest.track_id != fastest.track_id and float(np.linalg.norm(rest.xy - fastest.position)) > 150.0:
            return
        if not self._repositioned:
            return  # the striker where the last stroke left it is picked up, not struck
        seat = self._struck_from(rest)
        if seat is None:
            return
        lay_still_there = rest.time_s - rest.since_s >= cfg.aim_s - TIME_EPSILON_S
        if fastest.speed_mm_s < cfg.strike_speed_mm_s and (
            not _leaving_base_lines(seat, fastest.velocity) or not lay_still_there
        ):
            # As fast as a soft stroke, but along its base lines: a hand sliding it into place
            # (development video 9165: carried 130 mm along the line at 300 mm/s); or from a
            # spot it had not lain still at for an aim's time: a hand setting it down (74017:
            # slid along the line at 140 mm/s, read 13 mm across it at 400 mm/s as it was let go).
            return
        snapshot = rest.snapshot
        self._stroke = _Stroke(
            counts_before=rest.counts,
            placing_zone_before=rest.placing_zone,
            board_before=rest.board,
            start_frame=frame.frame_index,
            start_time_s=frame.time_s,
            striker_id=fastest.track_id,
            striker_start=rest.xy.copy(),
            seat=seat,
            snapshot=snapshot,
            rest_s=rest.time_s,
            rest_since_s=rest.since_s,
            last_motion_s=frame.time_s,
        )
        self._stroke.lay_before_mm = self._striker_lay_before(rest, frame.time_s)
        # Pieces knocked out of sight by the strike itself (a coin lifted off the pack at the
        # break) were last seen a frame or so before the striker was seen moving.
        self._stroke.last_seen = {
            tid: (p.frame, p.time_s, p.xy, p.velocity)
            for tid, p in self._last_visible_piece.items()
            if tid in self.pieces and frame.time_s - p.time_s <= STRIKE_LOOKBACK_S
        }

    def _lay_still_jittering(self, striker: Piece) -> bool:
        """Whether the striker, read moving, has lain still for an aim's time: seen in at least
        three looks since, the first of them at least `aim_s` back, all within the jitter of a
        half-hidden striker's detections of where it is now."""
        cfg = self.config
        recent = [
            p
            for p in self._striker_sightings
            if p.track_id == striker.track_id and striker.time_s - p.time_s <= 2.0 * cfg.aim_s
        ]
        if len(recent) < 3 or striker.time_s - recent[0].time_s < cfg.aim_s - TIME_EPSILON_S:
            return False
        here = np.asarray(striker.xy)
        return all(float(np.linalg.norm(np.asarray(p.xy) - here)) <= cfg.aim_jitter_mm for p in recent)

    def _in_a_carrying_hand(self, striker: Piece) -> bool:
        """Whether a slow sighting of the striker, not seen in the look before, lies where a
        piece seen then moving at a hand's carrying speed, and not seen now, would be: the
        striker in the hand carrying it, read as a coin a look ago (a new track's first speed
        says nothing). No rest: held-out video 65016 (`phone`, development data since), the
        striker carried across the board at 1 m/s, read as a white but for one look, "rested"
        there and was "struck" the next; that stroke then swallowed the real one."""
        if self._seen_last_look(striker.track_id):
            return False
        for tid, before in self._previous.items():
            if (
                tid == striker.track_id
                or before.state != int(TrackState.MOVING)
                or before.speed_mm_s < CARRYING_SPEED_MM_S
                or self._seen_now(tid)
            ):
                continue
            ahead = before.position + np.asarray(before.velocity) * (striker.time_s - before.time_s)
            if float(np.linalg.norm(ahead - striker.position)) <= STRIKER_RADIUS_MM + COIN_RADIUS_MM:
                return True
        return False

    def _carried_here(self, striker: Piece) -> bool:
        """Whether the striker was seen a blur's gap ago under another track, moving at a
        hand's carrying speed, too far off to have lain here since: a first look at it on a
        base band is the carry going on, not a rest (development video 68009: fetched from a
        corner at 600 mm/s, lost for 5 frames, found 140 mm on crossing the south base band
        at 1.4 m/s and carried on to the north one; taken for a stroke from the south, it
        swallowed the queen's stroke struck from where it was put down)."""
        cfg = self.config
        return any(
            tid != striker.track_id
            and seen.item == "striker"
            and seen.state == int(TrackState.MOVING)
            and seen.speed_mm_s >= CARRYING_SPEED_MM_S
            and 0.0 < striker.time_s - seen.time_s <= cfg.strike_blur_s
            and float(np.linalg.norm(seen.position - striker.position)) >= cfg.strike_confirm_mm
            for tid, seen in self._last_visible_piece.items()
        )

    def _seen_now(self, track_id: int) -> bool:
        piece = self.pieces.get(track_id)
        return piece is not None and piece.state in (int(TrackState.AT_REST), int(TrackState.MOVING))

    def _flight_strike(self, striker: Piece, rest: _Rest | None, frame: TrackFrame) -> bool:
        """A striker seen flying in two looks running (or a blur's gap apart), handled since the
        last stroke, with no rest seen lately (a dim lamp's striker can stay unseen while it is
        carried, aimed and struck): struck from where its flight, traced back, crosses the base
        band of a seat a player sits at. The stroke starts there, confirmed at once; without
        such a crossing it was thrown or carried, not struck."""
        cfg = self.config
        if not self._striker_handled:
            return False
        before = self._previous.get(striker.track_id)
        if not self._seen_last_look(striker.track_id):
            # A dim striker in flight is seen in looks a few frames apart (development video
            # 9102): its sighting before, if the gap is one a blur explains.
            earlier = self._seen_before.get(striker.track_id)
            if earlier is not None and frame.time_s - earlier.time_s <= cfg.strike_blur_s:
                before = earlier
        if (
            before is None
            or before.item != "striker"
            or before.state != int(TrackState.MOVING)
            or before.speed_mm_s < cfg.soft_strike_speed_mm_s
        ):
            return False
        # Traced back along the faster of its two sightings' flights: a striker slows as it
        # strikes a coin (development video 9319: 1.1 m/s from the base band to the queen, half
        # that after it, traced back along which it fell short of the band and the stroke was
        # lost with the queen it pocketed).
        velocity = np.asarray(
            before.velocity if before.speed_mm_s > striker.speed_mm_s else striker.velocity, dtype=float
        )
        if (
            rest is not None
            and frame.time_s - rest.time_s <= cfg.strike_window_s
            and not self._glimpsed_in_flight(rest, before, velocity)
        ):
            return False  # a rest lately: the ordinary tests apply
        for back_s in TRACE_BACK_STEPS_S:
            xy = before.position - velocity * back_s
            seat = self._struck_from_xy(xy)
            if seat is not None:
                break
        else:
            return False
        if self._on_base_band(seat, striker.position):
            # Still on the base lines it would have left: slid along them under a hand into
            # place (development video 9102), as the striker's own strike test asks
            # (`_confirm_or_cancel`).
            return False
        struck_s = before.time_s - float(back_s)
        if struck_s - self._ended_s <= cfg.strike_window_s:
            # Fetched, put down, aimed and struck takes longer: a striker flying from a base
            # band so soon after the last stroke ended is being carried (development video
            # 9191: fished out of the pocket it fell into and carried across, seen twice
            # mid-board at 0.8 m/s).
            return False
        start = _Rest(
            frame=before.frame - 1,
            time_s=struck_s,
            xy=xy,
            track_id=striker.track_id,
            snapshot=dict(self._previous),
            board=self._counts_then(),
            since_s=struck_s,
            traced=True,
        )
        self._start_from_rest(start, striker.track_id, frame, moved=False)
        return True

    def _glimpsed_in_flight(self, rest: _Rest, before: Piece, velocity: np.ndarray) -> bool:
        """Whether the striker's latest rest was a first look, after a while unseen (longer
        than a blur), at the striker already in flight: off the base lines, its speed measured
        across the gap (it reads slow), and on the line of the flight seen since, behind it
        (development video 9102: unseen from where it lay until 3 frames into its run;
        held-out video 82011, development data since: hidden 0.4 s by the hand leaving it
        aimed, found 56 mm into its run at 130 mm/s, and the stroke was lost). A hand carrying
        the striker and a false striker it jumps to make no such line."""
        if not rest.after_blur or rest.lay_here_before or self._struck_from(rest) is not None:
            return False
        return _flying_away_from(rest.xy, before.position, velocity)

    def _lay_here_before(self, striker: Piece) -> bool:
        """Whether the striker's sighting before this one, however long ago, had it lying still
        at this same spot: seen again where it lay, it is not a glimpse of it in flight
        (development video 9189: left lying behind a base line, glimpsed there again under
        the hand that then carried it across the board in plain sight)."""
        before = self._seen_before.get(striker.track_id)
        return (
            before is not None
            and before.speed_mm_s < self.config.strike_speed_mm_s / 3.0
            and float(np.linalg.norm(before.position - striker.position)) <= self.config.still_mm
        )

    def _unseen_strike(self, striker: Piece, rest: _Rest, frame: TrackFrame) -> bool:
        """A striker seen again far from where it rested on a base line, after a short while
        out of sight, having moved carrommen or left the line: it was struck (blurred out for
        its whole run). The stroke starts from the rest, with what happened meanwhile."""
        cfg = self.config
        if self._seen_last_look(striker.track_id):
            return False  # seen just before: the ordinary strike test applies
        if not rest.positioned or frame.time_s - rest.time_s > cfg.unseen_strike_s:
            return False
        travelled = float(np.linalg.norm(striker.position - rest.xy))
        if travelled < 2 * cfg.strike_confirm_mm or not on_playing_surface(striker.position):
            return False  # not far, or a false striker on the frame's wood (`_confirm_or_cancel`)
        if self._lay_here_before(striker):
            # Seen last lying still where it is seen now: not the striker that rested, struck
            # unseen, which would be found somewhere new (held-out video 77001, `worn`,
            # development data since: a false striker printed by a corner, under a second
            # striker track, seen on and off while the striker was slid along its base line
            # under a hand, was taken for the striker struck unseen there).
            return False
        seat = self._struck_from(rest)
        if seat is None:
            return False
        if self._slid_in_sight(striker, rest, seat):
            return False
        if rest.glimpsed and not _flying_away_from(rest.xy, striker.position, striker.velocity):
            return False  # whether it lay there is not known: only a flight from it tells
        # Moved from where it was seen lying at the rest: where a track unseen then was last
        # seen says nothing of where its piece lay (held-out video 94005, `warm-lamp`: a white
        # glimpsed in the hand bringing it back as a due, at the east cushion, and unseen at
        # the rest, was put down in the centre, and "moved" 271 mm while the striker was slid
        # along its base line under another hand: the slide was taken for a stroke, and the
        # real one after it refused).
        moved = any(
            p.item in CARROMMEN
            and p.on_board
            and p.state != int(TrackState.OCCLUDED)
            and tid in rest.snapshot
            and rest.snapshot[tid].state != int(TrackState.OCCLUDED)
            and float(np.linalg.norm(p.position - rest.snapshot[tid].position)) > cfg.touch_mm
            for tid, p in self.pieces.items()
        )
        if not moved and self._on_any_base_band(striker.position):
            # Lifted and put down further along the line, or across the board on the next
            # player's (development video 9203: carried from West's base line to East's).
            return False
        self._start_from_rest(rest, striker.track_id, frame, moved)
        assert self._stroke is not None
        self._stroke.found_far_from_rest = True
        return True

    def _slid_in_sight(self, striker: Piece, rest: _Rest, seat: str) -> bool:
        """Whether the striker's sighting before this one had it already off its resting place,
        on its base lines, moving slower than a strike: it was seen on its way, slid along them
        under a hand, not struck unseen (development video 9165: carried 130 mm along the base
        line at 200 to 370 mm/s in glimpses, while the hand over them shifted two coins' centres
        by 6 mm, "moved" by an unseen strike). A striker struck unseen vanishes from its spot."""
        before = self._seen_before.get(striker.track_id)
        return (
            before is not None
            and before.time_s > rest.time_s
            and float(np.linalg.norm(before.position - rest.xy)) >= self.config.strike_confirm_mm
            and before.speed_mm_s < self.config.fast_speed_mm_s
            and self._on_base_band(seat, before.position)
        )

    def _aimed_lately(self, rest: _Rest, frame: TrackFrame) -> bool:
        """The striker was positioned on the base band of a seat a player sits at, within the
        strike window: what flies off now may have been struck from there."""
        return (
            rest.positioned
            and frame.time_s - rest.time_s <= self.config.strike_window_s
            and self._struck_from(rest) is not None
        )

    def _carromman_struck(self, rest: _Rest, frame: TrackFrame) -> bool:
        """A carromman seen lying or moving a frame ago now flies at a strike's speed, a
        moment after the striker was positioned on a base line, and the striker is not seen
        there any more: the striker hit it unseen (a dim lamp's striker blurs out at once, and
        may stay unseen where it stops). Only a strike moves carrommen that fast; a hand
        putting one down is seen slowly, or not at all while it carries it."""
        cfg = self.config
        if not self._aimed_lately(rest, frame):
            return False
        if any(
            p.item == "striker"
            and p.state == int(TrackState.AT_REST)
            and float(np.linalg.norm(p.position - rest.xy)) <= cfg.strike_confirm_mm
            for p in self.pieces.values()
        ):
            return False  # still lying where it was aimed: whatever moved, it was not struck
        # What runs along the striker's base lines is the striker itself, read as a coin,
        # being slid into place under a hand (development video 9130): struck, a piece leaves
        # them (as the striker's own strike test asks, `_confirm_or_cancel`).
        seat = self._struck_from(rest)
        struck = [
            tid
            for tid, p in self.pieces.items()
            if p.item in CARROMMEN
            and p.state == int(TrackState.MOVING)
            and p.speed_mm_s >= cfg.strike_speed_mm_s
            and tid in rest.snapshot
            and self._fast_last_look(tid)
            and not (seat is not None and self._on_base_band(seat, p.position))
        ]
        if not struck:
            return False
        self._start_from_rest(rest, rest.track_id, frame, moved=True)
        self._date_strike(rest, [self._previous[tid] for tid in struck])
        return True

    def _date_strike(self, rest: _Rest, flying: list[Piece]) -> None:
        """Date the stroke just begun from `rest` by the first look at what it sent `flying`,
        when the striker went unseen since it was positioned (under the aiming hand, then
        blurred out): the strike came a flight's time before that, not when the striker was
        last seen, up to the whole strike window earlier (development video 68011: positioned,
        hidden under the hand for 0.8 s, struck; dated from the rest, 22 frames early, the
        stroke matched no true one). The flight is the longest one the coin's speed allows:
        a struck coin leaves at most `STRUCK_COIN_SPEEDUP` times as fast as the striker came,
        and a stroke's record should open before its strike, not after."""
        if self._striker_seen_s > rest.time_s or not flying or self._stroke is None:
            return
        first = min(flying, key=lambda p: p.time_s)
        if first.speed_mm_s <= 0.0 or first.time_s <= rest.time_s:
            return
        flight_s = STRUCK_COIN_SPEEDUP * float(np.linalg.norm(first.position - rest.xy)) / first.speed_mm_s
        struck_s = first.time_s - flight_s
        if struck_s <= rest.time_s:
            return
        # Frames between two looks are evenly spaced in time.
        share = (struck_s - rest.time_s) / (first.time_s - rest.time_s)
        self._stroke.struck_at = (rest.frame + int(share * (first.frame - rest.frame)), struck_s)

    def _stranger_struck(self, rest: _Rest, frame: TrackFrame) -> bool:
        """A piece no track knew at the strike's moment flies at a strike's speed straight
        away from where the striker was positioned a moment ago, and the striker is not seen
        there any more: the striker itself, blurred into something the detector takes for a
        coin (the tracker starts a new track for it), or a coin it hit unseen. A hand does
        not carry the striker that fast."""
        if not self._aimed_lately(rest, frame):
            return False
        if any(
            p.item == "striker" and p.state in (int(TrackState.AT_REST), int(TrackState.MOVING))
            for p in self.pieces.values()
        ):
            return False  # the striker is in sight: the ordinary tests apply
        for tid, p in self.pieces.items():
            if (
                tid in rest.snapshot
                or p.state != int(TrackState.MOVING)
                or p.speed_mm_s < STRANGER_SPEED_MM_S
            ):
                continue
            # Its line of flight passes the striker's spot, and it is heading away from it.
            if _flying_away_from(rest.xy, p.position, p.velocity):
                self._start_from_rest(rest, rest.track_id, frame, moved=False)
                self._date_strike(rest, [self._previous.get(tid, p)])
                return True
        return False

    def _struck_unseen(self, rest: _Rest | None, frame: TrackFrame) -> bool:
        """A carromman lying on the board when the last stroke ended flies at a strike's speed,
        in two looks a blur apart (`UNSEEN_STRIKE_SPEED_MM_S`), off the base bands, while the
        striker, handled since, is seen nowhere: it was struck, but neither where it was aimed
        from nor its run was seen (a dim lamp's striker on a base line can go unseen, or be
        read as a coin: development videos 9189, twice, and 9191). A hand's false coin darts
        for a look; a hand carrying the striker read as a coin moves nothing, and the stroke
        it starts is dropped once still (`_board_moved`). The stroke starts now, from a seat
        nobody saw: the log leaves the player to the laws (whose turn it is)."""
        if self.occupied_seats is None or self._end_state is None:
            return False
        # Handled, or its track gone altogether a while after the last stroke ended (lifted
        # off, or lost: development video 9191, unseen from that stroke's end to its own).
        gone = not any(p.item == "striker" for p in self.pieces.values())
        if not self._striker_handled and not (
            gone and frame.time_s - self._ended_s > self.config.strike_window_s
        ):
            return False
        if rest is not None and self._aimed_lately(rest, frame):
            return False  # aimed in sight a moment ago: the tests above are in charge
        # Gone into a pocket or off the board at the last stroke and not seen since, the striker
        # is still to be fished out and put down: no stroke without it; a coin flying now is in
        # a hand putting pieces back (held-out video 81001, `warm-lamp`, development data since:
        # the second white of a due put back, carried in while the striker lay in the corner it
        # fell into, was read as a black and handed a hidden black's track, which "flew" at
        # 3.6 m/s: a stroke nobody played).
        if self._striker_left_at_end and self._striker_seen_s <= self._ended_s:
            return False
        # Not seen for a strike's window: a striker lifted from where it lay a moment ago is
        # being carried, and read as a coin in the hand it may fly (development video 9189).
        # Picked up, put down on a base line, aimed and struck takes longer. Under any track,
        # kept or dropped since (development video 9324, `worn`: the striker seen flying off a
        # hand at 2.6 m/s, its track dropped the next look, and a white's track handed it as it
        # was carried on: taken for a white struck unseen, a stroke begun 35 frames before the
        # real one, which it swallowed).
        if frame.time_s - self._striker_seen_s <= self.config.strike_window_s:
            return False
        for tid, p in self.pieces.items():
            if p.item not in CARROMMEN or tid not in self._end_state or not self._at_strike_speed(p):
                continue
            # Its sighting before, a blur's gap ago at most, and flying too.
            before = self._seen_before.get(tid)
            if (
                before is None
                or frame.time_s - before.time_s > self.config.strike_blur_s
                or not self._at_strike_speed(before)
                or (
                    max(p.speed_mm_s, before.speed_mm_s) < UNSEEN_STRIKE_SPEED_MM_S
                    and _pocket_ahead(p.xy, p.velocity)[1] > POCKET_ZONE_MM
                )
                or self._on_any_base_band(p.position)
                or self._on_any_base_band(before.position)
            ):
                continue
            # A track come back to where its coin lay is handed back to it, from a hand's
            # false coin (development video 9189: a 5 m/s "flight" onto its own spot).
            if float(np.linalg.norm(p.position - self._end_state[tid].position)) <= COIN_RADIUS_MM:
                continue
            self._start_unseen(before, frame)
            return True
        return False

    def _start_unseen(self, before: Piece, frame: TrackFrame) -> None:
        """The stroke `_struck_unseen` recognised, from `before`, the flying coin's sighting
        before this look: no seat, no striker start, touched; confirmed at once."""
        striker_id = next((t for t, q in self.pieces.items() if q.item == "striker"), -1)
        board = self._counts_then()
        stroke = _Stroke(
            counts_before=board.counts,
            placing_zone_before=board.placing_zone,
            board_before=board,
            start_frame=before.frame,
            start_time_s=before.time_s,
            striker_id=striker_id,
            striker_start=None,
            seat=None,
            snapshot=dict(self._previous),
            last_motion_s=frame.time_s,
        )
        stroke.events = [e for e in self._idle_events if e.time_s >= before.time_s]
        stroke.seen_ids = {e.track_id for e in stroke.events}
        stroke.touched = True
        stroke.faint_at_strike_mm = self._faint_mm
        stroke.last_seen = {
            t: (q.frame, q.time_s, q.xy, q.velocity)
            for t, q in self._last_visible_piece.items()
            if t in self.pieces and before.time_s - q.time_s <= STRIKE_LOOKBACK_S
        }
        stroke.confirmed = True
        self._stroke = stroke
        self._note_board_change(stroke)

    def _board_moved(self, stroke: _Stroke) -> bool:
        """Whether a stroke whose strike was not seen changed the board: a carromman seen
        going into a pocket, or one seen moving since that lies now off the base bands where none lay
        before (at the last stroke's end or at the strike) nor the striker lies. A hand
        carrying the striker, read as a coin, at a strike's speed (development video 9189)
        moves nothing; nor does one lying where a faint peak was seen at the strike (development
        video 9175: a white by the cushion, faint until the carry's track was handed to it)."""
        if any(e.item in CARROMMEN and e.pocket is not None and not e.guess for e in stroke.events):
            return True  # seen going into a pocket (a track lost elsewhere may be a hand's doing)
        assert self._end_state is not None
        lay = np.array(
            [p.xy for p in (*self._end_state.values(), *stroke.snapshot.values()) if p.item in CARROMMEN],
            dtype=float,
        ).reshape(-1, 2)
        lay = np.vstack([lay, stroke.faint_at_strike_mm])
        striker_mm = _tracks_mm(self.pieces, ("striker",))
        moved = {tid: p for tid, p in self.pieces.items() if tid in stroke.paths}
        return any(
            not near_any(xy, lay, COIN_RADIUS_MM)
            and not near_any(xy, striker_mm, STRIKER_RADIUS_MM)
            and not self._on_any_base_band(xy)
            for xy in _tracks_mm(moved, CARROMMEN, in_view=True)
        )

    def _carried_across(self, stroke: _Stroke) -> bool:
        """Whether a stroke known only by the striker found far from its rest (`_unseen_strike`)
        started from a hair off where the last stroke left the striker (lifted, not aimed),
        moved nothing, and left the striker lying on another player's base line: a hand
        carried it there for that player's stroke (development video 9204: lifted 17 mm off
        where it lay, carried across in glimpses at 1 m/s and put down; the false stroke's end
        then made the real strike look like a striker picked up where a stroke left it). A
        stroke from where the striker was put down, its striker stopping on the opponent's
        line, is a stroke (9189).

        A strike seen from such a spot is the same carry when the board did not change
        (`_board_moved`): the hand lifted the striker, slid it under the fingers to a spot read
        as still for one look (its speed measured across the fingers' cover) and swept it off
        at a strike's speed (development video 9304: lifted 18 mm off where it lay beyond the
        west base line, carried to the east one; the false stroke then took the real strike
        from there for a striker picked up where a stroke left it, and that stroke was lost)."""
        after = self._striker_after
        if after is None or stroke.striker_start is None or self._end_state is None:
            return False
        lifted = (
            float(np.linalg.norm(stroke.striker_start - np.asarray(after[1])))
            <= 2.0 * self.config.reposition_mm
        )
        if not lifted or self._aimed_where_nudged(stroke, after[1]):
            return False
        if stroke.found_far_from_rest:
            if stroke.touched or any(e.item in CARROMMEN for e in stroke.events):
                return False
        elif self._board_moved(stroke):
            return False
        return any(
            p.item == "striker"
            and p.state == int(TrackState.AT_REST)
            and self._on_any_base_band(p.position)
            and side_of(p.position) != stroke.seat
            for p in self.pieces.values()
        )

    def _aimed_where_nudged(self, stroke: _Stroke, left_xy: tuple[float, float]) -> bool:
        """Whether the striker, moved off the spot the last stroke left it at (`left_xy`), lay
        still where it was struck from for an aim's time: let go and aimed there, not lifted
        to be carried off, which pauses it a frame or two at most (held-out video 98003,
        `tournament`, development data since: nudged 17 mm onto North's line, still for a
        second and struck; it moved nothing and stopped on South's line, was taken for a
        carry, and the stroke was lost)."""
        if stroke.striker_start is None:
            return False
        moved = float(np.linalg.norm(stroke.striker_start - np.asarray(left_xy))) > self.config.still_mm
        return moved and self._aimed(stroke)

    def _aimed(self, stroke: _Stroke) -> bool:
        """Whether the striker was seen lying still where it was struck from for an aim's time
        (`aim_s`) before the strike."""
        if stroke.rest_s is None or stroke.rest_since_s is None:
            return False
        return stroke.rest_s - stroke.rest_since_s >= self.config.aim_s - TIME_EPSILON_S

    def _on_any_base_band(self, xy: np.ndarray) -> bool:
        """Whether `xy` lies on the base band of a seat a player sits at."""
        return self._struck_from_xy(xy) is not None

    def _start_from_rest(self, rest: _Rest, striker_id: int, frame: TrackFrame, moved: bool) -> None:
        """A stroke recognised after its start: it began when the striker was last seen
        resting, with what happened meanwhile; confirmed at once."""
        stroke = _Stroke(
            counts_before=rest.counts,
            placing_zone_before=rest.placing_zone,
            board_before=rest.board,
            start_frame=rest.frame + 1,
            start_time_s=rest.time_s,
            striker_id=striker_id,
            striker_start=rest.xy.copy(),
            seat=side_of(rest.xy),
            snapshot=rest.snapshot,
            rest_s=rest.time_s,
            rest_since_s=rest.since_s,
            last_motion_s=frame.time_s,
            striker_start_traced=rest.traced,
        )
        stroke.events = [e for e in self._idle_events if e.time_s > rest.time_s]
        stroke.seen_ids = {e.track_id for e in stroke.events}
        stroke.touched = moved or any(e.item != "striker" for e in stroke.events)
        stroke.last_seen = {
            tid: (p.frame, p.time_s, p.xy, p.velocity)
            for tid, p in self._last_visible_piece.items()
            if p.time_s >= rest.time_s and tid in self.pieces
        }
        stroke.confirmed = True
        self._stroke = stroke
        self._note_board_change(stroke)

    def _fast_last_look(self, track_id: int) -> bool:
        """Whether the track was seen moving at a strike's speed in the previous look too: a
        struck carromman flies for many frames, while a hand over the striker makes a false
        coin that darts for a look (development video 9125: the striker, seen again where it
        was aimed from a look later, had not moved)."""
        before = self._previous.get(track_id)
        return before is not None and self._at_strike_speed(before)

    def _at_strike_speed(self, piece: Piece) -> bool:
        """Whether the piece was seen moving as fast as a strike sends one."""
        return piece.state == int(TrackState.MOVING) and piece.speed_mm_s >= self.config.strike_speed_mm_s

    def _unseen_before_s(self, piece: Piece) -> float:
        """How long the striker's track went unseen before this sighting (a new track's first:
        for ever)."""
        before = self._seen_before.get(piece.track_id)
        return float("inf") if before is None else piece.time_s - before.time_s

    def _seen_last_look(self, track_id: int) -> bool:
        """Whether the track was seen (lying or moving) in the previous look: a speed measured
        across an occlusion is a piece put down elsewhere, not one set moving."""
        before = self._previous.get(track_id)
        return before is not None and before.state in (int(TrackState.AT_REST), int(TrackState.MOVING))

    def _struck_from(self, rest: _Rest) -> str | None:
        """The seat a striker resting at `rest` could be struck from (on that seat's base band,
        a seat a player sits at), or None."""
        return self._struck_from_xy(rest.xy)

    def _struck_from_xy(self, xy: np.ndarray) -> str | None:
        seat = side_of(xy)
        return seat if self._on_base_band(seat, xy) and self._occupied(seat) else None

    def _aimed_under_a_hand(self, rest: _Rest | None, other: Piece) -> bool:
        """Whether the striker resting on a base band a player strikes from is hidden where it
        lay (under the hand aiming it) while `other`, another striker's track off the base
        bands, is seen lying still: the rest stays with the hidden one (held-out video 95006,
        `phone`: a false striker by the centre, seen as the hand hid the aimed striker, took
        the rest; the strike from the line 390 mm off was refused, and the board's last
        stroke, with its last black, was lost)."""
        if rest is None or other.track_id == rest.track_id or self._struck_from(rest) is None:
            return False
        hidden = self.pieces.get(rest.track_id)
        return (
            hidden is not None
            and hidden.state == int(TrackState.OCCLUDED)
            and float(np.linalg.norm(hidden.position - rest.xy)) <= self.config.still_mm
            and self._struck_from_xy(other.position) is None
        )

    def _to_be_struck(self, seen: list[Piece], fastest: Piece) -> Piece:
        """Of the strikers seen, none moving fast, the one to watch for a strike: the only one
        lying where a player strikes from, if one is; else `fastest` of them. Two read as a
        striker are the striker and something taken for it that never moves (held-out video
        94016, `phone`: the smear the striker left in the compressed video as a hand lifted it
        off the centre, read as a striker at 0.56 for 130 frames, was older than the striker
        put down on its base line, and the striker's rest was kept there; struck from the
        base line 150 mm off, the stroke was not seen)."""
        if len(seen) < 2:
            return fastest
        on_base_bands = [p for p in seen if self._struck_from_xy(p.position) is not None]
        return on_base_bands[0] if len(on_base_bands) == 1 else fastest

    def _occupied(self, seat: str) -> bool:
        """A player strikes from the base lines of their own seat (law 130): in singles the two
        side seats are empty, and a striker moving off one of their base lines is being carried
        (it may lie there after the last stroke), not struck."""
        return self.occupied_seats is None or seat in self.occupied_seats

    def _on_base_band(self, seat: str, xy: np.ndarray) -> bool:
        """Whether a striker lying at `xy` could be struck from `seat`: its centre within the
        band of legal positions between the seat's base lines (law 130), widened by what a
        careless placement and a detection's error add, and along the lines no further than
        the far edge of a base circle."""
        along, inward = board_to_seat(seat, np.asarray(xy, dtype=float))  # type: ignore[arg-type]
        low, high, _ = striker_legal_range(seat)  # type: ignore[arg-type]
        tol = self.config.base_band_tolerance_mm
        return (
            low - tol <= inward <= high + tol
            and abs(along) <= BASE_CIRCLE_ALONG_MM + BASE_CIRCLE_RADIUS_MM + tol
        )

    def _in_front_of_base_lines(self, seat: str, xy: np.ndarray) -> bool:
        """Whether `xy` lies nearer the board's centre than `seat`'s base band (`_on_base_band`)."""
        _, inward = board_to_seat(seat, np.asarray(xy, dtype=float))  # type: ignore[arg-type]
        low, _, _ = striker_legal_range(seat)  # type: ignore[arg-type]
        return bool(inward < low - self.config.base_band_tolerance_mm)

    def _confirm_or_cancel(self, stroke: _Stroke, frame: TrackFrame) -> None:
        cfg = self.config
        striker = self.pieces.get(stroke.striker_id)
        gone = any(e.track_id == stroke.striker_id for e in stroke.events)
        assert stroke.striker_start is not None and stroke.seat is not None  # a strike unseen is confirmed
        travelled = 0.0 if striker is None else float(np.linalg.norm(striker.position - stroke.striker_start))
        if striker is not None and striker.speed_mm_s >= cfg.rest_speed_mm_s:
            stroke.striker_moving_frames += 1
        # Clear of its resting place and seen moving twice (or a long way at once: frames are
        # skipped at rest, a short stroke may fall between two looks), and off the base lines:
        # a striker slid along them under a hand is being placed; struck, it leaves them.
        on_line = striker is not None and self._on_base_band(stroke.seat, striker.position)
        # And on the playing surface: a struck striker slides on it; "seen" past its edge just
        # after leaving its spot, it is a false striker on the frame's wood the track jumped to
        # (development video 9128; a striker that really flew off is gone, which confirms).
        # Or seen out there in two looks, moving or not, in front of its base lines: a soft
        # miss's striker, seen once in flight, may lie short of twice the distance (the scripted
        # miss of `test_any_scripted_sequence_is_recovered_exactly`: seen once at 119 mm, then
        # lying there, and cancelled). A false striker a track jumps to lies behind them, by the
        # cushion a player's hand is over, and may be seen there look after look (development
        # videos 78018, kept there unseen for two looks, and 76008, read there at 0.27-0.30
        # for three, 105 mm off; the striker was found back on its spot after, and struck).
        out_there = (
            travelled >= cfg.strike_confirm_mm
            and not on_line
            and striker is not None
            and bool(on_playing_surface(striker.position))
        )
        if (
            out_there
            and striker is not None
            and striker.state != int(TrackState.OCCLUDED)
            and self._in_front_of_base_lines(stroke.seat, striker.position)
        ):
            stroke.striker_far_looks += 1
        far = out_there and (
            stroke.striker_moving_frames >= 2
            or stroke.striker_far_looks >= 2
            or travelled >= 2 * cfg.strike_confirm_mm
        )
        # Carried a strike's distance along its base lines and still on them, it is being slid
        # into place under a hand, whatever the hand shifted (development video 9414, `phone`:
        # a striker slid 200 mm along its base line, glimpsed at 600 mm/s, while coins under
        # the hand "moved": taken for a stroke, and the real one from where it was put down
        # refused as a stroke from where the last had ended).
        # (A coin struck along the line would fly off at a strike's speed, but a track's jump
        # reads the same: asking for none lost 9414's stroke again.)
        slid = on_line and travelled >= cfg.strike_confirm_mm
        # Unless a carromman flies off across the board meanwhile: a striker struck along its
        # own base line into a coin lying near it stays on the line (held-out video 71011, a
        # development video since: a cut into a black 60 mm off the line sent it 400 mm into
        # the far corner at 1.2 m/s while the striker ran on along the line; the stroke was
        # dropped as the striker slid into place, and its pocketing with it).
        flew = self._coin_flying(stroke, striker)
        if gone or (stroke.touched and not slid) or far or (slid and flew):
            stroke.confirmed = True
            self._note_board_change(stroke)
            return
        # Seen again where it rested: it never left (what moved was a false striker the track
        # jumped to for a frame or two). Seen, not kept there unseen (development video 76019's
        # break: blurred, read 10 mm off its spot, then unseen for a look), and after the look
        # the stroke started at: a soft stroke's striker is seen then only a few mm off its spot
        # (development video 75004).
        back = (
            striker is not None
            and striker.state != int(TrackState.OCCLUDED)
            and frame.frame_index > stroke.start_frame
            and stroke.striker_moving_frames > 0
            and travelled <= cfg.still_mm * 3
        )
        if back or frame.time_s - stroke.start_time_s > cfg.strike_confirm_s:
            self._stroke = None  # a nudge, not a stroke
            self._striker_rest = None

    def _coin_flying(self, stroke: _Stroke, striker: Piece | None) -> bool:
        """Whether a carromman lying on the board at the strike is seen flying off it
        (`COIN_FLIGHT_LOOKS`), a strike's distance from where it lay and clear of the striker
        (a piece read under the hand that carries the striker moves with the striker)."""
        cfg = self.config
        flying = False
        for tid, piece in self.pieces.items():
            start = stroke.snapshot.get(tid)
            if start is None or piece.item not in CARROMMEN or piece.state != int(TrackState.MOVING):
                continue
            away = float(np.linalg.norm(piece.position - start.position))
            last_away, looks = stroke.coin_flight.get(tid, (0.0, 0))
            onward = piece.speed_mm_s >= cfg.fast_speed_mm_s and away >= last_away + COIN_FLIGHT_STEP_MM
            looks = looks + 1 if onward else 0
            stroke.coin_flight[tid] = (away, looks)
            clear = striker is None or float(np.linalg.norm(piece.position - striker.position)) > (
                2.0 * cfg.strike_confirm_mm
            )
            if looks >= COIN_FLIGHT_LOOKS and away >= 2.0 * cfg.strike_confirm_mm and clear:
                flying = True
        return flying

    def _lying_on_zone_edge(self, snapshot: dict[int, Piece]) -> Counter[str]:
        """Carrommen of `snapshot` seen lying inside the edge of where dues go, within
        `LAY_STILL_MM` of it, where their tracks lay when the last stroke ended (counted in the
        zone now, they may have been counted out of it then). Not tracks unseen (a ghost of a
        piece gone, lying on past the edge, stood for a due put back: development video 9329)."""
        end_state = self._end_state or {}
        out: Counter[str] = Counter()
        for tid, p in snapshot.items():
            then = end_state.get(tid)
            if p.item not in CARROMMEN or then is None or not then.on_board:
                continue
            if p.state not in (int(TrackState.AT_REST), int(TrackState.MOVING)):
                continue
            if not PLACING_ZONE_MM - LAY_STILL_MM <= float(np.hypot(*p.xy)) <= PLACING_ZONE_MM:
                continue
            if float(np.hypot(*(p.position - then.position))) <= LAY_STILL_MM:
                out[p.item] += 1
        return out

    def _phantoms_at_break(self, stroke: _Stroke) -> np.ndarray:
        """Where carrommen were counted at rest before a break, only ever faintly, outside
        the arrangement: law 41 sets all nineteen within the outer circle, so what the detector
        sees elsewhere then is the board itself (held-out video 81010, `tournament`: a "white"
        on the plain wood below a base line at 0.40-0.47 look after look, the whole match; with
        seven whites left after two went in at the break, the count found eight, and one of
        the two pocketings, seen leaving into its corner, was dropped and the result lost)."""
        if stroke.board_before is None:
            return np.zeros((0, 2))
        reach = arrangement_reach_mm(self.config.arrangement_tolerance_mm)
        spots = [xy for _, xy in stroke.board_before.faint_spots() if float(np.hypot(*xy)) > reach]
        return np.array(spots, dtype=float).reshape(-1, 2)

    def _returned_unseen(self, put_back: Counter[str], owed: Counter[str] | None) -> Counter[str]:
        """Of the carrommen put back, those that are pieces gone unseen at an earlier stroke
        coming back from off the board: as many per colour as were put back beyond what the
        laws owe (`owed`: None, not known), and no more than are missing."""
        if owed is None:
            return Counter()
        back = {item: min(put_back[item] - owed[item], self._end_vanished[item]) for item in CARROMMEN}
        return Counter({item: n for item, n in back.items() if n > 0})

    def _late_dues(
        self, stroke: _Stroke, believed: Counter[str], put_back: Counter[str], owed: Counter[str] | None
    ) -> Counter[str]:
        """Dues a recorded placing was short of (the laws forfeit what is not placed, law 83),
        counted at this strike beyond what the board is believed to hold, as many lying where
        dues go: put back then and read only now, they are recorded as put back now (held-out
        video 84003, `phone`, development data since: of two whites put back by the centre one
        was read at 0.26 on the washed-out board and the placing recorded one; counted from
        three strokes on, the board's count a white short, a white's pocketing seen both ways
        was dropped, and once it was believed the board "ended" a white early). Also remembers
        what a placing recorded now is short of."""
        surplus = _seen_at_strike(stroke) - believed
        late = +Counter(
            {
                item: min(self._short_placed[item], surplus[item], stroke.placing_zone_before[item])
                for item in COIN_COLOURS
            }
        )
        self._short_placed -= late
        if owed is not None and +put_back:
            # The queen not put back is covered (law 96), not forfeited: never put back late.
            self._short_placed += Counter({c: owed[c] - put_back[c] for c in COIN_COLOURS})
        return late

    @staticmethod
    def _queen_put_back_unseen(
        believed: Counter[str], put_back: Counter[str], owed: Counter[str] | None
    ) -> Counter[str]:
        """The queen, if the laws had her put back (law 93: by the umpire, in the centre circle),
        the board is not believed to hold her, and nothing at all was seen put back: with no
        placing recorded the laws take what they required as done, and so does the count. The
        centre circle is her size and red: on a small board in a lamp's glare the detector may
        not see her lying there at all (held-out video 91017, `phone`, development data since:
        read at 0.07 there, under the faintest peaks `CentreQueen` takes, she was counted off
        the board; struck to a corner's mouth she lay there in plain view, still uncounted, and
        her pocketing from there was disbelieved, twice). Where coins were seen put back without
        her the placing says she was not, and the laws record her covered (law 96). Recorded
        as a placing with no position, said to be unseen (`PlacementRecord.unseen`)."""
        if owed is None or not owed["queen"] or believed["queen"] or +put_back:
            return Counter()
        return Counter({"queen": 1})

    def _note_board_change(self, stroke: _Stroke) -> None:
        """At the strike: a new board, or carrommen put back since the last stroke ended."""
        snapshot = stroke.snapshot
        arrangement = is_break_arrangement(snapshot, self.config.arrangement_tolerance_mm)
        # A board ends with at least one side's nine coins gone; a due put back into an
        # untouched arrangement is not a new board.
        emptied = self._end_state is None or sum(self._end_counts.values()) <= (
            sum(FULL_SET.values()) - self.config.new_board_missing
        )
        if arrangement and emptied:
            stroke.new_board = True
            stroke.counts_before = Counter(FULL_SET)  # law 41: all nineteen are set out
            self._short_placed = Counter()
            self._rest_counter.set_phantoms(self._phantoms_at_break(stroke))
            return
        if self._end_state is None:
            return
        # Between strokes pieces are only put back, never taken away, and they are put back
        # within the outer circle (law 4(9); the queen and a jumped carromman in the centre
        # circle, law 65): so the count to start from is what the last stroke left plus what
        # newly lies there. A count over the whole board would take what a hand hides (the
        # striking hand lies over the board at the strike) for gone, and a hand held still for
        # a piece.
        returned = self._end_overboard
        # Less a coin lying still on the zone's edge: found a hair inside it now and a hair
        # outside then, it was not put back (development video 9311, tracks from its truth
        # with half a millimetre of noise: a black "placed" after the break, the board's count
        # a black too high from then on and its result lost).
        on_edge = self._lying_on_zone_edge(snapshot)
        grown = Counter(
            {
                item: max(0, stroke.placing_zone_before[item] - self._end_zone[item] - on_edge[item])
                for item in CARROMMEN
            }
        )
        put_back = Counter({item: max(0, grown[item] - returned[item]) for item in CARROMMEN})
        # A carromman gone unseen is still counted on the board (hidden or missed, we guess).
        # One of its colour put back where nothing is owed (law 65: a piece that jumped off is
        # put back in the centre; dues and penalties only after a pocketing or a foul) is that
        # piece, back from off the board: no placing, and no longer missing (development video
        # 9300: a black jumped off unseen, its return recorded as a placing, and the board's
        # count stayed a black too high until a white falling into a pocket, read as black
        # over the hole, was believed as that black).
        owed = self.owed() if self.owed is not None else None
        unseen_back = self._returned_unseen(put_back, owed)
        put_back -= unseen_back
        believed = self._end_counts + returned + put_back
        late = self._late_dues(stroke, believed, put_back, owed)
        put_back += late
        unseen = self._queen_put_back_unseen(believed, put_back, owed)
        believed += unseen
        # Never more than a full set: a piece counted on the board after it left unseen (it
        # jumped off, and is now put back) is not a second one.
        stroke.counts_before = (believed + late) & FULL_SET
        # A carromman taken to have jumped off unseen at the break that is not seen put back
        # went into a pocket unseen after all: counted, but gone, as one that vanished. And
        # one gone unseen is missing no longer when the looks at the strike find every piece
        # counted (held-out video 77007, `warm-lamp`, development data since: a black hidden
        # under the hand fetching the striker as a stroke closed was in view again at the next
        # strike, and still taken for missing; the count's drop when it went into a corner
        # then stood for the old vanishing, and its pocketing was dropped).
        not_back = self._end_unseen_overboard - grown
        missing = stroke.counts_before - _seen_at_strike(stroke)
        gone = (self._end_vanished - unseen_back) + not_back
        stroke.carried_vanished = gone & stroke.counts_before & missing
        stroke.returned_unseen = unseen_back
        items: list[str] = []
        positions: list[tuple[float, float]] = []
        for item in CARROMMEN:
            extra = put_back[item] - late[item]
            if extra <= 0:
                continue
            fresh = [
                p
                for p in snapshot.values()
                if p.item == item and p.on_board and p.track_id not in self._end_state
            ]
            fresh.sort(key=lambda p: float(np.hypot(*p.xy)))  # dues go near the centre
            for k in range(extra):
                items.append(item)
                if k < len(fresh):
                    positions.append(fresh[k].xy)
        # Where a due counted late was put down is not known: which of its colour in the
        # placing zone it is, nothing tells.
        late_items = tuple(item for item in CARROMMEN for _ in range(late[item]))
        items.extend(late_items)
        unseen_items = tuple(item for item in CARROMMEN for _ in range(unseen[item]))
        items.extend(unseen_items)
        if items:
            last_seen = max((p.frame for p in snapshot.values()), default=stroke.start_frame)
            stroke.placement = PlacementRecord(
                last_seen, stroke.start_time_s, tuple(items), tuple(positions), late_items, unseen_items
            )

    # ------------------------------------------------------------------ during the stroke
    def _follow(self, stroke: _Stroke, frame: TrackFrame, gone: dict[int, tuple[Piece, int]]) -> None:
        cfg = self.config
        striker_mm: np.ndarray | None = None  # where the striker's tracks lie, once needed
        for tid, (piece, how) in gone.items():
            if tid in stroke.seen_ids or self._on_striker_start(stroke, piece):
                continue
            event = self._departure(piece, how, frame, stroke)
            if event is not None:
                stroke.events.append(event)
                stroke.seen_ids.add(tid)
                if piece.item != "striker":
                    stroke.touched = True
        for piece in self.pieces.values():
            if piece.state == int(TrackState.OCCLUDED):
                continue
            before = self._previous.get(piece.track_id)  # its look before this one
            self._note_refound(stroke, piece, before)
            if before is None or before.state == int(TrackState.OCCLUDED):
                stroke.ran_to_rest_in_view[piece.track_id] = False
            elif piece.speed_mm_s >= cfg.moving_speed_mm_s:
                stroke.ran_to_rest_in_view[piece.track_id] = True
            if not self._coin_took_the_striker(stroke, piece):
                stroke.last_seen[piece.track_id] = (piece.frame, piece.time_s, piece.xy, piece.velocity)
            if piece.item in CARROMMEN and piece.track_id not in stroke.stopped_dead:
                stop = (
                    None
                    if before is None or before.item != piece.item
                    else stopped_dead(before, piece, cfg.still_mm)
                )
                if stop is not None:
                    stroke.stopped_dead[piece.track_id] = stop
            if piece.item == "striker" and piece.state != int(TrackState.HELD):
                stroke.striker_path.append(piece.xy)
                distance = float(pocket_distance_mm(piece.position)[0])
                if on_playing_surface(piece.xy) and POCKET_MOUTH_MM < distance <= POCKET_GUESS_MM:
                    stroke.striker_near_pocket_s[nearest_pocket(piece.position)] = frame.time_s
                self._note_striker_rest(stroke, piece)
            # Motion is displacement beyond the jitter of a piece at rest, or a clear speed:
            # trackers report small speeds from detection noise that never die out. A piece in
            # a hand, or one that was not on the board at the strike (a due being put back
            # while the last coins roll out), is not the stroke's motion.
            if piece.state == int(TrackState.HELD) or piece.track_id not in stroke.snapshot:
                born = stroke.first_seen.setdefault(piece.track_id, frame.time_s)
                if piece.state != int(TrackState.HELD):
                    stroke.born.setdefault(piece.track_id, piece)
                # A piece running free under a track born while the stroke's pieces moved is
                # one of them, picked up again after the tracker lost or swapped it (the
                # struck queen, the striker): the stroke is not over while it runs.
                if (
                    piece.state == int(TrackState.MOVING)
                    and piece.speed_mm_s > cfg.moving_speed_mm_s
                    and born <= stroke.last_motion_s + cfg.settle_s
                ):
                    _moved(stroke, piece.track_id, frame.time_s)
                continue
            anchor = stroke.anchors.get(piece.track_id)
            if anchor is None:
                # First seen since the strike (hidden until now): lying, it is no motion now
                # (development video 9136: a piece first seen late kept a settled stroke open
                # until the hand came for the striker); moving, the next looks tell.
                stroke.anchors[piece.track_id] = piece.xy
                if piece.speed_mm_s > cfg.moving_speed_mm_s:
                    _moved(stroke, piece.track_id, frame.time_s)
            elif np.hypot(piece.xy[0] - anchor[0], piece.xy[1] - anchor[1]) > cfg.still_mm:
                stroke.anchors[piece.track_id] = piece.xy
                if self._swapped(piece, anchor, stroke, frame.time_s):
                    stroke.swapped.add(piece.track_id)
                else:
                    stroke.swapped.discard(piece.track_id)
                    _moved(stroke, piece.track_id, frame.time_s)
            elif piece.speed_mm_s > cfg.moving_speed_mm_s and piece.track_id not in stroke.swapped:
                _moved(stroke, piece.track_id, frame.time_s)
            start = stroke.snapshot.get(piece.track_id)
            if piece.item != "striker" and start is not None:
                moved = float(np.linalg.norm(piece.position - start.position))
                if moved > cfg.touch_mm:
                    if striker_mm is None:
                        striker_mm = _tracks_mm(self.pieces, ("striker",))
                    # A carromman's track come to lie on the striker, where no coin can be, was
                    # handed the striker, read as a coin (development video 9165: under the hand
                    # placing it, the striker was read as a white; the white's track, 80 mm off,
                    # jumped onto it and "moved": a nudge was taken for a stroke that touched,
                    # and the real stroke from there was then refused as one from where the last
                    # had ended). A touched piece stays displaced; noise exceeds the margin once
                    # in a while.
                    if not near_any(piece.position, striker_mm, STRIKER_RADIUS_MM):
                        stroke.displaced[piece.track_id] = stroke.displaced.get(piece.track_id, 0) + 1
                        if stroke.displaced[piece.track_id] >= TOUCH_FRAMES:
                            stroke.touched = True
            self._extend_path(stroke, piece, start)

    def _note_refound(self, stroke: _Stroke, piece: Piece, before: Piece | None) -> None:
        """Notes a track of the strike's seen again after the tracker lost it (`refound`):
        where and when, with how it ran at the next look, once that look sees it too (the
        tracker's velocity at the first look again is the jump from where it was lost).
        `before`: the track's look before this one."""
        tid = piece.track_id
        first = stroke.refound_first.pop(tid, None)
        if before is None or piece.state == int(TrackState.HELD) or tid not in stroke.snapshot:
            return
        if before.state == int(TrackState.OCCLUDED):
            stroke.refound_first[tid] = piece
        elif first is not None and first.frame == before.frame:
            stroke.refound.setdefault(tid, []).append(
                replace(first, velocity=piece.velocity, speed_mm_s=piece.speed_mm_s)
            )

    def _coin_took_the_striker(self, stroke: _Stroke, piece: Piece) -> bool:
        """Whether this look at a carromman's track is the striker, read as that coin: found,
        a moment after the striker was last seen (`SAME_DEPARTURE_S`), with no striker in view
        now, within a striker's radius of that sighting and more than a coin's radius from
        where the coin lay still before. Discs do not overlap: the striker lies there. The
        coin's own whereabouts stay its sighting before (its last look as itself), and the
        striker counts as seen lying by that pocket (held-out video 74010, `worn`,
        development data since: a white lying 33 mm from a corner's centre, knocked in as
        the striker slowed beside it; the striker, lost 60 mm from the centre and projected
        in, was read at its resting place as that white, whose track jumped 24 mm onto it.
        The striker was ruled pocketed and the white vanished unseen)."""
        if piece.item not in CARROMMEN:
            return False
        spot = stroke.took_the_striker.get(piece.track_id)
        if spot is not None:
            if near_any(piece.xy, np.array([spot]), STRIKER_RADIUS_MM):
                return True
            del stroke.took_the_striker[piece.track_id]  # the coin again, off that spot
            return False
        # Cheapest first: this runs for every carromman in view at every look of a stroke, and
        # the striker seen this look settles it at once.
        striker = self._striker_sightings[-1] if self._striker_sightings else None
        if striker is None or not 0.0 < piece.time_s - striker.time_s <= SAME_DEPARTURE_S:
            return False
        before = self._seen_before.get(piece.track_id)
        if (
            before is None
            or before.speed_mm_s > self.config.moving_speed_mm_s
            or not near_any(piece.xy, np.array([striker.xy]), STRIKER_RADIUS_MM)
            or near_any(piece.xy, np.array([before.xy]), COIN_RADIUS_MM)
            or any(p.item == "striker" and p.state != int(TrackState.OCCLUDED) for p in self.pieces.values())
        ):
            return False
        stroke.took_the_striker[piece.track_id] = piece.xy
        distance = float(pocket_distance_mm(piece.position)[0])
        if on_playing_surface(piece.xy) and POCKET_MOUTH_MM < distance <= POCKET_GUESS_MM:
            stroke.striker_near_pocket_s[nearest_pocket(piece.position)] = piece.time_s
        return True

    @staticmethod
    def _striker_sunk_as_a_coin(
        stroke: _Stroke,
        seen_going: list[ItemEvent],
        kept: list[ItemEvent],
        went_in: Callable[[ItemEvent], bool],
    ) -> list[ItemEvent]:
        """The striker last seen flying at a pocket, too far off for its loss there to count
        (`at_its_pocket`), and a carromman the counts say never left seen dropping at that
        pocket's mouth a moment later, or over its hole (`seen_going` holds both): that was the
        striker, read as a coin as it sank (held-out video 69015, development data since: last
        seen 177 mm out at 2.35 m/s, straight at the hole, then "a white" 23 mm from its centre
        2 frames later; held-out video 72001, `club`, development data since: last seen 93 mm
        out at 3 m/s, then "a white" in the hole 2 frames later, and the pocketed striker
        lost). The pocketing is dated and placed by that sighting."""
        flying_at = [
            e
            for e in (*stroke.events, *seen_going)
            if e.item == "striker" and e.pocket is not None and not e.guess and went_in(e)
        ]
        sunk = [
            e
            for e in seen_going
            if e.item in CARROMMEN
            and e not in kept
            and at_its_mouth(e)
            and any(
                f.pocket == e.pocket and -SAME_DEPARTURE_S <= e.time_s - f.time_s <= SAME_DEPARTURE_S
                for f in flying_at
            )
        ]
        return [replace(e, item="striker") for e in sunk[:1]]

    @staticmethod
    def _striker_read_as_a_coin(
        stroke: _Stroke, event: ItemEvent, seen_after: Counter[str], counted: _CountsThen
    ) -> bool:
        """Whether the striker taken into a pocket (`event`) lies at that pocket's mouth read as
        a coin: one more of a colour at rest than before the stroke, lying on the surface at
        the mouth within `STRIKER_SETTLED_WITHIN_MM` of the striker's last sighting, where no
        coin of that colour lay at the strike (held-out video 76005, `warm-lamp`, development
        data since: the striker slowing into a corner's mouth, lost 30 mm from its centre, came
        to rest 25 mm from it and was read as a white at 0.5 until it was lifted; it was
        ruled pocketed, a foul)."""
        if event.pocket is None:
            return False
        centre = pocket_centre(event.pocket)
        for item in CARROMMEN:
            if seen_after[item] <= stroke.counts_before[item]:
                continue
            lay = _lying_at_strike(stroke, item)
            for xy in counted.lying(item):
                from_centre = float(np.linalg.norm(xy - centre))
                if (
                    POCKET_MOUTH_MM < from_centre <= POCKET_CAPTURE_MM
                    and near_any(xy, np.array([event.xy]), STRIKER_SETTLED_WITHIN_MM)
                    and not near_any(xy, lay, COIN_RADIUS_MM)
                ):
                    return True
        return False

    def _striker_lost_at(self, stroke: _Stroke) -> np.ndarray:
        """(N, 2) where the striker was last seen during `stroke`, when no striker is in view now
        (none when one is)."""
        strikers = [p for p in self.pieces.values() if p.item == "striker" and p.on_board]
        if any(p.state != int(TrackState.OCCLUDED) for p in strikers):
            return np.zeros((0, 2))
        seen = [stroke.last_seen[p.track_id][2] for p in strikers if p.track_id in stroke.last_seen]
        return np.array(seen, dtype=float).reshape(-1, 2)

    @staticmethod
    def _striker_settled_as_a_coin(
        stroke: _Stroke, counted: _CountsThen, striker_lost_at: np.ndarray, in_holes: list[ItemEvent]
    ) -> np.ndarray | None:
        """Where the striker lies read as a coin, its track lost (`striker_lost_at`: where it
        was last seen, with no striker in view now): a spot only ever seen faintly within
        `STRIKER_SETTLED_WITHIN_MM` of there, where no coin of that colour lay at the strike
        (held-out video 77007, `warm-lamp`, development data since: the striker, lost as it
        came off the cushion, came to rest 37 mm from its last sighting and was read there as a
        white at 0.41 to 0.44; the white it had sent into a corner was dropped, the counts still
        finding as many whites as before). Or a spot seen plainly, where the counts find as many
        of its colour as before while one was seen over a pocket's hole (`in_holes`, the
        detector's sightings this stroke): held-out video 75019's break (`phone`, development
        data since), the striker come to rest against a cushion 20 mm from its last sighting,
        read there as a white at 0.65, and the white seen in a corner's hole dropped."""
        if not len(striker_lost_at):
            return None
        sunk = {e.item for e in in_holes if e.pocket is not None}
        plain = [
            (item, xy)
            for item in CARROMMEN
            if item in sunk and counted.counts[item] >= stroke.counts_before[item]
            for xy in counted.lying(item)
        ]
        for item, xy in [*counted.faint_pieces, *plain]:
            lay = _lying_at_strike(stroke, item)
            by_striker = near_any(xy, striker_lost_at, STRIKER_SETTLED_WITHIN_MM)
            if by_striker and not near_any(xy, lay, COIN_RADIUS_MM):
                return np.asarray(xy, dtype=float)
        return None

    def _note_striker_rest(self, stroke: _Stroke, piece: Piece) -> None:
        """Note where the striker first came to rest during the stroke, away from where it was
        struck from (`_put_down_since_rest`)."""
        cfg = self.config
        lay = stroke.striker_lay
        if lay is None or float(np.hypot(piece.xy[0] - lay[0][0], piece.xy[1] - lay[0][1])) > cfg.still_mm:
            stroke.striker_lay = (piece.xy, piece.time_s)
            if stroke.striker_rested_at is None and self._stopped_unseen(stroke, piece):
                stroke.striker_rested_at = piece.xy
        elif (
            stroke.striker_rested_at is None
            and piece.time_s - lay[1] >= cfg.settle_s - TIME_EPSILON_S
            and lay[1] > stroke.start_time_s
            and (
                stroke.striker_start is None
                or float(np.linalg.norm(np.asarray(lay[0]) - stroke.striker_start)) > cfg.strike_confirm_mm
            )
        ):
            stroke.striker_rested_at = lay[0]

    def _stopped_short_of_the_hole(self, lost_at: tuple[float, float], lost_s: float) -> bool:
        """Whether the striker taken into a pocket, lost at `lost_at` by `lost_s`, was last seen
        there too slow to slide on until its centre was over the hole: it stopped at the mouth,
        overhanging the hole, and the detector lost it there (held-out video 86007,
        `warm-lamp`, development data since: the striker followed a white into a corner and
        stopped 33 mm from its centre, seen at 28 mm/s and then not again until a hand lifted
        it; it was ruled pocketed, a foul, and the board's result was lost)."""
        there = [
            p
            for p in self._striker_sightings
            if p.time_s <= lost_s + TIME_EPSILON_S and near_any(p.xy, np.array([lost_at]), STRIKER_RADIUS_MM)
        ]
        if not there:
            return False
        last = there[-1]
        slid_to_mm = float(pocket_distance_mm(last.position)[0]) - sliding_distance_mm(last.speed_mm_s)
        return slid_to_mm > POCKET_MOUTH_MM

    def _stopped_unseen(self, stroke: _Stroke, piece: Piece) -> bool:
        """Whether the striker, seen again after a settle's time unseen since a sighting in
        this stroke, lies where it would have stopped sliding on from there, away from where
        it was struck from: it came to rest unseen (held-out video 72007, a `phone` board,
        development data since: lying at a corner's mouth, unseen for a second, glimpsed once
        and carried back to the base line it was struck from; the stroke closed with it there,
        and the next strike from that spot was refused as one from where the last had left
        it, losing the stroke and its white)."""
        cfg = self.config
        before = self._seen_before.get(piece.track_id)
        if before is None or before.time_s <= stroke.start_time_s:
            return False
        if piece.time_s - before.time_s < cfg.settle_s - TIME_EPSILON_S:
            return False
        if (
            stroke.striker_start is not None
            and float(np.linalg.norm(piece.position - stroke.striker_start)) <= cfg.strike_confirm_mm
        ):
            return False
        reach_mm = sliding_distance_mm(before.speed_mm_s) + cfg.still_mm
        return float(np.linalg.norm(piece.position - before.position)) <= reach_mm

    def _put_down_since_rest(self, stroke: _Stroke) -> bool:
        """Whether the striker, come to rest during the stroke, lies now on the base band of a
        seat a player sits at, away from that spot: a hand has carried it there for the next
        stroke, which may be struck from there at once (development videos 69002 and 66003,
        both `phone`: the board's jitter kept the stroke open until the next player had
        fetched the striker from a corner and put it down on the base line; the stroke closed
        with it lying there, and the strike from there was refused as one from where the last
        stroke had left the striker)."""
        rested = stroke.striker_rested_at
        if rested is None:
            return False
        return any(
            p.item == "striker"
            and p.state == int(TrackState.AT_REST)
            and self._on_any_base_band(p.position)
            and float(np.hypot(p.xy[0] - rested[0], p.xy[1] - rested[1])) > self.config.reposition_mm
            for p in self.pieces.values()
        )

    @staticmethod
    def _on_striker_start(stroke: _Stroke, piece: Piece) -> bool:
        """Whether a carromman's track was last seen on the spot the striker was struck from,
        where no coin can lie (the discs would overlap by more than a detection's error): the
        striker, read as a coin under the hand that placed it, whose track is lost now
        (held-out video 65004, a `phone` board, development data since: the striker carried
        across read as a white, lost as it was put down and projected into the corner pocket
        ahead; the "pocketing" made the next nudge a stroke, and cost the board a white and a
        player's turn. Development video 9339: a white's track lost 25 mm from the striker's
        spot as a false striker on the frame's edge "struck"; the real stroke that followed
        was then refused as one from where the last had ended)."""
        if piece.item == "striker" or stroke.striker_start is None or stroke.striker_start_traced:
            return False
        return near_any(piece.xy, stroke.striker_start[None, :], ON_THE_STRIKER_MM)

    def _swapped(self, piece: Piece, anchor: tuple[float, float], stroke: _Stroke, time_s: float) -> bool:
        """Whether a track lying at rest (or hidden there) a look ago and found far off now was
        handed another piece (a hand's false detections make the tracker swap pieces) rather
        than knocked: with the board still a while, nothing moved to knock it that far, and
        its speed is the tracker's reading of the jump (development video 9124: such swaps
        kept a settled stroke open until the hand carried the striker off, taken for the
        stroke's motion)."""
        before = self._previous.get(piece.track_id)
        flown = self._seen_before.get(piece.track_id) if piece.item == "striker" else None
        if flown is not None and flown.speed_mm_s >= self.config.fast_speed_mm_s:
            # Last seen flying: it flew on, unseen in its blur between looks (development video
            # 9145: a striker seen every other frame at 1.5 m/s was "swapped" at every look,
            # its flight no motion, and the stroke closed under it).
            return False
        return (
            before is not None
            and before.state in (int(TrackState.AT_REST), int(TrackState.OCCLUDED))
            and float(np.hypot(piece.xy[0] - anchor[0], piece.xy[1] - anchor[1])) > SWAP_JUMP_MM
            and time_s - stroke.last_motion_s >= SWAP_QUIET_S
        )

    def _departure(
        self, piece: Piece, how: int, frame: TrackFrame, stroke: _Stroke | None = None
    ) -> ItemEvent | None:
        last_look = self._last_visible_piece.get(piece.track_id)
        last_seen_s = last_look.time_s if last_look is not None else None
        event = ItemEvent(
            piece.item,
            None,
            frame.frame_index,
            frame.time_s,
            piece.track_id,
            piece.xy,
            last_seen_s=last_seen_s,
        )
        if how == int(TrackState.POCKETED):
            return replace(event, pocket=_pocket_of(frame, piece.track_id) or nearest_pocket(piece.position))
        if how == int(TrackState.OFF_BOARD):
            # Leaving the surface at a pocket's mouth, or heading for one, is falling in (a
            # tracker projecting a fast piece's path can see it "leave" past the corner).
            last = self._previous.get(piece.track_id, piece)
            heading = _heading_when_lost(last, last_look)
            index, distance = _pocket_ahead(heading.xy, heading.velocity)
            if _in_the_air(last) and _hole_under(last.position) is None:
                return event  # seen in the air past the surface's edge: over the frame
            if distance <= POCKET_ZONE_MM:
                return replace(event, pocket=POCKETS[index])
            # Its path ran off the surface: it jumped, or it came back off the cushion unseen;
            # and lost near a pocket, it may have gone in, unless it was knocked off from rest
            # crosswise to that pocket (`_knocked_towards`). Either way, a guess.
            near = distance <= POCKET_GUESS_MM and not (
                stroke is not None
                and heading.speed_mm_s < self.config.moving_speed_mm_s
                and not _knocked_towards(stroke, last.xy, piece.track_id, POCKETS[index])
            )
            return replace(event, pocket=POCKETS[index] if near else None, guess=True)
        # Dropped without a cause: a moving piece that vanished at a pocket's mouth went in.
        last = self._previous.get(piece.track_id, piece)
        pocket = _hole_under(last.position)
        if pocket is not None and last.state in (int(TrackState.MOVING), int(TrackState.OCCLUDED)):
            return replace(event, item=last.item, pocket=pocket, xy=last.xy)
        return None

    def _unseen_at_pockets(self, stroke: _Stroke) -> None:
        """A piece last seen at a pocket's mouth while the board was still moving, unseen
        since, went in (a tracker may keep it as occluded for ever; one knocked in from rest
        is never even seen moving)."""
        centres = pocket_centres()
        for tid, piece in list(self.pieces.items()):
            seen = stroke.last_seen.get(tid)
            if piece.state != int(TrackState.OCCLUDED) or seen is None:
                continue
            frame, time_s, xy, velocity = seen
            distance_now = np.linalg.norm(centres - np.array(xy), axis=1)
            in_mouth = float(distance_now.min()) <= POCKET_MOUTH_MM
            if time_s > stroke.last_motion_s and not in_mouth:
                continue  # it went out of sight after the board had settled: a hand
            # Where it was heading in the next few frames: a fast piece vanishes short of the
            # pocket it falls into.
            ahead = np.array(xy) + np.outer(np.linspace(0.0, LOOKAHEAD_S, 7), np.array(velocity))
            distance = np.linalg.norm(ahead[:, None, :] - centres[None, :, :], axis=2).min(axis=0)
            index = int(np.argmin(distance))
            if not in_mouth and self._untouched_where_it_lay(stroke, tid, xy, time_s):
                pass  # nothing knocked it anywhere: hidden, or faded from sight
            elif distance[index] <= POCKET_CAPTURE_MM:
                stroke.events.append(ItemEvent(piece.item, POCKETS[index], frame, time_s, tid, xy))
            elif distance[index] <= POCKET_GUESS_MM and (
                distance[index] < distance_now[index]
                or (
                    self._lay_there_at_strike(stroke, tid, xy)
                    and _knocked_towards(stroke, xy, tid, POCKETS[index])
                )
            ):
                # Lost near a pocket while pieces swapped tracks: the likeliest place it went.
                # Only one heading for it, or lying where it lay at the strike (knocked in
                # unseen: development video 9338, a white 44 mm from a corner's centre, gone
                # with the striker that hit it) by a run that could send it that way: one
                # moving away, or a track found lying somewhere new, did not go in unseen
                # (development video 9308: a coin gone unseen at the break, its track handed
                # to ghosts 66 mm from a corner, was "pocketed" there), nor one struck
                # crosswise (held-out video 98014, `phone`, development data since: a black
                # lying against the cushion 69 mm from a corner, struck square into the
                # cushion by a white running into that corner, flew off the board, and was
                # "pocketed" with the white).
                stroke.events.append(
                    ItemEvent(piece.item, POCKETS[index], frame, time_s, tid, xy, guess=True)
                )
            # Lost while things moved and not seen since the board settled: it went somewhere
            # (or it is a ghost left by an identity swap, its piece followed by another track).
            del self.pieces[tid]
            self._departed.add(tid)
        stroke.events.sort(key=lambda e: (e.frame, e.time_s))

    def _untouched_where_it_lay(
        self, stroke: _Stroke, track_id: int, xy: tuple[float, float], time_s: float
    ) -> bool:
        """Whether a piece last seen at `time_s` within a coin's radius of where it lay at the
        strike went out of sight with nothing having come to knock it: no other piece's run
        came within contact of where it lay (75014), or every other piece had been still for
        `settle_s` by then (77007). It was covered, or faded from the detector's sight; a
        piece lying still does not go into a pocket by itself. Its own last looks do not
        count: a hand's edge coming over a coin shifts its detection a few mm.

        Held-out video 77007 (`warm-lamp`, development data since): with the stroke kept open
        for a striker lost in flight, a black lying 89 mm from a corner's centre, untouched,
        was shifted 4 mm by the hand coming for the striker and lost under it 0.7 s after the
        last coin had dropped, and was ruled knocked in unseen. Held-out video 75014 (`phone`,
        development data since): a black lying against the cushion 39 mm from a corner's
        centre, read at 0.2 to 0.4, faded from sight as the queen ran past it into that
        corner 55 mm off, and was ruled pocketed with her."""
        if not self._lay_there_at_strike(stroke, track_id, xy, COIN_RADIUS_MM):
            return False
        others = [t for tid, t in stroke.moved_s.items() if tid != track_id]
        if time_s - max(others, default=stroke.start_time_s) >= self.config.settle_s:
            return True
        return not _runs_came_near(stroke, stroke.snapshot[track_id].xy, track_id)

    def _lay_there_at_strike(
        self, stroke: _Stroke, track_id: int, xy: tuple[float, float], within_mm: float | None = None
    ) -> bool:
        """Whether the track lay within `within_mm` (default `still_mm`) of `xy` at the strike."""
        then = stroke.snapshot.get(track_id)
        limit = self.config.still_mm if within_mm is None else within_mm
        return then is not None and float(np.hypot(then.xy[0] - xy[0], then.xy[1] - xy[1])) <= limit

    def _came_back_off_the_cushion(self, stroke: _Stroke, wanted: Counter[str]) -> list[ItemEvent]:
        """The tracker's pocketings of carrommen lost short of their pocket's mouth, projected
        in, whose piece came back into view: a new track of that colour, first seen soon
        after (`REAPPEAR_S`) within the run it could have made since, running away from that
        pocket, and still on the board. The piece struck the cushions by the corner and
        bounced out (held-out video 78009's break, `warm-lamp`, development data since: a
        white lost 92 mm from a corner at 1 m/s, seen again 77 mm on six frames later
        running out of the corner, was "pocketed" there, and the white that flew off the
        board, its track swapped onto another, was never missed).

        Or a track of that colour lost earlier, found again so (`_Stroke.refound`); and, where
        the counts at rest want none of that colour (`wanted`), lost at the mouth too: the
        piece is on the board, and only another colour could have been taken for it (held-out
        video 95011's break, `club`, development data since: a black's track ran with the
        queen down to a corner's mouth, where she bounced out under her own track, found again
        28 mm off the next look; the black's track, lost there, "took" a white into the corner,
        for the white that had flown off the board unseen)."""
        cfg = self.config
        out: list[ItemEvent] = []
        claimed: set[int] = set()
        seen_again = [*stroke.born.items()] + [
            (tid, look) for tid, looks in stroke.refound.items() for look in looks
        ]
        for event in stroke.events:
            if (
                event.item not in CARROMMEN
                or event.pocket is None
                or event.guess
                or event.track_id < 0
                or (at_its_mouth(event) and wanted[event.item] > 0)
            ):
                continue
            seen = stroke.last_seen.get(event.track_id)
            if seen is None:
                continue
            _, lost_s, lost_xy, lost_velocity = seen
            lost_speed = float(np.hypot(*lost_velocity))
            centre = pocket_centre(event.pocket)
            for tid, first in seen_again:
                away = np.asarray(first.velocity) @ (first.position - centre)
                if (
                    tid not in claimed
                    and tid != event.track_id
                    and tid in self.pieces
                    and first.item == event.item
                    and 0.0 < first.time_s - lost_s <= REAPPEAR_S
                    and first.speed_mm_s > cfg.moving_speed_mm_s
                    and away > 0.0
                    and float(np.hypot(first.xy[0] - lost_xy[0], first.xy[1] - lost_xy[1]))
                    <= lost_speed * (first.time_s - lost_s) + COIN_DIAMETER_MM
                ):
                    claimed.add(tid)
                    out.append(event)
                    break
        return out

    def _lost_lying_still(self, stroke: _Stroke) -> Counter[str]:
        """Carrommen, per colour, whose tracks were lost (unseen now, or dropped) after the
        strike had moved them off their spots, seen at every look from running to their last
        (`_Stroke.ran_to_rest_in_view`: a track that jumped to a false piece and was found
        there again did not see its piece come to rest; development video 86015's break, a
        white's track read lying at a mark 236 mm from a corner, and its white, flown off the
        board, taken to lie there unseen), last seen slower than a piece still in motion
        (`moving_speed_mm_s`), clear of the pockets (`POCKET_GUESS_MM`) and a coin's width
        clear of the cushions: they came to rest in view, or all but, and the detector lost
        them lying there. A coin that jumps off the board is flying over a cushion when it
        goes (held-out video 97006's break, `phone`, development data since: a white that slid
        to rest 130 mm from a corner, last seen creeping at 0.09 m/s and read at rest only now
        and then, under 0.55, was taken to have jumped off unseen, then to have gone unseen for
        good; the white pocketed later took another's place)."""
        lying: Counter[str] = Counter()
        for tid, then in stroke.snapshot.items():
            now = self.pieces.get(tid)
            seen = stroke.last_seen.get(tid)
            if then.item not in CARROMMEN or seen is None or not stroke.ran_to_rest_in_view.get(tid, False):
                continue
            if now is not None and now.state != int(TrackState.OCCLUDED):
                continue
            _, _, xy, velocity = seen
            if (
                float(np.hypot(*velocity)) < self.config.moving_speed_mm_s
                and float(np.hypot(xy[0] - then.xy[0], xy[1] - then.xy[1])) > COIN_DIAMETER_MM
                and float(pocket_distance_mm(np.asarray(xy))[0]) > POCKET_GUESS_MM
                and float(np.max(np.abs(xy))) < COIN_CUSHION_STOP_MM - COIN_DIAMETER_MM
            ):
                lying[(now if now is not None else then).item] += 1
        return lying

    def _jumped_unseen(self, stroke: _Stroke, gone: dict[str, int]) -> list[ItemEvent]:
        """Overboard events for carrommen gone unseen, each where a piece of its colour lay at
        the strike whose track is lost now (the board's centre if none)."""
        lost = [
            p
            for tid, p in stroke.snapshot.items()
            if tid not in self.pieces or self.pieces[tid].state == int(TrackState.OCCLUDED)
        ]
        out = []
        for item, n in gone.items():
            spots = [p.xy for p in lost if p.item == item] + [(0.0, 0.0)] * n
            out.extend(
                ItemEvent(item, None, stroke.start_frame, stroke.start_time_s, -1, spots[k], guess=True)
                for k in range(n)
            )
        return out

    def _extend_path(self, stroke: _Stroke, piece: Piece, start: Piece | None) -> None:
        path = stroke.paths.get(piece.track_id)
        if path is None:
            origin = start.xy if start is not None else piece.xy
            if float(np.hypot(piece.xy[0] - origin[0], piece.xy[1] - origin[1])) < PATH_STEP_MM:
                return
            path = stroke.paths[piece.track_id] = [origin]
            stroke.path_items[piece.track_id] = piece.item
        last = path[-1]
        if float(np.hypot(piece.xy[0] - last[0], piece.xy[1] - last[1])) >= PATH_STEP_MM:
            path.append(piece.xy)

    def _settled(self, stroke: _Stroke, time_s: float) -> bool:
        cfg = self.config
        if time_s - stroke.start_time_s > cfg.max_stroke_s:
            return True
        # A piece going into a pocket changes the board as much as one moving: a coin that crept
        # over a mouth too slowly to count as moving and dropped in was still counted by the
        # looks at rest it lay in before (held-out video 92015, `warm-lamp`, development data
        # since: a white slowing along the cushion into a corner, lost 5 looks before the
        # stroke was closed, counted at rest from the 4 looks before that; its pocketing,
        # seen, was dropped, and the turn went wrong).
        changed_s = max(stroke.last_motion_s, self._pocket_watch.last_going_s(stroke.start_time_s))
        # Frame times are index / fps: nine frames at 30 fps may come out a hair under 0.3 s.
        still = time_s - changed_s >= cfg.settle_s - TIME_EPSILON_S
        return still and not self._striker_in_flight(stroke, time_s)

    def _never_left(self, stroke: _Stroke) -> bool:
        """Whether the striker of a stroke that moved nothing is seen lying where it was struck
        from, since the strike, under another track, its own seen flying for one look at
        most: it never left, and what flew was a false striker its track jumped to and was lost
        at (development video 64013, `club`: a jump of 95 mm to the cushion, lost there, made a
        stroke "in flight" while the striker lay where it was aimed, and that stroke swallowed
        the real one).

        Lying over the spot it was struck from (within its own radius: a hand may still be
        setting it there), and whatever "touched" a coin left the board as it was
        (`_board_moved`): development video 9413 (`phone`): its track jumped 100 mm from a
        striker still being put down onto a white lying at the cushion, read 4 mm off its
        spot meanwhile ("touched"); the striker was seen again 16 mm from that spot and struck
        from there a second later, a stroke refused as one from where the last had ended."""
        if (
            stroke.striker_start is None
            or stroke.striker_moving_frames > 1
            or any(e.item in CARROMMEN for e in stroke.events)
        ):
            return False
        if stroke.touched and (self._end_state is None or self._board_moved(stroke)):
            return False
        return any(
            p.item == "striker"
            and p.track_id != stroke.striker_id
            and p.state == int(TrackState.AT_REST)
            and p.time_s > stroke.start_time_s
            and float(np.linalg.norm(p.position - stroke.striker_start)) <= STRIKER_RADIUS_MM
            for p in self.pieces.values()
        )

    def _striker_lay_before(self, rest: _Rest, time_s: float) -> np.ndarray:
        """Where the striker's sightings of the moment before a strike (`_striker_sightings`,
        under whatever track) lay still, a strike's distance from where it rested."""
        cfg = self.config
        spots = [
            p.xy
            for p in self._striker_sightings
            if time_s - p.time_s <= cfg.strike_window_s
            and p.speed_mm_s < cfg.rest_speed_mm_s
            and float(np.linalg.norm(np.asarray(p.xy) - rest.xy)) >= cfg.strike_confirm_mm
        ]
        return np.array(spots, dtype=float).reshape(-1, 2)

    def _jumped_back(self, stroke: _Stroke) -> bool:
        """Whether a stroke that moved nothing ends with its striker's track, seen flying for one
        look at most, lying where a striker was seen lying still a moment before the strike,
        away from the spot it was struck from (`_striker_lay_before`): the track had jumped
        there to a false striker, jumped to the striker being put down, and back (held-out
        video 82011, `phone`, development data since: a faint false striker by the centre
        circle held the track while the striker was carried to the north base line; the track
        took the striker there for two looks and went back, "struck" at 3 m/s, and the false
        stroke's end made the real strike, from 5 mm along the line a moment later, a second
        stroke of the same turn).
        A struck striker does not stop dead at a spot it lay at a moment before; nor, seen
        nowhere on the way, anywhere further from where it was struck than friction lets a
        disc slide and stop in the time since it lay there (`_slid_and_stopped_mm`; held-out
        video 94016, `phone`: the smear a striker lifted off the centre had left in the
        compressed video, read as a striker at 0.22, took the track of the striker under the
        hand aiming it on its base line; "struck" at 3 m/s, it lay still 311 mm off at the
        next look, a tenth of a second after the striker was last seen on its spot, and a
        stroke nobody played was recorded)."""
        if stroke.striker_moving_frames > 1 or any(e.item in CARROMMEN for e in stroke.events):
            return False
        if stroke.touched and (self._end_state is None or self._board_moved(stroke)):
            return False
        striker = self.pieces.get(stroke.striker_id)
        if striker is None or striker.state != int(TrackState.AT_REST):
            return False
        if near_any(np.asarray(striker.xy), stroke.lay_before_mm, self.config.still_mm):
            return True
        lay, start = stroke.striker_lay, stroke.striker_start
        if lay is None or start is None or stroke.rest_s is None:
            return False
        # Seen nowhere on the way: from its spot straight to where it lies.
        path = np.asarray(stroke.striker_path, dtype=float).reshape(-1, 2)
        on_the_way = (np.hypot(*(path - start).T) > self.config.still_mm) & (
            np.hypot(*(path - np.asarray(lay[0])).T) > self.config.still_mm
        )
        travelled = float(np.hypot(lay[0][0] - start[0], lay[0][1] - start[1]))
        return not on_the_way.any() and travelled > _slid_and_stopped_mm(lay[1] - stroke.rest_s)

    def _new_afterimages(
        self, stroke: _Stroke, counted: _CountsThen, in_holes: list[ItemEvent]
    ) -> list[Afterimage]:
        """What carrommen seen stopping dead by a pocket in this stroke, or running into one
        (`_left_on_runs_in`), left lying there, still counted, when their colour was seen over
        that pocket's hole about then and nothing lay at the strike where it could have
        stopped them (`afterimages`)."""
        out = []
        for tid, stop in [*stroke.stopped_dead.items(), *self._left_on_runs_in(stroke)]:
            if not counted.counted_at(stop.item, np.asarray(stop.xy)):
                continue
            lay = np.array(
                [p.xy for t, p in stroke.snapshot.items() if t != tid and p.item in CARROMMEN and p.on_board]
            ).reshape(-1, 2)
            if went_in(stop, in_holes, lay, REAPPEAR_S):
                out.append(stop)
        return out

    def _left_on_runs_in(self, stroke: _Stroke) -> list[tuple[int, Afterimage]]:
        """Tracks first seen after the strike lying still on the last stretch of a run into a
        pocket by a piece of their colour that departed into it (`left_on_the_run_in`)."""
        out = []
        for tid, first in stroke.born.items():
            now = self.pieces.get(tid)
            if now is None or first.item not in CARROMMEN or tid in stroke.stopped_dead:
                continue
            for e in stroke.events:
                if e.item != first.item or e.pocket is None or e.guess or e.track_id == tid:
                    continue
                run = [*stroke.paths.get(e.track_id, []), e.xy]
                stop = left_on_the_run_in(first, now, e.pocket, run, self.config.still_mm)
                if stop is not None:
                    out.append((tid, stop))
                    break
        return out

    def _faint_by_holes(self, stroke: _Stroke, counted: _CountsThen) -> list[tuple[str, str]]:
        """(colour, pocket) of each piece counted at rest only faintly, lying at a pocket's
        mouth (its edge at the hole's) where no piece of its colour lay at the strike: seen
        there only since, it may be the piece seen falling into that pocket, glimpsed down in
        the hole (`reconcile_departures`)."""
        out = []
        for item, xy in counted.faint_pieces:
            if float(pocket_distance_mm(xy)[0]) > FAINT_AT_MOUTH_MM:
                continue
            lay = _lying_at_strike(stroke, item)
            if not near_any(xy, lay, COIN_RADIUS_MM):
                out.append((item, nearest_pocket(xy)))
        return out

    def _striker_in_flight(self, stroke: _Stroke, time_s: float) -> bool:
        """Whether the striker was last seen flying, a moment ago, and not since: a blur too
        fast to see crossing the board (development video 9143: off the far cushion and back,
        unseen for half a second, it was taken for still, the stroke closed, and its return
        into the coins taken for a stroke of its own). Its track may have been let go as
        heading off the surface: only a guess (development video 9417, `phone`: seen at 2.1 m/s
        100 mm short of a cushion, "gone" over it, back off the cushion unseen, and the black
        it then knocked in was pocketed after the stroke had closed).

        Slower, it may be slowing into a pocket's mouth, and be lost there with its disc over
        the hole's edge, merged with the dark: lost moving within `POCKET_GUESS_MM` of a pocket
        (and let go into it from further out than the mouth, or kept as unseen), it is waited
        for as long, unless a striker has been seen since, under any track (held-out video
        76005, `warm-lamp`, development data since: lost 59 mm from a corner's centre at
        0.5 m/s, found lying at the mouth 11 looks later; the board was taken for still 9
        looks after it was lost, and the striker for pocketed)."""
        unseen = [
            tid
            for tid, p in self.pieces.items()
            if p.item == "striker" and p.state == int(TrackState.OCCLUDED)
        ]
        unseen += [
            e.track_id
            for e in stroke.events
            if e.item == "striker"
            and ((e.guess and e.pocket is None) or (e.pocket is not None and not at_its_mouth(e)))
        ]
        for tid in unseen:
            seen = stroke.last_seen.get(tid)
            if seen is None:
                continue
            _, seen_s, xy, velocity = seen
            speed = float(np.hypot(*velocity))
            flying = speed >= self.config.fast_speed_mm_s
            slowing_by_a_pocket = (
                not flying
                and speed >= self.config.moving_speed_mm_s
                and float(pocket_distance_mm(np.array(xy))[0]) <= POCKET_GUESS_MM
                and self._striker_seen_s <= seen_s
            )
            if (flying or slowing_by_a_pocket) and time_s - seen_s <= STRIKER_UNSEEN_FLIGHT_S:
                return not self._never_left(stroke)
        return False

    # ------------------------------------------------------------------ end of stroke
    def _close(self, stroke: _Stroke, frame_index: int, time_s: float, settled: bool) -> StrokeRecord:
        # Where the striker's track lies before lost tracks are let go: one lost while moving
        # may be lying there read as a coin.
        striker_mm = _tracks_mm(self.pieces, ("striker",))
        striker_lost_at = self._striker_lost_at(stroke)
        self._unseen_at_pockets(stroke)
        before = stroke.counts_before
        counted = self._counts_then(striker_mm)
        # What the pocket watch saw leave, and over the holes, since the strike: believed
        # below only as far as the counts at rest agree (a track lost and found again under a
        # new id is not gone); a coin seen over a hole also tells the striker, read as a coin
        # where it settled, from a coin that stayed (`_striker_settled_as_a_coin`).
        drops, seen_in_holes, faint_leads = self._pocket_watch.take_since(
            stroke.start_time_s - STRIKE_LOOKBACK_S
        )
        watched, in_holes = _departures(drops), _departures(seen_in_holes)
        settled_as_a_coin = self._striker_settled_as_a_coin(stroke, counted, striker_lost_at, in_holes)
        if settled_as_a_coin is not None:
            counted = self._counts_then(striker_mm, settled_as_a_coin)
        # Afterimages judged at earlier strokes and still seen are no coins; one seen no more
        # is forgotten, but its vanishing now is no piece leaving.
        afterimages = self._afterimages
        self._afterimages = [a for a in afterimages if counted.counted_at(a.item, np.asarray(a.xy))]
        after = counted.counts - Counter(a.item for a in self._afterimages)
        new_afterimages = self._new_afterimages(stroke, counted, in_holes)
        # Pieces that appeared once the board was still are being put back already (a due,
        # or a piece returned after going overboard): not part of this stroke's outcome. They
        # are put back where dues go; one found elsewhere once all was still (a black coin at
        # a pocket's mouth, lost against the dark hole while it crept there: development
        # video 9105) was lying there. Only what the counts include is taken off them: a
        # track born of one false look and kept by nothing after is not counted to begin
        # with (held-out video 73002, now development data: a "white" read once beside the
        # striker at rest took a real white off the counts, then held its place for twenty
        # strokes, and the white pocketed at the next stroke was taken for it).
        late = Counter(
            self.pieces[tid].item
            for tid, t in stroke.first_seen.items()
            if t > stroke.last_motion_s
            and tid in self.pieces
            and self.pieces[tid].item in CARROMMEN
            and float(np.hypot(*self.pieces[tid].xy)) <= PLACING_ZONE_MM
            and counted.counted_at(self.pieces[tid].item, self.pieces[tid].xy)
        )
        after = after - late
        seen_after = after
        # The looks at the strike counted more of a colour than the board was believed to hold,
        # and fewer are seen now: the count holds a piece the belief never knew of (a phantom
        # read as a coin, a piece missed as it was put back, or one lying at a mouth that was
        # taken for pocketed), so a count that did not drop does not gainsay a pocketing seen
        # both ways (`reconcile_departures`, `unbelieved`).
        at_strike = _seen_at_strike(stroke)
        beyond_belief = at_strike - before
        unbelieved = +Counter({c: min(beyond_belief[c], at_strike[c] - seen_after[c]) for c in CARROMMEN})
        leads = [replace(e, guess=True) for e in _departures(faint_leads)]
        after = after - _phantoms_still_there(stroke, counted, beyond_belief)
        after = Counter({item: min(after[item], before[item]) for item in CARROMMEN})  # none appear
        # The striker lying in view once the board is still went into no pocket (below): a
        # departure of its does not make a white seen over that pocket's hole the striker
        # falling (held-out video 71001, `phone`, development data since: the dim striker, let
        # go at a corner's mouth and lying 48 mm from its centre after, took away the white it
        # knocked in there, seen in the hole).
        striker_lies = settled and len(_tracks_mm(self.pieces, ("striker",), in_view=True)) > 0
        came_back = self._came_back_off_the_cushion(stroke, +(before - after))

        def an_afterimage(e: ItemEvent) -> bool:
            return any(a.at(e.item, e.xy) for a in afterimages)

        kept, dropped, vanished, overruled = reconcile_departures(
            [
                e
                for e in stroke.events
                if not (striker_lies and e.item == "striker") and e not in came_back and not an_afterimage(e)
            ],
            before,
            after,
            [e for e in watched if not (striker_lies and e.item == "striker") and not an_afterimage(e)],
            stroke.carried_vanished,
            in_holes,
            leads,
            counted.faint,
            self._faint_by_holes(stroke, counted),
            [(a.item, a.pocket) for a in new_afterimages],
            unbelieved,
        )
        after -= overruled
        # An afterimage is remembered only where it was overruled for a pocketing believed at
        # its pocket: a coin that stopped dead against one it knocked in there lies there
        # still, and is counted.
        overruled_left = Counter(overruled)
        judged = []
        for a in new_afterimages:
            if overruled_left[a.item] and any(e.item == a.item and e.pocket == a.pocket for e in kept):
                overruled_left[a.item] -= 1
                judged.append(a)
        new_afterimages = judged
        self._afterimages.extend(new_afterimages)
        unseen_overboard: dict[str, int] = {}
        if stroke.new_board and vanished:
            # At the break a carromman gone without a believed sighting went into a pocket if
            # something seen says so (`pocketed_unseen_at_break`); otherwise it has most likely
            # jumped off the board, as the pack bursts (41 of the 47 such coins on 200
            # development videos): it is put back in the centre (law 65), and taken for gone
            # for good it would be a due put back, then "pocketed" at whatever a later lost
            # track is projected into.
            went_in = pocketed_unseen_at_break(
                vanished,
                kept,
                [e for e in stroke.events if e not in kept and e not in came_back],
                watched,
                in_holes,
                stroke.last_seen,
                set(stroke.snapshot),
            )
            kept.extend(went_in)
            dropped = [e for e in dropped if not any(_same_look(e, w) for w in went_in)]
            vanished = dict(Counter(vanished) - Counter(e.item for e in went_in))
        if stroke.new_board and vanished:
            # Not one whose track was lost lying still (or all but) out on the surface: it
            # came to rest in view, and lies there unseen (`_lost_lying_still`).
            lying = Counter(vanished) & self._lost_lying_still(stroke)
            jumped = dict(Counter(vanished) - lying)
            kept.extend(self._jumped_unseen(stroke, jumped))
            unseen_overboard, vanished = jumped, dict(lying)
        # A piece counted gone that nothing saw leave (no pocket, no flight) is taken to be
        # hidden or missed, not gone: it stays on the board until a later look finds it gone.
        after = after + Counter(vanished)

        # The striker has no count at rest to confirm a guess by: only a departure seen counts,
        # and a pocketing only where it was last seen at the pocket (a tracker projects a dim
        # striker lost mid-board at the strike's speed into a pocket 130 to 210 mm away; the
        # development videos' true striker pocketings were last seen 21 to 83 mm from the
        # pocket's centre, three false ones 130 to 207 mm).
        # And not one seen on the surface by that pocket after its last sighting (development video
        # 9151: a dim striker lost at a corner's mouth, its track taken into the pocket,
        # glimpsed lying 43 mm from the pocket's centre two looks later, then unseen until it
        # was lifted); one seen far off after is the striker fetched out of the pocket and put
        # down for the next stroke before the board settled (held-out video 68012, development
        # data since: a pocketed striker, seen in a hand on the far base line 0.9 s later, was
        # taken back), or one lying where it never left, in view when the stroke ends. Nor one
        # seen where a carromman lies now: discs do not overlap, so that was the coin, read as
        # the striker (development video 9189: a white at a corner's mouth read so for one look
        # at the break, 5 mm from where it lay still after, while the dim striker lay unseen).
        # Nor one lost where it had come to rest, its centre clear of the hole: a disc lying
        # still does not fall in by itself, a hand took it (held-out video 81016, `worn`,
        # development data since: the striker lay 35 mm from a corner's centre for 0.7 s, a
        # hand nudged it 4 mm and lifted it, and it was ruled pocketed, a foul). Nor one last
        # seen too slow to slide on into the hole from there (`_stopped_short_of_the_hole`).
        coins_now = _tracks_mm(self.pieces, CARROMMEN, in_view=True)
        rested = stroke.striker_rested_at
        lay_clear_of_a_hole = (
            rested is not None and float(pocket_distance_mm(np.array(rested))[0]) > POCKET_MOUTH_MM
        )

        def went_in(event: ItemEvent) -> bool:
            seen_there_s = stroke.striker_near_pocket_s.get(str(event.pocket), -np.inf)
            lost_s = event.time_s if event.last_seen_s is None else event.last_seen_s
            lifted = lay_clear_of_a_hole and near_any(event.xy, np.array([rested]), STRIKER_RADIUS_MM)
            return (
                seen_there_s <= lost_s
                and not lifted
                and not near_any(event.xy, coins_now, COIN_RADIUS_MM)
                and not self._stopped_short_of_the_hole(event.xy, lost_s)
            )

        striker_events = [
            e
            for e in stroke.events
            if e.item == "striker" and not e.guess and at_its_pocket(e) and went_in(e)
        ]
        striker_back = len(_tracks_mm(self.pieces, ("striker",), in_view=True)) > 0
        if not striker_events and not striker_back:
            striker_events = [
                e
                for e in watched
                if e.item == "striker" and e.pocket is not None and at_its_pocket(e) and went_in(e)
            ][-1:]
        if not striker_events and not striker_back:
            striker_events = self._striker_sunk_as_a_coin(stroke, [*watched, *in_holes], kept, went_in)
        if not striker_events and not striker_back and not stroke.striker_path:
            # Never seen as the striker since the strike, nor on the board now: a carromman
            # seen going into a pocket that the counts say never left was the striker, read
            # as a coin all the way (a dim striker; development video 9106).
            misread = [
                e for e in dropped if e.pocket is not None and e.item in CARROMMEN and at_its_pocket(e)
            ][-1:]
            dropped = [e for e in dropped if e not in misread]
            striker_events = [replace(e, item="striker") for e in misread]
        if (
            striker_events
            and not striker_back
            and self._striker_read_as_a_coin(stroke, striker_events[0], seen_after, counted)
        ):
            dropped.extend(striker_events)
            striker_events = []
        if striker_events and striker_back and settled:
            dropped.extend(striker_events)
        else:
            kept.extend(striker_events[:1])
        overboard = tuple(e for e in kept if e.pocket is None)
        kept = [e for e in kept if e.pocket is not None]
        # The striker touched a carromman if its run came within contact of one (a glancing
        # touch barely moves a coin; a coin seen to jitter was not touched), or if one left.
        # At the break the pack moves only when struck: displaced pack pieces tell even when
        # the striker's run was not seen (law 45, a break not made, turns on it).
        touched = (
            _striker_came_near(stroke, self._lying_now(stroke.snapshot, stroke.start_time_s))
            or any(e.item != "striker" for e in (*kept, *overboard))
            or (stroke.new_board and stroke.touched)
            or (stroke.striker_start is None and stroke.touched)  # a coin flew at the strike
        )
        kept.sort(key=lambda e: (e.frame, e.time_s))
        self._stroke = None
        self._striker_rest = None
        strikers = [p for p in self.pieces.values() if p.item == "striker" and p.on_board]
        self._striker_after = (strikers[0].track_id, strikers[0].xy) if strikers else None
        self._repositioned = self._striker_after is None or self._put_down_since_rest(stroke)
        self._striker_handled = False
        self._put_down_s = None
        self._end_state = dict(self.pieces)
        self._ended_s = time_s
        self._end_counts = after
        self._end_zone = self._placing_zone_counts()
        self._end_overboard = Counter(e.item for e in overboard if e.item in CARROMMEN)
        self._end_vanished = Counter(vanished)
        self._end_unseen_overboard = Counter(unseen_overboard)
        self._striker_left_at_end = any(e.item == "striker" for e in (*kept, *overboard))
        start_frame, start_time_s = stroke.struck_at or (stroke.start_frame, stroke.start_time_s)
        return StrokeRecord(
            seat=stroke.seat,
            start_frame=start_frame,
            end_frame=frame_index,
            start_time_s=start_time_s,
            end_time_s=time_s,
            striker_start_xy=None
            if stroke.striker_start is None
            else (float(stroke.striker_start[0]), float(stroke.striker_start[1])),
            pocketed=tuple(kept),
            overboard=overboard,
            touched=touched,
            new_board=stroke.new_board,
            counts_before=dict(before),
            counts_after=dict(after),
            # Pocketings taken back for a piece seen coming back out are evidence too.
            dropped_pocket_events=(*dropped, *came_back),
            afterimages=tuple(new_afterimages),
            vanished=vanished,
            unseen_overboard=unseen_overboard,
            returned_unseen=dict(stroke.returned_unseen),
            settled=settled,
            striker_start_traced=stroke.striker_start_traced,
            before={tid: (p.item, p.xy) for tid, p in stroke.snapshot.items() if p.on_board},
            after={tid: (p.item, p.xy) for tid, p in self.pieces.items() if p.on_board},
            paths={tid: (stroke.path_items[tid], tuple(path)) for tid, path in stroke.paths.items()},
        )


def _seen_at_strike(stroke: _Stroke) -> Counter[str]:
    """What the looks at the strike counted (`counts_before` is what the board is believed to
    hold: the last stroke's count plus what was put back since); at a break, nothing to set
    against the full set the laws lay out."""
    if stroke.new_board or stroke.board_before is None:
        return Counter()
    return stroke.board_before.counts


def _phantoms_still_there(stroke: _Stroke, counted: _CountsThen, beyond_belief: Counter[str]) -> Counter[str]:
    """Per colour, of the pieces the looks at the strike counted beyond what the board was
    believed to hold (`beyond_belief`: a phantom, or a piece the belief lost), those seen
    only faintly then and still lying, faintly, where they lay: the counts at rest after the
    stroke take them in as they did at the strike, and the belief never did, so they stand
    for no piece of the belief's that stayed. What left is what the looks lost (held-out video 91017, `phone`,
    development data since: the gap between a black lying by a corner and the corner's hole,
    read as a white at 0.22 to 0.32, was counted from mid-board on; the board's last white,
    seen going into another corner, was dropped, for the count at rest still held a white,
    and the board's result was lost)."""
    if stroke.board_before is None:
        return Counter()
    then = stroke.board_before.faint_pieces
    out: Counter[str] = Counter()
    for item in CARROMMEN:
        lay = np.array([xy for c, xy in then if c == item]).reshape(-1, 2)
        if not beyond_belief[item] or not len(lay):
            continue
        stayed = sum(near_any(xy, lay, PHANTOM_MM) for c, xy in counted.faint_pieces if c == item)
        out[item] = min(beyond_belief[item], stayed)
    return +out


def _lying_at_strike(stroke: _Stroke, item: str) -> np.ndarray:
    """(N, 2) where the pieces of `item` lay at the strike."""
    return np.array([p.xy for p in stroke.snapshot.values() if p.item == item]).reshape(-1, 2)


def _moved(stroke: _Stroke, track_id: int, time_s: float) -> None:
    """Note motion of the piece under `track_id` at `time_s` (the stroke's, and the piece's)."""
    stroke.last_motion_s = time_s
    stroke.moved_s[track_id] = time_s


def _same_look(a: ItemEvent, b: ItemEvent) -> bool:
    """Whether two departures come from one look at one piece (a lead believed under the
    pocket it was heading for)."""
    return a.item == b.item and a.frame == b.frame and a.track_id == b.track_id and a.xy == b.xy


def _departures(drops: list[Drop]) -> list[ItemEvent]:
    """The pocket watch's `drops` (or sightings, or leads) as departures."""
    return [ItemEvent(d.item, d.pocket, d.frame, d.time_s, -1, d.xy) for d in drops]


def _leaving_base_lines(seat: str, velocity: tuple[float, float]) -> bool:
    """Whether a striker moving at `velocity` crosses its seat's base lines (at least 30° off
    them) rather than running along them."""
    v = np.asarray(velocity, dtype=float)
    across = abs(float(np.dot(v, seat_normal(seat))))  # type: ignore[arg-type]
    return across >= SOFT_STRIKE_ACROSS * float(np.linalg.norm(v))


def _flying_away_from(
    spot: np.ndarray, xy: tuple[float, float] | np.ndarray, velocity: tuple[float, float]
) -> bool:
    """Whether a piece at `xy` moving at `velocity` is heading away from `spot` on a line that
    passes within `STRANGER_LINE_MM` of it."""
    away = np.asarray(xy, dtype=float) - np.asarray(spot, dtype=float)
    v = np.asarray(velocity, dtype=float)
    if float(np.dot(away, v)) <= 0.0:
        return False
    return abs(float(v[0] * away[1] - v[1] * away[0])) / float(np.linalg.norm(v)) <= STRANGER_LINE_MM


def _tracks_mm(pieces: dict[int, Piece], items: Collection[str], in_view: bool = False) -> np.ndarray:
    """(N, 2) where the tracks of pieces of `items` on the board lie: seen or not, or (`in_view`)
    seen."""
    return np.array(
        [
            p.xy
            for p in pieces.values()
            if p.item in items and p.on_board and not (in_view and p.state == int(TrackState.OCCLUDED))
        ],
        dtype=float,
    ).reshape(-1, 2)


def _striker_came_near(stroke: _Stroke, lying: list[tuple[float, float]]) -> bool:
    """Whether the striker's run (its sightings joined by straight lines, from where it was
    struck) came within contact of a carromman `lying` where it lay at the strike."""
    men = np.array(lying).reshape(-1, 2)
    if not len(men):
        return False
    start = [] if stroke.striker_start is None else [tuple(stroke.striker_start)]
    path = np.array([*start, *stroke.striker_path], dtype=float).reshape(-1, 2)
    if not len(path):
        return False
    reach = STRIKER_RADIUS_MM + COIN_RADIUS_MM + TOUCH_MARGIN_MM
    return any(float(_closest_on_run(path, man)[1].min()) <= reach for man in men)


def _runs_of_others(stroke: _Stroke, track_id: int) -> list[np.ndarray]:
    """The runs of every piece but `track_id` this stroke: its sightings joined by straight
    lines, from where it lay at the strike, and on along its last heading for `LOOKAHEAD_S`
    (a piece lost in flight went on unseen)."""
    runs = [np.array(path, dtype=float) for tid, path in stroke.paths.items() if tid != track_id]
    start = [] if stroke.striker_start is None else [tuple(stroke.striker_start)]
    runs.append(np.array([*start, *stroke.striker_path], dtype=float).reshape(-1, 2))
    runs += [
        np.array([seen[2], np.add(seen[2], np.multiply(seen[3], LOOKAHEAD_S))], dtype=float)
        for tid, seen in stroke.last_seen.items()
        if tid != track_id
    ]
    return [run for run in runs if len(run)]


def _closest_on_run(run: np.ndarray, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per leg of `run`, the point of it closest to `point`, and how far that is."""
    a, b = (run[:-1], run[1:]) if len(run) > 1 else (run, run)
    ab = b - a
    along = np.einsum("sk,sk->s", point - a, ab) / np.maximum(np.sum(ab * ab, axis=1), 1e-9)
    closest = a + np.clip(along, 0.0, 1.0)[:, None] * ab
    return closest, np.linalg.norm(closest - point, axis=1)


def _runs_came_near(stroke: _Stroke, xy: tuple[float, float], track_id: int) -> bool:
    """Whether the run of any piece but `track_id` this stroke came within `RUN_REACH_MM` of
    `xy`."""
    point = np.asarray(xy, dtype=float)
    runs = _runs_of_others(stroke, track_id)
    return any(float(_closest_on_run(run, point)[1].min()) <= RUN_REACH_MM for run in runs)


def _knocked_towards(stroke: _Stroke, xy: tuple[float, float], track_id: int, pocket: str) -> bool:
    """Whether a run that came within `RUN_REACH_MM` of a piece lying at `xy` could have sent
    it at `pocket`: a disc struck from rest leaves along the line from the striking disc's
    centre through its own, so the first leg of each run to come that close, at its closest,
    must lie on the far side of the piece from the pocket (within `KNOCK_CONE_DEG` of the
    line on). One lying by the mouth (`KNOCKED_IN_ANYHOW_MM`) goes in however it is struck:
    the jaws' cushions turn it. Nor is a break judged so: as the pack scatters, a track lying
    still may be handed a coin running past it, whose own run is then the track's and not
    another's (development video 90015: a track lying 75 mm from a corner since the strike,
    handed a black running into that corner and lost with it, was no longer guessed in)."""
    if stroke.new_board:
        return True
    point = np.asarray(xy, dtype=float)
    towards = pocket_centre(pocket) - point
    distance_mm = float(np.linalg.norm(towards))
    if distance_mm <= KNOCKED_IN_ANYHOW_MM:
        return True
    towards /= distance_mm
    for run in _runs_of_others(stroke, track_id):
        closest, distance = _closest_on_run(run, point)
        near = np.flatnonzero(distance <= RUN_REACH_MM)
        if not len(near):
            continue
        away = point - closest[int(near[0])]
        length = float(np.linalg.norm(away))
        # A run passing right over where it lay (the piece unseen as it was struck) could send
        # it any way.
        if length < 1e-6 or float(away @ towards) / length >= np.cos(np.radians(KNOCK_CONE_DEG)):
            return True
    return False


def _heading_when_lost(last: Piece, last_look: Piece | None) -> Piece:
    """The look that says where a piece let go off the board was heading. A tracker lets a
    track go only after a few frames unseen, reporting no velocity for them: it is the last
    sighting's (held-out video 99011, `phone`, development data since: a black running down
    the east cushion into the SE pocket, lost 100 mm short of it, was read as lying still
    there, "off the board"). Not for a piece lost faster than `HEADING_TRUSTED_MM_S`: it may
    have flown over the corner (development videos 89010 and 90018: a break's white at 4.3 to
    4.5 m/s, its path 55 mm off a corner's centre, went off the board), and a look's velocity
    that fast may be a track's jump between pieces (85005: a black "heading" north at 3.7 m/s
    went into the south pocket); it is judged where it was last seen."""
    if (
        last.state == int(TrackState.OCCLUDED)
        and last_look is not None
        and last_look.speed_mm_s <= HEADING_TRUSTED_MM_S
    ):
        return last_look
    return last


def _pocket_ahead(xy: tuple[float, float], velocity: tuple[float, float]) -> tuple[int, float]:
    """The pocket nearest to where a piece was heading (its path over `LOOKAHEAD_S`)."""
    ahead = np.array(xy) + np.outer(np.linspace(0.0, LOOKAHEAD_S, 7), np.array(velocity))
    distance = np.linalg.norm(ahead[:, None, :] - pocket_centres()[None, :, :], axis=2).min(axis=0)
    index = int(np.argmin(distance))
    return index, float(distance[index])


def _pocket_of(frame: TrackFrame, track_id: int) -> str | None:
    rows = np.flatnonzero(frame.track_id == track_id)
    return frame.pocket_name(int(rows[0])) if len(rows) else None


def _in_the_air(piece: Piece) -> bool:
    """Whether `piece` was seen where no disc lying on the surface can be: its centre further
    out than a disc pressed against a cushion has it (by more than a detection's error), or
    past the surface's edge (held-out video 71007, development data since: a white flying off
    over a cushion, seen once with its centre 11 mm past where it could lie, was "pocketed"
    in the corner 86 mm along, and the queen taken for covered)."""
    radius = STRIKER_RADIUS_MM if piece.item == "striker" else COIN_RADIUS_MM
    return not bool(on_playing_surface(piece.xy, radius - AIRBORNE_MARGIN_MM))


def _hole_under(xy: np.ndarray) -> str | None:
    """The pocket whose mouth a piece at `xy` lies over (it is falling in), if any."""
    pocket = nearest_pocket(xy)
    return pocket if float(np.linalg.norm(pocket_centre(pocket) - xy)) <= POCKET_CAPTURE_MM else None
