"""Issue 24's attacks on joining and on the connection room, each from both sides.

Every attack runs over real HTTP on loopback (each attacker and each phone on its own
127.x address) against a real table. With its protection monkeypatched off it succeeds
(the real join is held up, a gone sender's seat is taken, a flood keeps seated phones out);
with it on it fails. Nothing sleeps in real time to reach a point: the join gate runs on
the table's manual clock (`table.door`), and a held-up request is seen as a bounded wait on
an event that never comes. `bench/phones_jam.py` measures the same attacks in seconds.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from narrator.phones import guard, host, listening, wire
from narrator.phones.seats import HOST, Seats, new_seat_code
from tests.phones_harness import NAMES5, Phone, open_table, wait_for

HELD = 2.0
"""Real seconds a test waits for a reply that must come at once (it comes in milliseconds)."""


def _old_join(hold: asyncio.Event, lock: asyncio.Lock):
    """The join before issue 24: one lock for the whole server, the wrong-code delay slept
    under it (the delay here is `hold`, never set: time stands still for the queue)."""
    async def join(server, request):
        body = await wire.json_body(request)
        if isinstance(body, aiohttp.web.Response):
            return body
        typed = body.get("code")
        async with lock:
            if server.seats.is_table_code(typed) and not server.seats.has_host:
                token = server.seats.claim(HOST)
                response = wire.reply({"host": True})
                host._cookie(server, response, server.host_cookie, token)
                return response
            if server.seats.seat_for_code(typed) is None:
                await hold.wait()
        return wire.error(403, "wrong or used code")
    return join


async def _post_join(phone: Phone, code: str) -> int:
    try:
        return await phone.join_code(code)
    except aiohttp.ClientError:
        return -1


@pytest.mark.parametrize("protected", [False, True])
def test_wrong_codes_sent_as_the_code_is_announced_do_not_hold_up_the_host_screen(monkeypatch, protected):
    hold, lock = asyncio.Event(), asyncio.Lock()  # bound to the test's loop at first use
    if not protected:
        monkeypatch.setattr(host, "join", _old_join(hold, lock))

    async def main():
        table = await open_table(NAMES5, seed=5)
        attacker = Phone(table.base, "laptop")
        real = Phone(table.base, "host screen")
        try:
            table.server.seats.release(HOST)
            code = table.server.seats.table_code
            tries = [asyncio.ensure_future(_post_join(attacker, f"{n:08d}")) for n in range(15)]
            # the flood is in: a wrong code was checked (the old way: one holds the lock)
            await wait_for(lambda: _true(lock.locked() or table.server.gate.shut_until), timeout=10)
            joined = asyncio.ensure_future(real.join_code(code))
            done, _ = await asyncio.wait({joined}, timeout=HELD)
            assert bool(done) == protected
            if protected:
                assert joined.result() == 200 and (await real.view())[0] == 200
                statuses = await asyncio.gather(*tries)
                assert statuses.count(403) >= 1 and set(statuses) <= {403, 429}  # one checked, the rest refused unchecked
            hold.set()
            await asyncio.gather(joined, *tries, return_exceptions=True)
        finally:
            hold.set()
            await attacker.close()
            await real.close()
            await table.close()

    asyncio.run(main())


async def _true(value):
    return value


@pytest.mark.parametrize("cancel, check", [(False, False), (True, False), (False, True), (True, True)])
def test_a_join_whose_sender_hung_up_takes_no_seat(monkeypatch, cancel, check):
    """The sender of a seat's right code hangs up while its join is under way: its seat stays
    free (handler cancellation, and the check that the sender is still there, each suffice)."""
    reading, go_on = asyncio.Event(), asyncio.Event()
    real_body = wire.json_body

    async def slow_body(request):
        body = await real_body(request)
        reading.set()
        await go_on.wait()  # the join is under way when its sender goes
        return body

    monkeypatch.setattr(listening, "HANDLER_CANCELLATION", cancel)
    monkeypatch.setattr(wire, "json_body", slow_body)
    if not check:
        monkeypatch.setattr(host, "_gone", lambda request: False)

    async def main():
        table = await open_table(NAMES5, seed=5)
        phone = Phone(table.base, "Aki")
        try:
            code = table.server.seats.code("Aki")
            sent = asyncio.ensure_future(phone.join_code(code))
            await asyncio.wait_for(reading.wait(), 10)
            sent.cancel()  # the phone hangs up
            await phone.close()
            await wait_for(lambda: _true(not table.server.guard.conns), timeout=10)  # the server saw it go
            go_on.set()
            for _ in range(50):  # let a handler that runs on finish
                await asyncio.sleep(0)
            assert table.server.seats.taken("Aki") == (not cancel and not check)
        finally:
            go_on.set()
            await table.close()

    asyncio.run(main())


async def _unfinished(port: int, source: str, count: int, base: str) -> list:
    """`count` joins from `source` whose bodies never come: each holds a connection busy
    (the join gate lets two per address read their bodies at once)."""
    held = []
    host_ = base.removeprefix("http://")
    for _ in range(count):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            continue
        writer.write(f"POST /api/join HTTP/1.1\r\nHost: {host_}\r\nOrigin: {base}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n".encode())
        held.append((reader, writer))
    return held


def _old_admit(self, transport):
    """The guard's admission before issue 24: only idle connections ever made room."""
    peer = transport.get_extra_info("peername")
    address = peer[0]
    if sum(1 for c in self.conns.values() if c.address == address) >= self.per_address:
        self.refused += 1
        return False
    if len(self.conns) >= self.total:
        idle = [(c.since, t) for t, c in self.conns.items() if not c.stream and not c.busy]
        if not idle:
            self.refused += 1
            return False
        oldest = min(idle, key=lambda pair: pair[0])[1]
        self.conns.pop(oldest, None)
        oldest.abort()
        self.evicted += 1
    self.conns[transport] = guard._Conn(address, self.now())
    return True


@pytest.mark.parametrize("protected", [False, True])
def test_a_flood_of_unfinished_requests_from_twelve_addresses_keeps_no_seated_phone_out(monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(guard.ConnectionGuard, "admit", _old_admit)

    async def main():
        table = await open_table(NAMES5, seed=5)
        g = table.server.guard
        g.total, g.per_address = 24, 3
        phones = {n: Phone(table.base, n) for n in NAMES5.split(",")}
        held = []
        try:
            for p in phones.values():
                assert await p.join() == 200
            for p in phones.values():
                await p.reconnect()  # each phone's next request opens a new connection
            port = table.server.addresses[0][1]
            for k in range(12):
                held += await _unfinished(port, f"127.0.200.{k + 1}", 2, table.base)
            await wait_for(lambda: _true(sum(c.busy for c in g.conns.values()) >= 24), timeout=10)
            reached = 0
            for p in phones.values():
                try:
                    reached += (await asyncio.wait_for(p.view(), HELD))[0] == 200
                except (aiohttp.ClientError, asyncio.TimeoutError):
                    pass
            assert reached == (5 if protected else 0)
            assert not table.task.done()
        finally:
            for _, writer in held:
                writer.close()
            for p in phones.values():
                await p.close()
            await table.close()

    asyncio.run(main())


# --- the host screen belongs to the table --------------------------------------------------------

async def _becomes_host(phone: Phone) -> bool:
    async with phone.session.get("/api/seats") as r:
        return (await r.json())["host"]


@pytest.mark.parametrize("protected", [False, True])
def test_a_script_cannot_take_the_host_screen_back_after_a_release(monkeypatch, protected):
    """Issue 24: a script took the host screen back 20 ms after `release host` (the code is
    said aloud and never changed), and the real phone got 409. Now the release makes a new
    code, and a phone with the code waits for the table's press, announced with its number."""
    if not protected:  # the old way: the code never changes, and it makes a host screen at once
        monkeypatch.setattr(host, "TABLE_SOURCES", frozenset())
        monkeypatch.setattr(Seats, "release", _old_release)

    async def main():
        table = await open_table(NAMES5, seed=5)
        hub = table.sitting.hub
        hub.register("button")  # the appliance's button is at the table
        real, script = Phone(table.base, "host screen"), Phone(table.base, "laptop")
        try:
            heard = table.server.seats.table_code  # said aloud to everyone
            status = await real.join_code(heard)
            if protected:
                assert status == 202 and not await _becomes_host(real)
                word = table.server.said[-1]
                assert word[0] == "phones.host_claim"
                assert hub.offer_text("done", "button") is None  # the table presses the button
            assert await _becomes_host(real)
            hub.offer_text("release host", "keyboard")
            new = table.server.seats.table_code
            assert (new != heard) == protected
            stolen = await script.join_code(heard)  # 20 ms later, with the code it heard
            assert stolen == (403 if protected else 200)
            if protected:
                assert table.server.said[-1] == ("phones.host_released", {"code": " ".join(new)})
                await table.door.advance(1.0)
                assert await script.join_code(new) == 202  # even with the new code: it waits
                assert not await _becomes_host(script)
                assert await real.join_code(new) == 409  # another phone is waiting...
                await table.door.advance(host.CONFIRM_SECONDS)  # ...the table never confirms it
                hub.offer_text("done", "button")  # a late press confirms nothing
                assert not await _becomes_host(script)
                assert await real.join_code(new) == 202
                assert hub.offer_text("done", "button") is None
            assert await _becomes_host(real) == protected
            assert await _becomes_host(script) == (not protected)
        finally:
            await real.close()
            await script.close()
            await table.close()

    asyncio.run(main())


def _old_release(self, name):
    """`Seats.release` before issue 24: the table code stays."""
    self._digests.pop(name, None)
    if name in self.names:
        self._codes[name] = new_seat_code()
    self._save()


def test_only_the_table_confirms_and_a_late_press_is_an_ordinary_press():
    async def main():
        table = await open_table(NAMES5, seed=5)
        hub = table.sitting.hub
        hub.register("voice")
        phone = Phone(table.base, "host screen")
        try:
            table.server.seats.release(HOST)
            assert await phone.join_code(table.server.seats.table_code) == 202
            # a phone's or a script's "done" is not the table's
            hub.offer_text("done", "script")
            assert not await _becomes_host(phone) and table.server.pending_host is not None
            await table.door.advance(host.CONFIRM_SECONDS)  # the time is up: the press is ordinary
            hub.offer_text("done", "voice")
            assert not await _becomes_host(phone) and table.server.pending_host is None
            assert await phone.join_code(table.server.seats.table_code) == 202
            await table.door.advance(host.CONFIRM_SECONDS - 0.5)
            assert hub.offer_text("yes", "voice") is None and await _becomes_host(phone)
            assert table.server.said[-1] == ("phones.host_confirmed", {})
        finally:
            await phone.close()
            await table.close()

    asyncio.run(main())


def test_every_release_and_move_the_host_screen_makes_is_said_aloud():
    from narrator.phones.table import speaker

    async def main():
        table = await open_table(NAMES5, seed=5)
        table.server.speak = speaker(table.sitting.scheduler)
        host_screen = await table.host()
        aki = Phone(table.base, "Aki")
        try:
            assert await aki.join() == 200
            async with host_screen.session.post("/api/host/move", json={"from": "Aki", "to": "Chika"}) as r:
                assert r.status == 200
            async with host_screen.session.post("/api/host/release", json={"seat": "Chika"}) as r:
                assert r.status == 200
            assert table.server.said[-2:] == [("phones.seat_moved", {"n": 1, "m": 3}),
                                              ("phones.seat_released", {"n": 3})]
            narration = table.sitting.scheduler.narration
            await wait_for(lambda: _true(narration.last is not None and narration.last.spoken.line
                                         == "phones.seat_released"), timeout=10)
            assert narration.last.spoken.text == "Seat 3 is free."
        finally:
            await aki.close()
            await table.close()

    asyncio.run(main())
