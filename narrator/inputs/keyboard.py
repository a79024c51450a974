"""The keyboard as a listener: Enter = done/next, y/n, names, r = repeat, p = pause.

stdin is read in a daemon thread (a blocking read must not stall the scheduler's loop);
each line goes to the hub on the loop's thread. End of input retires the listener, so a
game with no keyboard and no answers left stops with a clear line instead of hanging.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from narrator.inputs.hub import ListenerHub

SOURCE = "keyboard"


class KeyboardListener:
    def __init__(self, stream: TextIO | None = None, hints: TextIO | None = None):
        self.stream = stream or sys.stdin
        self.hints = hints or sys.stderr

    def start(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> None:
        hub.register(SOURCE)
        threading.Thread(target=self._read, args=(hub, loop), daemon=True, name="keyboard").start()

    def _read(self, hub: ListenerHub, loop: asyncio.AbstractEventLoop) -> None:
        try:
            for raw in self.stream:
                loop.call_soon_threadsafe(self._offer, hub, raw.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        try:
            loop.call_soon_threadsafe(hub.retire, SOURCE)
        except RuntimeError:  # the loop closed: the game is over
            pass

    def _offer(self, hub: ListenerHub, text: str) -> None:
        hint = hub.offer_text(text, SOURCE)
        if hint:
            print(f"  ? {hint}", file=self.hints, flush=True)
