"""Which departures of carrommen to believe when a stroke ends: as many of each colour as the
counts at rest before and after it say are gone (`reconcile_departures`).

The tracker, the pocket watch and the detector's sightings over the holes each report pieces
leaving, often the same piece twice, sometimes a piece that never left (a track lost under a
hand, the striker read as a coin); the counts at rest decide how many went, and these rules
which of the reports stand for them.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from calibration.geometry import COIN_RADIUS_MM
from vision.events.board import CARROMMEN
from vision.events.departures import (
    REAPPEAR_S,
    SAME_DEPARTURE_S,
    ItemEvent,
    at_its_mouth,
    at_its_pocket,
    at_its_pocket_about_then,
    near_any,
    unmatched,
)


def reconcile_departures(
    track_departures: list[ItemEvent],
    before: Counter[str],
    after: Counter[str],
    watched: list[ItemEvent],
    carried: Counter[str] | None = None,
    in_holes: list[ItemEvent] | None = None,
    faint_leads: list[ItemEvent] | None = None,
    faint_in_count: Counter[str] | None = None,
    faint_by_holes: list[tuple[str, str]] | None = None,
    afterimages: list[tuple[str, str]] | None = None,
    unbelieved: Counter[str] | None = None,
) -> tuple[list[ItemEvent], list[ItemEvent], dict[str, int], Counter[str]]:
    """Which departures of carrommen to believe: as many per colour as the counts at rest
    say are gone. Pocketings first: those the pocket watch saw on the detections themselves
    (their colour is what the detector saw, whatever the tracks did), then the tracker's, then
    pieces lost near a pocket (of these, those whose pocket was seen taking a piece two ways
    about then come first); then a second piece of a colour lost at a pocket's mouth where one
    was just believed, while the counts want one more; then, because colours can still be
    confused while many pieces move at once (the break), another colour's surplus pocketing
    relabelled; and only then overboard: pieces rarely jump off.

    `carried`: of `before`, pieces gone unseen in earlier strokes and still counted (hidden, or
    missed by the detector, or gone). Their place in the count confirms only a pocketing seen
    at the pocket's mouth (one the detector lost at the mouth, going in at last): a piece gone
    long ago made lost tracks projected or guessed into pockets look confirmed (development
    videos 9125, 9133, 9132, 9102: a coin overboard or pocketed unseen at one stroke
    "pocketed" 82 to 214 mm from the pocket strokes later). Nor, while one is carried, does a
    second departure at a pocket a moment after one believed there (`SAME_DEPARTURE_S`):
    a sinking piece's last look over the hole, read as another colour or matched afresh, is
    seen going twice, and the second sighting took the carried piece's place (development
    videos 9325, 9331, 9334: a black at a pocket's mouth that the detector never sees
    against the hole, a white on the centre circle's print, a white pocketed unseen, each
    "pocketed" later as a coin that went in was seen going a second time, 2 frames on).

    `in_holes`: pieces the detector saw over a pocket's hole, falling in. Such a sighting
    ranks with the watch's own (before the tracker's: a track swapped at the break carries
    another colour's piece into a pocket, development videos 9107 and 9127), one of the same
    colour at that pocket about then being the same piece.

    `faint_leads`: pieces gone from view whose faint peak was seen further on, heading into a
    pocket (`pocket_watch.FAINT_LEAD_MIN_MM`): believed after everything else that went into a
    pocket, and never for another colour.

    `faint_in_count`: of `after`, pieces only ever seen faintly. A carromman seen leaving into a
    pocket (by the watch, or its track lost at the mouth) and seen in that pocket's hole
    outweighs one of them: the count's faint piece was a gap ringed by black coins or a
    pocket's edge read as a white (held-out videos 64008, 64011 and 64015, development data
    since: a white's pocketing seen both ways taken back, two boards' results lost). Not
    within a second of a pocketing of its colour believed at the same pocket: one piece is seen
    leaving twice as it sinks (64008's break, a white dropped twice 0.3 s apart); another
    colour's is another piece (held-out video 69007, development data since: a white and the
    queen seen going into one pocket 3 frames apart, and two faint "whites" on the frame's
    wood; the white was taken back for the queen's sake, and the board's result lost).
    Returned as `overruled`, per colour, so the count after the stroke loses them.

    `faint_by_holes`: (colour, pocket) of those faint pieces lying at a pocket's mouth where
    none of their colour lay at the strike. A piece seen over that pocket's hole outweighs one
    of them too, seen only that way: it is the piece, glimpsed down in the hole (held-out video
    71013, development data since: a white that flew into a corner at 3 m/s was seen falling
    over the hole, and its track, kept on by a faint peak at the hole's edge at 0.27 look
    after look, "lay" there; the pocketing was taken back).

    `afterimages`: (colour, pocket) of pieces counted at a pocket's mouth that a coin seen
    stopping dead there, running into the hole, left (`vision.events.afterimages`): each
    weighs as a faint piece by that pocket's hole, however strongly it is seen.

    `unbelieved`: of `after`, pieces the looks at the strike counted beyond `before` that are
    no longer seen: the count holds a piece the board was not believed to hold (a phantom, a
    piece missed as it was put back, or one taken for pocketed that lay at the mouth, read
    again later). A pocketing seen both ways outweighs one as it outweighs a faint piece
    (held-out video 85018, `warm-lamp`, development data since: a white that skimmed a
    corner's mouth and stopped against the frame, barely seen there, was taken for pocketed;
    read at the mouth again a few strokes on, it kept the count a white over the belief, and
    a white seen leaving into another corner and over its hole was dropped)."""
    faint_leads = faint_leads or []
    afterimages = afterimages or []
    # An afterimage weighs as a faint piece by its pocket's hole, however strongly it is seen.
    faint_by_holes = (faint_by_holes or []) + afterimages
    faint_in_count = (faint_in_count or Counter()) + Counter(item for item, _ in afterimages)
    carried = carried or Counter()
    need = {item: max(0, before[item] - after[item]) for item in CARROMMEN}
    # The striker falling into a pocket is seen over the hole as a white coin as often as not:
    # a white sighting where the striker went in about then is the striker (development video
    # 9128: taken for a white, it stood for the white that went into another pocket). Not where
    # the striker's going in is only guessed (its track lost 50 mm off, projected): a guess is
    # never its pocketing (`StrokeSegmenter._close`), and it took the hole's white away from a
    # white seen going in there (held-out video 64008, development data since).
    strikers_in = [
        e
        for e in (*watched, *track_departures)
        if e.item == "striker" and e.pocket is not None and not e.guess
    ]
    # Unless nothing else stands for a piece of its colour gone: then it was one, going in
    # just ahead of the striker or behind it (held-out video 86003, `warm-lamp`, development
    # data since: a white and the striker into one corner three frames apart, the white seen
    # only in the hole; taken for the striker, the white "vanished").
    as_striker = [
        h
        for h in in_holes or []
        if any(s.pocket == h.pocket and abs(s.time_s - h.time_s) <= REAPPEAR_S for s in strikers_in)
    ]
    in_holes = [h for h in in_holes or [] if h not in as_striker]
    pockets: dict[str, list[ItemEvent]] = {}
    offs: dict[str, list[ItemEvent]] = {}
    tracked_of: dict[str, list[ItemEvent]] = {}
    for item in CARROMMEN:
        seen = [e for e in watched if e.item == item and e.pocket is not None]
        edge = [e for e in watched if e.item == item and e.pocket is None]
        # A departure the watch saw over the surface's edge is not also a pocketing of the
        # tracker's (a track that lost a piece flying off past a corner projects it into the
        # pocket there).
        tracked = [
            e
            for e in track_departures
            if e.item == item
            and e.pocket is not None
            and not e.guess
            and not any(abs(e.time_s - x.time_s) <= SAME_DEPARTURE_S for x in edge)
        ]
        tracked_of[item] = tracked
        sighted = seen + unmatched([e for e in in_holes if e.item == item], seen, item)
        # A track lost far from the pocket it was projected into ranks after every pocketing
        # seen at a pocket (held-out video 64007's break, development data since: a white's track
        # lost 200 mm up the side cushion, "into" the corner, stood for the white the watch saw
        # go into the next corner, and in the hole there, a few frames later).
        extra = unmatched(tracked, sighted, item)
        near = [e for e in extra if at_its_pocket(e)]
        projected = [e for e in extra if not at_its_pocket(e)]
        # A pocketing seen two ways (its colour seen leaving into that pocket, by the watch or
        # a track lost at the mouth, and seen over its hole, about then) ranks before one seen
        # one way (held-out video 65019, `warm-lamp`, development data since: a white's track
        # lost 37 mm from a corner, the white lying there still, was believed before the white
        # the watch saw go into the next corner and in its hole, a few frames later). The
        # watch and the tracker losing the same look at a piece are one way, not two
        # (development video 9409).
        going = [
            e
            for e in (*watched, *track_departures)
            if e.item == item and e.pocket is not None and at_its_mouth(e)
        ]
        holes = [e for e in in_holes if e.item == item]
        # Then one seen leaving whose colour was then seen over its pocket's hole
        # (`_followed_into_its_hole`).
        own = sorted(
            sighted + near,
            key=lambda e: (
                not _going_seen_two_ways(e, going, holes),
                not _followed_into_its_hole(e, holes),
                e.frame,
            ),
        ) + sorted(projected, key=lambda e: e.frame)
        guesses = [e for e in track_departures if e.item == item and e.pocket is not None and e.guess]
        pockets[item] = own + unmatched(guesses, own, item)
        pockets[item] += unmatched(faint_leads, pockets[item], item)
        pockets[item] += unmatched([e for e in as_striker if e.item == item], pockets[item], item)
        # Overboard only when a piece was seen going: over the surface's edge, or by the
        # tracker's own sighting. A track merely projected off the surface (lost while fast,
        # anywhere on the board) is far likelier a coin the detector missed at rest than one
        # that jumped the frame; its count drop stays on the board until a look finds it gone.
        lost = [e for e in track_departures if e.item == item and e.pocket is None and not e.guess]
        offs[item] = lost + edge
    # Of what is needed, what only a pocketing at the pocket may fill; those fill it first.
    only_near = {item: min(need[item], carried[item]) for item in CARROMMEN}

    kept: list[ItemEvent] = []

    def fills(item: str, e: ItemEvent) -> bool:
        """Whether `e` may stand for one more `item` gone, and if so count it."""
        near = at_its_mouth(e)
        if not need[item] or not (near or need[item] > only_near[item]):
            return False
        if carried[item] and at_its_pocket_about_then(e, kept, SAME_DEPARTURE_S):
            return False
        need[item] -= 1
        if near and only_near[item]:
            only_near[item] -= 1
        return True

    for item in CARROMMEN:
        left: list[ItemEvent] = []
        for e in pockets[item]:
            (kept if fills(item, e) else left).append(e)
        # The striker's sightings not needed for a piece are the striker's: nothing else.
        pockets[item] = [e for e in left if e not in as_striker]
    # Two of a colour can run into one pocket a few frames apart: the counts still wanting
    # one, a track of its own lost at that pocket's mouth about when another pocketing was
    # believed there is the second piece, not that one seen again (held-out video 65003,
    # `worn`, development data since: two whites into one corner 3 frames apart, one seen in
    # the hole and each track lost at the mouth, taken for one white; the other "vanished"
    # and the board's result was lost). Lost where no believed pocketing there was seen: the
    # watch and a track losing one piece lose it at the same look (development video 9324: a
    # white seen dropping into a corner and its track lost at the same spot two frames on,
    # while the count missed a white lying elsewhere). Not while a piece gone earlier is
    # carried: then a sinking piece's second look stands in for it (`carried`). Nor a track
    # last seen before every believed pocketing there was seen: lost at the mouth and then
    # seen in the hole, it is that piece sinking (development video 73002's break: a white's
    # track lost 40 mm from a corner's centre, the white over the hole three frames on; taken
    # for a second white, it filled the place of a white lying faint near the centre).
    for item in CARROMMEN:
        if not need[item] or carried[item]:
            continue
        for e in tracked_of[item]:
            taken = {k.track_id for k in kept}
            there = [k for k in kept if k.item == item and k.pocket == e.pocket]
            if (
                need[item]
                and e.track_id >= 0
                and e.track_id not in taken
                and at_its_mouth(e)
                and at_its_pocket_about_then(e, there, REAPPEAR_S)
                and not near_any(e.xy, np.array([k.xy for k in there]).reshape(-1, 2), COIN_RADIUS_MM)
                and (e.last_seen_s is None or e.last_seen_s > min(k.time_s for k in there))
                and fills(item, e)
            ):
                kept.append(e)
                if e in pockets[item]:
                    pockets[item].remove(e)
    overruled: Counter[str] = Counter()
    going_in = [e for e in watched if e.pocket is not None] + [
        e for e in track_departures if e.item in CARROMMEN and at_its_mouth(e)
    ]
    for item in CARROMMEN:
        spare = min(max(faint_in_count[item], (unbelieved or Counter())[item]), after[item])
        left = []
        for e in pockets[item]:
            if (
                overruled[item] < spare
                and not need[item]
                and not e.guess
                and (
                    _seen_going_both_ways(e, going_in, in_holes)
                    or (e in in_holes and (item, e.pocket) in faint_by_holes)
                )
                and not at_its_pocket_about_then(e, (k for k in kept if k.item == item), REAPPEAR_S)
            ):
                kept.append(e)
                overruled[item] += 1
            else:
                left.append(e)
        pockets[item] = left
    for item in CARROMMEN:
        for other in CARROMMEN:
            if other == item or need[other]:
                continue
            left = []
            for e in pockets[other]:
                # A coin seen in a hole is the colour seen: only confusions on the move are
                # mended so.
                if e not in in_holes and e not in faint_leads and fills(item, e):
                    kept.append(ItemEvent(item, e.pocket, e.frame, e.time_s, e.track_id, e.xy))
                else:
                    left.append(e)
            pockets[other] = left
    for item in CARROMMEN:
        take = offs[item][: need[item]]
        offs[item] = offs[item][len(take) :]
        kept.extend(take)
        need[item] -= len(take)
    # What was seen and not believed: the tracker's departures, and pieces seen falling (one
    # may be the striker, read as a coin all the way: `StrokeSegmenter._close`).
    dropped = [
        e for item in CARROMMEN for e in (*pockets[item], *offs[item]) if e.track_id >= 0 or e in in_holes
    ]
    vanished = {item: n for item, n in need.items() if n > 0}
    return kept, dropped, vanished, overruled


def _seen_going_both_ways(event: ItemEvent, going: list[ItemEvent], in_holes: list[ItemEvent]) -> bool:
    """Whether a piece of `event`'s colour was seen leaving into its pocket (`going`: by the
    pocket watch, or a track lost at the pocket's mouth) and over that pocket's hole, about
    when it went in."""

    return all(
        at_its_pocket_about_then(event, (o for o in seen if o.item == event.item), SAME_DEPARTURE_S)
        for seen in (going, in_holes)
    )


def _followed_into_its_hole(event: ItemEvent, in_holes: list[ItemEvent]) -> bool:
    """Whether a departure seen leaving (not itself a sighting over a hole) was followed by
    its colour seen over its pocket's hole about then (`REAPPEAR_S`), wherever it was last
    seen on its way: held-out video 72019's break (`worn`, development data since), a white
    the watch saw 104 mm from a corner sliding down the cushion into it at 1.5 m/s, and in
    that corner's hole two frames on, came after a white lost 74 mm from another corner as
    it bounced off the cushion there, in no hole; the board's white went into the wrong
    pocket."""
    return event not in in_holes and at_its_pocket_about_then(event, in_holes, REAPPEAR_S)


def _going_seen_two_ways(event: ItemEvent, going: list[ItemEvent], in_holes: list[ItemEvent]) -> bool:
    """Whether a piece was seen going into `event`'s pocket both ways (`_seen_going_both_ways`:
    leaving into it, by the watch or a track lost at its mouth, and over its hole) about when
    `event` went (`REAPPEAR_S`: a sinking piece is seen leaving more than once, the first look
    the truest time)."""
    return any(
        g.pocket == event.pocket
        and abs(g.time_s - event.time_s) <= REAPPEAR_S
        and _seen_going_both_ways(g, going, in_holes)
        for g in going
    )
