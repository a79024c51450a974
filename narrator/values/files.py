"""A small text file the table hands over (its table file, an answers file), read with a bound.

It stands apart because every room reads such a file (the table file, scripted answers,
saved games, game files) and each must fail the same way: a pipe, a missing file, a huge one
or one not in UTF-8 is one `SetupError` line naming the fix, never a hang or a traceback.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any

from narrator.errors import SetupError

MAX_FILE_BYTES = 1024 * 1024
"""Table and answers files are a few kilobytes; reading is bounded so /dev/zero cannot fill memory."""


def read_text_bounded(path: Path, what: str, fix: str) -> str:
    """A small UTF-8 text file, read with a size bound; any problem is one SetupError line."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):  # opening a FIFO blocks until someone writes
            raise SetupError(f"{what} {path} is a pipe, not a file; {fix}")
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise SetupError(f"{what} {path} not found; {fix}") from None
    except OSError as err:
        raise SetupError(f"{what} {path} cannot be read ({err.strerror}); {fix}") from None
    if len(data) > MAX_FILE_BYTES:
        raise SetupError(f"{what} {path} is larger than {MAX_FILE_BYTES // 1024} KiB; {fix}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise SetupError(f"{what} {path} line {line} is not UTF-8 text; save the file as UTF-8") from None


def read_table_file(path: Path) -> dict[str, Any]:
    """Parse a table file; any problem is one line that names the file and the fix."""
    text = read_text_bounded(path, "table file", "check the path given to --table")
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as err:  # ValueError: an integer over 4300 digits
        raise SetupError(f"table file {path} is not valid TOML: {err}; fix that line") from None
    except RecursionError:
        raise SetupError(f"table file {path} nests tables or lists too deeply; a table file is flat") from None
