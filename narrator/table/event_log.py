"""The events log of one saved game (`events.jsonl`), read strictly.

Its first line binds it to its game: `{"type": "log", "id": …, "game": …}`, so a log
copied into another game's folder is refused instead of replayed into the wrong rules.
Every other line is one event, appended and fsynced before its step is played.

Reading tells three kinds of damage apart, because each calls for something different:
- a *torn tail* (bytes after the last newline: a power cut during an append) is cut
  before the next append; the step it began is simply played again;
- a *damaged line* in the middle (or a complete last line that is not an event) stops
  the resume with the file and the line, and `--cut-log` resumes from the events before it;
- an old log without its first line (written before the binding existed) is accepted
  and bound by the caller.
"""

from __future__ import annotations

import errno
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator import home
from narrator.errors import DamagedGame, SaveError
from narrator.cues import EVENT_TYPES

LOG_FILE = "events.jsonl"
MAX_LOG_BYTES = 64 * 1024 * 1024
"""A real game logs a few thousand short events; anything this large is not a log."""
HEADER = "log"


@dataclass
class LogReading:
    """What `events.jsonl` holds: the header (None for an old log), the events and the damage."""

    header: dict[str, Any] | None
    events: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    """The file's line number of each event (for messages)."""
    complete_bytes: int = 0
    """Length of the file up to the end of its last complete line."""
    torn_bytes: int = 0
    damaged_line: int | None = None
    damage: str = ""


def read_at_most(path: Path, limit: int) -> bytes | None:
    """Up to `limit` + 1 bytes of `path` (None when it does not exist); one line if unreadable.
    Read the home's careful way (`home.read_bounded`): a log that is a FIFO (which would block the
    start) or a device is damaged, not opened."""
    try:
        return home.read_bounded(path, limit)
    except home.DamagedFile as err:
        if path.is_dir():
            raise SaveError(f"cannot read {path} ({os.strerror(errno.EISDIR)}); check its permissions") from None
        raise DamagedGame(f"{err}; move its game folder away") from None
    except OSError as err:
        raise SaveError(f"cannot read {path} ({err.strerror}); check its permissions") from None


def read_log(path: Path) -> LogReading | None:
    """Parse `path` (None when it does not exist); damage is reported, not raised."""
    data = read_at_most(path, MAX_LOG_BYTES)
    if data is None:
        return None
    if len(data) > MAX_LOG_BYTES:
        raise DamagedGame(f"{path} is over {MAX_LOG_BYTES // 2**20} MiB, far more than any game logs; "
                          "it is not this game's log (move it away and start a new game)")
    end = data.rfind(b"\n") + 1
    reading = LogReading(header=None, complete_bytes=end, torn_bytes=len(data) - end)
    for number, raw in enumerate(data[:end].split(b"\n")[:-1], start=1):
        record, problem = _parse_line(raw)
        if problem is None and number == 1 and record["type"] == HEADER:
            reading.header = record
        elif problem is None and record["type"] == HEADER:
            problem = "a second log header"
        if problem is not None:
            reading.damaged_line, reading.damage = number, problem
            return reading
        if record["type"] != HEADER:
            reading.events.append(record)
            reading.lines.append(number)
    return reading


def _parse_line(raw: bytes) -> tuple[dict[str, Any], str | None]:
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return {}, "not UTF-8"
    except (json.JSONDecodeError, RecursionError) as err:
        return {}, f"not JSON ({err.__class__.__name__})"
    if not isinstance(record, dict):
        return {}, "not an object"
    kind = record.get("type")
    if kind == HEADER:
        if not isinstance(record.get("id"), str) or not isinstance(record.get("game"), str):
            return {}, "a log header without id and game"
        return record, None
    if kind not in EVENT_TYPES:
        return {}, f"unknown event type {str(kind)[:20]!r}"
    if kind == "answer" and "value" not in record:
        return {}, "an answer without a value"
    return record, None


def header_line(game_id: str, game: str, setup: dict[str, Any] | None = None) -> str:
    """The log's first line; `setup` (the checked config and run options) is a copy of
    meta.json's, so a meta.json lost to a lying SD card is rebuilt from the log."""
    record = {"type": HEADER, "id": game_id, "game": game, **({"setup": setup} if setup else {})}
    return json.dumps(record, ensure_ascii=False) + "\n"
