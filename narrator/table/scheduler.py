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

from narrator.sound.outputs import AudioOutput
from narrator.table.clock import Clock, InstantClock
from narrator.table.commands import TableCommands
from narrator.table.deadlines import DeadlineCues
from narrator.cues import Ask, Collect, Countdown, Cue, End, Event, Say, Timer, TurnClock
from narrator.table.display import ConsoleDisplay
from narrator.table.private_rounds import PrivateRounds, group_privates
from narrator.inputs.hub import Heard, ListenerHub
from narrator.sound.voice import Clip
from narrator.table.transcript import Transcript
from narrator.table.turn_clock import TurnClockState

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


class Scheduler(DeadlineCues, PrivateRounds, TableCommands):
    """Plays a step's cues on the timeline; the mixins add deadlines, private rounds and commands."""

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
        self._instruction: Clip | None = None
        """The last line this step said (not a question): what `repeat` says again during a
        countdown, and before the question at a question."""
        self._ambience_on = False
        self.turn_clock = TurnClockState()

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None:
        """Play cues in order; return the answer when the last one is an `Ask`."""
        self.context = context
        self._instruction = None
        self._ambience()
        heard = None
        items = group_privates(cues)
        early: asyncio.Future | None = None
        for i, cue in enumerate(items):
            self.hub.cue_started(cue)
            if isinstance(cue, list):
                await self._private(cue)
            elif isinstance(cue, Collect):
                heard = await self._collect(cue, early)
                early = None
            elif isinstance(cue, Event):
                self._record_event(cue)
            elif isinstance(cue, Say):
                self._instruction = self.voice.clip(cue.line, cue.params)
                await self._say(self._instruction, "say")
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

    async def _say(self, clip: Clip, kind: str, prompt: Ask | None = None, **extra: Any) -> None:
        """Say `clip` on its slot; with `prompt`, show the question's keys as it begins."""
        start = self._slot()
        await self.clock.sleep_until(start - LEAD)
        self._start_clip(clip, start)
        if prompt is not None:
            self.display.prompt(prompt)
        self._record(kind, clip.spoken.line, clip.spoken.text, start, **extra)
        self._last = clip
        self.cursor = start + clip.duration
        self._speaking_at(start, clip)
        await self.clock.sleep_until(self.cursor)

    async def _ask(self, cue: Ask) -> Heard:
        """Ask and wait for the first fitting (and confirmed) answer; `undo` instead returns
        that command. The question is open from the moment it starts to be said, so an answer
        typed while it is spoken counts (it is taken when the question has been said)."""
        question = self.voice.clip(cue.line, cue.params)
        instruction = self._instruction
        await self._say_clock_alert()
        pending = self.hub.first_answer(cue)
        try:
            await self._say(question, "ask", prompt=cue, choices=list(cue.choices))
            while True:
                heard = await self._answer_or_command(cue, pending, question, instruction)
                if heard.kind == "command" or await self.hub.confirmed(cue, heard):
                    break
                pending = self.hub.first_answer(cue)
        finally:
            if not pending.done():
                pending.cancel()
            elif not pending.cancelled():
                pending.exception()  # seen: when a pause stops the game, the pause's error is the one told
        if heard.kind == "command":  # undo
            self.cursor = self._slot(resync=True)
            self._record("answer", cue.line, "", self.cursor, value="undo", source=heard.source)
            return heard
        self.output.extend(self.clock.now())
        self.cursor = self._slot(resync=True)
        if cue.player is None:
            self._record("answer", cue.line, "", self.cursor, value=heard.value, source=heard.source)
        else:  # a private answer: the transcript must not show who chose what
            self._record("answer", cue.line, "", self.cursor, private=True)
        return heard

    async def _answer_or_command(self, cue: Ask, pending: asyncio.Future, question: Clip,
                                 instruction: Clip | None) -> Heard:
        """Serve commands until the answer comes: `repeat` says the instruction before the
        question (if this step gave one) and the question again; `help`, `pause`; `undo` is returned."""
        while True:
            command_task = asyncio.ensure_future(self.hub.command())
            clock_task = self._turn_clock_wait()
            waits = {pending, command_task} | ({clock_task} if clock_task else set())
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if clock_task is not None and not clock_task.done():
                clock_task.cancel()
            if pending.done():
                command_task.cancel()
                return pending.result()
            if not command_task.done():
                command_task.cancel()
                await self._say_clock_alert()
                continue
            command = command_task.result()
            if command.value == "repeat":
                if instruction is not None:
                    await self._say(instruction, "say", repeat=True)
                await self._say(question, "ask", choices=list(cue.choices), repeat=True)
            elif command.value == "help":
                for line in cue.help:
                    await self._say(self.voice.clip(line), "say", help=True)
            elif command.value == "pause":
                await self._pause()
            elif command.value == "undo":
                return command

    # --- helpers ---------------------------------------------------------------------------

    def _slot(self, resync: bool = False) -> float:
        """When the next cue starts: its slot on the timeline, unless the clock is past it.

        "Now" for a live output is now plus its buffer: the earliest a clip can be heard.
        """
        now = self.clock.now() + self.latency
        if resync or now - self.cursor > LATE_TOLERANCE:
            self.cursor = max(self.cursor, now)
        return self.cursor

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

    def _record(self, kind: str, line: str, text: str, t: float, **extra: Any) -> None:
        self.transcript.write({"kind": kind, "line": line, "text": text, "t": round(t, 3), **self.context, **extra})

