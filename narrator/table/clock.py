"""The game's clock: seconds since the game started, real or instant.

The scheduler waits on absolute deadlines of this clock (t0 + k s), never on "sleep one
second after the clip", so ticks do not drift. `InstantClock` makes a 3-minute discussion
pass at once (`--time-scale 0`); `ScaledClock` runs real time, or faster for rehearsals;
`ManualClock` stands still until a test moves it ("at t = 3.2 the table types n"), so what
a test sees does not depend on how busy the machine is.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Callable, Protocol


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


class ManualClock:
    """A clock a test drives: `sleep_until` parks until the test moves the clock to its deadline.

    Unlike `InstantClock` nothing jumps by itself: the game waits at each deadline, as on a
    real clock, but no real time passes. `await clock.advance_to(3.2)` wakes the sleepers due
    by then one at a time in deadline order (the clock reads each one's deadline as it wakes)
    and lets the event loop settle after each, so everything due at or before 3.2 has run, in
    order, when it returns; then the test acts ("at t = 3.2 the table types n").
    """

    SETTLE_ROUNDS = 10_000
    """At most this many event-loop rounds per `settle` (a loop that never goes idle is a bug)."""

    def __init__(self, start_at: float = 0.0):
        self._now = start_at
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, t: float) -> None:
        if t <= self._now:
            return  # as on a real clock: a deadline passed does not even yield
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (t, next(self._order), woken))
        await woken  # a cancelled sleeper leaves a cancelled future: skipped when its time comes

    # --- the test's side -----------------------------------------------------------------

    def parked(self) -> list[float]:
        """The deadlines of the sleepers still waiting, earliest first."""
        return sorted(t for t, _, woken in self._sleepers if not woken.done())

    def next_deadline(self) -> float | None:
        parked = self.parked()
        return parked[0] if parked else None

    async def settle(self) -> None:
        """Run the event loop until nothing in it is ready to run (see `settle`)."""
        await settle(self.SETTLE_ROUNDS)

    async def advance_to(self, t: float) -> None:
        """Move the clock to `t`, waking every sleeper due by then in deadline order."""
        if t < self._now:
            raise ValueError(f"the clock cannot go back from {self._now} to {t}")
        await self.settle()
        while self._sleepers and self._sleepers[0][0] <= t:
            deadline, _, woken = heapq.heappop(self._sleepers)
            if woken.done():
                continue
            self._now = max(self._now, deadline)
            woken.set_result(None)
            await self.settle()
        self._now = t
        await self.settle()

    async def advance(self, seconds: float) -> None:
        await self.advance_to(self._now + seconds)

    async def run_until(self, done: Callable[[], bool], limit: float = 3600.0) -> float:
        """Advance deadline by deadline until `done()` holds; returns the time it held at.

        Raises if `limit` game seconds pass, or nothing is left parked, before it holds.
        """
        end = self._now + limit
        await self.settle()
        while not done():
            deadline = self.next_deadline()
            if deadline is None or deadline > end:
                raise TimeoutError(f"not reached by game second {min(end, deadline or end):g} "
                                   f"(the clock is at {self._now:g}, parked: {self.parked()[:5]})")
            await self.advance_to(deadline)
        return self._now


async def settle(rounds: int = ManualClock.SETTLE_ROUNDS) -> None:
    """Run the event loop until nothing in it is ready to run: every task is parked on a
    clock, an answer, a queue … (work in threads or sockets is not waited for)."""
    loop = asyncio.get_running_loop()
    idle = 0
    for _ in range(rounds):
        await asyncio.sleep(0)
        ready = _loop_idle(loop)
        if ready is None:  # a loop that does not show its queue: a fixed number of rounds
            for _ in range(100):
                await asyncio.sleep(0)
            return
        idle = idle + 1 if ready else 0
        if idle >= 3:
            return
    raise RuntimeError(f"the event loop did not settle in {rounds} rounds")


def _loop_idle(loop: asyncio.AbstractEventLoop) -> bool | None:
    """Nothing ready to run and no timer due; None if the loop does not show its queues
    (CPython's own loop does)."""
    ready = getattr(loop, "_ready", None)
    scheduled = getattr(loop, "_scheduled", None)
    if ready is None or scheduled is None:
        return None
    now = loop.time()
    return not ready and not any(not h.cancelled() and h.when() <= now for h in scheduled)


def make_clock(scale: float, start_at: float = 0.0) -> Clock:
    return InstantClock(start_at) if scale == 0 else ScaledClock(scale, start_at)
