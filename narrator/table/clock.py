"""The game's clock: seconds since the game started, real or instant.

The scheduler waits on absolute deadlines of this clock (t0 + k s), never on "sleep one
second after the clip", so ticks do not drift. `InstantClock` makes a 3-minute discussion
pass at once (`--time-scale 0`); `ScaledClock` runs real time, or faster for rehearsals.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Game seconds since the start (continuing across a resume)."""

    async def sleep_until(self, t: float) -> None:
        """Return once the game clock reaches `t` (at once if it already has)."""


class ScaledClock:
    """Monotonic real time; `scale` 0.1 runs the game ten times faster."""

    def __init__(self, scale: float = 1.0, start_at: float = 0.0):
        self.scale = scale
        self._origin = time.monotonic()
        self._start_at = start_at

    def now(self) -> float:
        return self._start_at + (time.monotonic() - self._origin) / self.scale

    async def sleep_until(self, t: float) -> None:
        remaining = (t - self.now()) * self.scale
        if remaining > 0:
            await asyncio.sleep(remaining)

    def to_monotonic(self, t: float) -> float:
        """The `time.monotonic()` instant at which the game clock reads `t` (for live audio)."""
        return self._origin + (t - self._start_at) * self.scale

    def from_monotonic(self, m: float) -> float:
        return self._start_at + (m - self._origin) / self.scale


class InstantClock:
    """A virtual clock that jumps to each deadline: whole games in milliseconds."""

    def __init__(self, start_at: float = 0.0):
        self._now = start_at

    def now(self) -> float:
        return self._now

    async def sleep_until(self, t: float) -> None:
        self._now = max(self._now, t)
        await asyncio.sleep(0)


def make_clock(scale: float, start_at: float = 0.0) -> Clock:
    return InstantClock(start_at) if scale == 0 else ScaledClock(scale, start_at)
