"""Issue 38, item 3: a seat's live streams cannot be hogged with its sniffed cookie.

Against a real table over real HTTP (and the page in real Chromium). The attacker copies a
seat's cookie (and the host screen's), as a listener with the Wi-Fi password reads it, and
opens that seat's four streams. With the protection monkeypatched off (no stream counts as
proven) the player's own stream gets 429 and its page shows nothing; with it on, the page's
stream, opened with a proof of the seat's key, takes an unproven stream's place at once.
"""

from __future__ import annotations

import asyncio
import base64

import aiohttp
import nacl.public
import pytest

from narrator.phones import crypto, streams
from narrator.phones.seats import HOST
from narrator.phones.event_stream import MAX_STREAMS_PER_SEAT
from tests.phones_harness import NAMES5, Phone, open_table

HELD = 5.0
"""Real seconds a page may take to show its view (it takes well under one)."""


def _seat_proof(phone: Phone, to: str = streams.STREAM) -> str:
    phone.counter += 1
    return crypto.seal(phone.key, {"from": "phone", "n": phone.counter, "to": to, "body": {}}, crypto.PLAIN_REQUEST)


def _host_proof(secret: nacl.public.PrivateKey, server_key: str, n: int, to: str = streams.STREAM) -> str:
    box = nacl.public.Box(secret, nacl.public.PublicKey(base64.b64decode(server_key)))
    plain = crypto.padded_json({"from": "host", "n": n, "to": to, "body": {}}, crypto.PLAIN_REQUEST)
    return base64.b64encode(bytes(box.encrypt(plain))).decode()


async def _hog(base: str, cookies: dict[str, str], count: int) -> tuple[aiohttp.ClientSession, list]:
    """A laptop with a copied cookie opens `count` streams: (its session, the responses)."""
    session = aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True))
    session.cookie_jar.update_cookies(cookies)
    return session, [await session.get("/api/events") for _ in range(count)]


KEPT: list = []
"""Streams a test keeps open (closed at its end): a closed one would free its place."""


async def _status(phone: Phone, proof: str | None) -> int:
    params = {"proof": proof} if proof else {}
    r = await phone.session.get("/api/events", params=params)
    KEPT.append(r)
    return r.status


@pytest.mark.parametrize("protected", [False, True])
def test_a_sniffed_cookie_cannot_keep_the_seat_or_the_host_screen_from_their_streams(monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(streams, "proven", lambda server, request, seat: False)

    async def main():
        table = await open_table(NAMES5, seed=5)
        server = table.server
        aki, host = Phone(table.base, "Aki"), Phone(table.base, "host")
        secret = nacl.public.PrivateKey.generate()
        hogs = []
        try:
            assert await aki.join() == 200
            async with host.session.post("/api/join", json={"code": server.seats.table_code,
                                                            "key": base64.b64encode(bytes(secret.public_key)).decode()}):
                pass
            server._table_confirms()  # the table presses the button
            assert server.is_host(type("R", (), {"cookies": {c.key: c.value for c in host.session.cookie_jar}})())
            for phone in (aki, host):
                session, opened = await _hog(table.base, {c.key: c.value for c in phone.session.cookie_jar},
                                             MAX_STREAMS_PER_SEAT)
                hogs.append((session, opened))
                assert [r.status for r in opened] == [200] * MAX_STREAMS_PER_SEAT
            assert server.live.seats["Aki"] == server.live.seats[HOST] == MAX_STREAMS_PER_SEAT
            ok = 200 if protected else 429
            assert await asyncio.wait_for(_status(aki, _seat_proof(aki)), HELD) == ok
            assert await asyncio.wait_for(_status(host, _host_proof(secret, server.keys.public_key, 10)), HELD) == ok
            # what a listener can send is never a proof: the cookie alone, a proof sent again,
            # a seat's sealed request for something else
            used = _seat_proof(aki)
            assert await _status(aki, used) == ok  # a second page of its own: in place of another
            for proof in (None, used, _seat_proof(aki, "view"), "garbage"):
                assert await _status(aki, proof) == 429
            assert server.live.seats["Aki"] == MAX_STREAMS_PER_SEAT
            assert await _status(host, _host_proof(secret, server.keys.public_key, 10)) == 429  # its counter: taken
        finally:
            for r in KEPT:
                r.close()
            for session, opened in hogs:
                for r in opened:
                    r.close()
                await session.close()
            await aki.close()
            await host.close()
            await table.close()

    asyncio.run(main())


class _Queue:
    def __init__(self):
        self.items = []

    def put_nowait(self, item):
        self.items.append(item)


def test_a_proven_stream_takes_the_oldest_unproven_place_then_the_oldest_of_its_own():
    seats = streams.SeatStreams(cap=3)
    queues = [_Queue() for _ in range(6)]
    assert seats.admit("Aki", queues[0], False) and seats.admit("Aki", queues[1], True)
    assert seats.admit("Aki", queues[2], False)
    assert not seats.admit("Aki", queues[3], False) and seats.get("Aki") == 3
    assert seats.admit("Aki", queues[3], True)  # the oldest unproven goes
    assert queues[0].items == ["close"] and not queues[1].items and not queues[2].items
    assert seats.admit("Aki", queues[4], True)  # the other unproven
    assert queues[2].items == ["close"]
    assert seats.admit("Aki", queues[5], True)  # all proven: the oldest of the seat's own
    assert queues[1].items == ["close"] and seats["Aki"] == 3
    seats.leave("Aki", queues[1])  # displaced already: nothing changes
    assert seats["Aki"] == 3 and seats.get("Ben") == 0 and seats.admit("Ben", queues[0], False)
    seats.leave("Aki", queues[5])
    assert seats["Aki"] == 2
    seats.leave("Dai", queues[5])  # a seat with no stream: nothing to do
    assert seats.get("Dai") == 0
