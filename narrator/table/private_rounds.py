"""Private rounds: lines and answers for one player at a time.

A mixin of `Scheduler`. Private lines are recorded and published to the hub (phones); in
pass-the-device mode the narrator calls the player by name and shows them alone the
lines or the choices. `Collect` gathers one private answer per requested player.
"""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.cues import Ask, Collect, Cue, Event, Private
from narrator.inputs.hub import Heard


class PrivateRounds:
    """Private lines and collected answers for `Scheduler`."""

    async def _private(self, cues: list[Private]) -> None:
        """Private lines for one player: recorded; in pass-the-device mode shown to them alone."""
        to = cues[0].to
        texts = [self.voice.pack.speak(c.line, c.params).text for c in cues]
        t = round(self._slot(), 3)
        for cue, text in zip(cues, texts):
            self.transcript.write_private({"kind": "private", "to": to, "line": cue.line, "text": text, "t": t,
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
        record = {"kind": "answer", "line": f"collect.{cue.phase}", "text": "", "t": round(self.cursor, 3),
                  **self.context, "number": cue.number}
        self.transcript.write_private({**record, "value": heard.value, "source": heard.source},
                                      {**record, "private": True})
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


def group_privates(cues: list[Cue]) -> list[Any]:
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
