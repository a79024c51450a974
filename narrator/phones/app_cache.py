"""Forget a stopped page's web app in aiohttp's own cache, so each game's server can be freed.

Why: aiohttp (3.9 and later) builds a request's middleware chain once per (handler, apps) and
keeps it in a module-level `lru_cache(maxsize=1024)`. Our handlers are bound methods of the
game's `PhoneServer` (and of the settings page), and both apps have a middleware, so every
route a phone used keeps its server alive after the game ends: the server, its voice packs,
seats and keys, about 0.5 MiB a game (issue 39: +49 MiB per 100 games with phones, until the
cache's 1,024 entries are full). Nothing but a stopped app is in question, and a chain is
rebuilt at the next request of a page still open, so the whole cache is cleared (an
`lru_cache` forgets no single key).
"""

from __future__ import annotations

from aiohttp import web_app


def forget_stopped_apps() -> None:
    """Drop every cached middleware chain (call after a page's runner is cleaned up). An
    aiohttp without that cache has nothing to forget: the game's end never fails here."""
    clear = getattr(getattr(web_app, "_cached_build_middleware", None), "cache_clear", None)
    if clear is not None:
        clear()
