"""The phone page's web server: aiohttp, in the narration's own asyncio loop.

Why aiohttp: one pure-asyncio package gives the HTTP server, streaming responses for
server-sent events and a test client; it runs inside the loop the scheduler already owns
(`AppRunner` + its own listening socket, no second server process or thread), and it has
wheels for the Pi's ARM builds. Server-sent events rather than websockets: phones only need
pushes, `EventSource` reconnects by itself after a locked screen or a Wi-Fi drop, and answers
go by plain POSTs that are easy to check.

Every request is checked against what its token holds (a seat, the host screen); answers
also against the question open right now (its serial), the player it is for and the choices
that player may give. A refused request changes nothing and gets a 4xx with one line of JSON.
Every POST must come from the page itself (its Origin). The game never waits on the server
and never sees its failures: see `safe` and `guard.py`. Its parts are modules of their own:
`following`, `page_view`, `event_stream`, `listening`, `page_files` (each says its job).
"""

from __future__ import annotations

import asyncio
import functools
import sys
import time
from typing import Any, Callable, ParamSpec, Sequence, TypeVar

from aiohttp import web
from aiohttp.typedefs import Handler

from narrator.cues import Ask, Collect, Cue, End, Timer
from narrator.games.contract import GameConfig, GameState, SomeGame
from narrator.inputs.heard import Heard
from narrator.inputs.hub import ListenerHub
from narrator.phones import (answers, carry, channel, crypto, decoys, gate, guard, host, host_channel,
                             host_release, join_challenge, page_files, page_view, streams, table_controls, wire)
from narrator.phones import host_turns, provenance
from narrator.phones.event_stream import LiveStreams
from narrator.phones.following import Calls, HubFollower
from narrator.phones.listening import Listening
from narrator.phones.page_files import security_headers, static_file
from narrator.phones.network import own_names
from narrator.phones.private import PrivateLines
from narrator.phones.seats import HOST, Seats
from narrator.phones.standings import TableHistory
from narrator.sound.voicepack import VoicePack
from narrator.table.clock import Clock

SHOWN_AT = (Timer, Ask, Collect, End)
"""Cues at which the phones catch up with the game: by then the step's announcements (the
morning, a death) have been spoken, so a phone never tells its player first. (Not a
countdown: the night's results are looked at during one, before the morning is said.)"""


P = ParamSpec("P")
R = TypeVar("R")


def safe(method: Callable[P, R]) -> Callable[P, R | None]:
    """The game's calls into the server never fail the game: an error is one line on stderr."""
    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return method(*args, **kwargs)
        except Exception as err:  # the page may break; the game goes on
            print(f"phones: {method.__name__} failed ({type(err).__name__}: {err}); the game goes on",
                  file=sys.stderr)
            return None
    return wrapper


class PhoneServer:
    """Seats, views and answers for one game; `set_state` is the runner's `on_state`."""

    history: TableHistory
    """The table's history for the host screen's standings: set by `make_server` (phones/table.py);
    a server made without it has none (`standings` reads it with getattr)."""
    final_standings: dict[str, Any] | None
    """The finished game's standings, read once (`standings.after_the_game`)."""

    def __init__(self, game: SomeGame, config: GameConfig, hub: ListenerHub, seats: Seats, cookie: str,
                 lang: str, packs: dict[str, VoicePack], private_lines: PrivateLines | None = None):
        self.game, self.config, self.hub, self.seats = game, config, hub, seats
        self.cookie, self.host_cookie, self.lang, self.packs = cookie, f"{cookie}_host", lang, packs
        self.private_lines = private_lines or PrivateLines()
        self.state: GameState | None = None
        """The game's state now (answers are checked against it)."""
        self.shown: GameState | None = None
        """The state the phones show: the game's, once its step has been announced."""
        self.timer: tuple[float, float] | None = None
        self.timer_serial = 0
        """Counts the timers, so the host screen's "end it now" names the one it ends."""
        self.end_lines = table_controls.EndLines()
        self.calls = Calls()
        """The private calls counted from what the hub has open (following.py)."""
        self.clock: Clock | None = None
        """The game's clock (`open_phones` sets it), so the timer shown follows --time-scale."""
        self.waiting: asyncio.Future[None] | None = None
        self.allowed_hosts: set[str] = set()
        """Host headers the page answers to (its own addresses): a page elsewhere that points
        a name of its own at this machine (DNS rebinding) gets 421 and no seat."""
        self.no_speaker = False
        """The appliance plays this game without sound (appliance/speaker.py): the host screen says so."""
        self.check_origin = True
        self.keys = crypto.SeatKeys()
        """Each seated phone's key (`make_server` keeps them in the game folder)."""
        self.guard = guard.ConnectionGuard(*guard.caps_for(guard.raise_file_limit()))
        self.live = LiveStreams()
        """The open pages' event streams (event_stream.py)."""
        self.listening = Listening()
        self.gate = gate.JoinGate(delay=host.WRONG_CODE_DELAY)
        self.challenges = join_challenge.Challenges(now=lambda: self.gate.now())
        self.decoys = decoys.DecoyBudget()
        self.pending_host: host.PendingHost | None = None
        self.turns = host_turns.Turns(host.CONFIRM_SECONDS)
        """The line of phones waiting to claim the host screen (host_turns.py)."""
        self.release_until: float | None = None
        """Until when the table may confirm a `release host` asked by button or voice."""
        self.speak: Callable[[str, dict[str, Any]], None] | None = None
        """Says a line aloud at any moment (`open_phones` sets it to the scheduler's voice)."""
        self.said: list[tuple[str, dict[str, Any]]] = []
        """Every line the server had said (a host screen claimed, a seat released or moved)."""
        self.follower = HubFollower(hub)
        """The server's own wait on the hub's changes, from the app's start (following.py)."""
        hub.subscribe_private(self._private_line)
        self._follows_cues = hasattr(hub, "cue_watchers")
        if self._follows_cues:
            hub.cue_watchers.append(self._cue)
        hub.register(answers.SOURCE)  # phones can answer, so a game without a keyboard still waits
        hub.attach_phones(self._table_confirms)  # rounds open with their timers; presses confirm a host first
        hub.add_table_command("release", self.release)
        getattr(hub, "table_ready_watchers", []).append(lambda: host.table_ready(self))
        hub.add_table_action(host_release.WORD, self._release_asked)

    # --- the game's side --------------------------------------------------------------------

    @safe
    def set_state(self, state: GameState) -> None:
        self.state = state
        if self.shown is None or not self._follows_cues:
            self.shown = state
        self._changed()

    @safe
    def _cue(self, cue: Cue | Sequence[Cue]) -> None:
        """The scheduler starts `cue` (or a step's private lines, shown by `_private_line`): show the announced state, follow the timer, count calls."""
        if isinstance(cue, SHOWN_AT):  # a spoken line changes nothing shown: no push for it
            self.shown = self.state
            self.timer = (self._now(), float(cue.seconds)) if isinstance(cue, Timer) else None
            self.timer_serial += isinstance(cue, Timer)
            self.end_lines.follow(cue, self._text)
            self._changed()
        elif self.end_lines.follow(cue, self._text):  # the end's lines, listed on the host screen
            self._changed()

    @property
    def call(self) -> int:
        """How many private calls (night calls, rounds) there have been: every phone vibrates at each."""
        return self.calls.count

    @safe
    def _changed(self) -> None:
        self._count_calls()
        self.live.changed()

    def _count_calls(self) -> None:
        """The calls as the hub has them open now. It runs at each change the server sees and
        before each view: the server's wait on the hub wakes a loop turn after the hub changed,
        and a view built meanwhile must not show a call's question with the call not yet
        counted (a phone would tap outside its slots: app.js COVER)."""
        self.calls.follow(self.hub.open_ask, self.hub.open_collect, time.monotonic())

    @safe
    def _private_line(self, to: str, line: str, text: str) -> None:
        """A private line the scheduler played for `to` (in the table's language)."""
        when = (getattr(self.state, "night", 0), getattr(self.state, "day", 0))
        if self.private_lines.add(to, line, {self.lang: text}, when):
            self._changed()

    def _table_confirms(self) -> bool:
        """A button press or "done" at the table: it confirms a release asked (host_release.py),
        else a phone waiting to be the host screen."""
        if self.release_until is not None and host_release.confirm(self):
            return True
        return self.pending_host is not None and host.confirm_host(self)

    def _release_asked(self) -> None:
        host_release.ask(self)

    @safe
    def announce(self, line: str, params: dict[str, Any]) -> None:
        """Say `line` aloud now, so nothing done to the seats goes unnoticed at the table."""
        self.said.append((line, params))
        if self.speak is not None:
            self.speak(line, params)

    def release(self, name: str) -> str:
        """Free a seat from the table's terminal (a lost phone): its old token stops working."""
        say = self._said_at_the_terminal
        if name.casefold() == "host":
            self.seats.release(HOST)  # a new table code: the old one was said to everyone
            self.pending_host = None
            self.announce("phones.host_released", {"code": " ".join(self.seats.table_code)})
            self._changed()
            return say("hint.release_host", {"code": self.seats.table_code})
        match = next((n for n in self.seats.names if n.casefold() == name.casefold()), None)
        if match is None:
            return say("hint.release_unknown", {"name": name, "seats": ", ".join(self.seats.names)})
        self.seats.release(match)
        self._changed()
        return say("hint.release_seat", {"name": match})

    def _said_at_the_terminal(self, line: str, params: dict[str, Any]) -> str:
        """A reply printed at the table's terminal, in the game's language (the pack's hint line)."""
        pack = self.packs.get(self.lang) or next(iter(self.packs.values()))
        return pack.speak(line, params).text

    async def wait_for_phones(self) -> None:
        """Before the first step: wait until every seat has a phone, the host screen starts
        anyway, or the table says "done" (Enter, a button press)."""
        if not self.seats.free():
            return
        self.waiting = asyncio.get_running_loop().create_future()
        self._changed()
        if self.speak is not None:  # never a silent wait: the table hears how to start anyway
            self.speak("phones.wait_seats", {"free": len(self.seats.free())})
        command = None
        try:
            while not self.waiting.done():
                command = asyncio.ensure_future(self.hub.command())
                waits: set[asyncio.Future[None] | asyncio.Future[Heard]] = {self.waiting, command}
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if command.done() and command.result().value == "done":
                    break
        finally:
            if command is not None and not command.done():
                command.cancel()
            self.waiting = None
            self._changed()

    def seats_changed(self) -> None:
        if self.waiting is not None and not self.waiting.done() and not self.seats.free():
            self.waiting.set_result(None)
        self._changed()

    def view(self, name: str | None, is_host: bool = False) -> dict[str, Any]:
        """Everything this phone shows now (page_view.py; views.py for the game's part)."""
        self._count_calls()  # the call as the hub has it now, though the server's wait is yet to wake
        return page_view.compose(self, name, is_host)

    def view_now(self, name: str | None, is_host: bool = False) -> dict[str, Any]:
        """The view as it leaves now: with the open call's age, which the phones' send slots
        count from (app.js: COVER); it changes by the moment, so `view` leaves it out."""
        view = self.view(name, is_host)
        view["call_age"] = self.calls.age(time.monotonic())
        return view

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else asyncio.get_running_loop().time()

    def _ask_text(self, ask: Ask) -> dict[str, str]:
        """The question as the host screen shows it: under a button, a line that asks the table
        to say a word (「「終わりました」と言ってください」) has its on-screen wording (`hint.on_screen.*`)."""
        return {lang: pack.speak(self._on_screen(pack, ask.line), ask.params).text
                for lang, pack in self.packs.items() if pack.has(ask.line)}

    @staticmethod
    def _on_screen(pack: VoicePack, line: str) -> str:
        return f"hint.on_screen.{line}" if pack.has(f"hint.on_screen.{line}") else line

    def _text(self, line: str, params: dict[str, Any]) -> dict[str, str]:
        return {lang: pack.speak(line, params).text for lang, pack in self.packs.items() if pack.has(line)}

    # --- web app ----------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=wire.MAX_BODY, middlewares=[self._check_request])
        app.on_response_prepare.append(security_headers)
        app.router.add_get("/", page_files.game_page)
        app.router.add_get("/static/{name}", static_file)
        app.router.add_get("/api/seats", self._seats)
        app.router.add_post("/api/join", self._join)
        app.router.add_get("/api/view", self._view)
        app.router.add_get("/api/events", self._events)
        app.router.add_post("/api/answer", functools.partial(answers.answer, self))
        app.router.add_post("/api/private", functools.partial(answers.private, self))
        app.router.add_post("/api/seat", functools.partial(channel.seat, self))
        app.router.add_post("/api/host/key", functools.partial(carry.bind_key, self))  # a carried host screen
        host.add_routes(self, app)
        table_controls.add_routes(self, app)
        host_channel.add_routes(self, app, {"release": host.release, "move": host.move, "start": host.start,
                                            "end-timer": table_controls.end_timer, "answer": answers.answer})
        app.on_startup.append(self._start_following)
        app.on_shutdown.append(self._close_streams)
        app.on_cleanup.append(self._stop_following)
        return app

    async def start(self, host_: str, port: int) -> int:
        """Listen on `host_:port` (port 0: any free port); returns the port."""
        try:
            port = await self.listening.start(self.app(), self.guard, host_, port)
        except OSError as err:
            from narrator.errors import SetupError

            raise SetupError(f"the phone page cannot listen on {host_}:{port} ({err.strerror}); "
                             "choose another --port or --host") from None
        self.allowed_hosts |= {f"{h}:{port}" for h in own_names(host_)}
        return port

    @property
    def addresses(self) -> list[tuple[str, int]]:
        return self.listening.addresses

    async def stop(self) -> None:
        """Stop listening and undo every registration with the hub (see `ListenerHub.forget`).
        The "phones" source stays registered: it is a name, and the next game's page answers."""
        if hasattr(self.hub, "forget"):  # a test's stand-in hub may have nothing to forget
            self.hub.forget(self)
        self.hub.detach_phones(self._table_confirms)
        await self.follower.stop()
        if self.release_until is not None and hasattr(self.hub, "hear_also"):
            self.hub.hear_also(())  # a release asked and never answered: the voice stops hearing "yes"
        await self.listening.stop(lambda: self._close_streams(None))

    async def _follow_hub(self) -> None:
        """Push each of the hub's changes to the phones: a question or round opened or closed."""
        async for _ in self.follower.changes():
            self._changed()

    async def _start_following(self, app: web.Application) -> None:
        self.follower.start(self._follow_hub)

    async def _stop_following(self, app: web.Application) -> None:
        await self.follower.stop()

    async def _close_streams(self, app: web.Application | None) -> None:
        self.live.close()

    @web.middleware
    async def _check_request(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        self.guard.started(request.transport)
        try:
            held = self.seats.holder(self.token(request)) or self.seats.holder(self.token(request, host_cookie=True))
            if held is not None:  # a seated phone's connection: room is kept for it (guard.py)
                self.guard.seated(request.transport, held)
            refused = provenance.refusal(request, self.allowed_hosts, self.check_origin)
            return refused if refused is not None else await handler(request)
        finally:
            self.guard.finished(request.transport)

    def token(self, request: web.Request, host_cookie: bool = False) -> str | None:
        return request.cookies.get(self.host_cookie if host_cookie else self.cookie)

    def player(self, request: web.Request) -> str | None:
        return self.seats.player(self.token(request))

    def is_host(self, request: web.Request) -> bool:
        return self.seats.is_host(self.token(request, host_cookie=True))

    # --- handlers ---------------------------------------------------------------------------

    async def _seats(self, request: web.Request) -> web.Response:
        you = self.player(request)
        carried = self.keys.carried(self.token(request)) if you is not None else None
        return wire.reply({"lang": self.lang, "you": you, "host": self.is_host(request),
                           "has_host": self.seats.has_host, "free": len(self.seats.free()),
                           "salt": self.keys.public_salt, "key": self.keys.public_key,
                           **({"carried": carried} if carried else {})})  # seat_carry.py: its new key, sealed

    async def _join(self, request: web.Request) -> web.Response:
        return await host.join(self, request)

    async def _view(self, request: web.Request) -> web.Response:
        name, is_host = self.player(request), self.is_host(request)
        if name is None and not is_host:
            return wire.error(401, "no seat: enter your seat's code first")
        return wire.reply(channel.sealed_view(self, request, self.view_now(name, is_host)))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        name, is_host = self.player(request), self.is_host(request)
        if name is None and not is_host:
            return wire.error(401, "no seat: enter your seat's code first")
        key = name or HOST

        def held() -> bool:
            return self.player(request) == name and self.is_host(request) == is_host

        def view() -> bytes:
            return wire.event_frame(channel.sealed_view(self, request, self.view_now(name, is_host)))

        return await self.live.serve(request, key, streams.proven(self, request, key), self.guard, view, held)
