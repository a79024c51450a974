"""Fresh, single-use challenges a phone's sealed join must carry, so a captured join is worth nothing.

Why: a sealed join proves the seat's key without sending the code, but the proof itself is
readable on the Wi-Fi (issue 38: a listener with the Wi-Fi password captured a player's join
that a jam had refused, sent it again and took the seat; the player then got "wrong or used
code"). So the page asks for a challenge just before it joins (`GET /api/join/challenge`) and
seals it into its proof; the narrator takes each challenge once, only from the address that
asked for it, and only for `LIFETIME` seconds. A replayed join names a challenge already
taken (or another address's) and is a wrong code. A listener sees that a join happened.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Callable

LIFETIME = 60.0
"""Seconds a challenge may be used after it was given (a phone derives its key in well under one)."""
PER_ADDRESS = 4
"""Challenges one address may hold at once (a phone holds one; older ones go first)."""
KEPT = 4096
"""Challenges held at most in all; the oldest go first."""
CHALLENGE_BYTES = 16
"""Random bytes in a challenge (22 characters as the page gets it)."""


@dataclass
class Challenges:
    """The challenges given and not yet used; `now` is the join gate's clock. Each give and take
    costs a few steps whatever the number held (a flood of asks costs little)."""

    now: Callable[[], float] = time.monotonic
    given: dict[str, tuple[str, float]] = field(default_factory=dict)
    """challenge -> (the address it was given to, when it expires), oldest first."""
    mine: dict[str, list[str]] = field(default_factory=dict)
    """address -> its challenges held, oldest first."""

    def give(self, address: str) -> str:
        """A new challenge for `address` (its oldest dropped past `PER_ADDRESS`, the oldest of
        all past `KEPT`: they expire first)."""
        while len(self.given) >= KEPT:
            self._drop(next(iter(self.given)))
        held = self.mine.setdefault(address, [])
        while len(held) >= PER_ADDRESS:
            del self.given[held.pop(0)]
        challenge = secrets.token_urlsafe(CHALLENGE_BYTES)
        self.given[challenge] = (address, self.now() + LIFETIME)
        held.append(challenge)
        return challenge

    def take(self, address: str, challenge: object) -> bool:
        """Whether `challenge` was given to `address`, is still fresh and unused; it is used now."""
        if not isinstance(challenge, str):
            return False
        held = self.given.get(challenge)
        if held is None or held[0] != address:
            return False  # never given, used, or given to another address (left to its own)
        self._drop(challenge)
        return held[1] > self.now()

    def _drop(self, challenge: str) -> None:
        address, _ = self.given.pop(challenge)
        held = self.mine[address]
        held.remove(challenge)
        if not held:
            del self.mine[address]
