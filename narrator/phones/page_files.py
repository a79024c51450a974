"""The files the pages send (the game's page, both pages' scripts) and the headers on every response.

Why it stands apart from the server: the game's page (server.py) and the appliance's settings
page (settings_page.py) take turns at one address, so each must serve the other's scripts
(see `STATIC_FILES`); the list lives here, not in either page, so neither imports the other.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

from narrator.phones import wire

STATIC = Path(__file__).with_name("static")
STATIC_FILES = {"app.js": "text/javascript", "settings.js": "text/javascript", "seal.js": "text/javascript",
                "nacl-fast.min.js": "text/javascript", "scrypt.js": "text/javascript", "style.css": "text/css",
                "strings.json": "application/json", "stuck.js": "text/javascript"}
"""The files of both pages (the game's and the appliance's settings page, settings_page.py),
served by both: the two take turns at one address, so a page whose HTML came from one may ask
the other for its scripts (a reload as a game starts or ends). A script refused there left the
page at 「…」 for good (issue 37's evening: a phone stuck after a game's end); served, it finds
its page gone and reloads to the one now here."""
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}


async def game_page(request: web.Request) -> web.StreamResponse:
    """`/` on a game's page (the settings page serves its own, settings.html)."""
    return web.FileResponse(STATIC / "index.html", headers={"Content-Type": "text/html; charset=utf-8"})


async def static_file(request: web.Request) -> web.StreamResponse:
    """`/static/{name}`: one of `STATIC_FILES`, else 404."""
    name = request.match_info["name"]
    if name not in STATIC_FILES:
        return wire.error(404, "no such file")
    return web.FileResponse(STATIC / name, headers={"Content-Type": f"{STATIC_FILES[name]}; charset=utf-8"})


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response's headers (aiohttp's `on_response_prepare`), unless a handler set its own."""
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
