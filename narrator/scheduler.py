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
from narrator.clock import Clock, InstantClock
from narrator.cues import Ask, Collect, Countdown, Cue, End, Event, Private, Say, Timer, TurnClock
from narrator.display import ConsoleDisplay
from narrator.listeners import Heard, ListenerHub
from narrator.speech.voice import Clip
from narrator.transcript import Transcript
from narrator.turnclock import TurnClockState

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
        self.turn_clock = TurnClockState()

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None:
        """Play cues in order; return the answer when the last one is an `Ask`."""
        self.context = context
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

    async def _timer(self, cue: Timer, until: asyncio.Future | None = None) -> None:
        warnings = [(w, self.voice.clip("timer.warning", {"seconds": w})) for w in cue.warnings if w < cue.seconds]
        self.hub.drain_commands()
        t0 = self._slot()
        self._record("timer", cue.line, "", t0, seconds=cue.seconds)
        for left, clip in warnings:
            outcome, shift = await self._wait_or_done(t0 + cue.seconds - left, until)
            t0 += shift
            if outcome == "done":
                self.cursor = max(self.clock.now(), self.cursor)
                return
            start = t0 + cue.seconds - left
            self._start_clip(clip)
            self._record("timer", clip.spoken.line, clip.spoken.text, start, seconds_left=left)
        outcome, shift = await self._wait_or_done(t0 + cue.seconds, until)
        self.cursor = self.clock.now() if outcome == "done" else t0 + shift + cue.seconds

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
        """When the next cue starts: its slot on the timeline, unless the clock is past it."""
        now = self.clock.now()
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

    def _start_clip(self, clip: Clip) -> None:
        if clip.wav is not None:
            self.output.start(clip.wav)
        if clip.spoken.line != "tick":
            self.display.line(clip.spoken.text)

    async def _wait_or_done(self, deadline: float, until: asyncio.Future | None = None) -> tuple[str, float]:
        """Sleep to `deadline` unless `done` (or the future `until`) comes first; a pause shifts it."""
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
            if heard.value == "done":
                return "done", shift
            if heard.value == "pause":
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
        while (await self.hub.command()).value not in ("pause", "done"):
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
