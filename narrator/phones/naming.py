"""Seats a new phone may name on the settings page: one per address in a while.

Why: a player's phone takes its seat on the settings page by typing its name there first;
that phone alone may type that seat again (its cookie). Issue 38: one laptop, with a fresh
cookie jar for each try, named all 6 seats first and the players got 409. A phone names one
seat; so an address that named one with a new cookie names no other for `WINDOW` seconds
(a refusal the page shows in its language). The host screen names any seat, and sees and may
correct every name. A laptop that takes several addresses names one seat with each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

WINDOW = 600.0
"""Seconds after a new phone named a seat before its address may name another."""
KEPT = 1024
"""Addresses remembered at most (the oldest go first)."""


@dataclass
class FirstNames:
    """When each address last named a seat with a new cookie; `now` is the page's clock."""

    now: Callable[[], float]
    window: float = WINDOW
    named_at: dict[str, float] = field(default_factory=dict)

    def may_name(self, address: str) -> bool:
        """Whether a new phone at `address` may name a seat now."""
        named = self.named_at.get(address)
        return named is None or self.now() - named >= self.window

    def named(self, address: str) -> None:
        """A new phone at `address` named a seat."""
        self.named_at.pop(address, None)  # named again: the newest now (the oldest go first)
        while len(self.named_at) >= KEPT:
            del self.named_at[next(iter(self.named_at))]
        self.named_at[address] = self.now()
