"""The transcript: one JSON line per cue as it is played (`--transcript FILE`).

Records carry `kind` (say, tick, timer, ask, answer, end), `line`, `text`, `t` (game
seconds), `night` and `day`. Each record is flushed as written, so a killed game's
transcript is complete up to the kill, and `resume` appends to the same file.
Private records (a line shown to one player, who chose what in a memo or a vote) are
written only when the table asks for them (`--transcript-private`, `transcript_private`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO


class Transcript:
    def __init__(self, path: Path | None, private: bool = False):
        self.path = path
        self.private = private
        """Whether private records are written (`write_private`); off unless the table asks."""
        self._file: TextIO | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            _drop_torn_tail(path)
            self._file = path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
            self._file.flush()

    def write_private(self, record: dict[str, Any], public: dict[str, Any] | None = None) -> None:
        """A private record, written only when asked for; else its `public` part, if any."""
        if self.private:
            self.write(record)
        elif public is not None:
            self.write(public)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _drop_torn_tail(path: Path) -> None:
    """A power cut can leave half a record at the end; resume must not append after it."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """All complete records of a transcript file (one being written is left out)."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.endswith("\n") and line.strip():
            records.append(json.loads(line))
    return records
