"""Table commands between and during cues: repeat, pause, and the turn clock's alerts.

A part of `Scheduler`: `repeat` says the last line again, `pause` holds everything until
another `pause` (shifting the turn clock by the paused time), and a turn-clock warning
that fell due is spoken at the next chance. The turn clock (Pagan's chess clock) lives
here because a pause is what moves it; the scheduler starts and stops it as cues say.
Countdowns and questions call `pause` and `turn_clock_wait` when a command comes to them.
"""

from __future__ import annotations

import asyncio
from narrator.cues import TurnClock
from narrator.errors import NoMoreAnswers
from narrator.inputs.hub import Heard, ListenerHub
from narrator.sound.voice import Voice
from narrator.table.narration import Narration
from narrator.table.timeline import Timeline
from narrator.table.turn_clock import TurnClockState

PAUSE_CHECK = 0.2
"""Real seconds between checks, while paused, that some listener is still there to end it."""


class TableCommands:
    """`repeat`, `pause` and the turn clock's alerts; owns the running turn clock."""

    def __init__(self, voice: Voice, hub: ListenerHub, narration: Narration, timeline: Timeline):
        self.voice, self.hub, self.narration, self.timeline = voice, hub, narration, timeline
        self.turn_clock = TurnClockState()

    async def between_cues(self) -> None:
        """Between cues: `repeat` says the last line again, `pause` waits for another;
        a turn-clock warning that fell due during the last cue is spoken here."""
        await self.say_clock_alert()
        while (heard := self.hub.command_nowait()) is not None:
            if heard.value == "repeat" and self.narration.last is not None:
                await self.narration.say(self.narration.last, "say", repeat=True)
            elif heard.value == "pause":
                await self.pause()

    async def pause(self) -> float:
        """Hold everything until `pause` (or `done`) comes again; returns the paused seconds."""
        began = self.timeline.now()
        await self.narration.say(self.voice.clip("control.paused"), "say")
        while (await self._command_while_paused()).value not in ("pause", "resume", "done"):
            pass
        self.timeline.resync()
        await self.narration.say(self.voice.clip("control.resumed"), "say")
        self.turn_clock.shift(self.timeline.now() - began)
        return self.timeline.now() - began

    async def _command_while_paused(self) -> Heard:
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

    def start_turn_clock(self, cue: TurnClock) -> None:
        """The active side's clock starts on the next slot (replacing the one running)."""
        start = self.timeline.slot()
        self.turn_clock.start(start, cue)
        self.narration.record("turn_clock", cue.line, "", start, seconds=cue.seconds)

    def stop_turn_clock(self) -> None:
        self.turn_clock.stop()

    def turn_clock_wait(self) -> asyncio.Future[None] | None:
        """A sleep to the turn clock's next deadline, raced against an open question.
        Not on an instant clock: there an answer takes no time, so the clock speaks only
        when the narration itself has used up the turn (checked between cues)."""
        deadline = self.turn_clock.next_deadline()
        if deadline is None or self.timeline.instant:
            return None
        return asyncio.ensure_future(self.timeline.sleep_until(deadline))

    async def say_clock_alert(self) -> None:
        """Speak the turn clock's warning (or time up) if one is due now."""
        alert = self.turn_clock.due(self.timeline.now())
        if alert is not None:
            self.timeline.resync()
            await self.narration.say(self.voice.clip(alert.line, alert.params), "say", turn_clock=alert.seconds_left)
