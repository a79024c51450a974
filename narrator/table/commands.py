"""Table commands between and during cues: repeat, pause, and the turn clock's alerts.

A mixin of `Scheduler`: `repeat` says the last line again, `pause` holds everything until
another `pause` (shifting the turn clock by the paused time), and a turn-clock warning
that fell due is spoken at the next chance.
"""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.errors import NoMoreAnswers
from narrator.table.clock import InstantClock

PAUSE_CHECK = 0.2
"""Real seconds between checks, while paused, that some listener is still there to end it."""


class TableCommands:
    """`repeat`, `pause` and turn-clock alerts for `Scheduler`."""

    async def _serve_commands(self) -> None:
        """Between cues: `repeat` says the last line again, `pause` waits for another;
        a turn-clock warning that fell due during the last cue is spoken here."""
        await self._say_clock_alert()
        while (heard := self.hub.command_nowait()) is not None:
            if heard.value == "repeat" and self._last is not None:
                await self._say(self._last, "say", repeat=True)
            elif heard.value == "pause":
                await self._pause()

    async def _pause(self) -> float:
        """Hold everything until `pause` (or `done`) comes again; returns the paused seconds."""
        began = self.clock.now()
        await self._say(self.voice.clip("control.paused"), "say")
        while (await self._command_while_paused()).value not in ("pause", "resume", "done"):
            pass
        self.cursor = self._slot(resync=True)
        await self._say(self.voice.clip("control.resumed"), "say")
        self.turn_clock.shift(self.clock.now() - began)
        return self.clock.now() - began

    async def _command_while_paused(self) -> Any:
        """The next command; a pause nothing is left to end (a script's last line) stops the
        game like a listener running dry, instead of holding it forever."""
        command = asyncio.ensure_future(self.hub.command())
        try:
            while not command.done():
                if not self.hub.sources:
                    raise NoMoreAnswers("the game is paused and no listener is left to end the pause (the answers "
                                        "file ended or there is no keyboard); `narrator resume` goes on from here")
                await asyncio.wait({command}, timeout=PAUSE_CHECK)
            return command.result()
        finally:
            command.cancel()

    def _turn_clock_wait(self) -> asyncio.Future | None:
        """A sleep to the turn clock's next deadline, raced against an open question.
        Not on an instant clock: there an answer takes no time, so the clock speaks only
        when the narration itself has used up the turn (checked between cues)."""
        deadline = self.turn_clock.next_deadline()
        if deadline is None or isinstance(self.clock, InstantClock):
            return None
        return asyncio.ensure_future(self.clock.sleep_until(deadline))

    async def _say_clock_alert(self) -> None:
        """Speak the turn clock's warning (or time up) if one is due now."""
        alert = self.turn_clock.due(self.clock.now())
        if alert is not None:
            self.cursor = self._slot(resync=True)
            await self._say(self.voice.clip(alert.line, alert.params), "say", turn_clock=alert.seconds_left)
