"""The transcript: one JSON line per cue as it is played (`--transcript FILE`).

Records carry `kind` (say, tick, timer, ask, answer, end), `line`, `text`, `t` (game
seconds), `night` and `day`. Each record is flushed as written, so a killed game's
transcript is complete up to the kill, and `resume` appends to the same file; a new game
(`fresh`) starts it afresh, so the file is one game's, never the last game's with this one after it.
Private records (a line shown to one player, who chose what in a memo or a vote) are
written only when the table asks for them (`--transcript-private`, `transcript_private`).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, TextIO

from narrator.errors import SaveError


class Transcript:
    def __init__(self, path: Path | None, private: bool = False, fresh: bool = False):
        self.path = path
        self.private = private
        """Whether private records are written (`write_private`); off unless the table asks."""
        self._file: TextIO | None = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._file = _open_private(path)
                if fresh:
                    _start_afresh(self._file)
                else:
                    _drop_torn_tail(self._file)
            except OSError as err:
                raise SaveError(f"transcript {path} cannot be written ({err.strerror}); "
                                "give --transcript a file in a writable folder") from None

    def write(self, record: dict[str, Any]) -> None:
        if self._file is not None:
            try:
                self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
                self._file.flush()
            except OSError as err:
                raise SaveError(f"transcript {self.path} cannot be written ({err.strerror}); free some space "
                                "and `narrator resume` (the game is saved)") from None

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


def _open_private(path: Path) -> TextIO:
    """Append to `path`, created 0600 (it tells who was nominated and when); an existing
    regular file others could read is made 0600 too. A pipe or a device is left as it is."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:  # a write-only device or pipe (/dev/stdout)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_mode & 0o077 and info.st_uid == os.getuid():
            os.fchmod(fd, 0o600)
        return os.fdopen(fd, "a", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def _start_afresh(file: TextIO) -> None:
    """Empty a regular file for a new game (records are appended from its start); a pipe or
    a device (`/dev/stdout`, a shell's `>>` file behind it) is written to as it is."""
    fd = file.fileno()
    if stat.S_ISREG(os.fstat(fd).st_mode):
        os.ftruncate(fd, 0)


TAIL_CHUNK = 65536


def _drop_torn_tail(file: TextIO) -> None:
    """A power cut can leave half a record at the end; resume must not append after it.
    Only the end of the file is read (a transcript can be long)."""
    fd = file.fileno()
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        return  # a pipe or a device has no tail to cut
    size = os.fstat(fd).st_size
    end = size
    while end > 0:
        start = max(0, end - TAIL_CHUNK)
        chunk = os.pread(fd, end - start, start)
        if end == size and chunk.endswith(b"\n"):
            return
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            os.ftruncate(fd, start + newline + 1)
            return
        end = start
    if size:
        os.ftruncate(fd, 0)


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """All complete records of a transcript file (one being written is left out)."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.endswith("\n") and line.strip():
            records.append(json.loads(line))
    return records
