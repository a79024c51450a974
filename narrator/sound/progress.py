"""How far a render is, at the terminal: done / total, the rate, and the time left.

A render of a whole pack takes minutes (hours with the natural voice on a Pi), so whoever
waits must see it move. At a terminal this is a click progress bar with the rate beside
it; in a log (no terminal: the service, setup piped to a file) one line every `EVERY`
seconds, so a log never goes silent for minutes and never fills with a bar's redraws.
One estimate only: the bar's own ETA is off (it counted from the bar's start, the rate
beside it from the work done, and the two disagreed), and a finished bar says 0 s left.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TYPE_CHECKING, Callable, TextIO

if TYPE_CHECKING:
    from click.termui import ProgressBar

EVERY = 15.0
"""Seconds between two progress lines when the output is not a terminal."""


def rate_text(done: int, elapsed: float, total: int, unit: str = "lines") -> str:
    """「2.4 lines/s, about 3 min left」 (nothing measured yet: an empty string; all done: 0 s left)."""
    if done <= 0 or elapsed <= 0:
        return ""
    rate = done / elapsed
    left = max(0, total - done) / rate
    return f"{rate:.1f} {unit}/s, {_duration(left)} left"


def _duration(seconds: float) -> str:
    if seconds <= 0:
        return "0 s"
    if seconds < 60:
        return f"about {max(1, round(seconds))} s"
    if seconds < 3600:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"


class Progress:
    """`update(n)` as work is done; a context manager that closes the bar or says the last line."""

    def __init__(self, total: int, label: str, unit: str = "lines", out: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.label, self.unit = total, label, unit
        self.out = out or sys.stderr
        self.clock = clock
        self.done = 0
        self.started = clock()
        self._printed = self.started
        self._bar: ProgressBar[int] | None = None
        if self.out.isatty():
            import click

            self._bar = click.progressbar(length=total, label=label, file=self.out, show_pos=True,
                                          show_eta=False, item_show_func=lambda _: self.rate())
            self._bar.__enter__()
        else:
            print(f"{label}: {total} {unit}", file=self.out, flush=True)

    def rate(self) -> str:
        return rate_text(self.done, self.clock() - self.started, self.total, self.unit)

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n, self.done)
            return
        now = self.clock()
        if now - self._printed >= EVERY and self.done < self.total:
            self._printed = now
            print(f"{self.label}: {self.done}/{self.total} {self.unit}, {self.rate()}", file=self.out, flush=True)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, error, trace)
        elif kind is None:
            print(f"{self.label}: {self.done}/{self.total} {self.unit} in {self.clock() - self.started:.0f} s",
                  file=self.out, flush=True)
