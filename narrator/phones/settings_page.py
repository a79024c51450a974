"""The host screen's settings page: the table sets its game up on a phone between games.

Why a server of its own: the game's phone page (`server.py`) lives with one saved game, its
seats and tokens; before the first game and between games there is no game yet, only the
table file. So while the appliance waits at its menu it serves this page instead, on the same
address; the first phone to type the table code (said by the narrator) becomes the host
screen and may change every setting, save and pick presets and start the game; any other
phone may take a seat number and type its own name and reading, which the host screen sees
and may correct.

Every change goes through the appliance's `apply` (its `update_table`: the checks of
`narrator play`), so a refusal is the same one line, returned as `{"error": …}` with 400 and
shown on the page; a saved change is said by the narrator in one short line (`announce`).
This room never imports the appliance: it is handed those callables.

It stands behind the game page's door and walls (issue 38): the join gate (`gate.py`: a wrong
code shuts its own address out for a second, with no lock, so 15 hung-up tries hold up nobody)
and the connection guard (`guard.py`: caps below the open-file limit, idle connections closed,
handler cancellation, one line per burst of accept errors).
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any, Awaitable, Callable

from aiohttp import web

from narrator.errors import NarratorError, Refusal
from narrator.inputs.hub import ListenerHub
from narrator.phones import (carry, crypto, gate, guard, host_channel, host_keep, host_release, host_turns, provenance,
                             naming, settings_view, wire)
from narrator.phones.host_turns import PendingHost
from narrator.phones.seats import new_table_code, normal_code
from narrator.phones.listening import Listening
from narrator.phones.network import own_names
from narrator.phones.page_files import SECURITY_HEADERS, STATIC_FILES, security_headers, static_file
from narrator.sound.voicepack import VoicePack

STATIC = Path(__file__).with_name("static")
FILES = STATIC_FILES
"""The same files as the game's page (page_files.py says why)."""
HOST_COOKIE, SEAT_COOKIE = carry.COOKIE, "narrator_settings_seat"
WRONG_CODE_DELAY = gate.WRONG_CODE_DELAY
"""Read when a page is made (its `gate`); a test may set it first."""
HANDLER_CANCELLATION = True
"""A handler whose client hung up is cancelled, as on the game page (server.py): a gone
sender's try holds nothing and claims nothing."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
"""The next handler a middleware hands the request to (aiohttp's)."""
HEADERS = SECURITY_HEADERS
"""The same headers as the game's page (page_files.py), on every reply."""


def refused(err: NarratorError) -> web.Response:
    """A refusal as the page shows it: its line in every language (`errors`), which the page
    picks from by its own language, beside the table's one (`error`); without the table
    file's path (`Refusal.page_lines`): the page shows it beside the field, in its words."""
    if not isinstance(err, Refusal):
        return wire.reply({"error": str(err)}, 400)
    lines = err.page_lines()
    return wire.reply({"error": lines.get(err.lang or "en", str(err)), "errors": lines}, 400)


class SettingsPage:
    """The page's state across the menu's visits: one table code and host token per service run."""

    def __init__(self, table: Callable[[], dict[str, Any]], apply: Callable[[str, Any], Any],
                 announce: Callable[[str, dict[str, Any]], None], play: Callable[[], None],
                 packs: dict[str, VoicePack], lang: str):
        self.table, self.apply, self.announce, self.play = table, apply, announce, play
        self.packs, self.lang = packs, lang
        self.table_code = new_table_code()
        self.host_digest: str | None = None
        """The SHA-256 of the host screen's token (carry.py carries it into each game and back)."""
        self.pending: PendingHost | None = None
        """A phone that typed the table code, waiting for a press at the table (carry.claim)."""
        self.turns = host_turns.Turns(carry.CONFIRM_SECONDS)
        """The line of phones waiting to claim the host screen (host_turns.py)."""
        self.hub: ListenerHub | None = None
        """The appliance's hub: a press or "done" at the table confirms a waiting phone."""
        self.now: Callable[[], float] = lambda: asyncio.get_running_loop().time()
        self.seat_tokens: dict[str, int] = {}
        self.first_names = naming.FirstNames(now=lambda: self.now())
        """A player's phone's token -> the seat number (1-based) whose name it may type."""
        self.gate = gate.JoinGate(delay=WRONG_CODE_DELAY)
        """Who may try the table code now (the game page's gate: no lock, no queue)."""
        self.guard = guard.ConnectionGuard(*guard.caps_for(guard.raise_file_limit()))
        """The connection caps and idle sweep of every page the narrator serves."""
        self.listening = Listening()
        """Its runner, socket and idle sweep (listening.py, as the game's page holds its own)."""
        self.keys = crypto.SeatKeys()
        """The narrator's key pair and the host screen's public key: its saves come sealed
        (`host_channel.py`, the game's host screen's door)."""
        self.port: int | None = None
        self.allowed_hosts: set[str] | None = None
        """Host headers the page answers to, set by `start` (its own addresses); None: any (tests' own server)."""
        self.keep_path: Path | None = None
        """Where the host screen is kept across a restart (host_keep.py); None: in memory only."""
        self.release_until: float | None = None
        """Until when the table may confirm a `release host` asked by button or voice (host_release.py)."""

        self.join_link: str | None = None
        """The address the narrator announced: every phone may show it as a QR code for the others
        (no code in it: the table code stays spoken, a seat's own code stays with the host screen)."""
        self.no_speaker = False
        """The appliance plays without sound (no speaker found): the page says so (appliance/speaker.py)."""

    def keep_at(self, path: Path | None, warn: Callable[[str], None] | None = None) -> bool:
        """Keep the host screen in `path` from now on, and take the one kept there (a restart)."""
        self.keep_path = path
        return host_keep.restore(self, path, warn)

    def host_changed(self) -> None:
        """The host screen was confirmed, carried back or released: kept at once (a power cut next)."""
        host_keep.save(self.keep_path, self.host_digest, self.keys.host_public_key(self.host_digest))

    def release(self, name: str) -> str:
        """`release host` at the menu, as in a game (server.py): the host screen is free and the
        table code is a new one, said aloud (the old one was said to everyone)."""
        pack = self.packs.get(self.lang) or next(iter(self.packs.values()))
        if name.casefold() != "host":
            return pack.speak("hint.release_unknown", {"name": name, "seats": ""}).text
        self.host_digest, self.pending = None, None
        self.table_code = new_table_code()
        self.host_changed()
        self.announce("phones.host_released", {"code": " ".join(self.table_code)})
        return pack.speak("hint.release_host", {"code": self.table_code}).text

    def _release_asked(self) -> None:
        host_release.ask(self)

    # --- serving ----------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024, middlewares=[self._guarded, self._same_origin])
        app.on_response_prepare.append(security_headers)
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", static_file)
        app.router.add_get("/api/settings", self._view)
        for name in ("join", "change", "preset", "seat", "play"):
            app.router.add_post(f"/api/settings/{name}", getattr(self, f"_{name}"))
        app.router.add_post("/api/settings/sealed", self._sealed)
        return app

    async def start(self, host: str, port: int, no_speaker: bool = False) -> int:
        """Listen (port 0: a free one, kept for the next visit); returns the port.
        `no_speaker`: the appliance has no sound at this visit (the page says so)."""
        self.no_speaker = no_speaker
        try:
            self.port = await self.listening.start(self.app(), self.guard, host, self.port or port, shutdown_timeout=1.0,
                                                   handler_cancellation=HANDLER_CANCELLATION)
        except OSError as err:
            from narrator.errors import SetupError

            raise SetupError(f"the settings page cannot listen on {host}:{port} ({err.strerror}); "
                             "choose another port with `narrator config set port N`") from None
        self.allowed_hosts = {f"{name}:{self.port}" for name in own_names(host)}
        if self.hub is not None:
            self.hub.set_table_claim(self._table_confirms)
            if hasattr(self.hub, "add_table_command"):  # `release host` typed, held or said at the menu
                self.hub.add_table_command("release", self.release)
                self.hub.add_table_action(host_release.WORD, self._release_asked)
        return self.port

    def _table_confirms(self) -> bool:
        """A press or "done" at the table: it confirms a release asked, else a waiting phone."""
        if self.release_until is not None and host_release.confirm(self):
            return True
        return self.pending is not None and carry.confirm(self)

    async def stop(self) -> None:
        if self.hub is not None and hasattr(self.hub, "drop_table_claim"):  # a test's stand-in may have none
            self.hub.drop_table_claim(self._table_confirms)
        if self.hub is not None and hasattr(self.hub, "forget"):  # the game's page takes `release` over
            self.hub.forget(self)
        if self.release_until is not None and self.hub is not None:
            self.hub.hear_also(())  # a release asked and never answered: the voice stops hearing "yes"
        self.pending, self.release_until = None, None
        await self.listening.stop()  # aiohttp's cache forgets each visit's app (listening.py)

    @property
    def running(self) -> bool:
        return self.listening.running

    @web.middleware
    async def _guarded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The guard sees each request begin and end (a connection in a request is not idle);
        the host screen's and a seated phone's connections have room kept for them."""
        self.guard.started(request.transport)
        try:
            held = "host" if self.is_host(request) else self.seat_of(request)
            if held is not None:
                self.guard.seated(request.transport, str(held))
            return await handler(request)
        finally:
            self.guard.finished(request.transport)

    @web.middleware
    async def _same_origin(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A POST must come from this page (its Origin): a page elsewhere cannot change the table;
        and every request must name this machine (its Host): a page elsewhere that points a name
        of its own at this address (DNS rebinding) would otherwise pass the Origin check."""
        refused = provenance.refusal(request, self.allowed_hosts)
        return refused if refused is not None else await handler(request)

    def is_host(self, request: web.Request) -> bool:
        digest = carry.digest(request.cookies.get(HOST_COOKIE))
        return self.host_digest is not None and digest is not None and secrets.compare_digest(digest, self.host_digest)

    def token(self, request: web.Request, host_cookie: bool = False) -> str | None:
        return request.cookies.get(HOST_COOKIE if host_cookie else SEAT_COOKIE)

    def seat_of(self, request: web.Request) -> int | None:
        return self.seat_tokens.get(request.cookies.get(SEAT_COOKIE, ""))

    # --- handlers ---------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "settings.html", headers={"Content-Type": "text/html; charset=utf-8"})

    async def _view(self, request: web.Request) -> web.Response:
        try:
            table = self.table()
            view = settings_view.build(table, self.packs, list(table.get("presets", {}) or {}))
        except NarratorError as err:
            return wire.error(409, str(err))
        view.update({"lang": self.lang, "host": self.is_host(request), "seat": self.seat_of(request),
                     "has_host": self.host_digest is not None, "key": self.keys.public_key,
                     "no_speaker": self.no_speaker})
        if self.join_link:
            from narrator.phones.channel import qr_modules

            view["join"] = {"url": self.join_link, "qr": qr_modules(self.join_link)}
        return wire.reply(view)

    async def _join(self, request: web.Request) -> web.Response:
        """The table code makes this phone the host screen once the table presses (carry.claim).
        A wrong code shuts its sender's address out for a second (gate.py): nothing waits, so
        wrong tries from one address hold up no other's."""
        address = request.remote or "?"
        if self.gate.wait_left(address) > 0 or not self.gate.begin(address):
            return wire.error(429, "one code a second from each phone: wait a moment and try again")
        try:
            body = await wire.json_body(request)
        finally:
            self.gate.end(address)
        if isinstance(body, web.Response):
            return body
        typed = body.get("code")
        if self.gate.wait_left(address) > 0:  # a try from the same address was wrong meanwhile
            return wire.error(429, "one code a second from each phone: wait a moment and try again")
        if isinstance(typed, str) and normal_code(typed) == normal_code(self.table_code):
            if self.is_host(request):
                return wire.reply({"host": True})
            if self.host_digest is not None:
                return wire.error(409, "the table already has a host screen")
            return carry.claim(self, body.get("key"), request.remote or "?")  # its saves come sealed to its key
        self.gate.wrong(address)
        return wire.error(403, "wrong code: the narrator says the table code")

    async def _changes(self, request: web.Request) -> dict[str, object] | web.Response:
        if not self.is_host(request):
            return wire.error(403, "only the host screen changes the settings")
        return await host_channel.body_of(self, request)

    def _saved(self, line: str, params: dict[str, Any]) -> web.Response:
        self.announce(line, params)
        return wire.reply({"ok": True})

    async def _change(self, request: web.Request) -> web.Response:
        body = await self._changes(request)
        if isinstance(body, web.Response):
            return body
        changes = body.get("changes")
        if not isinstance(changes, dict) or not changes or len(changes) > 5:
            return wire.error(400, "send the changed settings as {\"changes\": {KEY: VALUE}}")
        try:
            self.apply("change", changes)
        except NarratorError as err:
            return refused(err)
        keys = [k for k in changes if any(p.has(f"appliance.setting.{k}") for p in self.packs.values())]
        if not keys:
            return self._saved("appliance.changed_other", {})
        return self._saved("appliance.changed", {"what": [[f"appliance.setting.{keys[0]}", 0]]})

    async def _preset(self, request: web.Request) -> web.Response:
        body = await self._changes(request)
        if isinstance(body, web.Response):
            return body
        name = body.get("save", body.get("pick"))
        if not isinstance(name, str):
            return wire.error(400, "send {\"save\": NAME} or {\"pick\": NAME}")
        try:
            self.apply("save" if "save" in body else "pick", name)
        except NarratorError as err:
            return refused(err)
        if "save" in body:
            return self._saved("appliance.preset_saved", {"name": name.strip()})
        return self._saved("appliance.preset_picked" if name else "appliance.recommended_picked", {"name": name})

    async def _seat(self, request: web.Request) -> web.Response:
        """A player's phone takes a seat number and types its own name and reading (the host
        screen may type any seat's). The name is saved into the table's names like any change."""
        body = await host_channel.body_of(self, request)
        if isinstance(body, web.Response):
            return body
        number, name, reading = body.get("seat"), body.get("name"), body.get("reading", "")
        if not isinstance(number, int) or not isinstance(name, str) or not isinstance(reading, str):
            return wire.error(400, "send {\"seat\": N, \"name\": NAME, \"reading\": READING}")
        host, mine = self.is_host(request), self.seat_of(request)
        taken = set(self.seat_tokens.values())
        if not host and mine is None and number in taken:
            return wire.error(409, "another phone holds that seat; ask the host screen")
        if not host and mine is not None and mine != number:
            return wire.error(403, "this phone holds another seat; ask the host screen")
        if not host and mine is None and not self.first_names.may_name(request.remote or "?"):
            err = Refusal("seat_named_here", minutes=int(naming.WINDOW // 60)).worded(self.lang)
            return wire.reply({"error": str(err), "errors": err.lines()}, 429)  # one laptop, one seat
        try:
            self.apply("seat", (number, name, reading))
        except NarratorError as err:
            return refused(err)
        response = wire.reply({"ok": True, "seat": number})
        if not host and mine is None:
            self.first_names.named(request.remote or "?")
            token = secrets.token_urlsafe(24)
            self.seat_tokens[token] = number
            response.set_cookie(SEAT_COOKIE, token, httponly=True, samesite="Strict", path="/")
        self.announce("appliance.changed", {"what": [["appliance.setting.names", 0]]})
        return response

    async def _sealed(self, request: web.Request) -> web.Response:
        """The host screen's saves, sealed through one door as the game's host screen's actions."""
        return await host_channel.door(self, request, {"change": SettingsPage._change, "preset": SettingsPage._preset,
                                                       "seat": SettingsPage._seat, "play": SettingsPage._play})

    async def _play(self, request: web.Request) -> web.Response:
        if not self.is_host(request):
            return wire.error(403, "only the host screen starts the game")
        body = await host_channel.body_of(self, request)
        if isinstance(body, web.Response):
            return body
        self.play()
        return wire.reply({"ok": True})
