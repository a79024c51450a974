"""The host screen across the appliance's evening: claimed once, carried into each game and back.

Why: the settings page (between games) and a game's phone page are two servers, one after the
other on the same address, each with its own table code. Without this, the phone that set the
game up had to type the game's new code once the game began. Now the two share one host
cookie (`COOKIE`, httponly, SameSite=Strict, sent only to this address) and one host: the
settings page keeps only the SHA-256 of the host's token, hands that digest to the game's
seats when the game starts (so the same phone is the game's host screen, with no code), and
takes the game's host back when it ends: nobody, if the table released the host screen during
the game (then the settings page's table code is the game's new one, the only one left open),
or the phone that claimed it since.

What keeps it the table's: a token is 32 random bytes in a cookie the page's script cannot
read; only its digest is kept, so nothing here can be handed to another phone. The settings
page's table code waits for a press at the table (`claim`, as `host.py` does for a game's), so
a host screen is confirmed by the table once before it is ever carried.
"""

from __future__ import annotations

import secrets

from aiohttp import web

from narrator.inputs.table_words import TABLE_SOURCES
from narrator.phones import crypto, seat_carry, wire
from narrator.phones.host import CONFIRM_SECONDS, COOKIE_AGE
from narrator.phones.host_turns import PendingHost
from narrator.phones.seats import _digest, new_token
from narrator.phones.serving import Menu, Serving

CARRY_KEY = PRESS_FOR_KEY = True
"""The game takes the settings page's confirmed key; a new one waits for the table's press
(issue 38; a test turns them off to show a sniffed cookie reading every seat's code)."""
COOKIE = "narrator_settings_host"
"""The host screen's cookie on the settings page and on every game the appliance serves."""


def digest(token: str | None) -> str | None:
    return _digest(token) if token and len(token) <= 200 else None


def claim(page: Menu, key: object = None, address: str = "?") -> web.Response:
    """The right table code on the settings page: the phone waits for a press (or "done") at
    the table, its number said aloud; a table with nothing to press takes it at once. `key`
    (the page's public key) is bound to the new token, so the host's saves come sealed.
    Phones take turns (host_turns.py)."""
    now = page.now()
    if not page.turns.may_claim(address, page.pending, now):
        return wire.error(409, "another phone is waiting for the table to confirm it; try again shortly")
    token = new_token()
    page.keys.bind_host(token, key)
    hub = page.hub
    if hub is None or not (hub.sources & TABLE_SOURCES):  # None: a page with no table (tests' own)
        page.host_digest = _digest(token)
        _kept(page)
        if hub is not None:
            page.announce("phones.host_confirmed", {})
        response = wire.reply({"host": True})
    else:
        word = str(10 + secrets.randbelow(90))
        page.pending = PendingHost(token, word, now + CONFIRM_SECONDS, address)
        page.announce("phones.host_claim", {"n": word})
        response = wire.reply({"host": "pending", "word": word, "seconds": CONFIRM_SECONDS}, 202)
    # Max-Age: kept when the browser closes (issue 37: a session cookie took the host screen with it)
    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=COOKIE_AGE)
    return response


def confirm(page: Menu) -> bool:
    """The table pressed: the waiting phone becomes the host screen (False: none waits)."""
    pending, page.pending = page.pending, None
    if pending is None or pending.until <= page.now() or page.host_digest is not None:
        return False
    page.host_digest = _digest(pending.token)
    _kept(page)
    page.announce("phones.host_confirmed", {})
    return True


def _kept(page: Menu) -> None:
    """The page's host screen changed: kept on the card at once (host_keep.py)."""
    page.host_changed()


def into_game(page: Menu | None, server: Serving) -> bool:
    """Before a game's page opens: it answers the host cookie, and the settings page's host
    screen is its host screen. A resumed game whose host screen is still seated keeps it, by
    the cookie it had: this one when the appliance served it (issue 37: a resumed game knew it
    by the game's own cookie only, and locked its host screen out). True when carried."""
    served = server.seats.host_cookie == COOKIE  # resumed, or carried before
    if served or not server.seats.seated():  # the appliance's seat cookie (a fresh game's, or kept)
        server.cookie = seat_carry.COOKIE
    if server.seats.has_host:  # resumed: by this cookie if the appliance served it (issue 37:
        if served:  # its host screen was locked out)
            server.host_cookie = COOKIE
        return False
    server.host_cookie = COOKIE
    server.seats.answer_cookie(COOKIE)
    if page is None or page.host_digest is None:
        return False
    server.seats.carry_host(page.host_digest)
    if CARRY_KEY:  # the key the table confirmed with the settings page: no cookie-only rebind
        server.keys.bind_host_digest(page.host_digest, page.keys.host_public_key(page.host_digest))
    return True


def back_from_game(page: Menu | None, server: Serving) -> None:
    """After the game: the settings page's host screen is the game's, as it stands now."""
    if page is None or server.host_cookie != COOKIE:
        return
    held = server.seats.host_digest()
    if held != page.host_digest:  # released during the game (and perhaps claimed anew)
        page.host_digest = held
        page.table_code = server.seats.table_code  # the old code was said to everyone
    key = server.keys.host_public_key(held) if held is not None else None
    if held is not None and key is not None:  # the key the table confirmed in the game: its saves come sealed
        page.keys.bind_host_digest(held, key)
    _kept(page)
    page.pending = None


async def bind_key(server: Serving, request: web.Request) -> web.Response:
    """A host screen asks for a new key (its page lost the one the table confirmed): the
    narrator asks the table aloud, with a number the screen shows, and the key is bound only on
    the table's press within `CONFIRM_SECONDS` (host.confirm_host), as a claim is. Why (issue
    38): this door bound any key sent with the host cookie, which travels in the clear, so one
    sniffed cookie read every free seat's code and so every role."""
    if not server.is_host(request):
        return wire.error(403, "only the host screen may do this")
    body = await wire.json_body(request)
    if isinstance(body, web.Response):
        return body
    token, key = server.token(request, host_cookie=True), body.get("key")
    if token is None:  # (is_host above: the host cookie is there)
        return wire.error(403, "only the host screen may do this")
    if not isinstance(key, str) or len(crypto._unb64(key) or b"") != 32:
        return wire.error(400, "send {\"key\": PUBLIC_KEY} (32 bytes, base64)")
    if not PRESS_FOR_KEY:  # as before issue 38
        server.keys.bind_host(token, key)
        return wire.reply({"ok": True})
    now, pending = server.gate.now(), server.pending_host
    if pending is not None and pending.until > now:
        return wire.error(409, "another phone is waiting for the table to confirm it; try again shortly")
    word = str(10 + secrets.randbelow(90))
    server.pending_host = PendingHost(token, word, now + CONFIRM_SECONDS, key=key)
    server.announce("phones.host_key_ask", {"n": word})
    return wire.reply({"host": "pending", "word": word, "seconds": CONFIRM_SECONDS}, 202)

