"""A page on its socket: set up behind the connection guard, and everything undone at its stop.

Why it stands apart from the server: what a page answers (server.py) and how it holds its
address are two jobs. Holding it has an order that matters: the guard's sweeper and the
listening socket go first, then the open streams are told to end, then aiohttp's runner is
cleaned up and its middleware cache forgotten (`app_cache`), or a stopped game's server
stays alive in memory; a second stop finds nothing to undo. The game's page (server.py) and
the settings page (settings_page.py) each hold one, so that order is written once.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from aiohttp import web

from narrator.phones import app_cache, guard

HANDLER_CANCELLATION = True
"""A handler whose client hung up is cancelled (aiohttp's default since 3.8.6 lets it run on,
so a gone sender's join could still take a seat, and its body read raise a traceback)."""


class Listening:
    """One page's runner, listening socket and the guard's sweep of idle connections."""

    def __init__(self) -> None:
        self.runner: web.AppRunner | None = None
        self.listener: asyncio.Server | None = None
        self.sweeper: asyncio.Task[None] | None = None

    async def start(self, app: web.Application, connections: guard.ConnectionGuard, host: str, port: int,
                    shutdown_timeout: float = 2.0, handler_cancellation: bool | None = None) -> int:
        """Listen on `host:port` (port 0: any free port); returns the port. OSError when the
        address cannot be had (the runner is cleaned up first, and the page is left stopped).
        `handler_cancellation` None: this module's `HANDLER_CANCELLATION`, read now."""
        cancel = HANDLER_CANCELLATION if handler_cancellation is None else handler_cancellation
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=shutdown_timeout,
                                    keepalive_timeout=guard.REQUEST_TIMEOUT, handler_cancellation=cancel)
        await self.runner.setup()
        try:
            self.listener, self.sweeper = await guard.listen(self.runner, connections, host, port)
        except OSError:
            await self.runner.cleanup()
            self.runner = None
            raise
        return self.addresses[0][1]

    @property
    def running(self) -> bool:
        return self.runner is not None

    @property
    def addresses(self) -> list[tuple[str, int]]:
        return [s.getsockname()[:2] for s in self.listener.sockets] if self.listener else []

    async def stop(self, close_streams: Callable[[], Awaitable[None]] | None = None) -> None:
        """Stop listening; `close_streams` ends the open pages' streams before the runner goes."""
        if self.sweeper is not None:
            self.sweeper.cancel()
            self.sweeper = None
        if self.listener is not None:
            self.listener.close()
            self.listener = None
        if self.runner is not None:
            if close_streams is not None:
                await close_streams()
            await self.runner.cleanup()
            self.runner = None
            app_cache.forget_stopped_apps()  # else aiohttp's cache keeps this game's server alive
