"""Every input is a listener; the hub turns what they hear into answers and commands.

Keyboard, scripted answers, and later voice, a GPIO button and phones all hand raw words
to the same `ListenerHub`, which reads them against the question open right now: the
first fitting answer from any listener wins, and a word that fits nothing gets a hint.
Which words mean yes, no, done, repeat … comes from the voice pack's vocabulary.
Rounds of private answers (memos, votes) are the hub's second job: `private_answers.py`; the
table's own words (a press that confirms a host screen, `release Aki`) its third: `table_words.py`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable, Protocol, Sequence, TypeVar

from narrator.cues import Ask, Cue
from narrator.errors import AnswerError, NoMoreAnswers
from narrator.settings import TableMode
from narrator.inputs.heard import Heard
from narrator.inputs.hints import Hints
from narrator.inputs.private_answers import AnswerOrChange, OpenCollect, PrivateAnswers
from narrator.inputs.table_words import TableWords
from narrator.inputs.words import (  # noqa: F401  (re-exported: the hub's words)
    ASCII_VOCABULARY, COMMANDS, Vocabulary, _parse_names, parse_answer, parse_private,
)


CueWatcher = Callable[[Cue | Sequence[Cue]], None]
"""Told each cue the scheduler starts (`cue_started`): one cue, or a step's private lines together."""
W = TypeVar("W", bound=Callable[..., object])
"""A kind of callback the hub keeps (`forget` drops one owner's)."""


class Listener(Protocol):
    """An input source. `start` registers it with the hub and begins feeding it words
    (`hub.offer_text`); when it can give no more it calls `hub.retire`."""

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> object:
        ...


def is_confirmation(ask: Ask) -> bool:
    return ask.line.startswith("confirm.")


def needs_confirmation(ask: Ask) -> bool:
    """Answers that end or change the game (yes/no, names) are confirmed; `done` is not."""
    return ask.choices != ("done",) and not is_confirmation(ask)


CONFIRM_ENDING = frozenset({"keyboard", "voice"})
"""Sources whose answers that end the game (`Ask.ends_game`) are confirmed: a stray Enter or
y at the terminal must not end a game that no undo can bring back."""
NARRATOR_COMMANDS = tuple(c for c in COMMANDS if c != "done")
"""What the table says to the narrator itself rather than to the open question (`done`
answers the question)."""
NOT_WHILE_CONFIRMING = ("pause", "resume", "help")
"""Commands a confirmation refuses: it is one short yes/no (a `repeat` asks it again, an
`undo` is its "no")."""


class ListenerHub(PrivateAnswers, TableWords):
    """Collects input from every listener; hands the scheduler answers and commands."""

    def __init__(self, vocabulary: Vocabulary | None = None, hints: Hints | None = None,
                 mode: TableMode | None = None, table_to_come: bool = False):
        """`mode` is the table's, chosen when the sitting opened (`narrator.settings.TableMode`): whether
        private rounds pass the device and whether heard answers are asked back come from it."""
        TableWords.__init__(self, table_to_come)
        mode = mode or TableMode()
        self.mode = mode
        self.vocabulary = vocabulary or Vocabulary()
        self.hints = hints or Hints()
        """What a typed answer that does not fit is told, in the game's language."""
        self._ask: Ask | None = None
        self._ask_serial = 0
        self._answer: asyncio.Future[Heard] | None = None
        self._commands: asyncio.Queue[Heard] = asyncio.Queue()
        self._sources: set[str] = set()
        self._change_waiters: list[asyncio.Future[None]] = []
        self.changes = 0
        """Counts the hub's changes (a question or round opened or closed, a listener gone): a
        reader on a higher floor (the phone server) keeps the count it saw and waits for the
        next with `changed_after`, so the hub never calls up into it."""
        self.cue_watchers: list[CueWatcher] = []
        self.listen_also: tuple[str, ...] = ()
        """Words the voice hears beside the open question's (`yes` to a question the phones asked)."""
        self.last_error: str | None = None
        self.private_sources: set[str] = {"script"}
        """Sources trusted to answer any player's private question (the table's own script)."""
        self._collect: OpenCollect | None = None
        self._collect_serial = 0
        self.sequential_private = mode.pass_device
        """Pass-the-device mode: the scheduler hands the device to one player at a time, and
        typed text answers that player's private request."""
        self.private_asks_on_device = mode.private_asks_on_device
        """Pass-the-device with nobody scripting the answers: a private question (`Ask.player`) is
        put on the device for its player, and the keyboard (in their hands) answers it."""
        self.rounds_during_timers = False
        """Phones: a private round opens when the timer before it starts (the memo or vote
        time), and that timer ends early once every asked player has answered. Set while a
        game's phone server is attached (`attach_phones`): the appliance's phones come and go
        game by game."""
        self._rounds_before: list[bool] = []
        self._private_subscribers = []
        self.confirm_heard = mode.confirm_heard
        """Mark for confirmation (`Heard.confirm`; the scheduler asks back) every answer from a listener that can mishear (voice); the table key `confirm`."""
        self._ask_watchers: list[Callable[[Ask | None], None]] = []
        self._speech_watchers: list[Callable[[float, Path | None], None]] = []

    # --- watchers (voice listeners build their grammar and mute themselves from these) ----

    def observe(self, on_ask: Callable[[Ask | None], None] | None = None,
                on_speech: Callable[[float, Path | None], None] | None = None) -> None:
        """Call `on_ask(ask)` when a question opens or closes (None), `on_speech(seconds, wav)` when a clip plays."""
        if on_ask is not None:
            self._ask_watchers.append(on_ask)
            on_ask(self._ask)
        if on_speech is not None:
            self._speech_watchers.append(on_speech)

    def speaking(self, seconds: float, wav: Path | None = None) -> None:
        """The scheduler has just started a clip (`seconds` long, audio in `wav`): listeners mute."""
        for watcher in self._speech_watchers:
            watcher(seconds, wav)

    @property
    def current_ask(self) -> Ask | None:
        return self._ask

    def _set_ask(self, ask: Ask | None) -> None:
        self._ask = ask
        for watcher in self._ask_watchers:
            watcher(ask)

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
        if self._collect is not None and not self._collect.future.done():
            self._collect.future.set_exception(error)

    def offer_text(self, text: str, source: str, confirm: bool = False) -> str | None:
        """Give the hub raw words; returns a hint when they fit neither command nor question.

        With `confirm`, an answer that can change the game is confirmed before it counts.
        Each step decides one thing, in this order: the table's own words (a claim, a
        hands-free action), what a confirmation lets through, the commands, the table's
        terminal words, a private round on the passed device, and last the open question.
        """
        meaning = self.vocabulary.meaning(text)
        if self._taken_by_table(meaning, text, source):
            return None
        if self._ask is not None and is_confirmation(self._ask):
            if meaning == "undo":
                text, meaning = "no", "no"  # undo while confirming takes the answer back
            elif meaning in NOT_WHILE_CONFIRMING:
                return self.hints.text("confirm_first")
        if meaning in NARRATOR_COMMANDS:
            self._commands.put_nowait(Heard("command", meaning, source))
            return None
        return self._offer_words(text, meaning, source, confirm)

    def _offer_words(self, text: str, meaning: str | None, source: str, confirm: bool) -> str | None:
        """Words that are no command: a word of the table's own terminal, an answer in a private
        round on the passed device, else an answer to the open question (if one is open)."""
        printed = self._table_command(text, source)
        if printed is not None:
            return printed
        if self.sequential_private and self._collect is not None and not self._collect.future.done():
            return self._offer_private_text(text, source)
        if self._ask is None or self._answer is None or self._answer.done():
            return self._nothing_asked(meaning, source)
        return self._offer_answer(self._ask, self._answer, text, source, confirm)

    def _nothing_asked(self, meaning: str | None, source: str) -> str | None:
        """No question is open: a `done` still ends a countdown or timer; anything else is told so."""
        if meaning == "done":
            self._commands.put_nowait(Heard("command", "done", source))
            return None
        return self.hints.text("nothing_asked")

    def _offer_answer(self, ask: Ask, answer: asyncio.Future[Heard], text: str, source: str,
                      confirm: bool) -> str | None:
        """The words as an answer to the open question `ask`: refused from a shared source when
        the question is private, parsed, and marked to be confirmed when it must be."""
        if ask.player is not None and source not in self.private_sources and not (
                self.private_asks_on_device and source == "keyboard"):
            return self.hints.text("private")
        try:
            value = parse_answer(ask, text, self.vocabulary)
        except AnswerError as err:  # a private question's choices would tell whose it is: not listed
            self.last_error = self.hints.text("private_choice") if ask.player is not None else self.hints.of(err)
            return self.last_error
        misheard = confirm and self.confirm_heard and value != "done" and needs_confirmation(ask)
        ending = source in CONFIRM_ENDING and ask.ends_with(value) and not is_confirmation(ask)
        answer.set_result(Heard("answer", value, source, confirm=misheard or ending))
        return None

    @property
    def open_ask(self) -> tuple[int, Ask] | None:
        """The question waiting for an answer now, with its serial; None when nothing is open."""
        if self._ask is None or self._answer is None or self._answer.done():
            return None
        return self._ask_serial, self._ask

    def offer_value(self, serial: int, value: object, source: str) -> bool:
        """Answer question `serial` with an already-checked value (a phone); False when it is closed.

        The phone server checks who may answer and what fits; this only makes sure one
        answer per question wins, so a replayed or late submission changes nothing.
        """
        if self.open_ask is None or self._answer is None or self._ask_serial != serial:
            return False  # (open_ask is None whenever _answer is: the second test is for mypy)
        self._answer.set_result(Heard("answer", value, source))
        self._notify()
        return True

    def attach_phones(self, claim: Callable[[], bool]) -> None:
        """A game's phone server attaches: rounds open with the timers before them, and the
        table's presses are offered to its `claim` first. Undone by `detach_phones`."""
        self._rounds_before.append(self.rounds_during_timers)
        self.rounds_during_timers = True
        self.set_table_claim(claim)

    def detach_phones(self, claim: Callable[[], bool]) -> None:
        """The game's phone server stops: rounds and presses as before it attached."""
        self.drop_table_claim(claim)
        self.rounds_during_timers = self._rounds_before.pop() if self._rounds_before else False

    def hear_also(self, words: tuple[str, ...]) -> None:
        """The voice also hears `words` from now on (`()`: only the open question's again)."""
        self.listen_also = tuple(words)
        for watcher in self._ask_watchers:
            watcher(self._ask)

    async def changed_after(self, seen: int) -> int:
        """Wait until the hub has changed since its `changes` count was `seen`; returns the count
        now. The phone server waits here in its own task (its pushes to the phones): the hub
        holds no callable of the server's for it, so nothing in inputs/ calls up into phones/."""
        while self.changes <= seen:
            await self._next_change()
        return self.changes

    def forget(self, owner: object) -> None:
        """Drop every cue watcher, private subscriber and table command whose bound
        method belongs to `owner` (a game's phone server at its end: a long-running service
        must not keep each game's server alive, nor hand it the next game's private lines)."""
        def kept(callbacks: list[W]) -> list[W]:
            return [c for c in callbacks if getattr(c, "__self__", None) is not owner]
        self.cue_watchers[:] = kept(self.cue_watchers)
        self._private_subscribers[:] = kept(self._private_subscribers)
        self._forget_table_words(owner)

    def cue_started(self, cue: Cue | Sequence[Cue]) -> None:  # the scheduler starts `cue` (or private lines): tell `cue_watchers`
        for callback in self.cue_watchers:
            callback(cue)

    async def next_ask(self, after: int) -> tuple[int, Ask]:
        """Wait for a question newer than serial `after` (scripted listeners answer each once)."""
        while self._ask is None or self._ask_serial <= after:
            await self._next_change()
        return self._ask_serial, self._ask

    # --- scheduler's side -------------------------------------------------------------

    async def answer(self, ask: Ask) -> Heard:
        """Open `ask` to every listener and return the first answer that fits; one that must
        be asked back says so (`Heard.confirm`), and the scheduler asks (`table/confirm.py`)."""
        return await self._first_answer(ask)

    def first_answer(self, ask: Ask) -> asyncio.Future[Heard]:
        """Open `ask` now (the scheduler opens it as it starts speaking, so an answer typed
        while the question is still being said counts) and return the first fitting answer."""
        return asyncio.ensure_future(self._first_answer(ask))

    async def _first_answer(self, ask: Ask) -> Heard:
        loop = asyncio.get_running_loop()
        self._answer = loop.create_future()
        self._set_ask(ask)
        self._ask_serial += 1
        self._notify()
        try:
            while not self._answer.done():
                if not self._sources:
                    raise NoMoreAnswers(
                        f"no listener is left to answer '{ask.line}' (the answers file ended or there is "
                        "no keyboard); add answers or play at a terminal, then `narrator resume` (`--keyboard` "
                        "if it was started without one)"
                    )
                waiting: set[AnswerOrChange] = {self._answer, self._next_change()}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            return self._answer.result()
        finally:
            self._set_ask(None)
            self._notify()

    def offer_command(self, meaning: str, source: str) -> None:
        """A command from a control that can only mean it (the host screen's "end the timer")."""
        self._commands.put_nowait(Heard("command", meaning, source))

    def command_nowait(self) -> Heard | None:
        try:
            heard = self._commands.get_nowait()
        except asyncio.QueueEmpty:
            return None
        self._commands.task_done()
        return heard

    async def command(self) -> Heard:
        heard = await self._commands.get()
        self._commands.task_done()
        return heard

    async def commands_taken(self) -> None:
        """Wait until the scheduler has taken every command offered so far (a script's
        `help` or `repeat` is served before its next line answers the same question)."""
        await self._commands.join()

    def drain_commands(self) -> None:
        while self.command_nowait() is not None:
            pass

    def _notify(self) -> None:
        """A change: count it and wake whoever waits for one (the hub calls nobody's code)."""
        self.changes += 1
        waiters, self._change_waiters = self._change_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _next_change(self) -> asyncio.Future[None]:
        """A future resolved at the next change (created now, so no wake-up is lost)."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._change_waiters.append(waiter)
        return waiter
