"""Private rounds: lines and answers for one player at a time.

A part of `Scheduler`. Private lines are recorded and published to the hub (phones); in
pass-the-device mode the narrator calls the player by name and shows them alone the
lines or the choices. `Collect` gathers one private answer per requested player. A round
says its calls through the narration, plays the reading time with `Deadlines` and holds
the table with `TableCommands` on a `pause`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Awaitable, Callable

from narrator.cues import Ask, Collect, Countdown, Cue, Private, Request
from narrator.inputs.hub import Heard, ListenerHub
from narrator.sound.voice import Voice
from narrator.table.commands import TableCommands
from narrator.table.deadlines import Deadlines
from narrator.table.display import ConsoleDisplay
from narrator.table.narration import Narration
from narrator.table.timeline import Timeline
from narrator.table.transcript import Transcript

PrivateGroup = list[Private | Countdown]
"""One player's private lines in a row (one device hand-over), with the countdown to read them."""
StepItem = Cue | PrivateGroup
"""What a step plays, cue by cue: a cue, or a group of private lines (`group_privates`)."""


class PrivateRounds:
    """Private lines and collected answers; no state of their own between cues."""

    def __init__(self, voice: Voice, hub: ListenerHub, transcript: Transcript, narration: Narration,
                 timeline: Timeline, deadlines: Deadlines, commands: TableCommands):
        self.voice, self.hub, self.transcript = voice, hub, transcript
        self.narration, self.timeline = narration, timeline
        self.deadlines, self.commands = deadlines, commands
        self.holder: str | None = None
        """Passing the device: who holds it with their screen still up after a private question
        (their result follows on it); `release` clears it before anything else is played."""

    @property
    def display(self) -> ConsoleDisplay:
        """The narration's display: one for the whole scheduler (a test may swap it)."""
        return self.narration.display

    async def lines(self, cues: PrivateGroup) -> None:
        """Private lines for one player: recorded; in pass-the-device mode shown to them alone.

        A `Countdown` at the end of the group is the time to read them (see `group_privates`):
        played when the lines went to phones at once, skipped when each player has just read
        theirs alone on the device."""
        reading = [c for c in cues if isinstance(c, Countdown)]
        privates = [c for c in cues if isinstance(c, Private)]
        to = privates[0].to
        texts = [self.voice.pack.speak(c.line, c.params).text for c in privates]
        t = round(self.timeline.slot(), 3)
        for cue, text in zip(privates, texts):
            self.transcript.write_private({"kind": "private", "to": to, "line": cue.line, "text": text, "t": t,
                                           **self.narration.context})
            self.hub.publish_private(to, cue.line, text)
        if self.hub.sequential_private:
            if self.holder != to:
                await self.release()
                await self._hand_device(to)
            # They keep the device: a question or more lines of theirs may follow (a wolf's
            # partners, then its attack), and a second hand-over said aloud would tell the table
            # that this turn has more in it. `release` clears the screen before anything else.
            self.holder = to
            self.display.private(to, texts)
        else:
            for countdown in reading:
                await self.deadlines.countdown(countdown)

    async def ask(self, cue: Ask) -> Heard:
        """A private question (`Ask.player`) on the passed device: the player takes it, sees the
        question and the numbered choices on the screen only (never said aloud: the question
        would name the role), answers by keyboard and confirms (`u` chooses again). The screen
        stays up for a private result that follows (`holder`); nothing private is recorded."""
        player = cue.player
        assert player is not None  # the scheduler hands this only a private question
        if self.holder != player:
            await self.release()
            await self._hand_device(player)
        choices = "  " + ", ".join(f"{i}={name}" for i, name in enumerate(cue.choices, 1))
        screen = [self._text(cue.line, cue.params), choices]
        while True:
            heard, undone = await self._unless_command(self.hub.first_answer(cue), pause=True,
                                                       show=partial(self.display.private, player, screen))
            if undone:
                continue  # `u` before choosing: nothing to take back
            chosen = heard.value[0] if isinstance(heard.value, list) else heard.value
            number = cue.choices.index(chosen) + 1 if chosen in cue.choices else 0
            confirm = [self._text("private.chosen", {"seat": number, "target": [chosen]}), self._text("private.confirm")]
            if await self._confirmed(partial(self.display.private, player, confirm)):
                break
        self.holder = player
        at = self.timeline.resync()  # the shared transcript keeps no trace: the line would name the role
        self.transcript.write_private({"kind": "answer", "line": cue.line, "to": player, "value": heard.value,
                                       "source": heard.source, "t": round(at, 3), **self.narration.context})
        return heard

    async def unheard(self, cue: Ask) -> Heard:
        """A silent private question (`Ask.silent`) answered by a script in its holder's place:
        nothing said, shown or written for the table; an `undo` meanwhile is returned."""
        heard, undone = await self._unless_command(self.hub.first_answer(cue), pause=True)
        if undone:
            return heard  # the undo
        at = self.timeline.resync()
        self.transcript.write_private({"kind": "answer", "line": cue.line, "to": cue.player, "value": heard.value,
                                       "source": heard.source, "t": round(at, 3), **self.narration.context})
        return heard

    async def release(self) -> None:
        """The device's holder clears their screen and passes it on (after a private question)."""
        if self.holder is None:
            return
        player, self.holder = self.holder, None
        self.display.private(player, [self._text("private.hide")])
        await self.hub.answer(Ask("private.hide", ("done",)))
        self.display.clear()
        self.timeline.resync()

    async def collect(self, cue: Collect, early: asyncio.Future[Heard] | None = None) -> Heard:
        """One private answer from each requested player; an `undo` meanwhile is returned instead.

        `early`: the round already opened with the timer before it (phones). Passing the device,
        `u` only takes back the answer of the player holding it (`_pass_round`)."""
        if self.hub.sequential_private and early is None:
            heard = await self._pass_round(cue)
        else:
            heard, undone = await self._unless_command(self._collect_answers(cue, early))
            if undone:
                self.display.clear()
                at = self.timeline.resync()
                self.narration.record("answer", f"collect.{cue.phase}", "", at, number=cue.number,
                                      value="undo", source=heard.source)
                return heard
        at = self.timeline.resync()
        record = {"kind": "answer", "line": f"collect.{cue.phase}", "text": "", "t": round(at, 3),
                  **self.narration.context, "number": cue.number}
        self.transcript.write_private({**record, "value": heard.value, "source": heard.source},
                                      {**record, "private": True})
        return heard

    async def _collect_answers(self, cue: Collect, early: asyncio.Future[Heard] | None = None) -> Heard:
        """All at once (scripts, phones)."""
        if early is not None:
            return await early
        return await self.hub.collect(cue)

    async def _pass_round(self, cue: Collect) -> Heard:
        """Turn by turn on one device: each player chooses, sees the choice, and confirms it
        (Enter) before the screen clears; `u` before that chooses again."""
        answers: dict[str, Any] = {}
        for request in cue.requests:
            await self._hand_device(request.player)
            seated = SeatedRequest.of(request, cue.seats)
            while True:
                choice = self._choice_screen(request, seated)
                answer = await self._private_answer(cue, seated, partial(self.display.private, request.player, choice))
                if answer is None:
                    continue  # `u` before choosing: nothing of theirs to take back
                confirm = self._confirm_screen(request, seated, answer)
                if await self._confirmed(partial(self.display.private, request.player, confirm)):
                    break
            answers[request.player] = answer
            self.display.clear()
        return Heard("answer", answers, "device")

    async def _private_answer(self, cue: Collect, request: Request, show: Callable[[], None]) -> dict[str, Any] | None:
        """The holder's answer to `request` (its screen shown by `show`), or None on `u`; `pause`
        holds the table meanwhile."""
        heard, undone = await self._unless_command(self.hub.collect(cue, (request,)), pause=True, show=show)
        if undone:
            return None
        assert isinstance(heard.value, dict)  # a round's answers, by player (`ListenerHub.collect`)
        return heard.value[request.player]

    async def _confirmed(self, show: Callable[[], None]) -> bool:
        """Enter confirms the choice `show` puts on screen; `u` takes it back."""
        _, undone = await self._unless_command(self.hub.answer(Ask("private.confirm", ("done",))), show=show)
        return not undone

    async def _unless_command(self, awaitable: Awaitable[Heard], pause: bool = False,
                              show: Callable[[], None] | None = None) -> tuple[Heard, bool]:
        """Wait for `awaitable` unless `undo` comes first: (its result, False) or (the undo, True).
        Other commands are let go, except `pause` (with `pause`), which holds the table.

        `show` puts the question's screen up once the question is open: the keyboard is read
        on its own thread, so an answer typed the instant the screen appears could otherwise
        reach the hub before the question opens, be refused, and leave the game waiting."""
        task = asyncio.ensure_future(awaitable)
        try:
            if show is not None:
                await asyncio.sleep(0)  # the task's first step opens the question
                show()
            while True:
                command_task = asyncio.ensure_future(self.hub.command())
                await asyncio.wait({task, command_task}, return_when=asyncio.FIRST_COMPLETED)
                if task.done():
                    command_task.cancel()
                    return task.result(), False
                command = command_task.result()
                if command.value == "undo":
                    return command, True
                if command.value == "pause" and pause:
                    await self.commands.pause()
        finally:
            if not task.done():
                task.cancel()

    def _choice_screen(self, request: Request, seated: SeatedRequest) -> list[str]:
        lines = [self._text(request.line, request.params)]
        if request.ability:
            lines.append(self._text("private.ability"))
        lines.append("  " + ", ".join(f"{seated.number(n)}={n}" for n in request.choices))
        return lines

    def _confirm_screen(self, request: Request, seated: SeatedRequest, answer: dict[str, Any]) -> list[str]:
        chosen = answer[request.key]
        lines = [self._text("private.chosen", {"seat": seated.number(chosen), "target": [chosen]})]
        if request.ability:
            lines.append(self._text(f"private.chosen_ability.{'yes' if answer['ability'] else 'no'}"))
        return lines + [self._text("private.confirm")]

    async def _hand_device(self, player: str) -> None:
        """Call `player` by name, and wait until they hold the device alone (Enter)."""
        await self.narration.say(self.voice.clip("private.call", {"name": player}), "say")
        self.display.private(player, [self._text("private.take", {"name": player})])
        await self.hub.answer(Ask("private.take", ("done",)))
        self.timeline.resync()

    def _text(self, line: str, params: dict[str, Any] | None = None) -> str:
        return self.voice.pack.speak(line, params).text


@dataclass(frozen=True)
class SeatedRequest(Request):
    """A request whose typed numbers are seats: `choices` lists every seat in order, so the
    listener reads "2" as the player in seat 2; the answer must still be one of `allowed`."""

    allowed: tuple[str, ...] = ()

    @classmethod
    def of(cls, request: Request, seats: tuple[str, ...]) -> SeatedRequest:
        order = tuple(seats) if set(request.choices) <= set(seats) else request.choices
        return cls(**{**vars(request), "choices": order, "allowed": request.choices})

    def number(self, name: str) -> int:
        return self.choices.index(name) + 1

    def check(self, answer: object) -> dict[str, Any]:
        return Request.check(replace(self, choices=self.allowed), answer)


def group_privates(cues: list[Cue]) -> list[StepItem]:
    """Consecutive `Private` cues to the same player become one list (one device hand-over).

    A `Countdown` right after private lines is the time to read them: it joins the last list,
    so `PrivateRounds.lines` can skip it when each player has read alone on the device."""
    out: list[StepItem] = []
    for cue in cues:
        group = out[-1] if out and isinstance(out[-1], list) else None
        if isinstance(cue, Private):
            first = group[0] if group else None
            if group and isinstance(first, Private) and first.to == cue.to and isinstance(group[-1], Private):
                group.append(cue)
            else:
                out.append([cue])
        elif isinstance(cue, Countdown) and group is not None:
            group.append(cue)
        else:
            out.append(cue)
    return out
