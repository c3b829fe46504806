"""Every end-of-board case of the ICF laws, 102 to 112, in its proper (a) and improper (b) form.

Each case starts from a position built by real strokes (`position`): Asha (white) to play with
the coins left and the queen where the case needs it, and checks who wins the board, the
queen / coins / extra columns of the card, the points and the law cited. The same cases are
then played with both players at or past the 22-point cutoff (54).
"""

from __future__ import annotations

import dataclasses

import pytest

from rules.rulesets import ICF
from tests.rules.builders import last, position, stroke

ASHA, BEN = 0, 1
IMPROPER = {"improper": "thumbing"}

# (id, setup, final stroke, winner, queen, coins, extra, law)
CASES = [
    # 102: covering the queen with the last coin of both players.
    ("102a", position(1, 1, "asha_awaiting"), stroke("white", "black"), ASHA, 3, 0, 0, "102(a)"),
    ("102b", position(1, 1, "asha_awaiting"), stroke("white", "black", **IMPROPER), BEN, 3, 0, 1, "102(b)"),
    # 103: covering the queen while pocketing the opponent's last coin: lose by own coins + queen.
    ("103a", position(3, 1, "asha_awaiting"), stroke("white", "black"), BEN, 3, 2, 0, "103(a)"),
    ("103b", position(3, 1, "asha_awaiting"), stroke("white", "black", **IMPROPER), BEN, 3, 2, 1, "103(b)"),
    # 104: queen with both last coins.
    ("104a", position(1, 1), stroke("queen", "white", "black"), ASHA, 3, 0, 0, "104(a)"),
    ("104b", position(1, 1), stroke("queen", "white", "black", **IMPROPER), BEN, 3, 0, 1, "104(b)"),
    # 105: both last coins, queen on the board: the opponent is awarded 3.
    ("105a", position(1, 1), stroke("white", "black"), BEN, 3, 0, 0, "105(a)"),
    ("105b", position(1, 1), stroke("white", "black", **IMPROPER), BEN, 3, 0, 1, "105(b)"),
    # 106: the opponent's last coin with the queen on the board: own coins + queen.
    ("106a", position(2, 1), stroke("black"), BEN, 3, 2, 0, "106(a)"),
    ("106b", position(2, 1), stroke("black", **IMPROPER), BEN, 3, 2, 1, "106(b)"),
    # 107: own last coin leaving the queen: lose by 3.
    ("107a", position(1, 4), stroke("white"), BEN, 3, 0, 0, "107(a)"),
    ("107b", position(1, 4), stroke("white", **IMPROPER), BEN, 3, 0, 1, "107(b)"),
    # 108: own last coin with the striker leaving the queen: 3, plus 1 (2 if improper).
    ("108a", position(1, 4), stroke("white", "striker"), BEN, 3, 0, 1, "108(a)"),
    ("108b", position(1, 4), stroke("white", "striker", **IMPROPER), BEN, 3, 0, 2, "108(b)"),
    # 109: queen, both last coins and the striker.
    ("109a", position(1, 1), stroke("queen", "white", "black", "striker"), BEN, 3, 0, 1, "109(a)"),
    (
        "109b",
        position(1, 1),
        stroke("queen", "white", "black", "striker", **IMPROPER),
        BEN,
        3,
        0,
        2,
        "109(b)",
    ),
    # 110: both last coins with the striker, queen covered by the player: lose by one point.
    ("110a", position(1, 1, "asha"), stroke("white", "black", "striker"), BEN, 0, 0, 2, "110(a)"),
    ("110b", position(1, 1, "asha"), stroke("white", "black", "striker", **IMPROPER), BEN, 0, 0, 3, "110(b)"),
    # 111: the opponent's last coin with the striker leaving the queen: own coins + queen + 1/2.
    ("111a", position(2, 1), stroke("black", "striker"), BEN, 3, 2, 1, "111(a)"),
    ("111b", position(2, 1), stroke("black", "striker", **IMPROPER), BEN, 3, 2, 2, "111(b)"),
    # 112: both last coins with the striker, queen covered by the opponent: lose by 3, plus 1/2.
    ("112a", position(1, 1, "ben"), stroke("white", "black", "striker"), BEN, 3, 0, 1, "112(a)"),
    ("112b", position(1, 1, "ben"), stroke("white", "black", "striker", **IMPROPER), BEN, 3, 0, 2, "112(b)"),
]

# From 22 on (54): the fixed awards shrink to one point, coin counts lose the queen.
AT_CUTOFF = {
    "102a": (1, 0), "102b": (1, 0), "103a": (0, 2), "103b": (0, 2), "104a": (1, 0), "104b": (1, 0),
    "105a": (1, 0), "105b": (1, 0), "106a": (0, 2), "106b": (0, 2), "107a": (1, 0), "107b": (1, 0),
    "108a": (1, 0), "108b": (1, 0), "109a": (1, 0), "109b": (1, 0), "110a": (0, 0), "110b": (0, 0),
    "111a": (0, 2), "111b": (0, 2), "112a": (1, 0), "112b": (1, 0),
}  # fmt: skip


@pytest.mark.parametrize(
    ("setup", "final", "winner", "queen", "coins", "extra", "law"),
    [pytest.param(*case[1:], id=f"law_{case[0]}") for case in CASES],
)
def test_law_end_of_board(setup, final, winner, queen, coins, extra, law) -> None:
    ruling = last([*setup, final])
    outcome = ruling.board_end
    assert outcome is not None, ruling.text
    assert (outcome.winner, outcome.queen, outcome.coins, outcome.extra) == (winner, queen, coins, extra)
    assert outcome.points == queen + coins + extra
    assert law in ruling.laws
    assert not ruling.turn_continues


@pytest.mark.parametrize(
    ("case_id", "setup", "final", "winner", "extra"),
    [pytest.param(c[0], c[1], c[2], c[3], c[6], id=f"law_{c[0]}_from_22") for c in CASES],
)
def test_law_end_of_board_from_the_cutoff_law_54(case_id, setup, final, winner, extra) -> None:
    every_score_past_cutoff = dataclasses.replace(ICF, cutoff=0)
    outcome = last([*setup, final], every_score_past_cutoff).board_end
    assert outcome is not None
    assert (outcome.winner, outcome.queen, outcome.coins, outcome.extra) == (
        winner,
        *AT_CUTOFF[case_id],
        extra,
    )


def test_law_end_of_board_additional_points_only_if_demanded_law_87b() -> None:
    undemanded = dataclasses.replace(ICF, additional_points=False)
    outcome = last(
        [*position(1, 1, "ben"), stroke("white", "black", "striker", **IMPROPER)], undemanded
    ).board_end
    assert outcome is not None and outcome.extra == 0 and outcome.points == 3


def test_law_end_of_board_plain_finish_law_52a_53() -> None:
    """Pocketing one's last coin with the queen covered wins by the opponent's coins (+ queen)."""
    ruling = last([*position(1, 5, "asha"), stroke("white")])
    outcome = ruling.board_end
    assert outcome is not None
    assert (outcome.winner, outcome.queen, outcome.coins) == (ASHA, 3, 5)
    assert "52(a)" in ruling.laws and "53(b)" in ruling.laws


def test_law_end_of_board_loser_covered_queen_counts_for_nobody_law_53c() -> None:
    outcome = last([*position(1, 5, "ben"), stroke("white")]).board_end
    assert outcome is not None
    assert (outcome.winner, outcome.queen, outcome.coins) == (ASHA, 0, 5)


def test_law_end_of_board_last_coin_with_striker_goes_back_law_73() -> None:
    """With the queen covered, the last coin pocketed with the striker is returned: no end."""
    ruling = last([*position(1, 5, "asha"), stroke("white", "striker")])
    assert ruling.board_end is None
    assert ruling.to_place.white == 2 and ruling.turn_continues
