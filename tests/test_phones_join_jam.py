"""Issue 38, item 5: joining jammed by bodies that never come, and a captured join sent again.

Against a real table over real HTTP on loopback (each attacker and the player on its own
127.x address). With the protection monkeypatched off the attack succeeds: 64 joins whose
bodies never arrive, from 32 addresses, fill the join gate and the right code gets 429; a
captured sealed join, sent again by the attacker, takes the seat. With it on, the right code
is seated at once and the replay is a wrong code. Nothing sleeps to reach a point: the gate
runs on the table's manual clock, and a held-up reply is a bounded wait.
"""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web

from narrator.phones import crypto, host, join_challenge, wire
from tests.phones_harness import NAMES5, Phone, open_table, wait_for

HELD = 5.0
"""Real seconds a reply that must come at once may take (it comes in milliseconds)."""


async def _old_join(server, request):
    """The join before issue 38: a place in the gate taken before the body was read."""
    gate, address = server.gate, request.remote or "?"
    if gate.wait_left(address) > 0 or not gate.begin(address):
        return wire.error(429, "one code a second from each phone: wait a moment and try again")
    try:
        body = await wire.json_body(request)
    finally:
        gate.end(address)
    if isinstance(body, web.Response):
        return body
    return await host._checked_join(server, request, body, address)


async def _bodiless(port: int, source: str, count: int, base: str) -> list:
    """`count` joins from `source` whose headers promise a body that never comes."""
    held, name = [], base.removeprefix("http://")
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(f"POST /api/join HTTP/1.1\r\nHost: {name}\r\nOrigin: {base}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1024\r\n\r\n".encode())
        await writer.drain()
        held.append((reader, writer))
    return held


@pytest.mark.parametrize("protected", [False, True])
def test_joins_whose_bodies_never_come_do_not_hold_the_gate(monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(host, "join", _old_join)

    async def main():
        table = await open_table(NAMES5, seed=5)
        phone, held = Phone(table.base, "Aki"), []
        try:
            port = table.server.addresses[0][1]
            for k in range(32):
                held += await _bodiless(port, f"127.0.201.{k + 1}", 2, table.base)
            async def busy():
                return sum(c.busy for c in table.server.guard.conns.values()) >= 64

            await wait_for(busy, timeout=10)
            assert sum(table.server.gate.reading.values()) == (0 if protected else 64)
            status = await asyncio.wait_for(phone.join(), HELD)
            assert status == (200 if protected else 429)
            assert table.server.seats.taken("Aki") == protected
        finally:
            for _, writer in held:
                writer.close()
            await phone.close()
            await table.close()

    asyncio.run(main())


async def _sealed_join(phone: Phone, code: str, server) -> dict:
    """The body the page sends for `code`, with a challenge fetched by `phone` just before."""
    key, seat_id = server.keys.for_code(code)
    async with phone.session.get("/api/join/challenge") as r:
        challenge = (await r.json())["challenge"]
    return {"id": seat_id, "box": crypto.seal(key, {"from": "phone", "n": 7, "join": True, "challenge": challenge},
                                              crypto.PLAIN_REQUEST)}


@pytest.mark.parametrize("protected", [False, True])
def test_a_captured_join_sent_again_by_another_laptop_takes_no_seat(monkeypatch, protected):
    """The player's join is refused (429: a typo from the same phone a moment before) and the
    listener, who captured it, sends it again from its laptop at once."""
    if not protected:
        monkeypatch.setattr(join_challenge.Challenges, "take", lambda self, address, challenge: True)

    async def main():
        table = await open_table(NAMES5, seed=5)
        player, laptop = Phone(table.base, "Aki"), Phone(table.base, "laptop")
        try:
            code = table.server.seats.code("Aki")
            assert await player.join_code("WRONGCODE") == 403  # a typo: this address waits a second
            captured = await _sealed_join(player, code, table.server)
            async with player.session.post("/api/join", json=captured) as r:
                assert r.status == 429
            async with laptop.session.post("/api/join", json=captured) as r:
                assert r.status == (403 if protected else 200)
            assert table.server.seats.taken("Aki") == (not protected)
            await table.door.advance(1.0)
            assert await player.join_code(code) == (200 if protected else 403)  # the page tries again
        finally:
            await player.close()
            await laptop.close()
            await table.close()

    asyncio.run(main())


def test_a_challenge_is_taken_once_from_its_own_address_while_fresh():
    clock = [0.0]
    given = join_challenge.Challenges(now=lambda: clock[0])
    first = given.give("10.0.0.2")
    other = given.give("10.0.0.9")
    assert len(first) == 22 and first != other and given.take("10.0.0.9", other)  # 16 random bytes, base64url
    assert not given.take("10.0.0.3", first)  # another address's: refused
    assert given.take("10.0.0.2", first) and not given.take("10.0.0.2", first)
    second = given.give("10.0.0.2")
    assert given.take("10.0.0.2", second) and not given.take("10.0.0.2", second)
    late = given.give("10.0.0.2")
    clock[0] += join_challenge.LIFETIME
    assert not given.take("10.0.0.2", late)
    assert not given.take("10.0.0.2", None) and not given.take("10.0.0.2", 5)
    mine = [given.give("10.0.0.4") for _ in range(join_challenge.PER_ADDRESS + 2)]
    assert [given.take("10.0.0.4", c) for c in mine] == [False, False] + [True] * join_challenge.PER_ADDRESS
    assert given.given == {} and given.mine == {}  # an address with nothing held is forgotten
    clock[0] += 1
    kept = [given.give(f"10.1.{i // 250}.{i % 250}") for i in range(join_challenge.KEPT + 3)]
    assert len(given.given) == join_challenge.KEPT and kept[-1] in given.given and kept[2] not in given.given
    assert kept[3] in given.given and len(given.mine) == join_challenge.KEPT
    assert given.take("10.1.0.3", kept[3]) and not given.take("10.1.0.2", kept[2])
    given.give("10.2.0.1")  # full again
    again = given.give("10.1.0.4")  # the oldest held, 10.1.0.4's only one, goes to make room
    assert given.mine["10.1.0.4"] == [again] and given.take("10.1.0.4", again)
