"""The rules package's one exception family: anything wrong with a match log or a ruleset."""

from __future__ import annotations


class RulesError(Exception):
    """A user mistake in a match log, a ruleset or a variant file (the CLI exits with status 2)."""


class LogError(RulesError):
    """A match log that cannot be read or scored, located as precisely as the mistake allows.

    The message reads like
    ``match-log.yaml: event 12 (stroke) field 'pocketed': a 10th white coin cannot be pocketed``:
    the file (or line in it), then the event index and type, then the field, then what is wrong.
    Every part but the message is optional; the engine raises without a source and the CLI,
    which knows the file, adds it with `with_source`.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        event_index: int | None = None,
        event_type: str | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.event_index = event_index
        self.event_type = event_type
        self.field = field
        super().__init__(self._formatted())

    def _formatted(self) -> str:
        where: list[str] = []
        if self.source is not None:
            where.append(self.source if self.line is None else f"{self.source}:{self.line}")
        elif self.line is not None:
            where.append(f"line {self.line}")
        if self.event_index is not None:
            kind = f" ({self.event_type})" if self.event_type else ""
            where.append(f"event {self.event_index}{kind}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        prefix = " ".join(where)
        # "file: event 3 (stroke) field 'x'" reads as one location, then the complaint.
        if self.source is not None and len(where) > 1:
            prefix = f"{where[0]}: {' '.join(where[1:])}"
        return f"{prefix}: {self.message}" if prefix else self.message

    def with_source(self, source: str, line: int | None = None) -> LogError:
        """The same error, now naming the file it came from and, if known, the line in it.

        What the error already says wins: the first source and line given are kept.
        """
        if self.source is not None and (self.line is not None or line is None):
            return self
        return LogError(
            self.message,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
            event_index=self.event_index,
            event_type=self.event_type,
            field=self.field,
        )
