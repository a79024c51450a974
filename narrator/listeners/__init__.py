"""Every input is a listener; the hub turns what they hear into answers and commands.

Keyboard, scripted answers, and later voice, a GPIO button and phones all hand raw words
to the same `ListenerHub`, which reads them against the question open right now: the
first fitting answer from any listener wins, and a word that fits nothing gets a hint.
Which words mean yes, no, done, repeat … comes from the voice pack's vocabulary.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from narrator.cues import Ask
from narrator.errors import AnswerError, NoMoreAnswers

COMMANDS = ("done", "repeat", "pause", "undo")
ASCII_VOCABULARY = {
    "yes": ("y", "yes"),
    "no": ("n", "no"),
    "done": ("", "d", "done", "next", "ok"),
    "repeat": ("r", "repeat"),
    "pause": ("p", "pause"),
    "undo": ("u", "undo"),
}


class Listener(Protocol):
    """An input source. `start` registers it with the hub and begins feeding it words
    (`hub.offer_text`); when it can give no more it calls `hub.retire`."""

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> Any:
        ...


@dataclass(frozen=True)
class Heard:
    """An answer to the open question, or a command (`done`, `repeat`, `pause`, `undo`)."""

    kind: str
    value: Any
    source: str


class Vocabulary:
    """Maps what a listener heard or read to canonical words (yes, no, done, …)."""

    def __init__(self, extra: Mapping[str, Any] | None = None):
        self._words: dict[str, str] = {}
        for meaning, words in ASCII_VOCABULARY.items():
            for w in words:
                self._words[w] = meaning
        for meaning, words in (extra or {}).items():
            for w in ([words] if isinstance(words, str) else words):
                self._words[_norm(w)] = meaning

    def meaning(self, text: str) -> str | None:
        return self._words.get(_norm(text))


def _norm(text: str) -> str:
    return text.strip().strip("。.!！?？").casefold()


def parse_answer(ask: Ask, text: str, vocabulary: Vocabulary) -> Any:
    """The answer `text` gives to `ask`, or raise AnswerError with what would fit."""
    if ask.choices == ("done",):
        if vocabulary.meaning(text) == "done":
            return "done"
        raise AnswerError("say or type done when ready (Enter on the keyboard)")
    if set(ask.choices) <= {"yes", "no"}:
        meaning = vocabulary.meaning(text)
        if meaning in ask.choices:
            return meaning
        raise AnswerError(f"'{text.strip()}' is not an answer here; answer {' or '.join(ask.choices)}")
    return _parse_names(ask, text)


def _parse_names(ask: Ask, text: str) -> Any:
    parts = [p.strip() for p in text.replace("、", ",").split(",") if p.strip()]
    by_name = {c.casefold(): c for c in ask.choices}
    chosen: list[str] = []
    for part in parts:
        name = by_name.get(part.casefold())
        if name is None and part.isdigit() and 1 <= int(part) <= len(ask.choices):
            name = ask.choices[int(part) - 1]
        if name is None:
            raise AnswerError(f"'{part}' is not a player here; choose from {', '.join(ask.choices)}")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise AnswerError(f"name a player: {', '.join(ask.choices)}")
    if not ask.multiple and len(chosen) > 1:
        raise AnswerError("name one player only")
    return chosen if ask.multiple else chosen[0]


class ListenerHub:
    """Collects input from every listener; hands the scheduler answers and commands."""

    def __init__(self, vocabulary: Vocabulary | None = None):
        self.vocabulary = vocabulary or Vocabulary()
        self._ask: Ask | None = None
        self._ask_serial = 0
        self._answer: asyncio.Future | None = None
        self._commands: asyncio.Queue[Heard] = asyncio.Queue()
        self._sources: set[str] = set()
        self._change_waiters: list[asyncio.Future] = []
        self.last_error: str | None = None

    # --- listeners' side ---------------------------------------------------------------

    def register(self, source: str) -> None:
        self._sources.add(source)

    @property
    def sources(self) -> frozenset[str]:
        """The listeners that can still answer (the appliance waits on its own when none can)."""
        return frozenset(self._sources)

    @property
    def open_serial(self) -> int | None:
        """The serial of the question waiting for an answer right now (None when none is)."""
        if self._ask is None or self._answer is None or self._answer.done():
            return None
        return self._ask_serial

    def retire(self, source: str) -> None:
        """A listener can give no more answers (end of file, closed keyboard)."""
        self._sources.discard(source)
        self._notify()

    def fail(self, error: Exception) -> None:
        """A listener met input it must not skip (a bad scripted answer): stop the game."""
        if self._answer is not None and not self._answer.done():
            self._answer.set_exception(error)

    def offer_text(self, text: str, source: str) -> str | None:
        """Give the hub raw words; returns a hint when they fit neither command nor question."""
        meaning = self.vocabulary.meaning(text)
        if meaning in ("repeat", "pause", "undo"):
            self._commands.put_nowait(Heard("command", meaning, source))
            return None
        if self._ask is None or self._answer is None or self._answer.done():
            if meaning == "done":
                self._commands.put_nowait(Heard("command", "done", source))
                return None
            return "nothing is being asked right now"
        try:
            value = parse_answer(self._ask, text, self.vocabulary)
        except AnswerError as err:
            self.last_error = str(err)
            return str(err)
        self._answer.set_result(Heard("answer", value, source))
        return None

    async def next_ask(self, after: int) -> tuple[int, Ask]:
        """Wait for a question newer than serial `after` (scripted listeners answer each once)."""
        while self._ask is None or self._ask_serial <= after:
            await self._next_change()
        return self._ask_serial, self._ask

    # --- scheduler's side -------------------------------------------------------------

    async def answer(self, ask: Ask) -> Heard:
        """Open `ask` to every listener and return the first answer that fits."""
        loop = asyncio.get_running_loop()
        self._answer = loop.create_future()
        self._ask = ask
        self._ask_serial += 1
        self._notify()
        try:
            while not self._answer.done():
                if not self._sources:
                    raise NoMoreAnswers(
                        f"no listener is left to answer '{ask.line}' (the answers file ended or there is "
                        "no keyboard); add answers or play at a terminal, then `narrator resume`"
                    )
                await asyncio.wait({self._answer, self._next_change()}, return_when=asyncio.FIRST_COMPLETED)
            return self._answer.result()
        finally:
            self._ask = None

    def command_nowait(self) -> Heard | None:
        try:
            return self._commands.get_nowait()
        except asyncio.QueueEmpty:
            return None

    async def command(self) -> Heard:
        return await self._commands.get()

    def drain_commands(self) -> None:
        while self.command_nowait() is not None:
            pass

    def _notify(self) -> None:
        waiters, self._change_waiters = self._change_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _next_change(self) -> asyncio.Future:
        """A future resolved at the next change (created now, so no wake-up is lost)."""
        waiter = asyncio.get_running_loop().create_future()
        self._change_waiters.append(waiter)
        return waiter
