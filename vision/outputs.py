"""Writing result files so that nothing is left half-written.

Every output of a command is first written beside its destination under a temporary name
and renamed into place only when all of them are complete.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class OutputSet:
    """Collects files and commits them together: all appear, or none does."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._pending: list[tuple[Path, Path]] = []

    def _temp_for(self, name: str) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=self.directory)
        os.close(fd)
        return Path(tmp)

    def add_bytes(self, name: str, data: bytes) -> Path:
        tmp = self._temp_for(name)
        tmp.write_bytes(data)
        self._pending.append((tmp, self.directory / name))
        return self.directory / name

    def add_text(self, name: str, text: str) -> Path:
        return self.add_bytes(name, text.encode("utf-8"))

    def add_json(self, name: str, data: Any) -> Path:
        return self.add_text(name, json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    def commit(self) -> list[Path]:
        done = []
        for tmp, final in self._pending:
            os.replace(tmp, final)
            done.append(final)
        self._pending.clear()
        return done

    def discard(self) -> None:
        for tmp, _ in self._pending:
            tmp.unlink(missing_ok=True)
        self._pending.clear()

    def __enter__(self) -> OutputSet:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()


def write_json_atomic(path: Path, data: Any) -> None:
    with OutputSet(Path(path).parent) as out:
        out.add_json(Path(path).name, data)
