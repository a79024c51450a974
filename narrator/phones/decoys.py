"""How many decoys a seated phone may have answered: a token bucket per seat.

Why: a decoy is answered as a memo is (its counter saved to disk, a push to every phone), so
that on the Wi-Fi it looks like one. Issue 38: a seated phone's script sent 63 decoys a
second, each two fsyncs and a push to every phone, and another seat's replies slowed from
0.21 to 0.60 s. The page sends one decoy per 1 s slot of a call (and, when its timer ran
late, the slots it missed at once), so each seat gets `RATE` a second with `BURST` in hand;
a decoy past that is refused before anything is written or pushed (channel.py), its sealed
reply of the same size at the same moment, so the wire shows nothing of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

RATE = 2.0
"""Decoys a second a seat earns (the page's slots need one)."""
BURST = 8.0
"""Decoys a seat may have in hand (a phone catching up on the slots it missed)."""


@dataclass
class DecoyBudget:
    """Each seat's decoys in hand; `now` is a clock (a test's manual one)."""

    rate: float = RATE
    burst: float = BURST
    now: Callable[[], float] = time.monotonic
    held: dict[str, tuple[float, float]] = field(default_factory=dict)
    """seat -> (decoys in hand, when last counted)."""

    def take(self, seat: str) -> bool:
        """Whether `seat` may have one more decoy answered now (it is spent if so)."""
        now = self.now()
        left, since = self.held.get(seat, (self.burst, now))
        left = min(self.burst, left + (now - since) * self.rate)
        if left < 1.0:
            self.held[seat] = (left, now)
            return False
        self.held[seat] = (left - 1.0, now)
        return True
