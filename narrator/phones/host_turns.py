"""Whose turn it is to claim the host screen with the table code: claims are queued fairly.

Why (issue 38): a claim waits `CONFIRM_SECONDS` for the table's press, and while it waits every
other phone is refused; a laptop that typed the table code again each time its window ran out
held the host screen away from the table for good (the real host screen was refused 20 of 20
tries over 40 s). Now a phone refused while another waits is queued (by address, as the join
gate counts senders), and when the waiting claim runs out the queue's head has the next turn,
one window long; the phone whose claim just ran out goes to the back. A turn not taken passes
to the next in line. So the table's phone gets its turn within one window of a laptop's claim
(one window per address the laptop queued ahead of it). Nobody waiting: a phone may claim
again at once (a table that missed its press simply types the code again).
"""

from __future__ import annotations

from dataclasses import dataclass

FAIR = True
"""Claims take turns (a test turns it off to show a laptop holding the claim forever)."""
QUEUE = 16
"""Addresses remembered in line at most (more are refused until there is room)."""


@dataclass
class PendingHost:
    """A phone that entered the table code, waiting for the table to confirm it (issue 24: a
    script took the host screen 20 ms after `release host`, since the code is said aloud).
    Kept here, beside the line it waits at; host.py and carry.py make them."""

    token: str
    word: str
    until: float
    address: str = ""
    """Who claimed (the line of the others waiting, `Turns`)."""
    key: str | None = None
    """A host screen asking for a new key (`carry.bind_key`): it is bound on the press."""


class Turns:
    """The line of addresses waiting to claim, and when its head's turn began."""

    def __init__(self, turn: float):
        self.turn = turn
        self.line: list[str] = []
        self.start: float | None = None

    def may_claim(self, address: str, pending: PendingHost | None, now: float) -> bool:
        """Whether `address` may claim now; False means it waits (and is put in line)."""
        if pending is not None and pending.until > now:
            if address != pending.address:
                self._queue(address)
            return False
        if not FAIR:
            return True
        if pending is not None and (self.start is None or self.start < pending.until):
            self.start = pending.until  # the head's turn begins as the last claim runs out
        start = now if self.start is None else self.start
        while self.line and now >= start + self.turn:  # a turn not taken passes on
            self.line.pop(0)
            start += self.turn
        self.start = start
        if self.line and self.line[0] != address:
            self._queue(address)
            return False
        if self.line:
            self.line.pop(0)
        return True

    def _queue(self, address: str) -> None:
        if address not in self.line and len(self.line) < QUEUE:
            self.line.append(address)
