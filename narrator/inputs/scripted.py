"""Scripted answers (`--answers FILE`): one answer per line, in the order asked.

Blank lines and `#` comments are skipped; answers are `yes`, `no`, `done` or player names
separated by commas. This makes every game replayable through the real CLI. An answer
that does not fit its question stops the game with the file's line number: a script
must never be silently misread. On resume, the answers already used are skipped.

`repeat`, `help` and `pause` lines are commands about the open question: the next line
still answers it. They leave no event in the log, so on resume they are skipped without
being counted among the answers used.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.errors import AnswerError, SetupError
from narrator.inputs.hub import ListenerHub

SOURCE = "script"
SAME_QUESTION = ("repeat", "help", "pause")
"""Commands after which the question stays open (unlike `undo`, which asks again)."""


def read_answers(path: Path) -> list[tuple[int, str]]:
    """(line number, answer) pairs of an answers file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise SetupError(f"answers file {path} cannot be read ({err.strerror}); check --answers") from None
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

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> asyncio.Task:
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
        serial, same_question = 0, False
        ask = None
        for number, answer in self.answers:
            if not same_question:
                serial, ask = await hub.next_ask(serial)
            hint = hub.offer_text(answer, SOURCE)
            if hint:
                hub.fail(AnswerError(f"answers file {self.path} line {number}: '{answer}' does not answer "
                                     f"'{ask.line}': {hint}"))
                return
            self.used += 1
            same_question = hub.vocabulary.meaning(answer) in SAME_QUESTION
            if same_question:
                await hub.commands_taken()
        hub.retire(SOURCE)
