"""Which live event streams are a seat's own: a proven stream is never kept out by an unproven one.

Why: a seat's cookie travels in the clear, so a listener with the Wi-Fi password can open that
seat's streams with it. Issue 38: four such streams filled the seat's places and its player's
own page got 429 for 8 s, showing nothing (the host screen likewise). The views are sealed, so
such a stream reads nothing; what it took was the place. So a page opens its stream with a
proof, a box sealed with the seat's key (the host screen's: its key pair) holding a counter
the narrator takes once (`crypto.SeatKeys.open_request`), in the stream's address. A proven
stream always gets a place: it takes the oldest unproven stream's, else the oldest proven one's
(the same phone's page, reloaded). An unproven stream (a sniffed cookie, a proof sent again, an
API client) gets a free place or a 429, and never displaces anyone.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from aiohttp import web

from narrator.phones.serving import Door
from narrator.phones.seats import HOST

STREAM = "stream"
"""What a stream's proof is for (its `to`): a seat's sealed request cannot open a stream."""


@dataclass
class _Stream:
    queue: asyncio.Queue[str]
    proven: bool


@dataclass
class SeatStreams:
    """The open streams of each seat (and of the host screen), at most `cap` each."""

    cap: int
    open: dict[str, list[_Stream]] = field(default_factory=dict)

    def admit(self, seat: str, queue: asyncio.Queue[str], proven: bool) -> bool:
        """Give `queue` a place among `seat`'s streams: False when it gets none (429)."""
        mine = self.open.setdefault(seat, [])
        if len(mine) >= self.cap:
            if not proven:
                return False
            unproven = [s for s in mine if not s.proven]
            gone = (unproven or mine)[0]  # the oldest unproven, else the oldest of the seat's own
            mine.remove(gone)
            gone.queue.put_nowait("close")
        mine.append(_Stream(queue, proven))
        return True

    def leave(self, seat: str, queue: asyncio.Queue[str]) -> None:
        """`queue`'s stream ended (or was displaced already: nothing to do)."""
        self.open[seat] = [s for s in self.open.get(seat, []) if s.queue is not queue]

    def get(self, seat: str, default: int = 0) -> int:
        """How many streams `seat` has open."""
        return len(self.open.get(seat, [])) or default

    def __getitem__(self, seat: str) -> int:
        return self.get(seat)


def proven(server: Door, request: web.Request, seat: str) -> bool:
    """Whether the stream's address carries a fresh proof of `seat`'s key (the host screen's)."""
    proof = request.query.get("proof")
    if not proof:
        return False
    if seat == HOST:
        message = server.keys.open_host_request(server.token(request, host_cookie=True), proof)
    else:
        message = server.keys.open_request(server.token(request), proof)
    return message is not None and message.get("to") == STREAM
