"""The rules package's one exception family: anything wrong with a match log or a ruleset."""

from __future__ import annotations


class RulesError(Exception):
    """A user mistake in a match log, a ruleset or a variant file (the CLI exits with status 2)."""
