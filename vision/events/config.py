"""Thresholds of stroke inference, with why each has its value.

These are properties of how carrom is played and filmed (how fast a struck striker moves,
how long the board takes to settle), not board dimensions: those live in
calibration.geometry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EventConfig:
    # A flicked striker leaves at 1 to 6 m/s; a hand sliding it into place moves at most a
    # few hundred mm/s. Between the two lies the strike; a carromman seen this fast was sent.
    strike_speed_mm_s: float = 450.0
    # A soft stroke sends the striker off at 0.3 to 0.5 m/s (held-out videos 79001, `club`,
    # and 79012, `phone`, development data since: first seen in flight at 360 to 490 mm/s,
    # each stroke was lost with the coin it sent in). A striker seen this fast may have been
    # struck: a hand sliding it can move it as fast, and what tells a strike is that it then
    # travels clear of where it rested and off its base lines (`strike_confirm_mm`).
    soft_strike_speed_mm_s: float = 300.0
    # A stroke is confirmed only once the striker has travelled this far from where it
    # rested (a nudge into place stays within a striker diameter or so).
    strike_confirm_mm: float = 60.0
    # How long the striker may take to travel that far before the start is called a nudge.
    strike_confirm_s: float = 0.6
    # A strike leaves from where the striker rested at most this long before (frames are
    # skipped at rest; the flicking hand may hide the striker for a few frames).
    strike_window_s: float = 1.0
    # The striker must have been moved this far from where the last stroke left it (and be
    # still) before a fast movement can be a strike: a hand carrying it away is not one.
    reposition_mm: float = 15.0
    # A striker picked up and put back about where the last stroke left it is aimed before it
    # is struck: it lies still (within `still_mm` of one spot) at least this long. A hand
    # lifting it to carry it off pauses it for a frame or two at most, then moves it fast.
    aim_s: float = 0.15
    # A striker half hidden under the aiming hand is found a few mm off its place from look to
    # look, and so read moving at up to ~150 mm/s while it lies still (held-out video 78009,
    # `warm-lamp`, development data since: 7 mm apart at scores of 0.4 to 0.5, never read at
    # rest, and its stroke was lost). Every sighting of an aim's time within this of the
    # latest is a striker let go; a hand sliding it moves it further in that time.
    aim_jitter_mm: float = 8.0
    # A striker out of sight at most this long and found far from its base line was struck
    # unseen (blurred out for its whole run).
    unseen_strike_s: float = 1.5
    # A striker out of sight for at most this long before it is seen moving fast was blurred
    # or missed at the strike; out of sight longer, it was carried under a hand and put down.
    strike_blur_s: float = 0.25
    # Below this speed a piece counts as still (the tracker's own state is used too).
    rest_speed_mm_s: float = 40.0
    # The board has come to rest when no piece has moved further than `still_mm` (well above
    # the jitter of a detected piece at rest) or faster than `moving_speed_mm_s` for
    # `settle_s`.
    still_mm: float = 4.0
    moving_speed_mm_s: float = 150.0
    # Slower than this a piece moves under 20 mm a frame: half the frames follow it well.
    fast_speed_mm_s: float = 600.0
    # The board is at rest once nothing has moved for this long.
    settle_s: float = 0.3
    # A stroke longer than this is closed anyway (a piece wrongly seen as moving for ever).
    max_stroke_s: float = 25.0
    # How far the striker's resting place may lie outside the band of legal positions and
    # still be taken for a place it was struck from: a careless placement misses a line by
    # a few mm, a detection errs by one or two (placement legality itself is measured
    # separately, exactly, by law 130). A striker left lying a little further in after a
    # stroke, and then picked up, is not struck.
    base_band_tolerance_mm: float = 15.0
    # A carromman displaced further than this during a stroke was touched (a glancing touch
    # moves a coin a few mm; a detected piece at rest jitters well under 1 mm).
    touch_mm: float = 3.0
    # Positions of the break arrangement may lie this far outside the outer circle and
    # still count as a new board being set up (hands leave the ring a little loose).
    arrangement_tolerance_mm: float = 12.0
    # A new board follows a board end, when at least this many carrommen had gone (a board
    # ends once one side's nine are pocketed; a concession may end it earlier).
    new_board_missing: int = 3
