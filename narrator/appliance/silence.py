"""What silence means at a headless table: a timed question answers its default, an open one is said again.

Nobody may be at the Pi when it asks (a resume after a power cut in the night), and a table
that does not answer may not have heard. So a question asked with a timeout answers its
default once that many game seconds passed after it was (last) said, and a question left open
`remind_after` seconds is said again, as a `repeat` the table could have asked for. Both are
waits on the game clock beside the question, apart from the loop that asks (`serve.py`):
the loop decides what to ask, these decide what a silent table has answered.
"""

from __future__ import annotations

import asyncio

from narrator.inputs.hub import ListenerHub
from narrator.table.scheduler import Scheduler


async def answer_after(hub: ListenerHub, scheduler: Scheduler, timeout: float, default: str | None) -> None:
    """Once the question is open, wait `timeout` game seconds after it was (last) said, then
    answer `default` (as source "timeout")."""
    await hub.next_ask(0)
    clock = scheduler.clock
    while clock.now() < scheduler.cursor + timeout:
        await clock.sleep_until(scheduler.cursor + timeout)
    hub.offer_text(default or "", "timeout")


async def remind(hub: ListenerHub, scheduler: Scheduler, after: float) -> None:
    """Say the open question again after `after` silent seconds: it says what is awaited."""
    serial = 0
    while True:
        serial, _ = await hub.next_ask(serial)
        while hub.open_serial == serial:
            due = scheduler.cursor + after
            await scheduler.clock.sleep_until(due)
            if hub.open_serial == serial and scheduler.clock.now() >= scheduler.cursor + after:
                hub.offer_text("repeat", "reminder")
                await asyncio.sleep(0.1)  # let the scheduler start the repeat (moves the cursor)
