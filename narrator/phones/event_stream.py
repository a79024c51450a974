"""Each open page's live stream (server-sent events): a view pushed at every change, a
keepalive while quiet, and its end once its page or its seat's token is gone.

Why it stands apart from the server: a stream's life is a loop of its own, with its own
waits (`CHECK_EVERY`, `KEEPALIVE`) and its own places (at most `MAX_STREAMS_PER_SEAT` per
seat, admitted by `streams.SeatStreams`); the server only says who asks (a seat, the host
screen) and what their view is now. Every phone gets a message at every change, of the same
size (the views are sealed and padded), so nobody's traffic tells when their own view changed.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from aiohttp import web

from narrator.phones import guard, streams, wire

MAX_STREAMS_PER_SEAT = 4
"""Open pages one seat may keep (a phone and a reload or two); more is someone hogging the Pi."""
KEEPALIVE = 15.0
CHECK_EVERY = 0.5
"""Seconds between checks that a quiet stream's page is still there."""


class LiveStreams:
    """The page's open streams: each one's queue, and each seat's places among them."""

    def __init__(self, cap: int = MAX_STREAMS_PER_SEAT) -> None:
        self.queues: set[asyncio.Queue[str]] = set()
        self.seats = streams.SeatStreams(cap)

    def changed(self) -> None:
        """Tell every open page of a change, once until it has read it."""
        for queue in self.queues:
            if queue.empty():
                queue.put_nowait("changed")

    def close(self) -> None:
        """End every open stream (the page stops)."""
        for queue in self.queues:
            queue.put_nowait("close")

    async def serve(self, request: web.Request, seat: str, proven: bool, connections: guard.ConnectionGuard,
                    view: Callable[[], bytes], held: Callable[[], bool]) -> web.StreamResponse:
        """Stream `seat`'s `view` (an event frame) to `request` while `held` (its token still
        holds the seat): at once, then at each change; 429 when the seat has no place for it."""
        queue: asyncio.Queue[str] = asyncio.Queue()
        if not self.seats.admit(seat, queue, proven):
            return wire.error(429, "too many open pages for this seat; close one and reload")
        try:
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
            await response.prepare(request)
        except BaseException:
            self.seats.leave(seat, queue)
            raise
        connections.streaming(request.transport)
        self.queues.add(queue)
        quiet = 0.0
        try:
            queue.put_nowait("changed")
            while True:
                if not held():
                    break  # the seat was released: this token is worth nothing now
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
                if item == "close" or not held():
                    break  # closed, or the seat was released while this stream waited
                await response.write(view())
                quiet = 0.0
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.queues.discard(queue)
            self.seats.leave(seat, queue)
        return response
