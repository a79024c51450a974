"""The scheduler: plays a step's cues in time; the only place that waits.

Time is kept on absolute deadlines of the game clock: a countdown's tick k starts at
t0 + k whatever the clips cost, and every clip is prepared before its deadline, so
nothing drifts. Between cues it serves `repeat` and `pause`; during countdowns and timers
a `done` ends them early. Each cue is written to the transcript at its scheduled start.
"""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.audio import AudioOutput
from narrator.clock import Clock
from narrator.cues import Ask, Countdown, Cue, End, Say, Timer
from narrator.display import ConsoleDisplay
from narrator.listeners import Heard, ListenerHub
from narrator.speech.voice import Clip
from narrator.transcript import Transcript

LATE_TOLERANCE = 0.05
"""Seconds a cue may start behind its slot before the timeline moves on to real time."""


class Scheduler:
    def __init__(self, voice: Any, output: AudioOutput, clock: Clock, hub: ListenerHub,
                 transcript: Transcript, display: ConsoleDisplay):
        self.voice, self.output, self.clock, self.hub = voice, output, clock, hub
        self.transcript, self.display = transcript, display
        self.cursor = clock.now()
        self.context: dict[str, Any] = {}
        self._last: Clip | None = None

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None:
        """Play cues in order; return the answer when the last one is an `Ask`."""
        self.context = context
        heard = None
        for cue in cues:
            if isinstance(cue, Say):
                await self._say(self.voice.clip(cue.line, cue.params), "say")
            elif isinstance(cue, Countdown):
                await self._countdown(cue)
            elif isinstance(cue, Timer):
                await self._timer(cue)
            elif isinstance(cue, Ask):
                heard = await self._ask(cue)
            elif isinstance(cue, End):
                clip = self.voice.clip(cue.line, cue.params)
                await self._say(clip, "end", winner=cue.winner, **cue.outcome)
            await self._serve_commands()
        return heard

    # --- cues ------------------------------------------------------------------------------

    async def _say(self, clip: Clip, kind: str, **extra: Any) -> None:
        start = self._slot()
        await self.clock.sleep_until(start)
        self._start_clip(clip)
        self._record(kind, clip.spoken.line, clip.spoken.text, start, **extra)
        self._last = clip
        self.cursor = start + clip.duration
        await self.clock.sleep_until(self.cursor)

    async def _countdown(self, cue: Countdown) -> None:
        clips = [self.voice.clip("tick", {"n": n}) for n in range(cue.seconds, -1, -1)]
        self.hub.drain_commands()
        t0 = self._slot()
        for k, clip in enumerate(clips):
            deadline = t0 + k
            outcome, shift = await self._wait_or_done(deadline)
            t0 += shift
            if outcome == "done":
                self.cursor = max(self.clock.now(), self.cursor)
                return
            self._start_clip(clip)
            self.display.tick(clip.spoken.text)
            self._record("tick", "tick", clip.spoken.text, t0 + k, n=cue.seconds - k)
            self.cursor = t0 + k + clip.duration
        await self.clock.sleep_until(self.cursor)

    async def _timer(self, cue: Timer) -> None:
        warnings = [(w, self.voice.clip("timer.warning", {"seconds": w})) for w in cue.warnings if w < cue.seconds]
        self.hub.drain_commands()
        t0 = self._slot()
        self._record("timer", cue.line, "", t0, seconds=cue.seconds)
        for left, clip in warnings:
            outcome, shift = await self._wait_or_done(t0 + cue.seconds - left)
            t0 += shift
            if outcome == "done":
                self.cursor = max(self.clock.now(), self.cursor)
                return
            start = t0 + cue.seconds - left
            self._start_clip(clip)
            self._record("timer", clip.spoken.line, clip.spoken.text, start, seconds_left=left)
        outcome, shift = await self._wait_or_done(t0 + cue.seconds)
        self.cursor = self.clock.now() if outcome == "done" else t0 + shift + cue.seconds

    async def _ask(self, cue: Ask) -> Heard:
        """Ask and wait for the first fitting answer; `undo` instead returns that command."""
        question = self.voice.clip(cue.line, cue.params)
        await self._say(question, "ask", choices=list(cue.choices))
        self.display.prompt(cue)
        answer_task = asyncio.ensure_future(self.hub.answer(cue))
        try:
            while True:
                command_task = asyncio.ensure_future(self.hub.command())
                await asyncio.wait({answer_task, command_task}, return_when=asyncio.FIRST_COMPLETED)
                if answer_task.done():
                    command_task.cancel()
                    break
                command = command_task.result()
                if command.value == "repeat":
                    await self._say(question, "ask", choices=list(cue.choices), repeat=True)
                elif command.value == "undo":
                    self.cursor = self._slot(resync=True)
                    self._record("answer", cue.line, "", self.cursor, value="undo", source=command.source)
                    return command
        finally:
            if not answer_task.done():
                answer_task.cancel()
        heard = answer_task.result()
        self.cursor = self._slot(resync=True)
        self._record("answer", cue.line, "", self.cursor, value=heard.value, source=heard.source)
        return heard

    # --- helpers ---------------------------------------------------------------------------

    def _slot(self, resync: bool = False) -> float:
        """When the next cue starts: its slot on the timeline, unless the clock is past it."""
        now = self.clock.now()
        if resync or now - self.cursor > LATE_TOLERANCE:
            self.cursor = max(self.cursor, now)
        return self.cursor

    def _start_clip(self, clip: Clip) -> None:
        if clip.wav is not None:
            self.output.start(clip.wav)
        if clip.spoken.line != "tick":
            self.display.line(clip.spoken.text)

    async def _wait_or_done(self, deadline: float) -> tuple[str, float]:
        """Sleep to `deadline` unless `done` comes first; a pause shifts the deadline."""
        shift = 0.0
        while True:
            sleeper = asyncio.ensure_future(self.clock.sleep_until(deadline + shift))
            command = asyncio.ensure_future(self.hub.command())
            await asyncio.wait({sleeper, command}, return_when=asyncio.FIRST_COMPLETED)
            if sleeper.done() and not command.done():
                command.cancel()
                return "elapsed", shift
            sleeper.cancel()
            heard = command.result()
            if heard.value == "done":
                return "done", shift
            if heard.value == "pause":
                shift += await self._pause()

    async def _serve_commands(self) -> None:
        """Between cues: `repeat` says the last line again, `pause` waits for another."""
        while (heard := self.hub.command_nowait()) is not None:
            if heard.value == "repeat" and self._last is not None:
                await self._say(self._last, "say", repeat=True)
            elif heard.value == "pause":
                await self._pause()

    async def _pause(self) -> float:
        """Hold everything until `pause` (or `done`) comes again; returns the paused seconds."""
        began = self.clock.now()
        await self._say(self.voice.clip("control.paused"), "say")
        while (await self.hub.command()).value not in ("pause", "done"):
            pass
        self.cursor = self._slot(resync=True)
        await self._say(self.voice.clip("control.resumed"), "say")
        return self.clock.now() - began

    def _record(self, kind: str, line: str, text: str, t: float, **extra: Any) -> None:
        self.transcript.write({"kind": kind, "line": line, "text": text, "t": round(t, 3), **self.context, **extra})
