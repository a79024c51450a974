"""The scheduler: plays a step's cues in time; the only place that waits.

Time is kept on absolute deadlines of the game clock: a countdown's tick k starts at
t0 + k whatever the clips cost. Every clip is rendered ahead and handed to the audio
output *with its start time* before that time comes (all ticks of a countdown at once,
timer warnings when the timer starts), so the output's mixer puts each on its exact
sample however late the scheduler wakes; a `done` or `pause` takes back the ones not yet
heard. Between cues it serves `repeat` and `pause`; during countdowns and timers a `done`
ends them early, except at night when `night_done` is off (a voice at night would tell who
is awake, and an early end would tell how fast they were). Each cue is written to the
transcript at its scheduled start on the timeline, which is where `--audio-out` puts it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from narrator.audio import AudioOutput
from narrator.clips import RATE, WIDTH
from narrator.clock import Clock
from narrator.cues import Ask, Countdown, Cue, End, Say, Timer
from narrator.display import ConsoleDisplay
from narrator.listeners import Heard, ListenerHub
from narrator.speech.voice import Clip
from narrator.transcript import Transcript

LATE_TOLERANCE = 0.05
"""Seconds a cue may start behind its slot before the timeline moves on to real time."""
LEAD = 0.25
"""Seconds ahead of its start a clip is handed to the output (it waits there, on its sample)."""


@dataclass(frozen=True)
class NightOptions:
    """How the night sounds (table-file keys `night_done`, `ambience`, `ambience_volume`)."""

    night_done: bool = False
    """Whether a `done` ends a night countdown early. Off: every call lasts the same."""
    ambience: bool = True
    """Loop the pack's `ambience` sound under the night, ducked under speech (if it has one)."""
    ambience_volume: float = 0.3


class Scheduler:
    def __init__(self, voice: Any, output: AudioOutput, clock: Clock, hub: ListenerHub,
                 transcript: Transcript, display: ConsoleDisplay, night: NightOptions | None = None):
        self.voice, self.output, self.clock, self.hub = voice, output, clock, hub
        self.transcript, self.display = transcript, display
        self.night = night or NightOptions()
        self.cursor = clock.now()
        self.context: dict[str, Any] = {}
        self._last: Clip | None = None
        self._ambience_on = False

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None:
        """Play cues in order; return the answer when the last one is an `Ask`."""
        self.context = context
        self._ambience()
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
            self.output.extend(self.cursor)
        return heard

    # --- cues ------------------------------------------------------------------------------

    async def _say(self, clip: Clip, kind: str, **extra: Any) -> None:
        start = self._slot()
        await self.clock.sleep_until(start - LEAD)
        self._start_clip(clip, start)
        self._record(kind, clip.spoken.line, clip.spoken.text, start, **extra)
        self._last = clip
        self.cursor = start + clip.duration
        await self.clock.sleep_until(self.cursor)

    async def _countdown(self, cue: Countdown) -> None:
        clips = [self.voice.clip("tick", {"n": n}) for n in range(cue.seconds, -1, -1)]
        await self._on_deadlines([(k, clip) for k, clip in enumerate(clips)], end=None, kind="tick")

    async def _timer(self, cue: Timer) -> None:
        warnings = [(cue.seconds - w, self.voice.clip("timer.warning", {"seconds": w}))
                    for w in cue.warnings if w < cue.seconds]
        self._record("timer", cue.line, "", self._slot(), seconds=cue.seconds)
        await self._on_deadlines(warnings, end=cue.seconds, kind="timer")
        self.cursor += self._play_sound("timer_end", self.cursor)

    async def _on_deadlines(self, timed: list[tuple[float, Clip]], end: float | None, kind: str) -> None:
        """Play clips at t0 + offset each, all handed to the output at once; `done` ends early.

        The transcript and the display follow each deadline as it passes; a pause takes
        back the clips not yet heard and hands them over again, later by the pause's length.
        """
        self.hub.drain_commands()
        t0 = self._slot()
        pending = {k: self._start_clip(clip, t0 + off, show=False) for k, (off, clip) in enumerate(timed)}
        for k, (off, clip) in enumerate(timed):
            outcome, shift = await self._wait_or_done(t0 + off, pending=[pending[j] for j in range(k, len(timed))])
            if shift:
                t0 += shift
                for j in range(k, len(timed)):
                    pending[j] = self._start_clip(timed[j][1], t0 + timed[j][0], show=False)
            if outcome == "done":
                for j in range(k, len(timed)):
                    self.output.cancel(pending[j])
                self.cursor = max(self.clock.now(), self.cursor)
                return
            self._show(clip)
            if kind == "tick":
                self._record("tick", "tick", clip.spoken.text, t0 + off, n=len(timed) - 1 - k)
            else:
                self._record("timer", clip.spoken.line, clip.spoken.text, t0 + off, seconds_left=(end or 0) - off)
            self.cursor = t0 + off + clip.duration
        if end is None:
            await self.clock.sleep_until(self.cursor)
            return
        outcome, shift = await self._wait_or_done(t0 + end)
        self.cursor = self.clock.now() if outcome == "done" else t0 + shift + end

    async def _ask(self, cue: Ask) -> Heard:
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
                if command_task.result().value == "repeat":
                    await self._say(question, "ask", choices=list(cue.choices), repeat=True)
        finally:
            if not answer_task.done():
                answer_task.cancel()
        heard = answer_task.result()
        self.output.extend(self.clock.now())
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

    def _start_clip(self, clip: Clip, at: float, show: bool = True) -> int | None:
        """Hand the clip to the output to start at game second `at`; returns its handle."""
        handle = self.output.start(clip.pcm, at) if clip.pcm is not None else None
        if show:
            self._show(clip)
        return handle

    def _show(self, clip: Clip) -> None:
        if clip.spoken.line == "tick":
            self.display.tick(clip.spoken.text)
        else:
            self.display.line(clip.spoken.text)

    def _at_night(self) -> bool:
        return self.context.get("night", 0) > self.context.get("day", 0)

    def _ambience(self) -> None:
        """The night loop runs while it is night (night n begun, day n not yet)."""
        wanted = self.night.ambience and self._at_night()
        if wanted != self._ambience_on:
            pcm = self.voice.sound("ambience") if wanted else None
            if pcm is not None or not wanted:
                self.output.ambience(pcm, self._slot(), self.night.ambience_volume)
                self._ambience_on = wanted

    def _play_sound(self, name: str, at: float) -> float:
        """Play the pack's sound for `name` (if it maps one) at `at`; returns its length."""
        pcm = self.voice.sound(name)
        if pcm is None:
            return 0.0
        self.output.start(pcm, at, speech=False)
        return len(pcm) / (WIDTH * RATE)

    async def _wait_or_done(self, deadline: float, pending: list[Any] = ()) -> tuple[str, float]:
        """Sleep to `deadline` unless `done` comes first; a pause shifts the deadline.

        At night a `done` is ignored unless `night_done` is set. On a pause the clips in
        `pending` are taken back (the caller hands them over again, shifted).
        """
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
            if heard.value == "done" and (self.night.night_done or not self._at_night()):
                return "done", shift
            if heard.value == "pause":
                for handle in pending:
                    if handle is not None:
                        self.output.cancel(handle)
                pending = []
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
