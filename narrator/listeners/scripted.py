"""Scripted answers (`--answers FILE`): one answer per line, in the order asked.

Blank lines and `#` comments are skipped; answers are `yes`, `no`, `done` or player names
separated by commas. This makes every game replayable through the real CLI. An answer
that does not fit its question stops the game with the file's line number: a script
must never be silently misread. On resume, the answers already used are skipped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.errors import AnswerError, SetupError
from narrator.listeners import ListenerHub

SOURCE = "script"


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
        self.answers = read_answers(path)[skip:]
        self.used = skip

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> asyncio.Task:
        hub.register(SOURCE)
        return loop.create_task(self._run(hub))

    async def _run(self, hub: ListenerHub) -> None:
        serial = 0
        for number, answer in self.answers:
            serial, ask = await hub.next_ask(serial)
            hint = hub.offer_text(answer, SOURCE)
            if hint:
                hub.fail(AnswerError(f"answers file {self.path} line {number}: '{answer}' does not answer "
                                     f"'{ask.line}': {hint}"))
                return
            self.used += 1
        hub.retire(SOURCE)
