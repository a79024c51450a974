"""The door phones join by: codes are tried without one sender ever holding up another.

Issue 24 jammed joining for good by sending 15 wrong codes as the table code was announced:
the old wrong-code delay was slept under one lock for the whole server, so the real phone
queued behind the attacker's tries (and requests whose senders had hung up stayed queued).
Here nothing waits. A wrong code shuts its own address out for `delay` seconds: a try from
that address before then is refused at once, unchecked (429), so guessing goes at one try a
second per address, and other addresses' tries are checked at once, right codes first. Joins
being checked are capped per address and in all; a join takes its place only once its body
has arrived (host.py reads it first, within seconds: issue 38, 64 bodies that never came held
every place for 15.5 s). The gate keeps no lock and no queue: its state is two small dicts, pruned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

WRONG_CODE_DELAY = 1.0
"""Seconds an address waits after a wrong code before its next code is looked at."""
READING_PER_ADDRESS = 2
"""Joins from one address that may be checked at once (a phone sends one)."""
READING_TOTAL = 64
"""Joins that may be checked at once, from everyone (a table has a dozen phones)."""
KEPT_ADDRESSES = 4096
"""Shut-out addresses remembered at most; expired ones are dropped first."""


@dataclass
class JoinGate:
    """Who may try a code now; `now` is the server's clock (a test's manual one)."""

    delay: float = WRONG_CODE_DELAY
    reading_per_address: int = READING_PER_ADDRESS
    reading_total: int = READING_TOTAL
    now: Callable[[], float] = time.monotonic
    shut_until: dict[str, float] = field(default_factory=dict)
    reading: dict[str, int] = field(default_factory=dict)

    def wait_left(self, address: str) -> float:
        """Seconds before `address` may try a code again (0: now)."""
        return max(0.0, self.shut_until.get(address, 0.0) - self.now())

    def begin(self, address: str) -> bool:
        """A join whose body has arrived starts being checked: False when that would pass a cap (refuse it)."""
        mine = self.reading.get(address, 0)
        if mine >= self.reading_per_address or sum(self.reading.values()) >= self.reading_total:
            return False
        self.reading[address] = mine + 1
        return True

    def end(self, address: str) -> None:
        """The join has been checked (or its sender went away)."""
        left = self.reading.get(address, 0) - 1
        if left > 0:
            self.reading[address] = left
        else:
            self.reading.pop(address, None)

    def wrong(self, address: str) -> None:
        """`address` sent a wrong code: it is shut out for `delay` seconds."""
        now = self.now()
        if len(self.shut_until) >= KEPT_ADDRESSES:
            self.shut_until = {a: t for a, t in self.shut_until.items() if t > now}
            while len(self.shut_until) >= KEPT_ADDRESSES:  # all live: the oldest goes
                self.shut_until.pop(min(self.shut_until, key=self.shut_until.__getitem__))
        self.shut_until[address] = now + self.delay
