"""The chess-clock turn timer: deadlines that run across questions without blocking them.

A `TurnClock` cue starts the active side's clock; it keeps running while the narrator
reads steps and waits for answers, and the next turn's `TurnClock` replaces it (the
clock passes to the other side). The scheduler asks `due(now)` between cues and races
`next_deadline()` against the open question, so a warning is never spoken over a line.
This class only keeps the deadlines: no clock, no audio, so it is tested directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from narrator.cues import TurnClock


@dataclass(frozen=True)
class ClockAlert:
    """One thing the clock has to say: a voice-pack line and its parameters."""

    line: str
    params: dict[str, Any]
    seconds_left: int


class TurnClockState:
    """The pending alerts of the running turn clock, as absolute game-clock deadlines."""

    def __init__(self) -> None:
        self._pending: list[tuple[float, ClockAlert]] = []

    def start(self, now: float, cue: TurnClock) -> None:
        """Run `cue`'s clock from `now`, replacing any running one (`seconds` 0 stops it)."""
        self._pending = []
        if cue.seconds <= 0:
            return
        for left in sorted({w for w in cue.warnings if 0 < w < cue.seconds}, reverse=True):
            self._pending.append((now + cue.seconds - left, ClockAlert(cue.warning_line, {"seconds": left}, left)))
        if cue.end_line:
            self._pending.append((now + cue.seconds, ClockAlert(cue.end_line, {}, 0)))

    def stop(self) -> None:
        self._pending = []

    @property
    def running(self) -> bool:
        return bool(self._pending)

    def next_deadline(self) -> float | None:
        return self._pending[0][0] if self._pending else None

    def due(self, now: float) -> ClockAlert | None:
        """The alert to speak at `now`: of several overdue ones only the latest (a stale
        "60 seconds left" after a long line is noise), or None."""
        alert = None
        while self._pending and self._pending[0][0] <= now:
            alert = self._pending.pop(0)[1]
        return alert

    def shift(self, seconds: float) -> None:
        """Move every deadline later (the game was paused: nobody's clock ran)."""
        self._pending = [(t + seconds, alert) for t, alert in self._pending]
