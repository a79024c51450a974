"""Scripted answers (`--answers FILE`): one answer per line, in the order asked.

Blank lines and `#` comments are skipped; answers are `yes`, `no`, `done` or player names
separated by commas. This makes every game replayable through the real CLI. An answer
that does not fit its question stops the game with the file's line number: a script
must never be silently misread. On resume, the answers already used are skipped.

`repeat`, `help`, `pause` and `resume` lines are commands about the open question: the
next line still answers it. They leave no event in the log, so on resume they are skipped
without being counted among the answers used. A script cannot sit out a pause, so a
pause lasts until its next line: an answer after `pause` first ends the pause. A pause
the file leaves open at its end stops the game like any listener running dry (exit 3).

A script never waits for what it cannot give: when the game opens a round of private
answers (Bestia Magica's memos and votes) and nothing but this file can answer it, the
game stops with the line the script had reached: such rounds need the JSON Lines form.
A game file's night call is the exception (`Collect.call`): each holder asked in it takes
the next line, in seat order (a role in the centre or dead takes none), so a game file's
answers read in the order of its night: step by step, the holders of a step in seat order.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from narrator.cues import Ask
from narrator.errors import AnswerError
from narrator.inputs.hub import ListenerHub
from narrator.values.files import read_text_bounded

SOURCE = "script"
SAME_QUESTION = ("repeat", "help", "pause", "resume")
"""Commands after which the question stays open (unlike `undo`, which asks again)."""
ENDS_PAUSE = ("pause", "resume")


def read_answers(path: Path) -> list[tuple[int, str]]:
    """(line number, answer) pairs of an answers file (read with a size bound)."""
    text = read_text_bounded(path, "answers file", "check --answers")
    answers = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            answers.append((number, line))
    return answers


class ScriptedListener:
    def __init__(self, path: Path, skip: int = 0):
        self.path = path
        self.answers = read_answers(path)
        self.skip = skip
        self.used = skip

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> asyncio.Task[None]:
        hub.register(SOURCE)
        self.answers = self._unused(hub, self.answers, self.skip)
        return loop.create_task(self._run(hub))

    @staticmethod
    def _unused(hub: ListenerHub, answers: list[tuple[int, str]], skip: int) -> list[tuple[int, str]]:
        """The lines after the first `skip` logged ones (same-question commands not counted)."""
        counted = 0
        for index, (_, answer) in enumerate(answers):
            if counted == skip:
                return answers[index:]
            if hub.vocabulary.meaning(answer) not in SAME_QUESTION:
                counted += 1
        return []

    async def _run(self, hub: ListenerHub) -> None:
        serial, rounds, same_question, paused = 0, 0, False, False
        ask = None
        for number, answer in self.answers:
            meaning = hub.vocabulary.meaning(answer)
            if paused and meaning not in ENDS_PAUSE:
                hub.offer_text("resume", SOURCE)  # a script's pause lasts until its next line
                await hub.commands_taken()
                paused = False
            if meaning in ENDS_PAUSE:
                paused = meaning == "pause" and not paused
            if not same_question:
                waited = await self._next_question(hub, serial, rounds, number)
                if waited is None:
                    return
                kind, opened, ask = waited
                if kind == "ask":
                    serial = opened
                else:
                    rounds = opened
            if ask is not None and not isinstance(ask, Ask) and meaning not in SAME_QUESTION:
                hint = hub.offer_call_text(answer, SOURCE)  # a night call's round: its next asked holder
                where = "the night call"
            else:
                hint = hub.offer_text(answer, SOURCE)  # a private question's line would name its role
                where = "a private question" if getattr(ask, "player", None) else f"'{getattr(ask, 'line', '')}'"
            if hint:
                hub.fail(AnswerError(f"answers file {self.path} line {number}: '{answer}' does not answer "
                                     f"{where}: {hint}"))
                return
            self.used += 1
            same_question = meaning in SAME_QUESTION
            if same_question:
                await hub.commands_taken()
        hub.retire(SOURCE)

    async def _next_question(self, hub: ListenerHub, after: int, rounds: int,
                             number: int) -> tuple[str, int, Any] | None:
        """The next question ("ask", serial, Ask) or night call with a holder still to answer
        ("round", serial, its round); None (the game stopped) when a private round opens that
        only this file could answer, and it cannot. A night call whose round asks nobody (its
        role in the centre or dead) passes by: the file holds no line for it."""
        open_now = hub.open_collect
        if open_now is not None and open_now[1].call and open_now[1].pending():
            return "round", open_now[0], open_now[1]
        while True:
            ask = asyncio.ensure_future(hub.next_ask(after))
            round_ = asyncio.ensure_future(hub.next_collect(rounds))
            await asyncio.wait({ask, round_}, return_when=asyncio.FIRST_COMPLETED)
            if ask.done():
                round_.cancel()
                return ("ask", *ask.result())
            ask.cancel()
            rounds, open_ = round_.result()
            if open_.call:
                if open_.pending():
                    return "round", rounds, open_
                continue
            if hub.sources <= {SOURCE}:
                hub.fail(AnswerError(
                    f"answers file {self.path} line {number}: the game collects private answers here "
                    f"({open_.phase} {open_.number}); write them as JSON Lines, one record per line, such as "
                    '{"night": 1, "player": "Aki", "target": "Ben", "ability": false}'))
                return None
