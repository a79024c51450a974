"""Each seat's own key: what a phone and the narrator say to each other, sealed end to end.

Why: the hotspot's Wi-Fi password is shared with every player, so anyone at the table can
decrypt another phone's Wi-Fi traffic (WPA2-Personal, after its handshake). So a seat's
private payloads (its view, private lines, memos, votes, choices) are sealed with a key
only that seat's phone and the narrator hold, and every request from a seated phone is
authenticated with it (and carries a counter, so a replayed request is refused): a sniffed
cookie cannot act for a seat.

The key never crosses the network. It is derived from the seat's code, which travels only
in the QR code or before the player's eyes, and the table's salt (public), with scrypt
(memory-hard: a listener who captures a join must pay a scrypt per guess of a 50-bit code);
the phone sends only a seat id derived alongside the key and a box sealed with the key.
scrypt rather than argon2id because the page's vetted JavaScript libraries (tweetnacl-js
has no KDF) offer scrypt (scrypt-js), and the narrator has it in the standard library.
Sealing is NaCl's secretbox (XSalsa20-Poly1305): PyNaCl here, tweetnacl-js on the page.

The host screen has no seat code of its own (the table code is spoken to everyone), so it
makes a NaCl key pair when it joins and the seat codes it shows are sealed to its public
key (`nacl.public.Box`): a passive listener cannot read them; see docs/phones.md for what an
active one can. The same box carries the host screen's own requests (`open_host_request`, with
a counter as a seat's), so a sniffed host cookie cannot act for it either.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
from pathlib import Path
from typing import Any, Callable

import nacl.exceptions
import nacl.public
import nacl.secret

from narrator import home
from narrator.phones.seats import normal_code, read_kept

KDF_N, KDF_R, KDF_P = 2 ** 14, 8, 1
"""scrypt's cost (16 MiB, ~50 ms here, ~0.2 s in a phone's JavaScript): paid once per seat."""
KEY_BYTES, ID_BYTES = 32, 16
PLAIN_REQUEST = 512
"""Bytes every request's sealed JSON is padded to (the page pads it; an answer is far smaller)."""
PLAIN_REPLY = 8192
"""Bytes every sealed reply or view is padded to before sealing (a bigger one: the next multiple),
so even the box's own length, readable in plain HTTP, tells nothing."""
WINDOW = 64
"""Counters a phone may use out of order (two requests under way at once): a counter is taken
once, and only if it is newer than the newest one taken less this window."""
KEEP_COUNTERS = True
"""A host key bound anew keeps the counters taken (issue 38; a test turns it off)."""
FROM_PHONE, FROM_NARRATOR, FROM_HOST = "phone", "narrator", "host"
"""Who sealed a box: a reply cannot be sent back to the narrator as a request."""


def derive(code: str, salt: bytes) -> tuple[bytes, str]:
    """(the seat's key, its seat id in hex) from its code and the table's salt."""
    out = hashlib.scrypt(normal_code(code).encode(), salt=salt, n=KDF_N, r=KDF_R, p=KDF_P,
                         dklen=KEY_BYTES + ID_BYTES, maxmem=64 * 1024 * 1024)
    return out[:KEY_BYTES], out[KEY_BYTES:].hex()


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _unb64(text: object) -> bytes | None:
    if not isinstance(text, str) or len(text) > 65536:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except ValueError:
        return None


def padded_json(obj: dict[str, Any], bucket: int) -> bytes:
    """`obj` as JSON, padded with spaces to a whole number of `bucket`s."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
    return text + b" " * (-len(text) % bucket)


def seal(key: bytes, obj: dict[str, Any], bucket: int | None = None) -> str:
    """`obj` padded (to `PLAIN_REPLY` by default) and sealed with `key` (a fresh random nonce
    first), as base64."""
    return _b64(bytes(nacl.secret.SecretBox(key).encrypt(padded_json(obj, bucket or PLAIN_REPLY))))


def unseal(key: bytes, text: object) -> dict[str, Any] | None:
    """The object sealed in `text` with `key`, or None (forged, damaged, not an object)."""
    raw = _unb64(text)
    if raw is None or len(raw) < nacl.secret.SecretBox.NONCE_SIZE + nacl.secret.SecretBox.MACBYTES:
        return None
    try:
        obj = json.loads(nacl.secret.SecretBox(key).decrypt(raw))
    except (nacl.exceptions.CryptoError, ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _kept_entry(entry: object) -> bool:
    """A saved phone's entry: a seat's key, its newest counter and those taken; or a host
    screen's public key."""
    if not isinstance(entry, dict):
        return False
    if "host" in entry:
        return _unb64(entry["host"]) is not None
    return (_unb64(entry.get("key")) is not None and isinstance(entry.get("n"), int)
            and isinstance(entry.get("seen"), list))


def fresh(counter: object, newest: int, seen: list[int]) -> bool:
    """Whether a request's counter was never taken and is not older than the window allows."""
    return (isinstance(counter, int) and not isinstance(counter, bool)
            and counter > newest - WINDOW and counter not in seen)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class SeatKeys:
    """Each seated phone's key (by its token's digest), the last counter it used, the table's
    salt and the narrator's own key pair for the host screen; kept in `phones-keys.json`."""

    def __init__(self, path: Path | None = None, warn: Callable[[str], None] | None = None):
        self.path = path
        saved = read_kept(path, dict, warn, "every phone joins again with a new code") or {}
        self.salt = _unb64(saved.get("salt")) or secrets.token_bytes(16)
        secret = _unb64(saved.get("secret"))
        self.private_key = nacl.public.PrivateKey(secret) if secret and len(secret) == 32 else nacl.public.PrivateKey.generate()
        phones = saved.get("phones")  # (not an object in a hand-edited file: every phone joins again)
        self._phones: dict[str, dict[str, Any]] = {
            d: e for d, e in (phones if isinstance(phones, dict) else {}).items() if _kept_entry(e)}
        self._derived: dict[str, tuple[bytes, str]] = {}
        self._save()

    @property
    def public_salt(self) -> str:
        """The table's salt as the page gets it (public: the key needs the seat's code too)."""
        return _b64(self.salt)

    @property
    def public_key(self) -> str:
        return _b64(bytes(self.private_key.public_key))

    def for_code(self, code: str) -> tuple[bytes, str]:
        """(key, seat id) of a seat code, derived once per code."""
        code = normal_code(code)
        if code not in self._derived:
            self._derived[code] = derive(code, self.salt)
        return self._derived[code]

    async def code_for_id(self, codes: list[str], seat_id: object) -> tuple[str, bytes] | None:
        """(the code, its key) among the free seats' `codes` whose seat id this is, or None;
        the derivations run beside the event loop, not in it."""
        if not isinstance(seat_id, str):
            return None
        loop = asyncio.get_running_loop()
        found = None
        for code in codes:
            known = self._derived.get(normal_code(code))  # derived before: no trip to a thread
            key, own_id = known if known is not None else await loop.run_in_executor(None, self.for_code, code)
            if secrets.compare_digest(own_id, seat_id):
                found = (code, key)
        return found

    def bind(self, token: str, key: bytes, counter: int = 0) -> None:
        """The phone holding `token` speaks with `key` from now on (its last counter so far)."""
        self._phones[_digest(token)] = {"key": _b64(key), "n": counter, "seen": [counter]}
        self._save()

    def carry_seat(self, digest: str, old_key: str, old_salt: str) -> bool:
        """A phone seated in the last game keeps its seat in this one (seat_carry.py): a new key
        of this game's, handed over sealed with its last game's key, which only that phone holds
        (the cookie alone opens nothing). False when the old key is not one."""
        old = _unb64(old_key)
        if old is None or len(old) != 32:
            return False
        new = secrets.token_bytes(32)
        box = seal(old, {"from": "narrator", "key": _b64(new)})
        self._phones[digest] = {"key": _b64(new), "n": 0, "seen": [0], "carry": {"salt": old_salt, "box": box}}
        self._save()
        return True

    def carried(self, token: str | None) -> dict[str, str] | None:
        """The new key of a carried seat, sealed with its last game's key, and that game's salt."""
        entry = self._phones.get(_digest(token)) if token else None
        carry = entry.get("carry") if entry else None
        return carry if isinstance(carry, dict) else None

    def seat_key_of(self, digest: str) -> str | None:
        """A seated phone's key (base64) by its token's digest, to carry it to the next game."""
        entry = self._phones.get(digest)
        return entry.get("key") if entry and "host" not in entry else None

    def bind_host(self, token: str, public_key: object) -> bool:
        """The host screen holding `token` reads what is sealed to `public_key`; False if not a key."""
        return self.bind_host_digest(_digest(token), public_key)

    def bind_host_digest(self, digest: str, public_key: object) -> bool:
        """As `bind_host`, by the token's digest (all a carried host screen leaves here). A key
        bound anew keeps the counters taken (issue 38: a rebind reset them, so a captured action
        refused once was taken the second time)."""
        raw = _unb64(public_key)
        if raw is None or len(raw) != 32:
            return False
        old = (self._phones.get(digest) or {}) if KEEP_COUNTERS else {}
        self._phones[digest] = {"host": _b64(raw), **{k: old[k] for k in ("n", "seen") if k in old}}
        self._save()
        return True

    def host_public_key(self, digest: str | None) -> str | None:
        """The public key bound to the host screen whose token has this digest, or None."""
        entry = self._phones.get(digest or "")
        return entry.get("host") if entry else None

    def key(self, token: str | None) -> bytes | None:
        entry = self._phones.get(_digest(token)) if token else None
        return _unb64(entry["key"]) if entry and "key" in entry else None

    def open_request(self, token: str | None, box: object) -> dict[str, Any] | None:
        """A seated phone's request: sealed with its key, from a phone, with a counter past the
        last one it used (so a captured request cannot be sent again); None otherwise."""
        key = self.key(token)
        if key is None or token is None:  # no token has no key
            return None
        message = unseal(key, box)
        if message is None or message.get("from") != FROM_PHONE:
            return None
        return message if self._take(self._phones[_digest(token)], message.get("n")) else None

    def peek_request(self, token: str | None, box: object) -> dict[str, Any] | None:
        """The request `open_request` would take, its counter left untaken and nothing saved:
        so an excess decoy is refused before any write (decoys.py)."""
        key = self.key(token)
        message = unseal(key, box) if key is not None else None
        if message is None or token is None or message.get("from") != FROM_PHONE:
            return None
        entry = self._phones[_digest(token)]
        return message if fresh(message.get("n"), entry.get("n", 0), entry.get("seen", [])) else None

    def _take(self, entry: dict[str, Any], counter: object) -> bool:
        """Take a request's counter for this phone: False when it was taken or is too old."""
        if not fresh(counter, entry.get("n", 0), entry.get("seen", [])):
            return False
        entry["n"] = max(entry.get("n", 0), counter)
        entry["seen"] = [c for c in entry.get("seen", []) if c > entry["n"] - WINDOW] + [counter]
        self._save()
        return True

    def _host_box(self, token: str | None) -> nacl.public.Box | None:
        entry = self._phones.get(_digest(token)) if token else None
        raw = _unb64(entry.get("host")) if entry else None
        return nacl.public.Box(self.private_key, nacl.public.PublicKey(raw)) if raw else None

    def host_has_key(self, token: str | None) -> bool:
        """Whether the host screen holding `token` gave a key at join (every page does)."""
        return self._host_box(token) is not None

    def open_host_request(self, token: str | None, box: object) -> dict[str, Any] | None:
        """The host screen's request: sealed between its key pair and the narrator's, from the
        host screen, with a counter never taken; None otherwise."""
        sealed, raw = self._host_box(token), _unb64(box)
        if sealed is None or raw is None or len(raw) < nacl.public.Box.NONCE_SIZE + nacl.secret.SecretBox.MACBYTES:
            return None
        try:
            message = json.loads(sealed.decrypt(raw))
        except (nacl.exceptions.CryptoError, ValueError, RecursionError):
            return None
        if not isinstance(message, dict) or message.get("from") != FROM_HOST:
            return None
        return message if token is not None and self._take(self._phones[_digest(token)], message.get("n")) else None

    def seal_for(self, token: str | None, obj: dict[str, Any]) -> dict[str, Any] | None:
        """`obj` sealed for the phone holding `token` ({"box": …}), or None if it has no key."""
        key = self.key(token)
        return None if key is None else {"box": seal(key, {**obj, "from": FROM_NARRATOR})}

    def seal_for_host(self, token: str | None, obj: dict[str, Any]) -> dict[str, Any] | None:
        """`obj` sealed to the host screen's own public key, or None if it gave none."""
        entry = self._phones.get(_digest(token)) if token else None
        raw = _unb64(entry.get("host")) if entry else None
        if not raw:
            return None
        box = nacl.public.Box(self.private_key, nacl.public.PublicKey(raw))
        return {"box": _b64(bytes(box.encrypt(padded_json(obj, PLAIN_REPLY))))}

    def _save(self) -> None:
        if self.path is None:
            return
        data = {"salt": _b64(self.salt), "secret": _b64(bytes(self.private_key)), "phones": self._phones}
        home.write_atomic(self.path, json.dumps(data))
