"""Durable writes in one saved game's folder, each disk failure one line naming the fix.

A line appended to the events log is fsynced before the step it starts is played; a file is
written whole or not at all (`home.write_atomic`); a file read back that is not ours (unreadable,
not JSON, too big) is a `DamagedGame`, whose meaning is the caller's. Apart from `GameStore`
(which decides what the files hold: meta, log, snapshot) because this is how any of them
reaches the disk, and the one place a `SaveError`'s wording is made (free space, make it
writable, then resume: what was saved is kept).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from narrator import home
from narrator.errors import DamagedGame, SaveError
from narrator.table.event_log import LOG_FILE

MAX_JSON_BYTES = 16 * 1024 * 1024
"""meta.json and snapshot.json are a few kilobytes; a bigger one is not ours."""


class GameFolder:
    """One game's folder on disk (`folder`, named by the game's `id`): its writes and reads."""

    folder: Path
    id: str

    def _append(self, text: str) -> None:
        path = self.folder / LOG_FILE
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, text.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as err:
            raise self._save_error(err) from None

    def _truncate(self, path: Path, size: int) -> None:
        try:
            with path.open("r+b") as f:
                f.truncate(size)
                f.flush()
                os.fsync(f.fileno())
        except OSError as err:
            raise self._save_error(err) from None

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        self._write_text(name, json.dumps(data, ensure_ascii=False))

    def _write_text(self, name: str, text: str) -> None:
        self._write_bytes(name, text.encode("utf-8"))

    def _write_bytes(self, name: str, data: bytes) -> None:
        """Write `name` whole or not at all (`home.write_atomic`)."""
        try:
            home.write_atomic(self.folder / name, data)
        except OSError as err:
            raise self._save_error(err) from None

    def _read_json(self, name: str) -> object:
        """The parsed file, None when it is missing; unreadable or not JSON raises DamagedGame
        (what it means is the caller's: a snapshot is rebuilt, a meta.json too, from the log)."""
        try:
            return home.read_json(self.folder / name, MAX_JSON_BYTES)
        except home.DamagedFile as err:
            raise DamagedGame(f"saved game {self.id}: {err}") from None
        except OSError as err:
            raise SaveError(f"cannot read {self.folder / name} ({err.strerror}); check its permissions") from None

    def _save_error(self, err: OSError) -> SaveError:
        return SaveError(f"cannot save game {self.id} in {self.folder} ({err.strerror}); free some space or "
                         f"make it writable, then `narrator resume {self.id}` (what was saved is kept)")
