"""The ruleset a user names: a built-in text by name, or a variant file read from disk.

The rules package reads no files (DESIGN.md); the callers that are given a ruleset by a
person (`carrom rescore`, `carrom score`, the recorder) read a variant file here and hand
its text to `rules.rulesets.parse_ruleset_text`. Every failure is a RulesError of one line
naming the file, which the CLI prints with exit status 2.
"""

from __future__ import annotations

from pathlib import Path

from rules.errors import RulesError
from rules.rulesets import RULESETS, Ruleset, parse_ruleset_text, resolve_ruleset

VARIANT_SUFFIXES = (".yaml", ".yml")


def load_ruleset(choice: str | Path | Ruleset | None) -> Ruleset:
    """A built-in ruleset by name (icf, ecc, basic; None is ICF), a Ruleset as it is, or a
    variant file by path (relative to the working folder; a log's own `rules` is resolved
    beside the log first, see vision.commands.rescore.resolve_rules_path)."""
    if choice is None or isinstance(choice, Ruleset):
        return resolve_ruleset(choice)
    text = str(choice)
    if text.lower() in RULESETS:
        return resolve_ruleset(text)
    path = Path(text)
    if path.suffix.lower() not in VARIANT_SUFFIXES and not path.exists():
        raise RulesError(f"unknown ruleset {text!r}; expected one of {', '.join(RULESETS)} or a variant file")
    try:
        content = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise RulesError(f"{text}: cannot read the variant file ({reason})") from None
    return parse_ruleset_text(content, text)
