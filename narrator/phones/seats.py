"""Seats, their own secrets, and the host screen: who a phone is, checked on every request.

A seat is claimed with that seat's own code, handed over at the table (the host screen shows
it, one seat at a time, as a QR code and as ten letters); knowing the seat names gives
nothing. The first phone becomes the host screen with the table code (spoken once by the
narrator and printed on its terminal). Each code works once: a claimed seat's code is spent,
and releasing a seat makes it a new one.

A phone that holds a seat or the host screen gets a `secrets.token_urlsafe(32)` token in a
cookie; only a SHA-256 of each token is kept (in memory and in the game folder's
`phones.json`, so `narrator resume` keeps everyone seated); a leaked file gives no token.
Codes are compared in constant time; wrong codes are slowed down by the server.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path
from typing import Callable, TypeVar

from narrator import home
from narrator.terminal import said

HOST = "\x00host"
"""The key of the host screen's token among the seats' (no seat name can be this)."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SEAT_CODE_LENGTH = 10
"""Ten letters from 32: 50 bits, typed in a few seconds, never guessed at one try a second."""
TABLE_CODE_DIGITS = 8
"""Eight digits (spoken): about 27 bits, against one wrong try a second from the network."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_seat_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(SEAT_CODE_LENGTH))


def new_table_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(TABLE_CODE_DIGITS))


def normal_code(code: str) -> str:
    """A typed code as compared: case, spaces and dashes do not matter."""
    return "".join(c for c in code.upper() if c.isalnum())


class SeatTaken(Exception):
    """The seat already has a phone."""


class Seats:
    """The table's seats (player names), each seat's code, and who holds what."""

    def __init__(self, names: tuple[str, ...], path: Path | None = None,
                 warn: Callable[[str], None] | None = None):
        self.names = names
        self.path = path
        self._digests: dict[str, str] = {}
        self._codes: dict[str, str] = {}
        self.table_code = new_table_code()
        self.host_cookie: str | None = None
        """The host screen's cookie when it is not the game's own (the appliance's, carry.py):
        kept, so a resumed game knows its host screen by the same cookie (issue 37)."""
        saved = read_kept(path, dict, warn, "the seats start fresh: players join again with new codes")
        if saved:
            self._digests = {n: d for n, d in _strings(saved.get("seats")).items() if n in names or n == HOST}
            self._codes = {n: c for n, c in _strings(saved.get("codes")).items() if n in names}
            table_code, host_cookie = saved.get("table_code"), saved.get("host_cookie")
            if isinstance(table_code, str):
                self.table_code = table_code
            if isinstance(host_cookie, str):
                self.host_cookie = host_cookie
        for name in names:
            if name not in self._digests and name not in self._codes:
                self._codes[name] = new_seat_code()
        self._save()

    def taken(self, name: str) -> bool:
        return name in self._digests

    def free(self) -> list[str]:
        return [n for n in self.names if n not in self._digests]

    @property
    def has_host(self) -> bool:
        return HOST in self._digests

    def code(self, name: str) -> str | None:
        """Seat `name`'s code while the seat is free (for the host screen only)."""
        return None if name in self._digests else self._codes.get(name)

    def seat_for_code(self, code: str) -> str | None:
        """The free seat whose code this is, or None (every seat is compared: constant time)."""
        typed = normal_code(code).encode()
        found = None
        for name in self.names:
            own = self._codes.get(name)
            if own is not None and hmac.compare_digest(own.encode(), typed) and name not in self._digests:
                found = name
        return found

    def is_table_code(self, code: str) -> bool:
        return hmac.compare_digest(self.table_code.encode(), normal_code(code).encode())

    def claim(self, name: str, token: str | None = None) -> str:
        """Give seat `name` to a new phone; returns the token (shown to that phone only;
        the host screen's was handed over already, while the table confirmed it)."""
        if name not in self.names and name != HOST:
            raise KeyError(name)
        if name in self._digests:
            raise SeatTaken(name)
        token = token or new_token()
        self._digests[name] = _digest(token)
        self._codes.pop(name, None)  # the code is spent
        self._save()
        return token

    def release(self, name: str) -> None:
        """Free a seat (a lost phone): the old token stops working, the seat gets a new code;
        the host screen's release makes a new table code (the old one was said to everyone)."""
        self._digests.pop(name, None)
        if name in self.names:
            self._codes[name] = new_seat_code()
        if name == HOST:
            self.table_code = new_table_code()
        self._save()

    def move(self, source: str, target: str) -> None:
        """The phone on seat `source` takes free seat `target` instead (it scanned the wrong code)."""
        if target not in self.names or source not in self.names or source not in self._digests:
            raise KeyError(target)
        if target in self._digests:
            raise SeatTaken(target)
        self._digests[target] = self._digests.pop(source)
        self._codes.pop(target, None)
        self._codes[source] = new_seat_code()
        self._save()

    def answer_cookie(self, name: str) -> None:
        """The host screen is known by cookie `name` from now on, after a resume too."""
        self.host_cookie = name
        self._save()

    def host_digest(self) -> str | None:
        """The host screen's token digest (None: no host screen), for the settings page."""
        return self._digests.get(HOST)

    def carry_host(self, digest: str) -> None:
        """The host screen of the settings page is this game's too (carry.py): its digest, never its token."""
        if HOST in self._digests:
            raise SeatTaken(HOST)
        self._digests[HOST] = digest
        self._save()

    def carry_seat(self, name: str, digest: str) -> None:
        """The phone that held seat `name` in the last game holds it in this one (seat_carry.py):
        its digest, never its token; the seat's code is spent, as a claim spends it."""
        if name not in self.names:
            raise KeyError(name)
        if name in self._digests:
            raise SeatTaken(name)
        self._digests[name] = digest
        self._codes.pop(name, None)
        self._save()

    def seated(self) -> dict[str, str]:
        """Each taken seat's token digest (not the host screen's)."""
        return {n: d for n, d in self._digests.items() if n != HOST}

    def holder(self, token: str | None) -> str | None:
        """What a token holds (a seat name or HOST), or None; compared in constant time."""
        if not token or len(token) > 200:
            return None
        digest = _digest(token)
        found = None
        for name, saved in self._digests.items():
            if hmac.compare_digest(saved, digest):
                found = name
        return found

    def player(self, token: str | None) -> str | None:
        """The seat a token holds, or None (the host token holds no seat)."""
        held = self.holder(token)
        return None if held == HOST else held

    def is_host(self, token: str | None) -> bool:
        return token is not None and self.holder(token) == HOST

    def _save(self) -> None:
        if self.path is None:
            return
        import json

        data = {"seats": self._digests, "codes": self._codes, "table_code": self.table_code,
                **({"host_cookie": self.host_cookie} if self.host_cookie else {})}
        home.write_atomic(self.path, json.dumps(data))


K = TypeVar("K", dict[str, object], list[object])
"""What a phones file holds: a JSON object or a JSON list, whose values each reader checks."""


def read_kept(path: Path | None, kind: type[K], warn: Callable[[str], None] | None, fresh: str) -> K | None:
    """A phones file's content, or None: a missing file, or a damaged one (not JSON, not a
    `kind`), which is set aside beside itself and said once; the phones then start `fresh`."""
    if path is None:
        return None
    try:
        data = home.read_json(path)
        if data is None or isinstance(data, kind):
            return data
        raise home.DamagedFile(path, f"not a JSON {kind.__name__}")
    except (home.DamagedFile, OSError) as err:
        kept = home.set_aside(path)
        (warn or _stderr)(f"{err}; set aside as {kept.name}; {fresh}")
        return None


def _strings(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def _stderr(message: str) -> None:
    import sys

    print(said("warning", message=message), file=sys.stderr, flush=True)
