"""Seats and their secret tokens: who a phone is, checked on every request.

A token is `secrets.token_urlsafe(32)`, made when a player claims a seat and set as an
HttpOnly, SameSite=Strict cookie named after the game, so a cookie from another game is
worth nothing. Only a SHA-256 of each token is kept (in memory and in the game folder's
`phones.json`, so `narrator resume` keeps everyone seated); a leaked file gives no token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class SeatTaken(Exception):
    """The seat already has a phone."""


class Seats:
    """The table's seats (player names) and the token digest of the phone holding each."""

    def __init__(self, names: tuple[str, ...], path: Path | None = None):
        self.names = names
        self.path = path
        self._digests: dict[str, str] = {}
        if path is not None and path.exists():
            saved = json.loads(path.read_text(encoding="utf-8"))
            self._digests = {n: d for n, d in saved.get("seats", {}).items() if n in names}

    def taken(self, name: str) -> bool:
        return name in self._digests

    def claim(self, name: str) -> str:
        """Give seat `name` to a new phone; returns the token (shown to that phone only)."""
        if name not in self.names:
            raise KeyError(name)
        if name in self._digests:
            raise SeatTaken(name)
        token = secrets.token_urlsafe(32)
        self._digests[name] = _digest(token)
        self._save()
        return token

    def release(self, name: str) -> None:
        """Free a seat (a player lost their phone); the old token stops working."""
        self._digests.pop(name, None)
        self._save()

    def player(self, token: str | None) -> str | None:
        """The seat a token holds, or None (compared in constant time)."""
        if not token or len(token) > 200:
            return None
        digest = _digest(token)
        for name, saved in self._digests.items():
            if hmac.compare_digest(saved, digest):
                return name
        return None

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"seats": self._digests}), encoding="utf-8")
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)
