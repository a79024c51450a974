"""Cues that run on deadlines: countdowns and timers, each clip on its own second.

A countdown's whole path is in this file. A night call is `Say(wake)`, `Countdown(n)`,
`Say(sleep)`: the scheduler says the wake line (the step's instruction) and hands the
countdown to `Deadlines.countdown`. Its t0 is the next slot of the timeline; every tick
k is handed to the output at once with its start t0 + k (`_on_deadlines`), so the mixer
puts each on its exact second whatever the clips cost or the scheduler's wake-up. Then it
waits for each deadline in turn (`_wait_or_done`), and as each passes the tick is shown,
written to the transcript and the listeners muted under it. A `done` ends it early (and
the ticks not yet heard are taken back) unless it is night and `night_done` is off: a
voice at night would tell who is awake, and an early end how fast they were. A `pause`
(from `TableCommands`) or a `repeat` of the instruction takes the ticks back and hands
them over again, later by the time it took. Once the last tick is heard the scheduler
says the sleep line on the cursor the countdown left.

A `Timer` runs the same way with its warnings as the clips and its end as a last deadline.
"""

from __future__ import annotations

import asyncio
import math
from functools import partial
from typing import Any, Callable

from narrator.cues import Countdown, Timer
from narrator.inputs.hub import Heard, ListenerHub
from narrator.sound.clips import RATE, WIDTH
from narrator.sound.outputs import AudioOutput
from narrator.sound.voice import Clip, Voice
from narrator.table.commands import TableCommands
from narrator.table.display import ConsoleDisplay
from narrator.table.narration import Narration
from narrator.table.timeline import Timeline


def _unheard(pending: dict[int, int | None], k: int, count: int) -> list[int | None]:
    """The handles of clips k … count-1 (those not yet heard), listed when a pause takes them back."""
    return [pending[j] for j in range(k, count)]


class Deadlines:
    """Countdowns and timers; keeps when the running timer ends (for the time shown left)."""

    def __init__(self, voice: Voice, output: AudioOutput, hub: ListenerHub, narration: Narration,
                 timeline: Timeline, commands: TableCommands, night_done: bool):
        self.voice, self.output, self.hub = voice, output, hub
        self.narration, self.timeline, self.commands = narration, timeline, commands
        self.night_done = night_done
        """Whether a `done` ends a night countdown early (table-file key `night_done`)."""
        self._timer_end = 0.0

    @property
    def display(self) -> ConsoleDisplay:
        """The narration's display: one for the whole scheduler (a test may swap it)."""
        return self.narration.display

    async def countdown(self, cue: Countdown) -> None:
        """Ticks n, n - 1 … 0, tick k on second t0 + k of the timeline."""
        clips = [self.voice.clip("tick", {"n": n}) for n in range(cue.seconds, -1, -1)]
        await self._on_deadlines([(k, clip) for k, clip in enumerate(clips)], end=None, kind="tick")

    async def timer(self, cue: Timer, until: asyncio.Future[Heard] | None = None) -> None:
        """The timer's warnings on their seconds, then its end sound; `done` or the future
        `until` (a phone round everyone has answered) ends it early."""
        warnings: list[tuple[float, Clip]] = [(cue.seconds - w, self.voice.clip("timer.warning", {"seconds": w}))
                    for w in cue.warnings if w < cue.seconds]
        self.narration.record("timer", cue.line, "", self.timeline.slot(), seconds=cue.seconds)
        self._timer_end = self.timeline.slot() + cue.seconds
        self.display.time_left(cue.seconds)
        ticker = self._time_left_ticker()
        try:
            await self._on_deadlines(warnings, end=cue.seconds, kind="timer", until=until)
        finally:
            if ticker is not None:
                ticker.cancel()
        self.display.time_left(0)
        self.display.end_count()
        self.timeline.cursor += self._play_sound("timer_end", self.timeline.cursor)

    def _time_left_ticker(self) -> asyncio.Task[None] | None:
        """On a terminal, the time left is updated every second (on its line, in place)."""
        if not (self.display.show_lines and self.display.in_place) or self.timeline.instant:
            return None

        async def tick() -> None:
            while True:  # each whole second left, on its second (0:00 is shown when the timer ends)
                shown = math.ceil(self._timer_end - self.timeline.now() - 1e-6) - 1
                if shown < 1:
                    return
                await self.timeline.sleep_until(self._timer_end - shown)
                self.display.time_left(shown)

        return asyncio.ensure_future(tick())

    async def _on_deadlines(self, timed: list[tuple[float, Clip]], end: float | None, kind: str,
                            until: asyncio.Future[Heard] | None = None) -> None:
        """Play clips at t0 + offset each, all handed to the output at once; `done` (or the
        future `until`) ends early.

        The transcript and the display follow each deadline as it passes; a pause takes
        back the clips not yet heard and hands them over again, later by the pause's length.
        """
        narration, timeline = self.narration, self.timeline
        self.hub.drain_commands()
        t0 = timeline.slot()
        pending = {k: narration.hand_over(clip, t0 + off, show=False) for k, (off, clip) in enumerate(timed)}
        for k, (off, clip) in enumerate(timed):
            # the clips not yet heard, listed only if a pause takes them back (listing them at
            # every tick made a long countdown quadratic: look 32000 took 25 s at time scale 0)
            outcome, shift = await self._wait_or_done(
                t0 + off, until, pending=partial(_unheard, pending, k, len(timed)))
            if shift:
                t0 += shift
                self._timer_end = t0 + (end or 0)
                for j in range(k, len(timed)):
                    pending[j] = narration.hand_over(timed[j][1], t0 + timed[j][0], show=False)
            if outcome == "done":
                for j in range(k, len(timed)):
                    handle = pending[j]
                    if handle is not None:  # a silent clip was never handed to the output
                        self.output.cancel(handle)
                timeline.cursor = max(timeline.now(), timeline.cursor)
                self.display.end_count()
                return
            narration.show(clip)
            if kind == "timer" and not self.display.in_place:
                self.display.time_left((end or 0) - off)
            narration.heard_at(t0 + off, clip)  # listeners mute while the narrator talks
            if kind == "tick":
                narration.record("tick", "tick", clip.spoken.text, t0 + off, n=len(timed) - 1 - k)
            else:
                narration.record("timer", clip.spoken.line, clip.spoken.text, t0 + off, seconds_left=(end or 0) - off)
            timeline.cursor = t0 + off + clip.duration
        if end is None:
            await timeline.sleep_until(timeline.cursor)
            self.display.end_count()
            return
        outcome, shift = await self._wait_or_done(t0 + end, until)
        timeline.cursor = timeline.now() if outcome == "done" else t0 + shift + end

    async def _wait_or_done(self, deadline: float, until: asyncio.Future[Heard] | None = None,
                            pending: Callable[[], list[Any]] = list) -> tuple[str, float]:
        """Sleep to `deadline` unless `done` (or the future `until`) comes first; a pause shifts it.

        At night a `done` is ignored unless `night_done` is set. On a pause the clips in
        `pending()` are taken back (the caller hands them over again, shifted).
        """
        shift = 0.0
        while True:
            sleeper = asyncio.ensure_future(self.timeline.sleep_until(deadline + shift))
            command = asyncio.ensure_future(self.hub.command())
            waiting = {sleeper, command} | ({until} if until is not None else set())
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if until is not None and until.done() and not command.done():
                sleeper.cancel()
                command.cancel()
                return "done", shift
            if sleeper.done() and not command.done():
                command.cancel()
                return "elapsed", shift
            sleeper.cancel()
            heard = command.result()
            if heard.value == "done" and (self.night_done or not self.narration.at_night()):
                return "done", shift
            if heard.value == "pause" or (heard.value == "repeat" and self.narration.instruction is not None):
                for handle in pending():
                    if handle is not None:
                        self.output.cancel(handle)
                pending = list
                shift += await (self.commands.pause() if heard.value == "pause" else self._repeat_instruction())

    async def _repeat_instruction(self) -> float:
        """`repeat` during a countdown or timer: say the call's instruction again, the clock
        held meanwhile; returns the seconds it took."""
        began = self.timeline.now()
        self.timeline.resync()
        if self.narration.instruction is not None:  # (always: `repeat` is heard here only then)
            await self.narration.say(self.narration.instruction, "say", repeat=True)
        return self.timeline.now() - began

    def _play_sound(self, name: str, at: float) -> float:
        """Play the pack's sound for `name` (if it maps one) at `at`; returns its length."""
        pcm = self.voice.sound(name)
        if pcm is None:
            return 0.0
        self.output.start(pcm, at, speech=False)
        return len(pcm) / (WIDTH * RATE)
