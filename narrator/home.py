"""The app's home folder: saved games, user voice packs, models, the default table file.

`NARRATOR_HOME` overrides it (tests, several tables on one machine); otherwise it follows
the XDG data directory so a Pi's service user keeps its games in its own home.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

SOURCE_VOICES = Path(__file__).resolve().parents[1] / "voices"
"""The bundled voice packs in a source tree (a clone, an editable install): beside the package."""
INSTALLED_VOICES = Path(sys.prefix) / "share" / "narrator" / "voices"
"""The bundled voice packs of an install from a wheel: its data files (pyproject `data-files`)."""


def app_home() -> Path:
    if os.environ.get("NARRATOR_HOME"):
        return Path(os.environ["NARRATOR_HOME"]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "narrator"


def bundled_voices() -> Path:
    """Where the packs that come with the narrator are: beside the package in a source tree,
    else where a wheel installed them (`<prefix>/share/narrator/voices`). The user's own
    packs (`app_home() / "voices"`) are looked at before these."""
    return SOURCE_VOICES if SOURCE_VOICES.is_dir() else INSTALLED_VOICES


# --- every file the narrator keeps, written and read the same careful way -------------------
#
# A Pi's SD card loses power mid-write and lies about fsync; a file met half-written must be one
# line and a way on, never a traceback that restarts the service in a loop. So every kept file
# (the saved game's, the phones', the table file, the model records) is written whole or not
# at all (a uniquely named temp file beside it, fsynced, renamed over, the folder fsynced) and
# read with a size bound; a damaged one can be set aside beside itself, under a new name.

MAX_KEPT_BYTES = 16 * 1024 * 1024
"""The files the narrator keeps are kilobytes; one bigger than this is not ours."""


class DamagedFile(ValueError):
    """A kept file that cannot be used as it is; `str(err)` says which and why (one line)."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"{path} is damaged ({reason})")
        self.path, self.reason = path, reason


def write_atomic(path: Path, data: bytes | str, mode: int = 0o600) -> None:
    """Replace `path` by `data` whole or not at all; an OSError (full, read-only) leaves it as it was."""
    import secrets

    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in `folder` survive a power cut."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_bounded(path: Path, limit: int = MAX_KEPT_BYTES) -> bytes | None:
    """Up to `limit` + 1 bytes of a regular file (None when missing). A FIFO or a device is
    refused rather than opened (opening a FIFO blocks until someone writes to it)."""
    import stat

    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise DamagedFile(path, "not a regular file")
        with path.open("rb") as f:
            return f.read(limit + 1)
    except FileNotFoundError:
        return None


def read_json(path: Path, limit: int = MAX_KEPT_BYTES) -> object:
    """The parsed JSON of `path`, None when it is missing; DamagedFile when it is not JSON."""
    import json

    data = read_bounded(path, limit)
    if data is None:
        return None
    if len(data) > limit:
        raise DamagedFile(path, f"over {limit // 2**20 or 1} MiB")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DamagedFile(path, "not UTF-8") from None
    except (ValueError, RecursionError) as err:
        raise DamagedFile(path, "empty" if not data.strip() else type(err).__name__) from None


def set_aside(path: Path) -> Path:
    """Rename a damaged `path` beside itself (`NAME.damaged-<time>`) so a fresh one can start
    and nothing is lost; returns the new name (or `path` when even that is refused)."""
    import time

    target = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    try:
        os.replace(path, target)
        fsync_dir(path.parent)
    except OSError:
        return path
    return target


def read_kept_json(path: Path, limit: int = MAX_KEPT_BYTES) -> tuple[object, DamagedFile | None, Path | None]:
    """A kept file's JSON read the careful way, with no reason to stop: (data, None, None), or
    (None, the damage, where it was set aside) when it is damaged. The caller says the one line
    (in the table's words) and goes on as if the file were missing: a damaged file that was not
    set aside would refuse every later start the same way."""
    try:
        return read_json(path, limit), None, None
    except DamagedFile as err:
        return None, err, set_aside(path)


_TEMP_NAME = re.compile(r"^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$")
"""The temp files `write_atomic` makes: `.NAME.<pid>.<8 hex>.tmp`, nobody else's name."""


def clean_stale_temps(folder: Path) -> list[Path]:
    """Remove the temp files `write_atomic` left in `folder` when its process was killed mid-write
    (a kill lands between the temp's creation and its rename; nothing else ever removes them).
    Only ours and only clearly stale: our name pattern, a regular file, and its writer's process
    gone (a live writer's temp, in this process or another narrator's, is left alone).
    Returns the ones removed; a folder that cannot be listed or a file that cannot be removed is
    left as it is (a read-only home still plays)."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMP_NAME.match(entry.name)
        try:
            if match is None or not entry.is_file(follow_symlinks=False) or _alive(int(match.group(1))):
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process, or a number no process has: leave it
    return True
