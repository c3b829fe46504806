"""Rulesets: the parameters a law text (or a house variant of it) fixes, and its law numbers.

A `Ruleset` is a frozen value, found by name like python-chess finds a variant:
`get_ruleset("icf")`, or made from the text of a variant file (YAML) that starts from one of
the three texts and overrides the parameters a house rule changes:

```yaml
ruleset: starwood          # the name the report shows
base: icf                  # icf | ecc | basic
queen_value: 5
game_points: 29
```

Behaviour that differs between the texts themselves (ECC has no improper-stroke penalties,
Basic no additional points, ...) is fixed by `base`; a variant file cannot change it.

The rules package reads no files (DESIGN.md: pure, no I/O): a caller that is given a variant
file (the CLI, the recorder: `vision.rulesets.load_ruleset`) reads it and hands its text to
`parse_ruleset_text`, or the resulting `Ruleset` to the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal

import yaml

from rules.errors import RulesError
from rules.rulesets.numbering import BASIC_LAWS, ECC_LAWS, icf_table

Base = Literal["icf", "ecc", "basic"]
TurnDirection = Literal["right", "left"]


@dataclass(frozen=True)
class Ruleset:
    """What a law text (or a variant) fixes. Defaults are the ICF laws."""

    name: str
    base: Base
    # 52(b), 54: the queen's value, and what it counts for once the board's winner has
    # reached the cutoff. ICF: 3 points "up to and including 21"; from 22 on it adds nothing
    # to a coin count (54) and the fixed awards of laws 102-112 shrink to one point.
    queen_value: int = 3
    queen_value_from_cutoff: int = 1
    cutoff: int = 22
    game_points: int = 25  # 56(a)
    boards_per_game: int | None = 8  # 56(a); None: play until game_points
    games_per_match: int = 3  # 57: best of three
    board_cap: int | None = 12  # 55; None: no cap
    extra_board_on_tie: bool = True  # 56(b)
    # 49(b): in doubles the turn passes to the player on the right (S -> E -> N -> W);
    # "left" passes it clockwise seen from above (S -> W -> N -> E).
    turn_direction: TurnDirection = "right"
    # 87(b): additional points "if demanded". The recorder cannot hear a demand, so the
    # ruleset says whether the beneficiary is taken to demand them.
    additional_points: bool = True
    laws: Mapping[str, str] = dataclasses.field(default_factory=icf_table, compare=False, repr=False)

    # --- behaviour fixed by the base text -------------------------------------------------
    @property
    def improper_penalised(self) -> bool:
        """ICF and Basic penalise an improper stroke; ECC 42 has it stopped, unpenalised."""
        return self.base != "ecc"

    @property
    def out_of_turn_loses_board(self) -> bool:
        """ICF 51: playing out of turn loses the board; ECC 31 lets the stroke stand. Basic is
        silent, so the ICF law applies."""
        return self.base != "ecc"

    @property
    def queen_placer(self) -> str:
        """ICF 93: the umpire places the queen; ECC 80 and Basic leave it to the players."""
        return "umpire" if self.base == "icf" else "either player"

    @property
    def wins_needed(self) -> int:
        return self.games_per_match // 2 + 1

    def has(self, icf_number: str) -> bool:
        return icf_number in self.laws

    def cite(self, *icf_numbers: str) -> tuple[str, ...]:
        """The numbers of these (ICF-numbered) laws in this ruleset's own text, in order, once each.

        A law the text lacks is left out. Where the text has none of them, the engine is applying
        the ICF law on a point the text is silent about, and says so: "ICF 65(a)".
        """
        cited: list[str] = []
        for number in icf_numbers:
            own = self.laws.get(number)
            if own is not None and own not in cited:
                cited.append(own)
        if not cited and self.base != "icf":
            icf = [f"ICF {number}" for number in icf_numbers if number[:1].isdigit()]
            return tuple(dict.fromkeys(icf))
        return tuple(cited)

    def cite_or_icf(self, icf_number: str, *more: str) -> tuple[str, ...]:
        """`icf_number` in this text's numbering, or "ICF n" where the text has no such law (the
        engine then applies the ICF law on a point the text is silent about, and says so),
        followed by `more` in this text's numbering."""
        own = self.laws.get(icf_number)
        first = own if own is not None else f"ICF {icf_number}"
        return (first, *(number for number in self.cite(*more) if number != first))

    def queen_in_loss(self, winner_score: int) -> int:
        """The queen's part of a loss "by the number of his C/m ... together with the points for
        the Queen" (ICF 51, 91, 103, 106, 111, 121; Basic 30): its value below the cutoff, and
        nothing from it on ("he shall lose by the number of C/m only"), in every text."""
        return self.queen_value if winner_score < self.cutoff else 0

    def queen_count(self, winner_score: int) -> int:
        """What the queen adds to a coin count for a winner with this game score (52(b), 54).

        ICF 54 / ECC 37: from the cutoff on the queen adds nothing to a coin count (ICF 103,
        106: "by the number of C/m only"). Basic 16 gives it one point "after 21".
        """
        if winner_score < self.cutoff:
            return self.queen_value
        return self.queen_value_from_cutoff if self.base == "basic" else 0

    def fixed_award(self, winner_score: int) -> int:
        """The fixed queen award of laws 102-112: 3 points, 1 point from 22 on."""
        return self.queen_value if winner_score < self.cutoff else self.queen_value_from_cutoff


ICF = Ruleset(name="icf", base="icf")
# ECC 39 adds a time limit the log cannot show; 38 is the same 12-point cap. ECC awards the
# additional point for a pocketed striker (98-102) without a demand.
ECC = Ruleset(name="ecc", base="ecc", laws=ECC_LAWS)
# Basic 16: "Queen - 3 pts up to and including 21. 1 point after 21." Its end-of-board rules
# (29, 30) award no additional points. On the cap and a tie after eight boards it is silent,
# so the ICF values (55, 56(b)) stand, as the ICF laws do wherever a text is silent.
BASIC = Ruleset(
    name="basic",
    base="basic",
    queen_value_from_cutoff=1,
    additional_points=False,
    laws=BASIC_LAWS,
)

RULESETS: dict[str, Ruleset] = {ruleset.name: ruleset for ruleset in (ICF, ECC, BASIC)}

# The parameters a variant file may set, with their types (for clear errors).
VARIANT_PARAMETERS: dict[str, tuple[type, ...]] = {
    "queen_value": (int,),
    "queen_value_from_cutoff": (int,),
    "cutoff": (int,),
    "game_points": (int,),
    "boards_per_game": (int, type(None)),
    "games_per_match": (int,),
    "board_cap": (int, type(None)),
    "extra_board_on_tie": (bool,),
    "turn_direction": (str,),
    "additional_points": (bool,),
}


def get_ruleset(name: str) -> Ruleset:
    """One of the built-in rulesets by name: icf, ecc, basic."""
    try:
        return RULESETS[name.lower()]
    except KeyError:
        raise RulesError(
            f"unknown ruleset {name!r}; expected one of {', '.join(RULESETS)} or a variant file"
        ) from None


def ruleset_from_data(data: Any, source: str = "<variant>") -> Ruleset:
    """A variant from decoded YAML: `base` plus overridden parameters, each checked."""
    if not isinstance(data, Mapping):
        raise RulesError(f"{source}: a variant file is a mapping (ruleset, base, parameters)")
    allowed = {"ruleset", "base", *VARIANT_PARAMETERS}
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise RulesError(
            f"{source}: unknown field {unknown[0]!r}; a variant sets {', '.join(sorted(allowed))}"
        )
    base_name = data.get("base", "icf")
    if base_name not in RULESETS:
        raise RulesError(f"{source}: field 'base': {base_name!r} is not one of {', '.join(RULESETS)}")
    name = data.get("ruleset", PurePath(source).stem)
    if not isinstance(name, str) or not name.strip():
        raise RulesError(f"{source}: field 'ruleset': a variant needs a name")
    overrides: dict[str, Any] = {}
    for key, types in VARIANT_PARAMETERS.items():
        if key not in data:
            continue
        value = data[key]
        # bool is an int in Python: keep true/false out of the numeric fields and vice versa.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise RulesError(f"{source}: field {key!r}: expected {wanted}, got {value!r}")
        overrides[key] = value
    _check_values(overrides, source)
    return dataclasses.replace(RULESETS[base_name], name=name, **overrides)


def _check_values(values: Mapping[str, Any], source: str) -> None:
    def need(key: str, ok: bool, what: str) -> None:
        if key in values and not ok:
            raise RulesError(f"{source}: field {key!r}: {what}, got {values[key]!r}")

    get = values.get
    need("queen_value", (get("queen_value") or 0) >= 0, "must be 0 or more")
    need("queen_value_from_cutoff", (get("queen_value_from_cutoff") or 0) >= 0, "must be 0 or more")
    need("cutoff", (get("cutoff") or 1) >= 1, "must be 1 or more")
    need("game_points", (get("game_points") or 1) >= 1, "must be 1 or more")
    need(
        "boards_per_game", get("boards_per_game") is None or get("boards_per_game") >= 1, "must be 1 or more"
    )
    need(
        "games_per_match",
        (get("games_per_match") or 1) >= 1 and (get("games_per_match") or 1) % 2 == 1,
        "must be an odd number, 1 or more (best of N)",
    )
    need("board_cap", get("board_cap") is None or get("board_cap") >= 1, "must be 1 or more")
    need("turn_direction", get("turn_direction") in ("right", "left"), "must be 'right' or 'left'")


def parse_ruleset_text(text: str, source: str = "<variant>") -> Ruleset:
    """A variant from YAML text; RulesError names the file and what is wrong."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise RulesError(f"{source}{where}: not valid YAML: {problem}") from None
    return ruleset_from_data(data, source)


def _looks_like_a_variant_file(name: str) -> bool:
    """Whether a ruleset's name is a variant file's path rather than a built-in's name."""
    return "/" in name or "\\" in name or PurePath(name).suffix.lower() in (".yaml", ".yml")


def resolve_ruleset(choice: str | Ruleset | None) -> Ruleset:
    """A built-in ruleset by name (icf, ecc, basic; None is ICF), or the Ruleset given.

    A variant file is not read here: its caller reads it (`parse_ruleset_text`) and passes the
    Ruleset.
    """
    if choice is None:
        return ICF
    if isinstance(choice, Ruleset):
        return choice
    if choice.lower() not in RULESETS and _looks_like_a_variant_file(choice):
        raise RulesError(
            f"{choice}: a variant file; read it and pass its Ruleset (rules.rulesets.parse_ruleset_text):"
            " the rules package reads no files"
        )
    return get_ruleset(choice)


__all__ = [
    "BASIC",
    "ECC",
    "ICF",
    "RULESETS",
    "Ruleset",
    "get_ruleset",
    "parse_ruleset_text",
    "resolve_ruleset",
    "ruleset_from_data",
]
