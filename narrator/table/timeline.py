"""The timeline the scheduler's parts share: the game clock and when the next cue starts.

Every part of the scheduler (the narration, deadlines, private rounds, table commands)
places its lines one after another on this one cursor, so whoever speaks next follows the
line before, whichever part said it. It is its own object, handed to each part, so that no
part reaches into another for the time.
"""

from __future__ import annotations

from collections.abc import Awaitable

from narrator.table.clock import Clock, InstantClock

LATE_TOLERANCE = 0.05
"""Seconds a cue may start behind its slot before the timeline moves on to real time."""


class Timeline:
    """The game clock and the cursor: the game second the next cue starts at."""

    def __init__(self, clock: Clock, latency: float):
        self.clock = clock
        """Swapped whole when a game's own clock takes over (the appliance, on a resume)."""
        self.latency = latency
        """Game seconds between handing a clip over and the earliest it can be heard."""
        self.cursor = clock.now()

    def now(self) -> float:
        return self.clock.now()

    def sleep_until(self, t: float) -> Awaitable[None]:
        """The clock's own wait (not wrapped: a task made of it starts waiting as before)."""
        return self.clock.sleep_until(t)

    @property
    def instant(self) -> bool:
        """No time passes on this clock (`--time-scale 0`): an answer takes none either."""
        return isinstance(self.clock, InstantClock)

    def slot(self) -> float:
        """When the next cue starts: its slot on the timeline, unless the clock is past it."""
        now = self._earliest()
        if now - self.cursor > LATE_TOLERANCE:
            self.cursor = max(self.cursor, now)
        return self.cursor

    def resync(self) -> float:
        """After a wait of unknown length (an answer, a pause, the device handed over) the
        timeline moves on to now, however little it is behind; returns the new cursor."""
        self.cursor = max(self.cursor, self._earliest())
        return self.cursor

    def _earliest(self) -> float:
        """Now plus a live output's buffer: the earliest a clip handed over now can be heard."""
        return self.clock.now() + self.latency
