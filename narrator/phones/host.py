"""The host screen and joining: the table code, each seat's own code, releasing and moving seats.

The appliance has no screen, so the first phone becomes the table's screen: it joins with
the table code (spoken once by the narrator, printed on its terminal) and then shows each
free seat's own code, one seat at a time, as a QR code and as letters, for that player to
scan or type. It can release a seat (a lost phone: the seat gets a new code) or move a phone
to another seat, answer the table's public questions, and start the game before every seat
has a phone. A wrong code shuts its sender's address out for `WRONG_CODE_DELAY` seconds
(gate.py), so codes cannot be guessed from the network and nobody's tries hold up another's.
"""

from __future__ import annotations

import asyncio
import io
import secrets
from typing import Any, Awaitable, Callable

from aiohttp import web

from narrator.inputs.hub import ListenerHub
from narrator.inputs.table_words import TABLE_SOURCES
from narrator.phones import channel, gate, host_channel, standings, wire
from narrator.phones.host_turns import PendingHost
from narrator.phones.seats import HOST, SeatTaken, _digest, new_token
from narrator.phones.serving import Serving

WRONG_CODE_DELAY = gate.WRONG_CODE_DELAY
"""Read when a server is made (`server.gate`); a test may set it first."""
JOIN_BODY_SECONDS = 2.0
"""Seconds a join's body may take to arrive (a phone's 1 KiB comes in milliseconds). Issue 38:
64 joins whose bodies never came, from 32 addresses, filled the gate for 15.5 s; now a join
takes a place in the gate only once its body is here."""
COOKIE_AGE = 86400
"""Seconds a phone's browser keeps its seat's or host screen's cookie (Max-Age), closed or not:
a day, the evening and the morning after; what the token opens is the server's to say (a
release ends it at once). A session cookie went with the browser, and the appliance's host
screen with it (issue 37)."""
CONFIRM_SECONDS = 15.0
"""Seconds the table has to confirm a phone that entered the table code."""


def confirm_host(server: Serving) -> bool:
    """The table confirmed (a button press, "done" said or typed): the waiting phone becomes
    the host screen. False when no phone is waiting, or its time ran out. A request for a new
    host key waits while a question is open: the table's press answers the question (a laptop
    that asks for a key as the table is told to press for "ready" gets nothing)."""
    rekey = server.pending_host is not None and server.pending_host.key is not None
    if rekey and KEY_AFTER_QUESTIONS and server.hub.open_ask is not None:
        return False
    pending, server.pending_host = server.pending_host, None
    if pending is None or pending.until <= server.gate.now():
        return False
    if pending.key is not None:  # the host screen's new key, asked aloud (carry.bind_key)
        if server.seats.host_digest() != _digest(pending.token):
            return False
        server.keys.bind_host(pending.token, pending.key)
        server.announce("phones.host_key_confirmed", {})
        return True
    if server.seats.has_host:
        return False
    server.seats.claim(HOST, pending.token)
    server.announce("phones.host_confirmed", {})
    server.seats_changed()
    return True


KEY_AFTER_QUESTIONS = True
"""A press while a question is open answers it, never binds a new host key (a test turns it off)."""
WAITS_FOR_TABLE = True
"""A claim made before the table's inputs start waits for them (a test turns it off)."""


def at_table(hub: ListenerHub) -> bool:
    """Whether the table can press or say "done": an input of its own listens, or is still to
    start (issue 38: `narrator play` started the keyboard after saying the code, and for those
    ~11 s a claim became the host screen with no press)."""
    return bool(hub.sources & TABLE_SOURCES) or (WAITS_FOR_TABLE and getattr(hub, "table_to_come", False))


def table_ready(server: Serving) -> None:
    """The table's keyboard, button or microphone has started: a claim made while the code was
    being said gets its whole window from now, so the table can press for it."""
    pending = server.pending_host
    if pending is not None and pending.key is None and not server.seats.has_host:
        pending.until = max(pending.until, server.gate.now() + CONFIRM_SECONDS)


def _claim_host(server: Serving, request: web.Request, body: dict[str, object]) -> web.Response:
    """The table code: the phone waits for the table's confirmation, said aloud with a number
    its screen shows; a table with nothing to confirm by (no keyboard, button or microphone)
    takes it at once, said aloud all the same; one whose keyboard, button or microphone is
    still to start (`hub.table_to_come`: `narrator play` says the code first) waits for it.
    Phones take turns (host_turns.py)."""
    if server.seats.has_host:
        return wire.error(409, "the table already has a host screen; release it at the table first")
    pending, now, address = server.pending_host, server.gate.now(), request.remote or "?"
    if not server.turns.may_claim(address, pending, now):
        return wire.error(409, "another phone is waiting for the table to confirm it; try again shortly")
    token = new_token()
    server.keys.bind_host(token, body.get("key"))  # the seat codes it will show are sealed to it
    if not at_table(server.hub):
        server.seats.claim(HOST, token)
        server.announce("phones.host_confirmed", {})
        server.seats_changed()
        response = wire.reply({"host": True})
    else:
        word = str(10 + secrets.randbelow(90))
        server.pending_host = PendingHost(token, word, now + CONFIRM_SECONDS, address)
        server.announce("phones.host_claim", {"n": word})
        response = wire.reply({"host": "pending", "word": word, "seconds": CONFIRM_SECONDS}, 202)
    _cookie(server, response, server.host_cookie, token)
    return response


def add_routes(server: Serving, app: web.Application) -> None:
    app.router.add_get("/api/join/challenge", _bound(server, challenge))
    for path, handler in (("/api/host/release", release), ("/api/host/move", move), ("/api/host/start", start)):
        app.router.add_post(path, _bound(server, handler))
    app.router.add_get("/api/host/code/{number}", _bound(server, code))
    app.router.add_get("/api/host/qr/{number}", _bound(server, qr))
    standings.add_routes(server, app)


Handler = Callable[[Serving, web.Request], Awaitable[web.StreamResponse]]
"""A route of the host screen's, given the server it serves."""


def _bound(server: Serving, handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def run(request: web.Request) -> web.StreamResponse:
        return await handler(server, request)
    return run


def host_view(server: Serving) -> dict[str, Any]:
    """What the host screen shows: every seat by number, taken or free, and the public question."""
    seats = [{"number": i, "name": n, "taken": server.seats.taken(n)} for i, n in enumerate(server.seats.names, 1)]
    view: dict[str, Any] = {"seats": seats, "free": len(server.seats.free()), "ask": None}
    final = standings.after_the_game(server)
    if final is not None:  # once the game is over: the table's standings
        view["standings"] = final
    open_ask = server.hub.open_ask
    if open_ask is not None and open_ask[1].player is None:
        serial, ask = open_ask
        view["ask"] = {"serial": serial, "line": ask.line, "text": server._ask_text(ask),
                       "choices": list(ask.choices), "multiple": ask.multiple, "private": False}
    return view


def _cookie(server: Serving, response: web.Response, name: str, token: str) -> None:
    response.set_cookie(name, token, httponly=True, samesite="Strict", path="/", max_age=COOKIE_AGE)


def _gone(request: web.Request) -> bool:
    """The sender hung up: nothing it is given would reach it (so it is given nothing)."""
    transport = request.transport
    return transport is None or transport.is_closing()


async def challenge(server: Serving, request: web.Request) -> web.Response:
    """A fresh challenge for this address's next sealed join (join_challenge.py)."""
    return wire.reply({"challenge": server.challenges.give(request.remote or "?")})


async def join(server: Serving, request: web.Request) -> web.Response:
    """A phone gives a code: a free seat's own code seats it; the table code makes the host screen.

    Nothing here waits on anyone else (see gate.py): an address that sent a wrong code is
    refused unchecked for a second, and a seat is claimed only for a sender still there."""
    gate, address = server.gate, request.remote or "?"
    try:  # the body first, bounded in time: a body that never comes holds no place in the gate
        body = await asyncio.wait_for(wire.json_body(request), JOIN_BODY_SECONDS)
    except asyncio.TimeoutError:
        return wire.error(408, "the join's body did not arrive in time: press again")
    if isinstance(body, web.Response):
        return body
    if gate.wait_left(address) > 0 or not gate.begin(address):
        return wire.error(429, "one code a second from each phone: wait a moment and try again")
    try:
        return await _checked_join(server, request, body, address)
    finally:
        gate.end(address)


async def _checked_join(server: Serving, request: web.Request, body: dict[str, object], address: str) -> web.Response:
    """A join whose body has arrived (it holds a place in the gate while its code is looked at)."""
    gate = server.gate
    typed = await channel.joining_code(server, body, address)  # a sealed join proves the code, never sends it
    if not isinstance(typed, str) or not 1 <= len(typed) <= 40:
        return wire.error(400, "a seat is claimed with its own code: scan it on the host screen")
    if gate.wait_left(address) > 0:  # a try from the same address was wrong meanwhile
        return wire.error(429, "one code a second from each phone: wait a moment and try again")
    if _gone(request):
        return wire.error(499, "the phone went away before its seat was given")
    seat = server.seats.seat_for_code(typed)
    if seat is not None:
        token = server.seats.claim(seat)
        channel.bind_seat(server, token, typed, body)
        response = wire.reply({"seat": seat})
        _cookie(server, response, server.cookie, token)
        server.seats_changed()
        return response
    if server.seats.is_table_code(typed):
        return _claim_host(server, request, body)
    gate.wrong(address)
    return wire.error(403, "wrong or used code: ask the host screen for your seat's code")


def _seat_number(server: Serving, request: web.Request) -> str | web.Response:
    if not server.is_host(request):
        return wire.error(403, "only the host screen shows seat codes")
    number = request.match_info["number"]
    names = server.seats.names
    if not number.isdigit() or not 1 <= int(number) <= len(names):
        return wire.error(404, "no such seat number")
    name = names[int(number) - 1]
    if server.seats.code(name) is None:
        return wire.error(409, "this seat already has a phone")
    return name


def _join_link(request: web.Request, seat_code: str | None) -> str:
    return f"http://{request.host}/#code={seat_code}"


async def code(server: Serving, request: web.Request) -> web.Response:
    name = _seat_number(server, request)
    if isinstance(name, web.Response):
        return name
    seat_code = server.seats.code(name)
    return channel.host_reply(server, request, {"seat": name, "code": seat_code, "link": _join_link(request, seat_code)})


async def qr(server: Serving, request: web.Request) -> web.Response:
    name = _seat_number(server, request)
    if isinstance(name, web.Response):
        return name
    sealed = channel.host_reply(server, request, {"link": _join_link(request, server.seats.code(name))}, only_sealed=True)
    if sealed is not None:  # a host screen with a key of its own draws the code itself
        return sealed
    import segno

    out = io.BytesIO()
    segno.make(_join_link(request, server.seats.code(name)), error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff")
    return web.Response(body=out.getvalue(), content_type="image/svg+xml")


async def _host_body(server: Serving, request: web.Request) -> dict[str, object] | web.Response:
    if not server.is_host(request):
        return wire.error(403, "only the host screen may do this")
    return await host_channel.body_of(server, request)


def _number(server: Serving, seat: str) -> int:
    """A seat's number, as every phone shows it (said aloud: a name would say who it is)."""
    return server.seats.names.index(seat) + 1


def _seat(server: Serving, value: object) -> str | None:
    return value if isinstance(value, str) and value in server.seats.names else None


async def release(server: Serving, request: web.Request) -> web.Response:
    """Free a seat (a lost phone): its token stops working and the seat gets a new code."""
    body = await _host_body(server, request)
    if isinstance(body, web.Response):
        return body
    seat = _seat(server, body.get("seat"))
    if seat is None:
        return wire.error(404, "unknown seat")
    server.seats.release(seat)
    server.announce("phones.seat_released", {"n": _number(server, seat)})
    server.seats_changed()
    return wire.reply({"ok": True, "free": seat})


async def move(server: Serving, request: web.Request) -> web.Response:
    """The phone on one seat takes a free seat instead (it scanned the wrong code)."""
    body = await _host_body(server, request)
    if isinstance(body, web.Response):
        return body
    source, target = _seat(server, body.get("from")), _seat(server, body.get("to"))
    if source is None or target is None or not server.seats.taken(source):
        return wire.error(404, "move a taken seat to a free one")
    try:
        server.seats.move(source, target)
    except SeatTaken:
        return wire.error(409, "that seat already has a phone; release it first")
    server.announce("phones.seat_moved", {"n": _number(server, source), "m": _number(server, target)})
    server.seats_changed()
    return wire.reply({"ok": True})


async def start(server: Serving, request: web.Request) -> web.Response:
    """Start the game now, with seats still free."""
    body = await _host_body(server, request)
    if isinstance(body, web.Response):
        return body
    if server.waiting is not None and not server.waiting.done():
        server.waiting.set_result(None)
    return wire.reply({"ok": True})
