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
from narrator.clock import Clock, InstantClock
from narrator.cues import Ask, Collect, Countdown, Cue, End, Event, Private, Say, Timer, TurnClock
from narrator.display import ConsoleDisplay
from narrator.listeners import Heard, ListenerHub
from narrator.speech.voice import Clip
from narrator.transcript import Transcript
from narrator.turnclock import TurnClockState

LATE_TOLERANCE = 0.05
"""Seconds a cue may start behind its slot before the timeline moves on to real time."""
LEAD = 0.5
"""Seconds ahead of its start a clip is handed to the output (it waits there, on its sample);
more than the live outputs' buffer (`audio.BUFFER`), with room for a late wake-up."""


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
        scale = getattr(clock, "scale", 1.0) or 1.0
        self.latency = getattr(output, "latency", 0.0) / scale
        """Game seconds between handing a clip over and the earliest it can be heard."""
        self.cursor = clock.now()
        self.context: dict[str, Any] = {}
        self._last: Clip | None = None
        self._ambience_on = False
        self.turn_clock = TurnClockState()

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None:
        """Play cues in order; return the answer when the last one is an `Ask`."""
        self.context = context
        self._ambience()
        heard = None
        items = _group_privates(cues)
        early: asyncio.Future | None = None
        for i, cue in enumerate(items):
            if isinstance(cue, list):
                await self._private(cue)
            elif isinstance(cue, Collect):
                heard = await self._collect(cue, early)
                early = None
            elif isinstance(cue, Event):
                self._record_event(cue)
            elif isinstance(cue, Say):
                await self._say(self.voice.clip(cue.line, cue.params), "say")
            elif isinstance(cue, Countdown):
                await self._countdown(cue)
            elif isinstance(cue, Timer):
                following = items[i + 1] if i + 1 < len(items) else None
                if (isinstance(following, Collect) and self.hub.rounds_during_timers
                        and not self.hub.sequential_private):
                    # phones: the round opens with its timer, which ends once everyone has answered
                    early = asyncio.ensure_future(self.hub.collect(following))
                await self._timer(cue, until=early)
                if (early is not None and not early.done() and following.closes_with_timer
                        and not isinstance(self.clock, InstantClock)):  # instant: no time to answer in
                    self.hub.close_collect()
            elif isinstance(cue, Ask):
                heard = await self._ask(cue)
            elif isinstance(cue, End):
                clip = self.voice.clip(cue.line, cue.params)
                self.turn_clock.stop()
                await self._say(clip, "end", winner=cue.winner, **cue.outcome)
            elif isinstance(cue, TurnClock):
                self.turn_clock.start(self._slot(), cue)
                self._record("turn_clock", cue.line, "", self.cursor, seconds=cue.seconds)
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
        self._speaking_at(start, clip)
        await self.clock.sleep_until(self.cursor)

    async def _countdown(self, cue: Countdown) -> None:
        clips = [self.voice.clip("tick", {"n": n}) for n in range(cue.seconds, -1, -1)]
        await self._on_deadlines([(k, clip) for k, clip in enumerate(clips)], end=None, kind="tick")

    async def _timer(self, cue: Timer, until: asyncio.Future | None = None) -> None:
        warnings = [(cue.seconds - w, self.voice.clip("timer.warning", {"seconds": w}))
                    for w in cue.warnings if w < cue.seconds]
        self._record("timer", cue.line, "", self._slot(), seconds=cue.seconds)
        await self._on_deadlines(warnings, end=cue.seconds, kind="timer", until=until)
        self.cursor += self._play_sound("timer_end", self.cursor)

    async def _on_deadlines(self, timed: list[tuple[float, Clip]], end: float | None, kind: str,
                            until: asyncio.Future | None = None) -> None:
        """Play clips at t0 + offset each, all handed to the output at once; `done` (or the
        future `until`) ends early.

        The transcript and the display follow each deadline as it passes; a pause takes
        back the clips not yet heard and hands them over again, later by the pause's length.
        """
        self.hub.drain_commands()
        t0 = self._slot()
        pending = {k: self._start_clip(clip, t0 + off, show=False) for k, (off, clip) in enumerate(timed)}
        for k, (off, clip) in enumerate(timed):
            outcome, shift = await self._wait_or_done(t0 + off, until,
                                                      pending=[pending[j] for j in range(k, len(timed))])
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
            self._speaking_at(t0 + off, clip)  # listeners mute while the narrator talks
            if kind == "tick":
                self._record("tick", "tick", clip.spoken.text, t0 + off, n=len(timed) - 1 - k)
            else:
                self._record("timer", clip.spoken.line, clip.spoken.text, t0 + off, seconds_left=(end or 0) - off)
            self.cursor = t0 + off + clip.duration
        if end is None:
            await self.clock.sleep_until(self.cursor)
            return
        outcome, shift = await self._wait_or_done(t0 + end, until)
        self.cursor = self.clock.now() if outcome == "done" else t0 + shift + end

    async def _ask(self, cue: Ask) -> Heard:
        """Ask and wait for the first fitting answer; `undo` instead returns that command."""
        question = self.voice.clip(cue.line, cue.params)
        await self._say_clock_alert()
        await self._say(question, "ask", choices=list(cue.choices))
        self.display.prompt(cue)
        answer_task = asyncio.ensure_future(self.hub.answer(cue))
        try:
            while True:
                command_task = asyncio.ensure_future(self.hub.command())
                clock_task = self._turn_clock_wait()
                waits = {answer_task, command_task} | ({clock_task} if clock_task else set())
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if clock_task is not None and not clock_task.done():
                    clock_task.cancel()
                if answer_task.done():
                    command_task.cancel()
                    break
                if not command_task.done():
                    command_task.cancel()
                    await self._say_clock_alert()
                    continue
                command = command_task.result()
                if command.value == "repeat":
                    await self._say(question, "ask", choices=list(cue.choices), repeat=True)
                elif command.value == "help":
                    for line in cue.help:
                        await self._say(self.voice.clip(line), "say", help=True)
                elif command.value == "pause":
                    await self._pause()
                elif command.value == "undo":
                    self.cursor = self._slot(resync=True)
                    self._record("answer", cue.line, "", self.cursor, value="undo", source=command.source)
                    return command
        finally:
            if not answer_task.done():
                answer_task.cancel()
        heard = answer_task.result()
        self.output.extend(self.clock.now())
        self.cursor = self._slot(resync=True)
        if cue.player is None:
            self._record("answer", cue.line, "", self.cursor, value=heard.value, source=heard.source)
        else:  # a private answer: the transcript must not show who chose what
            self._record("answer", cue.line, "", self.cursor, private=True)
        return heard

    # --- private cues (pass-the-device when the hub says so) ---------------------------------

    async def _private(self, cues: list[Private]) -> None:
        """Private lines for one player: recorded; in pass-the-device mode shown to them alone."""
        to = cues[0].to
        texts = [self.voice.pack.speak(c.line, c.params).text for c in cues]
        t = round(self._slot(), 3)
        for cue, text in zip(cues, texts):
            self.transcript.write({"kind": "private", "to": to, "line": cue.line, "text": text, "t": t,
                                   **self.context})
            self.hub.publish_private(to, cue.line, text)
        if self.hub.sequential_private:
            await self._hand_device(to)
            self.display.private(to, texts + [self._text("private.hide")])
            await self.hub.answer(Ask("private.hide", ("done",)))
            self.display.clear()
            self.cursor = self._slot(resync=True)

    def _record_event(self, cue: Event) -> None:
        """A silent state change; its own night or day replaces the step's context."""
        context = {} if cue.night is not None or cue.day is not None else self.context
        self.transcript.write({"kind": "event", **context, **cue.record(), "t": round(self._slot(), 3)})

    async def _collect(self, cue: Collect, early: asyncio.Future | None = None) -> Heard:
        """One private answer from each requested player; an `undo` meanwhile is returned instead.

        `early`: the round already opened with the timer before it (phones)."""
        task = asyncio.ensure_future(self._collect_answers(cue, early))
        try:
            while True:
                command_task = asyncio.ensure_future(self.hub.command())
                await asyncio.wait({task, command_task}, return_when=asyncio.FIRST_COMPLETED)
                if task.done():
                    command_task.cancel()
                    break
                command = command_task.result()
                if command.value == "undo":
                    self.display.clear()
                    self.cursor = self._slot(resync=True)
                    self._record("answer", f"collect.{cue.phase}", "", self.cursor, number=cue.number,
                                 value="undo", source=command.source)
                    return command
        finally:
            if not task.done():
                task.cancel()
        heard = task.result()
        self.cursor = self._slot(resync=True)
        self._record("answer", f"collect.{cue.phase}", "", self.cursor, number=cue.number,
                     value=heard.value, source=heard.source)
        return heard

    async def _collect_answers(self, cue: Collect, early: asyncio.Future | None = None) -> Heard:
        """All at once (scripts, phones), or turn by turn on one device (pass-the-device)."""
        if early is not None:
            return await early
        if not self.hub.sequential_private:
            return await self.hub.collect(cue)
        answers: dict[str, Any] = {}
        for request in cue.requests:
            await self._hand_device(request.player)
            lines = [self._text(request.line, request.params)]
            if request.ability:
                lines.append(self._text("private.ability"))
            lines.append("  " + ", ".join(f"{i}={n}" for i, n in enumerate(request.choices, 1)))
            self.display.private(request.player, lines)
            one = await self.hub.collect(cue, (request,))
            answers.update(one.value)
            self.display.clear()
        return Heard("answer", answers, "device")

    async def _hand_device(self, player: str) -> None:
        """Call `player` by name, and wait until they hold the device alone (Enter)."""
        await self._say(self.voice.clip("private.call", {"name": player}), "say")
        self.display.private(player, [self._text("private.take", {"name": player})])
        await self.hub.answer(Ask("private.take", ("done",)))
        self.cursor = self._slot(resync=True)

    def _text(self, line: str, params: dict[str, Any] | None = None) -> str:
        return self.voice.pack.speak(line, params).text

    # --- helpers ---------------------------------------------------------------------------

    def _slot(self, resync: bool = False) -> float:
        """When the next cue starts: its slot on the timeline, unless the clock is past it.

        "Now" for a live output is now plus its buffer: the earliest a clip can be heard.
        """
        now = self.clock.now() + self.latency
        if resync or now - self.cursor > LATE_TOLERANCE:
            self.cursor = max(self.cursor, now)
        return self.cursor

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

    def _start_clip(self, clip: Clip, at: float, show: bool = True) -> int | None:
        """Hand the clip to the output to start at game second `at`; returns its handle."""
        handle = self.output.start(clip.pcm, at) if clip.pcm is not None else None
        if show:
            self._show(clip)
        return handle

    def _speaking_at(self, start: float, clip: Clip) -> None:
        """Tell listeners (to mute) when the clip is heard, not when it is handed over ahead."""
        if clip.wav is None:
            return
        delay = (start - self.clock.now()) * getattr(self.clock, "scale", 0.0)
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, self.hub.speaking, clip.duration, clip.wav)
        else:
            self.hub.speaking(clip.duration, clip.wav)

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

    async def _wait_or_done(self, deadline: float, until: asyncio.Future | None = None,
                            pending: list[Any] = ()) -> tuple[str, float]:
        """Sleep to `deadline` unless `done` (or the future `until`) comes first; a pause shifts it.

        At night a `done` is ignored unless `night_done` is set. On a pause the clips in
        `pending` are taken back (the caller hands them over again, shifted).
        """
        shift = 0.0
        while True:
            sleeper = asyncio.ensure_future(self.clock.sleep_until(deadline + shift))
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
            if heard.value == "done" and (self.night.night_done or not self._at_night()):
                return "done", shift
            if heard.value == "pause":
                for handle in pending:
                    if handle is not None:
                        self.output.cancel(handle)
                pending = []
                shift += await self._pause()

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
        while (await self.hub.command()).value not in ("pause", "resume", "done"):
            pass
        self.cursor = self._slot(resync=True)
        await self._say(self.voice.clip("control.resumed"), "say")
        self.turn_clock.shift(self.clock.now() - began)
        return self.clock.now() - began

    def _record(self, kind: str, line: str, text: str, t: float, **extra: Any) -> None:
        self.transcript.write({"kind": kind, "line": line, "text": text, "t": round(t, 3), **self.context, **extra})


def _group_privates(cues: list[Cue]) -> list[Any]:
    """Consecutive `Private` cues to the same player become one list (one device hand-over)."""
    out: list[Any] = []
    for cue in cues:
        if isinstance(cue, Private):
            if out and isinstance(out[-1], list) and out[-1][0].to == cue.to:
                out[-1].append(cue)
            else:
                out.append([cue])
        else:
            out.append(cue)
    return out
