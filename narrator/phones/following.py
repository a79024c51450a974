"""How the phone page follows the hub: its changes waited on in the page's own task, and the
private calls counted from what the hub has open.

Why it stands apart from the server: the hub sits a floor below and calls nobody up here (no
callback is handed down to it); it counts its changes, and the page's own task waits on that
count (`HubFollower.changes`) and pushes each change to the phones. What a change means for the phones' send slots is a decision of its own
(`Calls`): every phone vibrates once per private call (a night call, a round), a phone counts
its slots from the call's opening (app.js: COVER), and a slot timer that ran late covers the
slots it missed from the last call's length. `Calls` is handed the time; it reads no clock.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import AsyncIterator, Callable, Coroutine

from narrator.cues import Ask
from narrator.inputs.hub import ListenerHub
from narrator.inputs.private_answers import OpenCollect

KEPT_LENGTHS = 8
"""Calls whose length a view carries: more than a phone's views can lag behind by."""


@dataclass
class Calls:
    """The private calls so far, and the one open now (a private question, else a round)."""

    count: int = 0
    """Counts the private calls (night calls, rounds): every phone vibrates at each."""
    last: tuple[str, int] | None = None
    opened: float = 0.0
    """When the last call opened (time.monotonic): the phones' send slots count from it."""
    open: bool = False
    length: float | None = None
    """Seconds the last call lasted, open to close (or to the next call): a phone whose slot
    timer ran late sends the slots it missed (app.js: COVER)."""
    lengths: dict[int, float] = field(default_factory=dict)
    """The same for each of the last `KEPT_LENGTHS` calls, by number: a phone whose views came
    late (a loaded phone, a slow Wi-Fi) may first hear of a call's end after the next call
    closed too, and still sends the slots that call lasted, as every other phone did."""

    def follow(self, open_ask: tuple[int, Ask] | None, open_collect: tuple[int, OpenCollect] | None, now: float) -> None:
        """Follow the calls from what the hub has open at `now`. It changes nothing when nothing
        changed, so it may run at each change the page sees and before each view."""
        serial = None
        if open_ask is not None and open_ask[1].player is not None or open_collect is not None:
            serial = ("ask", open_ask[0]) if open_ask is not None and open_ask[1].player else ("round", open_collect[0])  # type: ignore[index]  # a round is open when no private question is
        if self.open and serial != self.last:  # the call closed, or the next one opened
            self.length = self.lengths[self.count] = now - self.opened
            for old in sorted(self.lengths)[:-KEPT_LENGTHS]:
                del self.lengths[old]
        if serial is not None and serial != self.last:
            self.last, self.count, self.opened = serial, self.count + 1, now
        self.open = serial is not None

    def age(self, now: float) -> float | None:
        """Seconds since the open call opened, to the millisecond (None: no call is open)."""
        return round(now - self.opened, 3) if self.open else None


class HubFollower:
    """The page's own task waiting on the hub's changes, from the app's start to its end."""

    def __init__(self, hub: ListenerHub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None

    async def changes(self) -> AsyncIterator[None]:
        """Once at once (whatever changed before the app started), then at each hub change."""
        seen = self.hub.changes
        yield
        while True:
            seen = await self.hub.changed_after(seen)
            yield

    def start(self, follow: Callable[[], Coroutine[object, object, None]]) -> None:
        """Run `follow()` as the page's task, unless it runs already."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(follow())

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
