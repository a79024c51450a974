"""A game start that waits says so: one spoken estimate when rendering takes more than a few seconds.

Before a game's first line, the lines it can say and no cache holds yet are rendered (lines
setup missed, a table's own names and options). A table that hears nothing for a minute
thinks the narrator hangs, so once the render has run long enough to know its rate, the
time left is estimated from it; if that is more than `FEW_SECONDS`, the pack's
`render_ahead.*` line for it (「30秒ほど」 … 「10分以上」) is said once, and printed.
"""

from __future__ import annotations

from typing import Callable

FEW_SECONDS = 5.0
"""Renders expected to end sooner than this are not announced."""
MEASURE_FOR = 1.0
"""Seconds of rendering (at least one line done) before the rate is trusted."""
NOTICES = ((30, "render_ahead.half_minute"), (60, "render_ahead.one_minute"), (120, "render_ahead.two_minutes"),
           (300, "render_ahead.five_minutes"), (600, "render_ahead.ten_minutes"))
LONGER = "render_ahead.longer"


def notice_line(seconds: float) -> str:
    """The pack line that says how long: the first whose bound covers `seconds`."""
    return next((line for bound, line in NOTICES if seconds <= bound), LONGER)


class WaitNotice:
    """Wraps a progress callback: counts lines done and says the estimate once, when it is long."""

    def __init__(self, total: int, say: Callable[[str, float], None], clock: Callable[[], float],
                 progress: Callable[[int], object] | None = None):
        self.total, self.say, self.clock, self.progress = total, say, clock, progress
        self.done = 0
        self.started = clock()
        self.said: str | None = None

    def update(self, n: int = 1) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(n)
        if self.said is not None or not self.done or self.done >= self.total:
            return
        elapsed = self.clock() - self.started
        if elapsed < MEASURE_FOR:
            return
        left = (self.total - self.done) * elapsed / self.done
        if left > FEW_SECONDS:
            self.said = notice_line(left)
            self.say(self.said, left)
