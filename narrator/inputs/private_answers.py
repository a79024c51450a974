"""Rounds of private answers, one from each asked player of a `Collect`: the hub's second job.

A night's memos and a day's votes come from several channels at once (a scripted file,
pass-the-device, phones), in any order; the round ends when every asked player has answered
or its timer closes it. `PrivateAnswers` is mixed into `ListenerHub` (hub.py), whose
questions, listeners and change notices (`_sources`, `_notify`, `_next_change`, `hints`,
`vocabulary`) it shares: one hub, so a listener that retires ends a round as it ends a question.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from narrator.cues import Collect, Request
from narrator.errors import AnswerError, NoMoreAnswers
from narrator.inputs.heard import Heard
from narrator.inputs.words import parse_private

if TYPE_CHECKING:
    from narrator.inputs.hints import Hints
    from narrator.inputs.words import Vocabulary

PrivateSubscriber = Callable[[str, str, str], None]
"""(to, line, text): handed every private line as it is played (the phones)."""
AnswerOrChange = asyncio.Future[Heard] | asyncio.Future[None]
"""What a question or round waits on: its answer, or the hub's next change (a listener gone)."""


NOT_A_CHOICE = "not a choice of this night call"
"""A night call's refusal: it names neither the asked nor their choices (whose they are says the role)."""


@dataclass
class OpenCollect:
    """A round of private answers in progress."""

    phase: str
    number: int
    requests: dict[str, Request]
    future: asyncio.Future[Heard]
    answers: dict[str, Any]
    call: bool = False
    """A night call's round: its refusals name neither who is asked nor what they may pick
    (a terminal or a script's error is read by the whole table)."""

    def pending(self) -> list[Request]:
        return [r for name, r in self.requests.items() if name not in self.answers]


class PrivateAnswers:
    """The private-answer half of `ListenerHub` (its state is set in the hub's `__init__`)."""

    # the hub's, declared here so this half is checked against them
    _collect: OpenCollect | None
    _collect_serial: int
    _private_subscribers: list[PrivateSubscriber]
    _sources: set[str]
    hints: Hints
    vocabulary: Vocabulary

    def _notify(self) -> None:
        raise NotImplementedError  # ListenerHub's

    def _next_change(self) -> asyncio.Future[None]:
        raise NotImplementedError  # ListenerHub's

    @property
    def open_collect(self) -> tuple[int, OpenCollect] | None:
        """The round of private answers open now, with its serial; None when none is."""
        if self._collect is None or self._collect.future.done():
            return None
        return self._collect_serial, self._collect

    # The private-answer interface, for any channel (scripted file, pass-the-device, phones):
    #   serial, open = await hub.next_collect(after)   # wait for a round newer than `after`
    #   open.phase, open.number, open.requests          # "night"/"vote"/"revote", night or day, {player: Request}
    #   hint = hub.offer_private(player, answer, source)  # None when taken, else why not
    #   hub.subscribe_private(callback)                 # callback(to, line, text) for each private line
    # An answer is {"target": name, "ability": bool} for a night memo, {"vote": name} for a vote
    # (see `Request`). Answers may come in any order and from several channels; the round ends
    # when every requested player has answered. `hub.fail(error)` stops the game (bad script).

    def subscribe_private(self, callback: PrivateSubscriber) -> None:
        """Receive every private line as it is played: `callback(to, line, text)` (phones)."""
        self._private_subscribers.append(callback)

    def publish_private(self, to: str, line: str, text: str) -> None:
        """The scheduler hands over one private line for player `to`."""
        for callback in self._private_subscribers:
            callback(to, line, text)

    async def collect(self, collect: Collect, requests: tuple[Request, ...] | None = None) -> Heard:
        """Open a round for `requests` (default: all of `collect`) and return {player: answer}.

        A night call's round (`Collect.call`) opens even when nobody is asked, and is then
        closed by its countdown (`close_collect`): every call looks the same to the phones."""
        requests = collect.requests if requests is None else requests
        if not requests and not collect.call:
            return Heard("answer", {}, "none")
        future: asyncio.Future[Heard] = asyncio.get_running_loop().create_future()
        self._collect = OpenCollect(collect.phase, collect.number, {r.player: r for r in requests}, future, {},
                                    collect.call)
        self._collect_serial += 1
        self._notify()
        try:
            while not future.done():
                if not self._sources and requests:
                    raise NoMoreAnswers(
                        f"no listener is left to answer the {collect.phase} {collect.number} memos (the answers "
                        "file ended or there is no keyboard); add answers or play at a terminal, then `narrator resume` "
                        "(`--keyboard` if it was started without one)"
                    )
                waiting: set[AnswerOrChange] = {future, self._next_change()}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            return future.result()
        finally:
            self._collect = None
            self._notify()

    def close_collect(self) -> None:
        """End the open round with the answers given so far (its timer ran out)."""
        open_ = self._collect
        if open_ is not None and not open_.future.done():
            given = {name: open_.answers[name] for name in open_.requests if name in open_.answers}
            open_.future.set_result(Heard("answer", given, "timer"))

    def offer_private(self, player: str, answer: object, source: str) -> str | None:
        """Give the open round `player`'s answer; returns why it was refused, or None."""
        open_ = self._collect
        if open_ is None or open_.future.done():
            return "no private answers are being collected right now"
        request = open_.requests.get(player)
        if request is None:
            return NOT_A_CHOICE if open_.call else f"{player} is not asked now; asked: {', '.join(open_.requests)}"
        if player in open_.answers:
            return f"{player} has already answered"
        try:
            open_.answers[player] = request.check(answer)
        except ValueError as err:
            return NOT_A_CHOICE if open_.call else str(err)
        if not open_.pending():
            ordered = {name: open_.answers[name] for name in open_.requests}
            open_.future.set_result(Heard("answer", ordered, source))
        return None

    def _offer_private_text(self, text: str, source: str) -> str | None:
        """Pass-the-device: typed "Ben y" / "2 n" (memo) or "Ben" (vote) answers the open request."""
        pending = self._collect.pending() if self._collect else []
        if not pending:
            return self.hints.text("nothing_asked")
        request = pending[0]
        try:
            answer = parse_private(request, text, self.vocabulary)
        except AnswerError as err:
            return self.hints.of(err)
        return self.offer_private(request.player, answer, source)

    def offer_call_text(self, text: str, source: str) -> str | None:
        """A plain answers file's line for the open night call (`Collect.call`): the answer of
        its next asked holder, in seat order; returns why it was refused, or None."""
        pending = self._collect.pending() if self._collect is not None and not self._collect.future.done() else []
        if not pending:
            return self.hints.text("nothing_asked")
        try:
            answer = parse_private(pending[0], text, self.vocabulary)
        except AnswerError:
            return NOT_A_CHOICE
        return self.offer_private(pending[0].player, answer, source)

    async def next_collect(self, after: int) -> tuple[int, OpenCollect]:
        """Wait for a round newer than serial `after` (a scripted channel answers each once)."""
        while self._collect is None or self._collect_serial <= after:
            await self._next_change()
        return self._collect_serial, self._collect
