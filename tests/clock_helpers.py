"""How a test waits for a game to reach a point, without sleeping a fixed real time.

In process, the game runs on a `narrator.table.clock.ManualClock` and the test moves it
("at t = 3.2 the table types n"). A game in another process cannot be driven that way: the
test waits for something it can see (a transcript line written, a line printed, a file
made), polled against a generous deadline, so a loaded machine only makes it wait longer.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from narrator.table.transcript import read_transcript

PATIENCE = 60.0
"""Real seconds a test waits for a point the game must reach (a loaded machine is slow, not stuck)."""


def wait_until(seen: Callable[[], Any], what: str, timeout: float = PATIENCE, every: float = 0.02,
               alive: Callable[[], bool] | None = None) -> Any:
    """Poll `seen()` until it returns something truthy (returned); AssertionError naming `what`
    after `timeout` real seconds, or as soon as `alive()` says the process has ended."""
    end = time.monotonic() + timeout
    while True:
        result = seen()
        if result:
            return result
        if alive is not None and not alive():
            result = seen()
            if result:
                return result
            raise AssertionError(f"the process ended before {what}")
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        time.sleep(every)


def records(path: Path) -> list[dict[str, Any]]:
    """The complete records of a transcript being written (none before it exists)."""
    return read_transcript(path) if path.exists() else []


def wait_for_record(path: Path, match: Callable[[dict[str, Any]], bool], what: str,
                    timeout: float = PATIENCE, alive: Callable[[], bool] | None = None) -> dict[str, Any]:
    """The first record of the transcript at `path` that `match`es, once it has been written."""
    return wait_until(lambda: next((r for r in records(path) if match(r)), None), what, timeout, alive=alive)
