"""Answers from the phones: a player's own private questions and memos, the host's public ones.

A public question ("who was nominated?", "was a werewolf found?") is answered on the host
screen only: it lies in the middle of the table where everyone sees the answer given, so a
script on one player's phone cannot decide it (the keyboard, the button and the voice at
the table answer as before). A private question is answered by its player's phone only.
"""

from __future__ import annotations

from typing import Any, Protocol

from aiohttp import web

from narrator.phones import host_channel, wire
from narrator.phones.serving import Door, Playing
from narrator.phones.private import check_private_answer
from narrator.phones.views import may_answer, valid_choices


class Answering(Door, Playing, Protocol):
    """What the answer handlers use of the page (`PhoneServer`): the seat a request holds, the
    hub's open question or round, the game to check a value against, and a push to every phone."""

    def player(self, request: web.Request) -> str | None: ...

    def _changed(self) -> None: ...

SOURCE = "phone"


async def _read(request: web.Request, seated: bool, what: str, server: Door | None = None) -> tuple[dict[str, Any], int] | web.Response:
    """(the body, its serial) of an answer from a phone that holds something, or the refusal
    (`server`: the host screen's, through its sealed door)."""
    if not seated:
        return wire.error(401, "no seat: enter your seat's code first")
    body = await (wire.json_body(request) if server is None else host_channel.body_of(server, request))
    if isinstance(body, web.Response):
        return body
    return _serial(body, what)


def _serial(body: dict[str, Any], what: str) -> tuple[dict[str, Any], int] | web.Response:
    serial = body.get("serial")
    if not isinstance(serial, int) or isinstance(serial, bool):
        return wire.error(400, f"serial must be the number of the {what} being answered")
    return body, serial


async def answer(server: Answering, request: web.Request) -> web.Response:
    """An answer to the question open now: public ones from the host screen; a seated phone
    answers through its sealed channel only (`channel.py`), so a sniffed cookie cannot."""
    name, is_host = server.player(request), server.is_host(request)
    read = await _read(request, name is not None or is_host, "question", server if name is None else None)
    if isinstance(read, web.Response):
        return read
    if name is not None and sealed_only(server, request):
        return wire.error(401, SEALED_ONLY)
    return answer_body(server, name, is_host, *read)


SEALED_ONLY = "a seat answers through its sealed channel: reload the page"


def sealed_only(server: Door, request: web.Request) -> bool:
    """Whether this seated phone must seal its answers (it has a key: every phone that joined)."""
    return server.keys.key(server.token(request)) is not None


def answer_body(server: Answering, name: str | None, is_host: bool, body: dict[str, Any], serial: int) -> web.Response:
    """`body` answering question `serial`, from seat `name` or the host screen."""
    open_ask = server.hub.open_ask
    if open_ask is None or open_ask[0] != serial:
        return wire.error(409, "this question is closed: reload to see the current one")
    ask = open_ask[1]
    if ask.player is None and not public_answer_allowed(is_host):
        return wire.error(403, "this question is answered on the host screen")
    if ask.player is not None and (name is None or not may_answer(ask, name)):
        return wire.error(403, "this question is not yours to answer")
    choices = valid_choices(server.game, server.config, server.state, name, ask)
    problem = check_value(body.get("value"), choices, ask.multiple, ask.most)
    if problem:
        return wire.error(400, problem)
    if not server.hub.offer_value(serial, body.get("value"), SOURCE):
        return wire.error(409, "this question is closed: reload to see the current one")
    return wire.reply({"ok": True})


PRIVATE_FIELDS = frozenset({"serial", "answer"})
"""All a private answer may carry: never whose it is (that is the token's seat)."""


def answering_player(server: Answering, request: web.Request, body: dict[str, Any]) -> str | None:
    """Whose answer this is: the seat the request's token holds, whatever the body says."""
    return server.player(request)


def public_answer_allowed(is_host: bool) -> bool:
    """A public question is answered on the host screen, never from one player's phone."""
    return is_host


async def private(server: Answering, request: web.Request) -> web.Response:
    """One player's answer in a private round (a night memo, a vote): theirs, once."""
    seated = server.player(request) is not None
    read = await _read(request, seated, "round")
    if isinstance(read, web.Response):
        return read
    if seated and sealed_only(server, request):
        return wire.error(401, SEALED_ONLY)
    return private_body(server, request, *read)


def private_body(server: Answering, request: web.Request, body: dict[str, Any], serial: int) -> web.Response:
    """`body` answering private round `serial`, from the seat the request's token holds."""
    extra = sorted(set(body) - PRIVATE_FIELDS)
    if extra:
        return wire.error(400, f"unexpected field {extra[0][:40]!r}: a phone answers for its own seat only")
    name = answering_player(server, request, body)
    open_collect = server.hub.open_collect
    if open_collect is None or open_collect[0] != serial:
        return wire.error(409, "this round is closed: reload to see the current one")
    round_ = open_collect[1]
    asked = round_.requests.get(name) if name is not None else None
    if name is None or asked is None:
        return wire.error(403, "you are not asked in this round")
    if name in round_.answers:
        return wire.error(409, "you have already answered this round")
    answer_, problem = check_private_answer(asked, body.get("answer"))
    if problem:
        return wire.error(400, problem)
    refused = server.hub.offer_private(name, answer_, SOURCE)
    if refused:
        return wire.error(409, refused)
    server._changed()
    return wire.reply({"ok": True})


def check_value(value: object, choices: tuple[str, ...], multiple: bool, most: int = 0) -> str | None:
    """Why `value` does not answer a question with `choices` (at most `most` of them), or None when it does."""
    if multiple:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            return "choose at least one"
        if len(set(value)) != len(value):
            return "each choice only once"
        if most and len(value) > most:
            return f"choose at most {most}"
        bad = [v for v in value if v not in choices]
    else:
        if not isinstance(value, str):
            return "choose one"
        bad = [] if value in choices else [value]
    return f"not a choice here: {bad[0][:40]!r}" if bad else None
