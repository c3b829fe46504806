"""From tracks to match-log events: the stroke segmenter, the seating and the log writer.

`MatchRecorder.update(track_frame)` returns the log events that became known with that
frame (a `placed` event when a stroke starts after carrommen were put back, a `stroke`
event when the board has come to rest) and appends them to the log file at once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from vision.detections import Detections
from vision.events.board import COIN_COLOURS
from vision.events.config import EventConfig
from vision.events.departures import ItemEvent
from vision.events.guard import EngineGuard
from vision.events.log_writer import MatchLogWriter
from vision.events.seats import SeatAssigner
from vision.events.striker_position import IMPROPER_STRIKER_POSITION, start_position_evidence
from vision.events.strokes import PlacementRecord, StrokeRecord, StrokeSegmenter
from vision.tracks import TrackFrame

AUTO_FOULS = ("striker-position",)


class MatchRecorder:
    def __init__(
        self,
        seating: SeatAssigner | None = None,
        rules: str = "icf",
        auto_fouls: tuple[str, ...] = (),
        writer: MatchLogWriter | None = None,
        config: EventConfig | None = None,
        out_of_turn: bool = False,
    ) -> None:
        """`out_of_turn`: a stroke played from a seat the laws do not give the turn to is
        recorded as that player's stroke out of turn (law 51 in the ICF text). By default it is
        recorded as the laws' turn and flagged in its evidence: a recorder that missed one
        pocketing (the turn should have gone on) must not turn it into a lost board."""
        self.seating = seating or SeatAssigner()
        self.rules = rules
        self.auto_fouls = frozenset(auto_fouls)
        self.writer = writer or MatchLogWriter(None)
        self.segmenter = StrokeSegmenter(config)
        self.segmenter.owed = self._owed
        self.stroke_count = 0
        # The records behind the latest update's stroke events (for the review); older ones
        # are dropped so memory stays flat however long the match.
        self.latest: list[tuple[StrokeRecord, int]] = []
        self.guard = EngineGuard(rules)
        self.out_of_turn = out_of_turn
        self.dropped: list[dict[str, Any]] = []  # events the laws refused outright
        self.writer.set_header(rules=rules, event=self.seating.event)
        self._fix_header()

    def update(
        self,
        frame: TrackFrame,
        detections: Detections | None = None,
        over_holes: Detections | None = None,
        faint: Detections | None = None,
    ) -> list[dict[str, Any]]:
        """Events that became known with this frame. Pass the frame's detections when there
        are any: counts at rest are then taken from them; and what the detector saw over the
        pockets' holes and its peaks under its threshold, when it reports those."""
        return self._emit(self.segmenter.update(frame, detections, over_holes, faint))

    def finish(self, frame_index: int, time_s: float) -> list[dict[str, Any]]:
        return self._emit(list(self.segmenter.finish(frame_index, time_s)))

    @property
    def at_rest(self) -> bool:
        return self.segmenter.at_rest

    def log(self) -> dict[str, Any]:
        return self.writer.document()

    def _emit(self, records: list[PlacementRecord | StrokeRecord]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        self.latest = []
        for record in records:
            if isinstance(record, PlacementRecord):
                event = placed_event(record)
            else:
                event = self._stroke_event(record)
            admitted = self.guard.admit(event)
            if admitted is None:
                self.dropped.append(event)
                continue
            if isinstance(record, StrokeRecord):
                self.latest.append((record, len(self.writer.events) + len(events)))
            events.append(admitted)
        self.writer.append(events)
        return events

    def _owed(self) -> Counter[str] | None:
        """What the laws require put back before the next stroke (dues, penalties, the
        queen), or None before the match is under way."""
        state = self.guard.state
        if state is None or state.board is None:
            return None
        pending = state.to_place()
        return Counter({"white": pending.white, "black": pending.black, "queen": int(pending.queen)})

    def _missing_counted_gone(self, event: dict[str, Any], record: StrokeRecord) -> dict[str, Any]:
        """A coin gone unseen at an earlier stroke (into a pocket nobody saw it reach, or off the
        board and never put back) stays counted on the board: nothing saw it go, and a coin
        hidden or missed by the detector must not be taken for pocketed. When a stroke pockets
        the last of that colour in sight and the missing ones are all that is left of it, and
        counting them gone ends the board by the laws, they are gone: counted with this stroke,
        with no pocket, and said so in its evidence (development video 9327: a white pocketed
        unseen at the break, taken to have jumped off and never seen put back; the board, won
        with the last white in sight, went on in the log for want of it)."""
        missing = _missing_gone(event, record)
        if not missing:
            return event
        extra = [colour for colour, n in missing.items() for _ in range(n)]
        candidate = {**event, "pocketed": [*event["pocketed"], *extra]}
        if not self.guard.wins_board(candidate):
            return event
        candidate["evidence"] = {
            **event["evidence"],
            "counted_gone": dict(missing),
            "counted_gone_note": (
                "missing since an earlier stroke, gone unseen, and none of that colour is left "
                "on the board: counted gone with this stroke, which ends the board"
            ),
        }
        return candidate

    def _fix_header(self) -> None:
        if self.seating.seats is not None:
            self.segmenter.occupied_seats = frozenset(self.seating.seats)
        if self.seating.seats is not None and self.seating.first_break is not None:
            self.writer.set_header(seats=dict(self.seating.seats), first_break=self.seating.first_break)
            if self.guard.state is None:
                doubles = self.seating.event == "doubles"
                self.guard.start(dict(self.seating.seats), self.seating.first_break, doubles)

    def _stroke_event(self, record: StrokeRecord) -> dict[str, Any]:
        self.stroke_count += 1
        # A strike nobody saw has no seat: the log leaves the player to the laws.
        player = None if record.seat is None else self.seating.player_for(record.seat)  # type: ignore[arg-type]
        self._fix_header()
        position = start_position_evidence(record.seat, record.striker_start_xy)
        event: dict[str, Any] = {"type": "stroke"}
        expected = self.guard.turn
        turn_note = None
        if player is not None and expected is not None and player != expected and not self.out_of_turn:
            turn_note = (
                f"played from seat {record.seat} ({player}), but the laws give {expected} the turn: "
                f"recorded as {expected}'s stroke; check the previous stroke for a missed pocketing"
            )
        elif player is not None:
            event["player"] = player
        event["pocketed"] = [e.item for e in record.pocketed]
        if record.overboard:
            event["overboard"] = [e.item for e in record.overboard]
        event["touched"] = record.touched
        # A start traced back from the flight is an estimate: evidence, never a foul.
        if (
            "striker-position" in self.auto_fouls
            and position is not None
            and not position["legal"]
            and not record.striker_start_traced
        ):
            event["improper"] = IMPROPER_STRIKER_POSITION
        event["evidence"] = stroke_evidence(record, position, self.stroke_count - 1)
        event = self._missing_counted_gone(event, record)
        if turn_note is not None:
            event["evidence"]["seen_player"] = player
            event["evidence"]["turn_note"] = turn_note
        return event


def _missing_gone(event: dict[str, Any], record: StrokeRecord) -> dict[str, int]:
    """Coins missing since earlier strokes (gone unseen, still counted on the board) of a
    colour this stroke pocketed and of which none is left in sight at rest."""
    return {
        colour: n
        for colour, n in record.vanished.items()
        if colour in COIN_COLOURS
        and n > 0
        and record.counts_after.get(colour, 0) - n <= 0
        and colour in event["pocketed"]
    }


def _item_event(e: ItemEvent) -> dict[str, Any]:
    out: dict[str, Any] = {"item": e.item, "frame": e.frame, "time_s": round(e.time_s, 3)}
    if e.pocket is not None:
        out["pocket"] = e.pocket
    out["at_mm"] = [round(e.xy[0], 1), round(e.xy[1], 1)]
    return out


def stroke_evidence(record: StrokeRecord, position: dict[str, Any] | None, index: int) -> dict[str, Any]:
    evidence: dict[str, Any] = {
        "stroke": index,
        "frames": [record.start_frame, record.end_frame],
        "time_s": [round(record.start_time_s, 3), round(record.end_time_s, 3)],
        "seat": record.seat,
        "striker_start_mm": None
        if record.striker_start_xy is None
        else [round(record.striker_start_xy[0], 1), round(record.striker_start_xy[1], 1)],
        "striker_position": position,
        "pocket_events": [_item_event(e) for e in record.pocketed],
        "overboard_events": [_item_event(e) for e in record.overboard],
        "counts_before": record.counts_before,
        "counts_after": record.counts_after,
    }
    if record.striker_start_traced:
        evidence["striker_start_traced"] = True  # not seen resting: traced back from its flight
    if record.seat is None:
        evidence["strike_unseen"] = (
            "the striker was seen neither aimed nor struck; a coin flew at a strike's speed: "
            "the stroke is the turn's player's"
        )
    if record.new_board:
        evidence["new_board"] = True
    if record.dropped_pocket_events:
        evidence["dropped_pocket_events"] = [_item_event(e) for e in record.dropped_pocket_events]
    if record.afterimages:
        # Seen lying at a pocket's mouth where a coin stopped dead as it was seen over the hole:
        # the coin went in, and this is the picture the video kept of it, not counted.
        evidence["afterimages_not_counted"] = [
            {
                "item": a.item,
                "pocket": a.pocket,
                "frame": a.frame,
                "at_mm": [round(a.xy[0], 1), round(a.xy[1], 1)],
            }
            for a in record.afterimages
        ]
    if record.vanished:
        evidence["vanished_not_pocketed"] = dict(record.vanished)
    if record.unseen_overboard:
        evidence["overboard_unseen"] = dict(record.unseen_overboard)  # inferred at the break
    if record.returned_unseen:
        # Put back where the laws owed nothing: a piece missing since an earlier stroke, back
        # from off the board (law 65), not a placing.
        evidence["returned_not_placed"] = dict(record.returned_unseen)
    if not record.settled:
        evidence["settled"] = False
    return evidence


def placed_event(record: PlacementRecord) -> dict[str, Any]:
    evidence: dict[str, Any] = {
        "frame": record.frame,
        "time_s": round(record.time_s, 3),
        "positions_mm": [[round(x, 1), round(y, 1)] for x, y in record.positions],
    }
    if record.late:
        evidence["counted_late"] = list(record.late)
        evidence["counted_late_note"] = (
            "an earlier placing was recorded short of what the laws owed, and the pieces counted "
            "at this strike in the placing zone exceed the board's count: put back then, seen only now"
        )
    if record.unseen:
        evidence["not_seen"] = list(record.unseen)
        evidence["not_seen_note"] = (
            "the laws had the queen put back in the centre circle (law 93) and nothing was seen put "
            "back: she could not be told from the circle, and is taken as put back, as the laws "
            "take a placing that is not recorded"
        )
    return {"type": "placed", "items": list(record.items), "evidence": evidence}
