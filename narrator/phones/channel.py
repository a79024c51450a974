"""A seated phone's one door: every request it makes, sealed, to one address, one size.

Why one door: the path of a plain-HTTP request is readable on the Wi-Fi, so a memo, a vote,
an answer, a look at the view and a decoy all go to `POST /api/seat`, sealed with the seat's
key (`crypto.py`) and padded by the page to `wire.REQUEST_SIZE` bytes; each gets a 200 with
one sealed reply of one size, whatever happened inside (the real status is in the box). A
phone with nothing to do at a night call or a private round sends a decoy, so who sends
tells nothing either.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal, Protocol, cast, overload

from aiohttp import web

from narrator.phones import answers, crypto, wire
from narrator.phones.answers import Answering
from narrator.phones.serving import Door
from narrator.phones.decoys import DecoyBudget
from narrator.phones.join_challenge import Challenges
from narrator.phones.seats import Seats


class Joining(Door, Protocol):
    """What a sealed join reads of the page (`PhoneServer`): the free seats' codes and the
    challenges it gave (a Protocol: server.py imports this module, see `serving.Door`)."""

    @property
    def seats(self) -> Seats: ...

    @property
    def challenges(self) -> Challenges: ...


class SeatDoor(Answering, Protocol):
    """What a seat's sealed door uses of the page (`PhoneServer`): the answers' needs, the
    decoy budget and the seat's view."""

    @property
    def decoys(self) -> DecoyBudget: ...

    def view(self, name: str | None, is_host: bool = False) -> dict[str, Any]: ...

NOT_SEALED = "this request is not sealed with this seat's key: join again with your seat's code"
TOO_MANY_DECOYS = "more decoys than a phone's slots send: this one was not answered"
REPLY_AFTER = 0.2
"""Seconds after its request every sealed reply leaves (at the earliest): a memo taken (saved,
fsynced) and a decoy answered take the same time on the Wi-Fi (`PhoneServer.reply_after`)."""
_sleep = asyncio.sleep


async def seat(server: SeatDoor, request: web.Request) -> web.Response:
    """Open a seated phone's sealed request, do what it asks, seal the reply."""
    started = asyncio.get_running_loop().time()
    token = server.token(request)
    player = server.player(request)
    if player is None:
        return wire.error(401, "no seat: enter your seat's code first")
    body = await wire.json_body(request)
    if isinstance(body, web.Response):
        return body
    peek = server.keys.peek_request(token, body.get("box"))
    if peek is not None and peek.get("to") == "decoy" and not server.decoys.take(player):
        message, response = peek, wire.error(429, TOO_MANY_DECOYS)  # nothing written, nothing pushed
    else:
        opened = server.keys.open_request(token, body.get("box"))
        if opened is None:
            return wire.error(401, NOT_SEALED)
        message = opened
        inner = message.get("body")
        response = await dispatch(server, request, message.get("to"), inner if isinstance(inner, dict) else {})
    status, obj = response.status, json.loads(cast(bytes, response.body))  # dispatch answers with json_response: bytes
    reply = wire.reply(server.keys.seal_for(token, {"status": status, "body": obj, "n": message["n"]}))
    wait = getattr(server, "reply_after", REPLY_AFTER) - (asyncio.get_running_loop().time() - started)
    if wait > 0:
        await _sleep(wait)
    return reply


async def dispatch(server: SeatDoor, request: web.Request, to: object, body: dict[str, Any]) -> web.Response:
    """What a sealed request asks for: its view, a private round's answer, a question's, or nothing."""
    if to == "decoy":  # a phone with nothing to send at this call: the same reply as an answer's,
        server._changed()  # and, as a memo taken does, a push to every phone
        return wire.reply({"ok": True})
    if to == "view":
        return wire.reply(server.view(server.player(request), False))
    if to == "private":
        read = answers._serial(body, "round")
        return read if isinstance(read, web.Response) else answers.private_body(server, request, *read)
    if to == "answer":
        read = answers._serial(body, "question")
        return read if isinstance(read, web.Response) else answers.answer_body(
            server, server.player(request), False, *read)
    return wire.error(400, "a sealed request goes to: view, private, answer or decoy")


def sealed_view(server: Door, request: web.Request, view: dict[str, Any]) -> dict[str, Any]:
    """A seated phone's view as it travels: sealed for that phone (the host screen's is public)."""
    sealed = server.keys.seal_for(server.token(request), view)
    return view if sealed is None else sealed


async def joining_code(server: Joining, body: dict[str, Any], address: str) -> object:
    """The code a join gives: a sealed join's ({"id", "box"}: the seat id and a box sealed with
    the key, both derived from the code on the phone, holding a challenge this address was
    just given: join_challenge.py) is found among the free seats' codes; a plain join's is its
    "code" (the table code, or a seat code typed into an API client)."""
    body.pop("_counter", None)  # only a proven join sets it
    if "id" not in body:
        return body.get("code")
    codes = [c for c in (server.seats.code(n) for n in server.seats.free()) if c]
    found = await server.keys.code_for_id(codes, body.get("id"))
    if found is None:
        return "-"  # no free seat has this id: a wrong or spent code
    code, key = found
    proof = crypto.unseal(key, body.get("box"))
    if proof is None or proof.get("from") != crypto.FROM_PHONE or not isinstance(proof.get("n"), int):
        return "-"
    if not server.challenges.take(address, proof.get("challenge")):
        return "-"  # a captured join sent again: its challenge is used (or another address's)
    body["_counter"] = proof["n"]
    return code


def bind_seat(server: Door, token: str, code: str, body: dict[str, Any]) -> None:
    """The phone that joined with `code` speaks with its key from now on."""
    key, _ = server.keys.for_code(code)
    counter = body.get("_counter", 0)
    server.keys.bind(token, key, counter if isinstance(counter, int) else 0)


@overload
def host_reply(server: Door, request: web.Request, obj: dict[str, Any],
               only_sealed: Literal[False] = False) -> web.Response: ...
@overload
def host_reply(server: Door, request: web.Request, obj: dict[str, Any],
               only_sealed: bool) -> web.Response | None: ...
def host_reply(server: Door, request: web.Request, obj: dict[str, Any],
               only_sealed: bool = False) -> web.Response | None:
    """A reply showing seat codes, sealed to the host screen's own key when it gave one (then
    with the QR code's modules, which the page draws: an image would travel in the clear)."""
    sealed = server.keys.seal_for_host(server.token(request, host_cookie=True), {**obj, "qr": qr_modules(obj["link"])})
    if sealed is not None:
        return wire.reply(sealed)
    return None if only_sealed else wire.reply(obj)


def qr_modules(link: str) -> list[str]:
    """The QR code of `link` as rows of "0" and "1" (dark), the quiet zone left to the page."""
    import segno

    return ["".join("1" if m else "0" for m in row) for row in segno.make(link, error="m").matrix]
