"""Limits that keep the phone page from ever taking the game down with it.

Each open connection costs the narrator a file descriptor, and the game needs descriptors
to save every event. So the page accepts at most `total` connections, and `per_address`
from one address, both well below the open-file limit; a connection over a cap is closed at
once (it is refused, the game goes on). A connection that has not finished its request
after `request_timeout` seconds, or sits idle between requests that long, is closed; only
a seated phone's live event stream may stay open (and those are capped per seat).

Room is kept for the table (issue 24: one laptop with 8 addresses filled the cap with
requests that never finished, and five memos never arrived). A connection that has carried
a seat's or the host screen's token is *seated* (at most `SEAT_ROOM` per seat). At the cap a
newcomer takes the place of the oldest connection that is not seated, busy or not, and one
from its own address first, so a flood churns through its own connections and never pushes
out a seated one; the per-address cap counts strangers only.
At start the narrator raises its own soft open-file limit as far as the hard limit lets it,
and the caps come from the limit it then has (the appliance's unit sets `LimitNOFILE`).

Every page the narrator serves (the game's phone page and the settings page between games)
listens through `listen`: the same caps, the same sweep of idle connections, aiohttp's handler
cancellation, and `AcceptErrors`. Issue 38: the settings page had none of it; 1,100 idle
connections at systemd's default 1,024 files made it unreachable, and asyncio wrote a traceback
for each failed `accept()` (51,446 in 22 s on a Pi). Should descriptors run out anyway, a
burst of accept errors is now one line.
"""

from __future__ import annotations

import asyncio
import errno
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

from aiohttp import web

WANTED_FILES = 4096
"""The soft open-file limit the narrator asks for (systemd and shells default to 1024)."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection may take to send a whole request, or sit idle between requests."""
SWEEP_EVERY = 1.0
ACCEPT_QUIET = 10.0
"""Seconds without a failed `accept()` that end a burst (the next one is said again)."""
OUT_OF_ROOM = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
SEAT_ROOM = 8
"""Connections one seat (or the host screen) may have kept for it: four pages and their POSTs."""


def raise_file_limit(wanted: int = WANTED_FILES) -> int:
    """Raise the soft open-file limit toward `wanted` (never past the hard one); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def caps_for(soft_limit: int) -> tuple[int, int]:
    """(total, per address) connections for an open-file limit: a quarter of it at most,
    so the game, its clips and the store keep three quarters."""
    total = max(8, min(256, soft_limit // 4))
    return total, max(4, min(32, total // 4))


@runtime_checkable
class Connection(Protocol):
    """What the guard uses of a connection's transport (asyncio's, or a test's stand-in)."""

    def get_extra_info(self, name: str) -> object: ...

    def abort(self) -> None: ...


@dataclass
class _Conn:
    address: str
    since: float
    busy: bool = False
    stream: bool = False
    seat: str | None = None


@dataclass
class ConnectionGuard:
    """Counts and times every connection of one server; wraps aiohttp's protocol factory."""

    total: int
    per_address: int
    request_timeout: float = REQUEST_TIMEOUT
    refused: int = 0
    evicted: int = 0
    conns: dict[Connection, _Conn] = field(default_factory=dict)
    now: Callable[[], float] = time.monotonic
    """The guard's clock (a test's manual one)."""

    def factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for `loop.create_server`: aiohttp's, behind the caps."""
        return lambda: _Guarded(self, inner())

    def admit(self, transport: Connection) -> bool:
        """Take a new connection, or refuse it. At the total cap the oldest connection that
        is not seated makes room (idle first, then one in a request: a stranger's request may
        be a flood's, and a phone's costs it one retry), its own address's first, so a flood
        churns through its own connections; seated ones are never pushed out."""
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) else str(peer)
        same = sum(1 for c in self.conns.values() if c.address == address and c.seat is None)
        if same >= self.per_address:
            self.refused += 1
            return False
        if len(self.conns) >= self.total:
            strangers = [(c.address != address, c.busy, c.since, t) for t, c in self.conns.items()
                         if c.seat is None and not c.stream]
            if not strangers:
                self.refused += 1
                return False
            oldest = min(strangers, key=lambda item: item[:3])[3]
            self.conns.pop(oldest, None)
            oldest.abort()
            self.evicted += 1
        self.conns[transport] = _Conn(address, self.now())
        return True

    def _conn(self, transport: Connection | None) -> _Conn | None:
        """The connection's entry (None: a request whose transport is gone, or one not counted)."""
        return self.conns.get(transport) if transport is not None else None

    def started(self, transport: Connection | None) -> None:
        conn = self._conn(transport)
        if conn is not None:
            conn.busy, conn.since = True, self.now()

    def finished(self, transport: Connection | None) -> None:
        conn = self._conn(transport)
        if conn is not None:
            conn.busy, conn.since = False, self.now()

    def seated(self, transport: Connection | None, seat: str) -> None:
        """This connection carried `seat`'s token: keep room for it (up to `SEAT_ROOM`)."""
        conn = self._conn(transport)
        if conn is None or conn.seat is not None:
            return
        if sum(1 for c in self.conns.values() if c.seat == seat) < SEAT_ROOM:
            conn.seat = seat

    def streaming(self, transport: Connection | None) -> None:
        conn = self._conn(transport)
        if conn is not None:
            conn.stream = True

    def sweep(self) -> int:
        """Close every connection past its time, in a request or idle; returns how many."""
        now, closed = self.now(), 0
        for transport, conn in list(self.conns.items()):
            if not conn.stream and now - conn.since > self.request_timeout:
                self.conns.pop(transport, None)
                transport.abort()
                closed += 1
        return closed

    async def sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                self.sweep()
            except Exception as err:  # the guard must never stop: say why and keep sweeping
                print(f"phones: connection sweep failed: {err}", file=sys.stderr)


class _Guarded(asyncio.Protocol):
    """Passes everything to aiohttp's protocol; refuses the connection when over a cap."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol):
        self.guard, self.inner = guard, inner
        self.transport: Connection | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not isinstance(transport, Connection):  # a TCP listener's always is one (it can `abort`)
            transport.close()
            return
        if not self.guard.admit(transport):
            transport.abort()  # refused: the descriptor is given back at once
            return
        self.transport = transport
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.guard.conns.pop(self.transport, None)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.transport is not None else None

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


Handler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]
"""An event loop's exception handler (asyncio's shape: the loop and its context)."""


class AcceptErrors:
    """The loop's exception handler while a page listens: a failed `accept()` for want of
    descriptors or memory is one line per burst on stderr (the journal), never a traceback per
    try (asyncio retries each second, and a full backlog fails every try). Anything else goes
    to the handler that was there before."""

    def __init__(self, previous: Handler | None = None, now: Callable[[], float] = time.monotonic):
        self.previous, self.now = previous, now
        self.last: float | None = None
        self.failed = 0
        """Failed accepts in the burst so far (said when the next burst begins)."""

    @classmethod
    def install(cls, loop: asyncio.AbstractEventLoop) -> "AcceptErrors":
        """Put the handler on `loop`, once: a second page on the same loop shares it."""
        handler = loop.get_exception_handler()
        if not isinstance(handler, cls):
            handler = cls(handler)
            loop.set_exception_handler(handler)
        return handler

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        err = context.get("exception")
        if not (isinstance(err, OSError) and err.errno in OUT_OF_ROOM and "accept" in context.get("message", "")):
            if self.previous is not None:
                self.previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        now = self.now()
        if self.last is None or now - self.last > ACCEPT_QUIET:
            before = f" ({self.failed} in the last burst)" if self.failed else ""
            print(f"phones: cannot accept connections ({err.strerror}){before}; new phones wait until "
                  "connections close", file=sys.stderr)
            self.failed = 0
        self.failed += 1
        self.last = now


async def listen(runner: web.BaseRunner, guard: ConnectionGuard, host: str,
                 port: int) -> tuple[asyncio.Server, asyncio.Task[None]]:
    """Serve `runner`'s app (set up with `handler_cancellation=True`, `keepalive_timeout=
    REQUEST_TIMEOUT`) on host:port behind `guard`; returns the listening server and the sweep
    task (cancel it on stop). OSError when the address cannot be had."""
    loop = asyncio.get_running_loop()
    AcceptErrors.install(loop)
    assert runner.server is not None, "the runner is set up first"
    listener = await loop.create_server(guard.factory(runner.server), host, port, backlog=64, reuse_address=True)
    return listener, asyncio.ensure_future(guard.sweep_forever())
