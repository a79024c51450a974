"""One narrator per game: an exclusive `flock` on `games/<id>/lock`.

Two narrators on one game (the service and a manual `resume`, or two `resume`s) would
both append to its log and both replace its snapshot. The kernel drops a `flock` when
its holder dies, so a killed narrator never leaves a stale lock behind; the file itself
only says who holds it (pid and command), for the refusal line of the second one.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from narrator.errors import GameBusy, SaveError

LOCK_FILE = "lock"


_game_held = False


def game_held_here() -> bool:
    """True once this process has taken a game's lock: a Ctrl-C then stopped a saved game (only then
    is `narrator resume` the hint; `voices render` or `doctor` never hold one)."""
    return _game_held


class GameLock:
    """The lock of one game folder; `acquire` refuses when another process holds it."""

    def __init__(self, folder: Path):
        self.path = folder / LOCK_FILE
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, holder: str) -> None:
        """Take the lock for `holder` (e.g. "narrator resume"), or raise `GameBusy` naming who has it."""
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise SaveError(f"cannot open {self.path} ({err.strerror}); make {self.path.parent} "
                            "writable by the narrator's user") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            who = _read_holder(fd)
            os.close(fd)
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise SaveError(f"cannot lock {self.path} ({err.strerror})") from None
            raise GameBusy(f"game {self.path.parent.name} is being played by another narrator ({who}); "
                           "stop that one first (e.g. `sudo systemctl stop narrator`)") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()} ({holder})\n".encode(), 0)
        except OSError:
            pass  # the lock holds without its label; only the refusal line is poorer
        self._fd = fd
        global _game_held
        _game_held = True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


def held_by_other(folder: Path) -> str | None:
    """Who holds `folder`'s lock (another process), or None when it is free."""
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return _read_holder(fd)
    finally:
        os.close(fd)
    return None


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "a process that has not said who it is"
