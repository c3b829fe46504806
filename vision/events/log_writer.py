"""The match log as it is recorded: header plus events, rewritten whole and atomically after
every stroke, so a crash (or a truncated video) keeps everything recorded so far."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.log import LOG_SCHEMA
from vision.outputs import write_json_atomic


class MatchLogWriter:
    def __init__(self, path: Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self.header: dict[str, Any] = {"schema": LOG_SCHEMA}
        self.events: list[dict[str, Any]] = []

    def set_header(self, **fields: Any) -> None:
        self.header.update({k: v for k, v in fields.items() if v is not None})

    def append(self, events: list[dict[str, Any]]) -> None:
        if not events:
            return
        self.events.extend(events)
        self.flush()

    def document(self) -> dict[str, Any]:
        doc = dict(self.header)
        doc["events"] = list(self.events)
        return doc

    @property
    def ready(self) -> bool:
        """The seating is fixed (by the user or by the first stroke)."""
        return "seats" in self.header and "first_break" in self.header

    def flush(self) -> None:
        if self.path is None or not self.ready:
            return
        write_json_atomic(self.path, self.document())
