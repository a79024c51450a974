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

`Scheduler` is composed of parts, each a class with its own state, handed what it uses:
the `Timeline` (the clock and the cursor every part places its lines on), the `Narration`
(says a clip on its slot and writes it down; what the step has said), `TableCommands`
(repeat, pause, the turn clock), `Deadlines` (countdowns and timers: a countdown's whole
path is in `deadlines.py`) and `PrivateRounds` (private lines, collected answers,
pass-the-device). The scheduler itself walks the cues and asks the questions.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from narrator.cues import Ask, Collect, CountIn, Countdown, Cue, End, Event, Private, Say, Timer, TurnClock
from narrator.inputs.hub import Heard, ListenerHub
from narrator.sound.outputs import AudioOutput
from narrator.sound.voice import Clip, Voice
from narrator.table.clock import Clock
from narrator.table.commands import TableCommands
from narrator.table.confirm import Confirmer
from narrator.table.deadlines import Deadlines
from narrator.table.display import ConsoleDisplay
from narrator.table.narration import LEAD, Narration
from narrator.table.private_rounds import PrivateGroup, PrivateRounds, StepItem, group_privates
from narrator.table.timeline import LATE_TOLERANCE, Timeline
from narrator.table.transcript import Transcript

__all__ = ["LATE_TOLERANCE", "LEAD", "NightOptions", "Scheduler"]


@dataclass(frozen=True)
class NightOptions:
    """How the night sounds (table-file keys `night_done`, `ambience`, `ambience_volume`)."""

    night_done: bool = False
    """Whether a `done` ends a night countdown early. Off: every call lasts the same."""
    ambience: bool = True
    """Loop the pack's `ambience` sound under the night, ducked under speech (if it has one)."""
    ambience_volume: float = 0.3


@dataclass
class _Step:
    """What one `Scheduler.play` carries from cue to cue: its cues (private lines grouped),
    the answer it returns, and a private round opened early beside a countdown or timer."""

    items: list[StepItem]
    heard: Heard | None = None
    early: asyncio.Future[Heard] | None = None


def _kept_by(part: str, name: str, doc: str) -> property:
    """A scheduler attribute that one of its parts keeps: read and set there, never copied."""
    return property(lambda self: getattr(getattr(self, part), name),
                    lambda self, value: setattr(getattr(self, part), name, value), doc=doc)


class Scheduler:
    """Plays a step's cues on the timeline, through its parts (see the module's docstring)."""

    def __init__(self, voice: Voice, output: AudioOutput, clock: Clock, hub: ListenerHub,
                 transcript: Transcript, display: ConsoleDisplay, night: NightOptions | None = None,
                 confirm: bool = False):
        """With `confirm` (every sitting's), an answer the hub marks `confirm` is asked back
        (「〇〇さんですね？」, `table/confirm.py`) before it counts; without, it counts at once."""
        self.voice, self.output, self.hub, self.transcript = voice, output, hub, transcript
        self.confirmer: Confirmer | None = Confirmer(self) if confirm else None
        self.night = night or NightOptions()
        scale = getattr(clock, "scale", 1.0) or 1.0
        self.timeline = Timeline(clock, latency=getattr(output, "latency", 0.0) / scale)
        self.narration = Narration(output, hub, transcript, display, self.timeline)
        self.commands = TableCommands(voice, hub, self.narration, self.timeline)
        self.deadlines = Deadlines(voice, output, hub, self.narration, self.timeline, self.commands,
                                   night_done=self.night.night_done)
        self.private = PrivateRounds(voice, hub, transcript, self.narration, self.timeline,
                                     self.deadlines, self.commands)
        self._ambience_on = False

    def play_on(self, output: AudioOutput) -> None:
        """Every part that plays clips plays them on `output` from the next cue (the sitting's
        speaker found between games), and the timeline allows for that output's latency."""
        self.output = self.narration.output = self.deadlines.output = output
        scale = getattr(self.timeline.clock, "scale", 1.0) or 1.0
        self.timeline.latency = getattr(output, "latency", 0.0) / scale

    # what the sitting, the phones, the appliance and tests read or set, kept by the part using it
    clock = _kept_by("timeline", "clock", "The game clock (`Clock`); the appliance swaps it on a resume.")
    cursor = _kept_by("timeline", "cursor", "The game second the next cue starts at.")
    display = _kept_by("narration", "display", "The `ConsoleDisplay` every part shows lines on.")
    context = _kept_by("narration", "context", "The step's context (night, day): a confirmation plays under it.")

    async def play(self, cues: list[Cue], context: dict[str, Any]) -> Heard | None:
        """Play cues in order; return the answer when the last one is an `Ask`.

        Around each cue: the passed device is taken back when the cue is not for its holder,
        the phones are told, and after it the table's commands are served. What each kind of
        cue does is its own method (`_CUE_PLAYERS`); a step's state is its `_Step`."""
        self.narration.begin_step(context)
        self._ambience()
        step = _Step(group_privates(cues))
        for i, cue in enumerate(step.items):
            if self.private.holder is not None and not self._for_holder(cue):
                await self.private.release()
            self.hub.cue_started(cue)
            following = step.items[i + 1] if i + 1 < len(step.items) else None
            if self._memo_time(cue, following):
                continue  # a round's paper-memo time: passing one device, each answers alone on it
            await self._play_cue(cue, following, step)
            await self.commands.between_cues()
            self.output.extend(self.timeline.cursor)
        return step.heard

    async def _play_cue(self, cue: StepItem, following: StepItem | None, step: _Step) -> None:
        """Play one cue by its kind (the first of `_CUE_PLAYERS` it is an instance of)."""
        for kind, player in _CUE_PLAYERS:
            if isinstance(cue, kind):
                await player(self, cue, following, step)
                return

    def _memo_time(self, cue: StepItem, following: StepItem | None) -> bool:
        """Whether `cue` is a timer for a private round on the passed device: not played (each
        answers alone on the device instead)."""
        return isinstance(cue, Timer) and isinstance(following, Collect) and self.hub.sequential_private

    async def _private_lines(self, cue: PrivateGroup, following: StepItem | None, step: _Step) -> None:
        await self.private.lines(cue)

    async def _collect(self, cue: Collect, following: StepItem | None, step: _Step) -> None:
        """A private round; it may have opened early, with the countdown or timer before it."""
        step.heard = await self.private.collect(cue, step.early)
        step.early = None

    async def _event(self, cue: Event, following: StepItem | None, step: _Step) -> None:
        self.narration.record_event(cue)

    async def _count_in(self, cue: CountIn, following: StepItem | None, step: _Step) -> None:
        """The pointing is done: a repeat says the question alone."""
        self.narration.instruction = None
        await self.narration.say(self.voice.clip(cue.line, cue.params), "say")

    async def _say(self, cue: Say, following: StepItem | None, step: _Step) -> None:
        """A line, kept as the step's instruction (a repeat says it again before the question)."""
        self.narration.instruction = self.voice.clip(cue.line, cue.params)
        await self.narration.say(self.narration.instruction, "say")

    async def _countdown(self, cue: Countdown, following: StepItem | None, step: _Step) -> None:
        """A countdown, with a night call's private round beside it when one follows."""
        if isinstance(following, Collect) and following.call:
            step.early = await self._call_round(cue, following)
        else:
            await self.deadlines.countdown(cue)

    async def _timer(self, cue: Timer, following: StepItem | None, step: _Step) -> None:
        """A timer; on phones the round after it opens with it and ends it once all have answered."""
        if isinstance(following, Collect) and self.hub.rounds_during_timers and not self.hub.sequential_private:
            step.early = asyncio.ensure_future(self.hub.collect(following))
        await self.deadlines.timer(cue, until=step.early)
        if (isinstance(following, Collect) and step.early is not None and not step.early.done()
                and following.closes_with_timer and not self.timeline.instant):  # instant: no time to answer in
            self.hub.close_collect()

    async def _question(self, cue: Ask, following: StepItem | None, step: _Step) -> None:
        step.heard = await self._ask(cue)

    async def _end(self, cue: End, following: StepItem | None, step: _Step) -> None:
        clip = self.voice.clip(cue.line, cue.params)
        self.commands.stop_turn_clock()
        await self.narration.say(clip, "end", winner=cue.winner, **cue.outcome)

    async def _turn_clock(self, cue: TurnClock, following: StepItem | None, step: _Step) -> None:
        self.commands.start_turn_clock(cue)

    async def _call_round(self, countdown: Countdown, call: Collect) -> asyncio.Future[Heard]:
        """A night call's private round (`Collect.call`) beside its countdown: open as the count
        starts, even when nobody is asked; the count always runs its whole length, and its end
        closes the round (the answers given so far count). On the instant clock there is no time
        to answer in, so the asked are waited for (a script answers at once)."""
        early = asyncio.ensure_future(self.hub.collect(call))
        await asyncio.sleep(0)  # the round opens now, with the count
        await self.deadlines.countdown(countdown)
        if not early.done() and (not self.timeline.instant or not call.requests):
            self.hub.close_collect()
        return early

    def _for_holder(self, cue: StepItem) -> bool:
        """Whether `cue` is for the one holding the passed device (their result, their next question)."""
        holder = self.private.holder
        first = cue[0] if isinstance(cue, list) else None
        return (isinstance(first, Private) and first.to == holder) or (isinstance(cue, Ask) and cue.player == holder)

    # --- questions -------------------------------------------------------------------------

    async def confirmed(self, ask: Ask, heard: Heard) -> bool:
        """Whether `heard` counts: asked back first when it must be (and this table confirms)."""
        return self.confirmer is None or await self.confirmer.confirmed(ask, heard)

    async def _ask(self, cue: Ask) -> Heard:
        """Ask and wait for the first fitting (and confirmed) answer; `undo` instead returns
        that command. The question is open from the moment it starts to be said, so an answer
        typed while it is spoken counts (it is taken when the question has been said)."""
        if cue.player is not None and self.hub.private_asks_on_device:
            return await self.private.ask(cue)
        if cue.player is not None and cue.silent:
            return await self.private.unheard(cue)
        question = self.voice.clip(cue.line, cue.params)
        instruction = self.narration.instruction
        await self.commands.say_clock_alert()
        pending = self.hub.first_answer(cue)
        private = cue.player is not None  # its choices would tell whose question it is: shown on that phone only
        try:
            await self.narration.say(question, "ask", prompt=None if private else cue,
                                     **({} if private else {"choices": list(cue.choices)}))
            while True:
                heard = await self._answer_or_command(cue, pending, question, instruction)
                if heard.kind == "command" or await self.confirmed(cue, heard):
                    break
                pending = self.hub.first_answer(cue)
        finally:
            if not pending.done():
                pending.cancel()
            elif not pending.cancelled():
                pending.exception()  # seen: when a pause stops the game, the pause's error is the one told
        if heard.kind == "command":  # undo
            at = self.timeline.resync()
            self.narration.record("answer", cue.line, "", at, value="undo", source=heard.source)
            return heard
        self.output.extend(self.timeline.now())
        at = self.timeline.resync()
        if cue.player is None:
            self.narration.record("answer", cue.line, "", at, value=heard.value, source=heard.source)
        else:  # a private answer: the transcript must not show who chose what
            self.narration.record("answer", cue.line, "", at, private=True)
        return heard

    async def _answer_or_command(self, cue: Ask, pending: asyncio.Future[Heard], question: Clip,
                                 instruction: Clip | None) -> Heard:
        """Serve commands until the answer comes: `repeat` says the instruction before the
        question (if this step gave one) and the question again; `help`, `pause`; `undo` is returned."""
        say = self.narration.say
        while True:
            command_task = asyncio.ensure_future(self.hub.command())
            clock_task = self.commands.turn_clock_wait()
            waits = {pending, command_task} | ({clock_task} if clock_task else set())
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if clock_task is not None and not clock_task.done():
                clock_task.cancel()
            if pending.done():
                command_task.cancel()
                return pending.result()
            if not command_task.done():
                command_task.cancel()
                await self.commands.say_clock_alert()
                continue
            command = command_task.result()
            if command.value == "repeat":
                if instruction is not None:
                    await say(instruction, "say", repeat=True)
                await say(question, "ask", repeat=True,
                          **_public_choices(cue))
            elif command.value == "help":
                for line in cue.help:
                    await say(self.voice.clip(line), "say", help=True)
            elif command.value == "pause":
                await self.commands.pause()
            elif command.value == "undo":
                return command

    # --- the night -------------------------------------------------------------------------

    def _ambience(self) -> None:
        """The night loop runs while it is night (night n begun, day n not yet)."""
        wanted = self.night.ambience and self.narration.at_night()
        if wanted != self._ambience_on:
            pcm = self.voice.sound("ambience") if wanted else None
            if pcm is not None or not wanted:
                self.output.ambience(pcm, self.timeline.slot(), self.night.ambience_volume)
                self._ambience_on = wanted


_CuePlayer = Callable[[Scheduler, Any, "StepItem | None", _Step], Awaitable[None]]
"""A method playing one kind of cue: each takes its own kind, which its row in `_CUE_PLAYERS`
pairs it with (a callable's parameter cannot say "the kind beside it", hence `Any` there)."""
_CUE_PLAYERS: tuple[tuple[type, _CuePlayer], ...] = (
    (list, Scheduler._private_lines), (Collect, Scheduler._collect), (Event, Scheduler._event),
    (CountIn, Scheduler._count_in), (Say, Scheduler._say),  # a CountIn is a Say: first
    (Countdown, Scheduler._countdown), (Timer, Scheduler._timer), (Ask, Scheduler._question),
    (End, Scheduler._end), (TurnClock, Scheduler._turn_clock),
)
"""Each kind of cue and the `Scheduler` method that plays it, in the order they are tried."""


def _public_choices(ask: Ask) -> dict[str, Any]:
    """The choices a repeated question's record lists (none for a private one: they would tell)."""
    return {} if ask.player is not None else {"choices": list(ask.choices)}
