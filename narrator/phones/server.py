"""The phone page's web server: aiohttp, in the narration's own asyncio loop.

Why aiohttp: one pure-asyncio package gives the HTTP server, streaming responses for
server-sent events and a test client; it runs inside the loop the scheduler already owns
(`AppRunner` + `TCPSite`, no second server process or thread, no loop or signal handling
of its own as uvicorn has), and it has wheels for the Pi's ARM builds. Server-sent events
rather than websockets: phones only need pushes, `EventSource` reconnects by itself after
a locked screen or a Wi-Fi drop, and answers go by plain POSTs that are easy to check.

Every request is checked against the seat its token holds; answers also against the
question open right now (its serial), the player it is for and the choices that player
may give. A refused request changes nothing and gets a 4xx with one line of JSON.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from aiohttp import web

from narrator.cues import Ask
from narrator.inputs.hub import ListenerHub
from narrator.phones.private import PrivateLines, check_private_answer, request_view
from narrator.phones.seats import Seats, SeatTaken
from narrator.phones.views import build_view, may_answer, valid_choices

STATIC = Path(__file__).with_name("static")
STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css", "strings.json": "application/json"}
MAX_BODY = 2048
"""Bytes a request body may have; an answer or a seat choice is far smaller."""
MAX_STREAMS = 200
MAX_STREAMS_PER_SEAT = 4
"""Open pages one seat may keep (a phone and a reload or two); more is someone hogging the Pi."""
KEEPALIVE = 15.0
CHECK_EVERY = 0.5
"""Seconds between checks that a quiet stream's page is still there."""
SOURCE = "phone"
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class PhoneServer:
    """Seats, views and answers for one game; `set_state` is the runner's `on_state`."""

    def __init__(self, game: str, config: Any, hub: ListenerHub, seats: Seats, cookie: str,
                 lang: str, packs: dict[str, Any], private_lines: PrivateLines | None = None):
        self.game, self.config, self.hub, self.seats = game, config, hub, seats
        self.cookie, self.lang, self.packs = cookie, lang, packs
        self.private_lines = private_lines or PrivateLines()
        self.state: Any = None
        self.allowed_hosts: set[str] = set()
        """Host headers the page answers to (its own addresses): a page elsewhere that points
        a name of its own at this machine (DNS rebinding) gets 421 and no seat."""
        self._streams: set[asyncio.Queue] = set()
        self._seat_streams: dict[str, int] = {}
        self._runner: web.AppRunner | None = None
        hub.watch(self._changed)
        hub.subscribe_private(self._private_line)
        hub.register(SOURCE)  # phones can answer, so a game without a keyboard still waits
        hub.rounds_during_timers = True
        hub.add_table_command("release", self.release)

    # --- the game's side --------------------------------------------------------------------

    def set_state(self, state: Any) -> None:
        self.state = state
        self._changed()

    def _changed(self) -> None:
        for queue in self._streams:
            if queue.empty():
                queue.put_nowait("changed")

    def _private_line(self, to: str, line: str, text: str) -> None:
        """A private line the scheduler played for `to` (in the table's language)."""
        when = (getattr(self.state, "night", 0), getattr(self.state, "day", 0))
        if self.private_lines.add(to, line, {self.lang: text}, when):
            self._changed()

    def release(self, name: str) -> str:
        """Free a seat from the table's terminal (a lost phone): its old token stops working."""
        match = next((n for n in self.seats.names if n.casefold() == name.casefold()), None)
        if match is None:
            return f"no seat '{name}'; seats: {', '.join(self.seats.names)}"
        self.seats.release(match)
        self._changed()
        return f"{match}'s seat is free: open the page on the new phone and choose it"

    def view(self, name: str) -> dict[str, Any]:
        """Everything `name`'s phone shows now (see views.py for what may be in it)."""
        view = build_view(self.game, self.config, self.state, name, self.hub.open_ask, self._ask_text)
        private = view["private"]
        shown = set()
        if "lines" in private:  # the role card and attribute, shown in the cards box already
            shown = {line for line, _ in private["lines"]}
            private["lines"] = [self._text(line, params) for line, params in private["lines"]]
        view["messages"] = [e["text"] for e in self.private_lines.of(name) if e["line"] not in shown]
        view["request"] = request_view(self.hub.open_collect, name, self._text)
        return view

    def _ask_text(self, ask: Ask) -> dict[str, str]:
        return self._text(ask.line, ask.params)

    def _text(self, line: str, params: dict[str, Any]) -> dict[str, str]:
        return {lang: pack.speak(line, params).text for lang, pack in self.packs.items() if pack.has(line)}

    # --- web app ----------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._check_host])
        app.on_response_prepare.append(_headers)
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/seats", self._seats)
        app.router.add_post("/api/join", self._join)
        app.router.add_get("/api/view", self._view)
        app.router.add_get("/api/events", self._events)
        app.router.add_post("/api/answer", self._answer)
        app.router.add_post("/api/private", self._private)
        app.on_shutdown.append(self._close_streams)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on `host:port` (port 0: any free port); returns the port."""
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as err:
            await self._runner.cleanup()
            from narrator.errors import SetupError

            raise SetupError(f"the phone page cannot listen on {host}:{port} ({err.strerror}); "
                             "choose another --port or --host") from None
        port = self._runner.addresses[0][1]
        self.allowed_hosts |= {f"{h}:{port}" for h in _own_names(host)}
        return port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _close_streams(self, app: web.Application) -> None:
        for queue in self._streams:
            queue.put_nowait("close")

    @web.middleware
    async def _check_host(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.host.lower() not in self.allowed_hosts:
            return _error(421, "unknown host: open the address the narrator announced")
        return await handler(request)

    def _player(self, request: web.Request) -> str | None:
        return self.seats.player(request.cookies.get(self.cookie))

    # --- handlers ---------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Content-Type": "text/html; charset=utf-8"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            return _error(404, "no such file")
        return web.FileResponse(STATIC / name, headers={"Content-Type": f"{STATIC_FILES[name]}; charset=utf-8"})

    async def _seats(self, request: web.Request) -> web.Response:
        seats = [{"name": n, "taken": self.seats.taken(n)} for n in self.seats.names]
        return web.json_response({"seats": seats, "lang": self.lang, "you": self._player(request)})

    async def _join(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        if isinstance(body, web.Response):
            return body
        seat = body.get("seat")
        if not isinstance(seat, str) or seat not in self.seats.names:
            return _error(404, "unknown seat; choose one of the listed seats")
        if self._player(request) == seat:
            return web.json_response({"seat": seat})
        try:
            token = self.seats.claim(seat)
        except SeatTaken:
            return _error(409, "this seat is already taken by another phone")
        response = web.json_response({"seat": seat})
        response.set_cookie(self.cookie, token, httponly=True, samesite="Strict", path="/", max_age=86400)
        self._changed()
        return response

    async def _view(self, request: web.Request) -> web.Response:
        name = self._player(request)
        if name is None:
            return _error(401, "no seat: choose your seat first")
        return web.json_response(self.view(name))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        name = self._player(request)
        if name is None:
            return _error(401, "no seat: choose your seat first")
        if len(self._streams) >= MAX_STREAMS or self._seat_streams.get(name, 0) >= MAX_STREAMS_PER_SEAT:
            return _error(429, "too many open pages for this seat; close one and reload")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        await response.prepare(request)
        queue: asyncio.Queue = asyncio.Queue()
        self._streams.add(queue)
        self._seat_streams[name] = self._seat_streams.get(name, 0) + 1
        last, quiet = None, 0.0
        try:
            while True:
                if self._player(request) != name:
                    break  # the seat was released: this token is worth nothing now
                data = json.dumps(self.view(name), ensure_ascii=False)
                if data != last:
                    await response.write(f"data: {data}\n\n".encode())
                    last, quiet = data, 0.0
                try:
                    item = await asyncio.wait_for(queue.get(), CHECK_EVERY)
                except asyncio.TimeoutError:
                    if request.transport is None or request.transport.is_closing():
                        break  # the page went away: free its place now, not at the next write
                    quiet += CHECK_EVERY
                    if quiet >= KEEPALIVE:
                        await response.write(b": keepalive\n\n")
                        quiet = 0.0
                    continue
                if item == "close":
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._streams.discard(queue)
            self._seat_streams[name] -= 1
        return response

    async def _answer(self, request: web.Request) -> web.Response:
        name = self._player(request)
        if name is None:
            return _error(401, "no seat: choose your seat first")
        body = await _json_body(request)
        if isinstance(body, web.Response):
            return body
        serial, value = body.get("serial"), body.get("value")
        if not isinstance(serial, int) or isinstance(serial, bool):
            return _error(400, "serial must be the number of the question being answered")
        open_ask = self.hub.open_ask
        if open_ask is None or open_ask[0] != serial:
            return _error(409, "this question is closed: reload to see the current one")
        ask = open_ask[1]
        if not may_answer(ask, name):
            return _error(403, "this question is not yours to answer")
        choices = valid_choices(self.game, self.config, self.state, name, ask)
        problem = _check_value(value, choices, ask.multiple)
        if problem:
            return _error(400, problem)
        if not self.hub.offer_value(serial, value, SOURCE):
            return _error(409, "this question is closed: reload to see the current one")
        return web.json_response({"ok": True})


    async def _private(self, request: web.Request) -> web.Response:
        """One player's answer in a private round (a night memo, a vote): theirs, once."""
        name = self._player(request)
        if name is None:
            return _error(401, "no seat: choose your seat first")
        body = await _json_body(request)
        if isinstance(body, web.Response):
            return body
        serial = body.get("serial")
        if not isinstance(serial, int) or isinstance(serial, bool):
            return _error(400, "serial must be the number of the round being answered")
        open_collect = self.hub.open_collect
        if open_collect is None or open_collect[0] != serial:
            return _error(409, "this round is closed: reload to see the current one")
        round_ = open_collect[1]
        asked = round_.requests.get(name)
        if asked is None:
            return _error(403, "you are not asked in this round")
        if name in round_.answers:
            return _error(409, "you have already answered this round")
        answer, problem = check_private_answer(asked, body.get("answer"))
        if problem:
            return _error(400, problem)
        refused = self.hub.offer_private(name, answer, SOURCE)
        if refused:
            return _error(409, refused)
        self._changed()
        return web.json_response({"ok": True})


def _own_names(host: str) -> set[str]:
    """The names a phone may use for a server bound to `host`."""
    from narrator.phones.network import lan_ip, mdns_name

    names = {host.lower()}
    if host in ("0.0.0.0", "::", ""):
        names |= {n for n in (lan_ip(), "127.0.0.1", "localhost") if n}
    if host in ("127.0.0.1", "::1"):
        names.add("localhost")
    if host not in ("127.0.0.1", "::1", "localhost"):
        names |= {n for n in (mdns_name(),) if n}
    return {f"[{n}]" if ":" in n else n for n in names}


def _check_value(value: Any, choices: tuple[str, ...], multiple: bool) -> str | None:
    """Why `value` does not answer a question with `choices`, or None when it does."""
    if multiple:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            return "choose at least one"
        if len(set(value)) != len(value):
            return "each choice only once"
        bad = [v for v in value if v not in choices]
    else:
        if not isinstance(value, str):
            return "choose one"
        bad = [] if value in choices else [value]
    return f"not a choice here: {bad[0][:40]!r}" if bad else None


async def _json_body(request: web.Request) -> dict[str, Any] | web.Response:
    """The request's JSON object; a form, a non-object or a huge body is refused."""
    if request.content_type != "application/json":
        return _error(415, "send JSON (Content-Type: application/json)")
    if request.content_length is not None and request.content_length > MAX_BODY:
        return _error(413, f"request body larger than {MAX_BODY} bytes")
    try:
        body = await request.json()
    except web.HTTPRequestEntityTooLarge:
        return _error(413, f"request body larger than {MAX_BODY} bytes")
    except (ValueError, UnicodeDecodeError):
        return _error(400, "the body is not valid JSON")
    if not isinstance(body, dict):
        return _error(400, "the body must be a JSON object")
    return body


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
