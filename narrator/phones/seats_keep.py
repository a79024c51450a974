"""The last game's seated phones, kept on the card between games: after a power cut, a crash
or a restart of `narrator serve` between two games, 「もう一回」 still keeps every phone in its
seat (seat_carry.py), with no seat code to scan.

Why: what a game's seated phones held was carried to the next game in memory only, so a Pi
unplugged after a game made every player scan a new code. What is kept is what the carry
itself holds (`seat_carry.Kept`): the seat names, the last game's public salt, and each
seat's token digest (never a token) and key. The last game's own phones file holds those
keys too, so the file adds no new secret to the card; it is written 0600 and is gone once
the next game has taken the seats (that game's seats file keeps them from then on).
A damaged file is set aside and said once; the phones then scan their seats as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from narrator import home
from narrator.phones.seat_carry import Kept
from narrator.phones.seats import read_kept

FILE = "phones-seats-carried.json"
"""In the narrator's home, beside the table file."""


def save(path: Path, kept: Kept | None) -> bool:
    """Keep `kept` on the card (None or no seats: the file goes). False when the card refused
    (full, read-only): the seats carry for this run all the same."""
    try:
        if kept is None or not kept.seats:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            seats = {name: [digest, key] for name, (digest, key) in kept.seats.items()}
            home.write_atomic(path, json.dumps({"names": list(kept.names), "salt": kept.salt, "seats": seats},
                                               ensure_ascii=False))
    except OSError:
        return False
    return True


def load(path: Path, warn: Callable[[str], None] | None = None) -> Kept | None:
    """What the last game's seated phones held, or None: no file, or one that does not read as
    a carry (set aside and said once when damaged)."""
    saved = read_kept(path, dict, warn, "the phones scan their seats again")
    if not saved:
        return None
    names, salt, seats = saved.get("names"), saved.get("salt"), saved.get("seats")
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)
            and isinstance(salt, str) and isinstance(seats, dict)):
        return None
    held = {name: (pair[0], pair[1]) for name, pair in seats.items()
            if name in names and isinstance(pair, list) and len(pair) == 2
            and isinstance(pair[0], str) and len(pair[0]) == 64 and isinstance(pair[1], str)}
    return Kept(tuple(names), salt, held) if held else None
