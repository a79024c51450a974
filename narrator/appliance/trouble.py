"""What the table hears when something is wrong, and how the appliance gets past it alone.

A screenless Pi restarted by systemd after every error greets the table again and again and
never says why; so the appliance names each error it can name in one spoken line (in the
table's language, from the voice pack) and waits for the button, then tries again. A full
card, a read-only card and an unwritable table file each have their own line: the fix differs
(free space, check the card, the game goes on without saving the choice). A table file that
is not TOML text at all is set aside beside itself (nothing is lost) and the defaults written
in its place, so the next start does not stumble on it again (`table_at_boot`: the service
plays on the defaults rather than crash-loop on a file it cannot read). A damaged saved game, or one
another narrator is playing, is named in the log and skipped when the appliance looks for a
game to resume.
"""

from __future__ import annotations

import errno
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import AbstractSet, Any, Callable, Mapping

from narrator import home
from narrator.appliance.table import (
    DEFAULT_TABLE, ApplianceConfig, UnreadableTable, check_table, ensure_table, load_table, table_path,
)
from narrator.errors import NarratorError, SetupError
from narrator.settings import TableSettings
from narrator.table.lock import held_by_other
from narrator.table.saved_games import saved_games, unfinished
from narrator.table.store import GameStore

FULL = {errno.ENOSPC, errno.EDQUOT}
READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


def os_error(err: BaseException) -> OSError | None:
    """The OSError behind a NarratorError (raised `from None`, so it is its context)."""
    seen: BaseException | None = err
    for _ in range(5):
        if seen is None or isinstance(seen, OSError):
            return seen
        seen = seen.__context__
    return None


def line_for(err: BaseException) -> str:
    """The line that tells the table what went wrong: the card full, read-only, or another
    error (its one line is in the journal)."""
    cause = os_error(err)
    if cause is not None and cause.errno in FULL:
        return "appliance.disk_full"
    if cause is not None and cause.errno in READ_ONLY:
        return "appliance.disk_read_only"
    return "appliance.trouble"


def set_aside_table(path: Path, log: Callable[[str], None], write_default: Callable[[], object]) -> bool:
    """Move a table file that cannot be read aside and write the defaults in its place; True
    when the new file is there (False: the card refused, the defaults are played anyway)."""
    kept = home.set_aside(path)
    if kept == path:
        log(f"cannot set {path} aside; playing the default table until it is fixed")
        return False
    try:
        write_default()
    except Exception as err:
        log(f"set {path} aside as {kept.name}; cannot write a new one ({err})")
        return False
    log(f"set {path} aside as {kept.name}; a new table file with the defaults is in its place")
    return True


@dataclass
class BootTable:
    """The table the service starts on, and what the table hears about its file."""

    path: Path
    table: dict[str, Any]
    settings: TableSettings
    appliance: ApplianceConfig
    error: str | None
    """Why the file is not played (the defaults are); None when it is sound."""
    line: str | None
    """The line said after the greeting about the table file (None: nothing to say)."""


def table_at_boot(given: Path | None, overrides: Mapping[str, Any], log: Callable[[str], None]) -> BootTable:
    """The table file `given` (else the home one, written if missing); a file that cannot be
    read or fails its checks is named in the log and the defaults are played instead, and an
    unreadable home one is set aside (`set_aside_table`)."""
    try:
        path = given or ensure_table()
    except NarratorError as err:  # a full or read-only card: said once the greeting is heard
        path = table_path()
        log(f"{err}")
    table_error, table_line = None, "appliance.table_error"
    try:
        table = load_table(path)
        settings, _, appliance = check_table(table, f"table file {path}", overrides)
    except SetupError as err:
        # Nobody reads a Pi's screen: say so, and play on the defaults rather than crash-loop.
        table_error = str(err)
        log(f"{err}; using the default table until it is fixed (`narrator config edit`)")
        if isinstance(err, UnreadableTable) and given is None:
            table_line = "appliance.table_set_aside"
            if set_aside_table(path, log, ensure_table):
                table_error = None  # the new file is sound: choices are saved into it
        table = tomllib.loads(DEFAULT_TABLE)
        settings, _, appliance = check_table(table, "default table", overrides)
    line = table_line if table_error or table_line != "appliance.table_error" else None
    return BootTable(path, table, settings, appliance, table_error, line)


def latest_unfinished(root: Path, log: Callable[[str], None] | None = None,
                      skip: AbstractSet[str] = frozenset()) -> GameStore | None:
    """The latest unfinished game this appliance may take: a damaged game, or one another
    narrator is playing, is named in the log and skipped, never a reason to stop."""
    log = log or (lambda message: None)
    found = []
    for store in saved_games(root):
        if store.id in skip:
            continue
        problem = store.problem()
        if not problem:
            try:
                if not unfinished(store):
                    continue
            except NarratorError as err:
                problem = str(err)
        if problem:
            log(f"skipping a damaged game: {problem}")
        else:
            holder = held_by_other(store.folder)
            if holder:
                log(f"skipping game {store.id}: another narrator is playing it ({holder})")
            else:
                found.append(store)
    return found[-1] if found else None
