"""The seated phones across the appliance's evening: 「もう一回」 keeps every phone in its seat.

Why: each game is a page of its own with its own seats, so every 「もう一回」 made every player
scan a new seat code while the narrator waited in silence (issue 37). Now, when a game ends,
what each seated phone held is kept in memory (its token's digest and its seat's key, never a
token); the next game, if its seats are the same names in the same order, seats each phone
again by that digest, with a new key of the new game's that the phone fetches sealed with its
last game's key (`SeatKeys.carry_seat`): the cookie alone opens nothing, as before. A table
that changed (other players, names or seats) is not carried: its phones join as before, and
the narrator says why (`phones.seats_new_table`).

Every served game answers the same seat cookie (`COOKIE`), so a phone's cookie is the same
from one game to the next; a game resumed after a power cut knows it by the seats file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from narrator.phones.serving import Serving

COOKIE = "narrator_seat"
"""The seated phones' cookie on every game the appliance serves (carry.COOKIE is the host's)."""
CARRY = True
"""Seats carry to the next game of the same table (a test turns it off: every phone scans)."""


@dataclass
class Kept:
    """What the last game's seated phones held: its seat names, its salt, each seat's digest and key."""

    names: tuple[str, ...]
    salt: str
    seats: dict[str, tuple[str, str]] = field(default_factory=dict)


def after_game(server: Serving) -> Kept | None:
    """What to carry from a game that ended (None: none of its phones answered this cookie)."""
    if getattr(server, "cookie", None) != COOKIE:
        return None
    seats = {}
    for name, digest in server.seats.seated().items():
        key = server.keys.seat_key_of(digest)
        if key is not None:
            seats[name] = (digest, key)
    return Kept(tuple(server.seats.names), server.keys.public_salt, seats)


def into_game(kept: Kept | None, server: Serving) -> str:
    """Seat the last game's phones in `server` (before it opens): "carried", "changed" (the
    table is not the same: everyone joins anew) or "none" (nothing to carry)."""
    if not CARRY or kept is None or not kept.seats or server.seats.seated():
        return "none"  # a resumed game keeps the phones its seats file holds
    if tuple(server.seats.names) != kept.names:
        return "changed"
    for name, (digest, key) in kept.seats.items():
        if server.keys.carry_seat(digest, key, kept.salt):
            server.seats.carry_seat(name, digest)
    return "carried"
