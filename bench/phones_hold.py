"""Issue 38's attacks on joining, streams, decoys and the settings page, timed before and after.

Run on demand: `.venv/bin/python bench/phones_hold.py`. Real tables in this process, real HTTP
on loopback, the attacker and each phone on their own 127.x addresses. "before" runs with the
protections monkeypatched off, exactly as the tests switch them off (the join's gate place
taken before its body, no challenge check, no stream proofs, no decoy budget, no naming bound);
"after" as shipped; both in one run. Every attack loop is bounded (a count or a deadline).
- jam: 64 joins whose bodies never come, from 32 addresses; the right code is sent as the page
  sends it (again after 0.5, 1, 2, 4, 8 s, then every 8 s): seconds until it is seated;
- replay: the player's sealed join refused (a typo a moment before), sent again from a laptop:
  who holds the seat;
- streams: a laptop with the seat's cookie keeps its 4 streams for 8 s (reopening any it
  loses); the page opens its stream again 2 s after each failure: seconds until it has one;
- decoys: one seated phone sends decoys as fast as 8 at a time go; another seat's sealed
  request's round trip (replies leave 0.2 s after their request), median idle vs under flood;
- names: one laptop, a fresh cookie jar per seat, names the 6 seats of the settings page first.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("NARRATOR_HOME", tempfile.mkdtemp(prefix="narrator-bench-"))

import _phones_table as bench

from narrator.phones import crypto, decoys, host, join_challenge, naming, streams, wire

PAGE_RETRIES = [0.5, 1, 2, 4, 8]
JAM_CUT = 40.0
HOG_SECONDS = 8.0
STREAM_RETRY = 2.0
NAMES6 = "Aki,Ben,Chika,Dai,Emi,Fumi"


async def _old_join(server, request):
    gate, address = server.gate, request.remote or "?"
    if gate.wait_left(address) > 0 or not gate.begin(address):
        return wire.error(429, "one code a second from each phone: wait a moment and try again")
    try:
        body = await wire.json_body(request)
    finally:
        gate.end(address)
    if isinstance(body, aiohttp.web.Response):
        return body
    return await host._checked_join(server, request, body, address)


def switched_off(before: bool):
    """The protections off (before) or on (after): a list of (object, name, value) undone later."""
    if not before:
        return []
    return [(host, "join", _old_join), (join_challenge.Challenges, "take", lambda self, a, c: True),
            (streams, "proven", lambda server, request, seat: False),
            (decoys.DecoyBudget, "take", lambda self, seat: True),
            (naming.FirstNames, "may_name", lambda self, address: True)]


def phone(base: str, address: str) -> aiohttp.ClientSession:
    return bench.session(base, connector=aiohttp.TCPConnector(local_addr=(address, 0)))


async def sealed_join_body(p, server, code: str) -> dict:
    key, seat_id = server.keys.for_code(code)
    async with p.get("/api/join/challenge") as r:
        challenge = (await r.json())["challenge"]
    p.seat_key, p.counter = key, 1
    return {"id": seat_id, "box": crypto.seal(key, {"from": "phone", "n": 1, "join": True, "challenge": challenge},
                                              crypto.PLAIN_REQUEST)}


async def seat(p, server, name: str) -> int:
    body = await sealed_join_body(p, server, server.seats.code(name))
    async with p.post("/api/join", json=body) as r:
        return r.status


async def sealed(p, to: str) -> int:
    p.counter += 1
    box = crypto.seal(p.seat_key, {"from": "phone", "n": p.counter, "to": to, "body": {}}, crypto.PLAIN_REQUEST)
    async with p.post("/api/seat", json={"box": box}) as r:
        if r.status != 200:
            return r.status
        return crypto.unseal(p.seat_key, (await r.json())["box"])["status"]


async def table_for(names: str = bench.NAMES5):
    table = await bench.open_game(names=names)
    table.server.guard.per_address = table.server.guard.total
    for name in table.server.seats.free():
        table.server.keys.for_code(table.server.seats.code(name))
    return table


async def close(table) -> None:
    table.task.cancel()
    await asyncio.gather(table.task, return_exceptions=True)
    await table.server.stop()


async def jam() -> float:
    table = await table_for()
    port, name, held = table.server.addresses[0][1], table.base.removeprefix("http://"), []
    for k in range(32):
        for _ in range(2):
            _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.202.{k + 1}", 0))
            writer.write(f"POST /api/join HTTP/1.1\r\nHost: {name}\r\nOrigin: {table.base}\r\n"
                         "Content-Type: application/json\r\nContent-Length: 1024\r\n\r\n".encode())
            held.append(writer)
    await asyncio.sleep(0.3)  # the 64 joins are under way
    p = phone(table.base, "127.0.203.1")
    start, waits = time.monotonic(), iter(PAGE_RETRIES)
    try:
        while time.monotonic() - start < JAM_CUT:
            if await seat(p, table.server, "Aki") == 200:
                return time.monotonic() - start
            await asyncio.sleep(next(waits, 8))
        return float("inf")
    finally:
        for writer in held:
            writer.close()
        await p.close()
        await close(table)


async def replay() -> str:
    table = await table_for()
    player, laptop = phone(table.base, "127.0.204.1"), phone(table.base, "127.0.204.2")
    try:
        async with player.post("/api/join", json={"code": "WRONGCODE"}):
            pass
        captured = await sealed_join_body(player, table.server, table.server.seats.code("Aki"))
        async with player.post("/api/join", json=captured) as r:
            first = r.status
        async with laptop.post("/api/join", json=captured) as r:
            replayed = r.status
        return f"player's join {first}, the replay {replayed}: the seat is {'the laptop' + chr(39) + 's' if replayed == 200 else 'free'}"
    finally:
        await player.close()
        await laptop.close()
        await close(table)


async def hog() -> float:
    table = await table_for()
    p = phone(table.base, "127.0.205.1")
    laptop = bench.session(table.base, connector=aiohttp.TCPConnector(local_addr=("127.0.205.2", 0)))
    open_, stop = [], asyncio.Event()
    try:
        assert await seat(p, table.server, "Aki") == 200
        laptop.cookie_jar.update_cookies({c.key: c.value for c in p.cookie_jar})

        async def keep():
            end = time.monotonic() + HOG_SECONDS
            while time.monotonic() < end:
                open_[:] = [r for r in open_ if not r.content.at_eof() and not r.closed]
                while len(open_) < 4:
                    r = await laptop.get("/api/events")
                    if r.status != 200:
                        r.close()
                        break
                    open_.append(r)
                await asyncio.sleep(0.05)
            for r in open_:
                r.close()
        keeper = asyncio.ensure_future(keep())
        await asyncio.sleep(0.5)  # the laptop holds the places
        start = time.monotonic()
        while time.monotonic() - start < HOG_SECONDS + 6:
            p.counter += 1
            proof = crypto.seal(p.seat_key, {"from": "phone", "n": p.counter, "to": "stream", "body": {}},
                                crypto.PLAIN_REQUEST)
            r = await p.get("/api/events", params={"proof": proof})
            status = r.status
            r.close()
            if status == 200:
                break
            await asyncio.sleep(STREAM_RETRY)
        blank = time.monotonic() - start
        await keeper
        return blank
    finally:
        stop.set()
        await p.close()
        await laptop.close()
        await close(table)


async def decoy_flood() -> tuple[float, float, float]:
    table = await table_for()
    table.server.reply_after = 0.2
    aki, ben = phone(table.base, "127.0.206.1"), phone(table.base, "127.0.206.2")
    try:
        assert await seat(aki, table.server, "Aki") == 200 and await seat(ben, table.server, "Ben") == 200

        async def times(n):
            out = []
            for _ in range(n):
                t = time.perf_counter()
                await sealed(ben, "view")
                out.append(time.perf_counter() - t)
            return out
        idle = statistics.median(await times(15))
        sent, stop = [0], time.monotonic() + 6

        async def flood():
            while time.monotonic() < stop:
                await sealed(aki, "decoy")
                sent[0] += 1
        floods = [asyncio.ensure_future(flood()) for _ in range(16)]
        await asyncio.sleep(0.5)
        busy = statistics.median(await times(15))
        await asyncio.gather(*floods)
        return idle, busy, sent[0] / 6.0
    finally:
        await aki.close()
        await ben.close()
        await close(table)


async def names() -> int:
    from aiohttp.test_utils import TestServer

    from narrator.appliance import setup_menu
    from narrator.appliance.table import DEFAULT_TABLE, load_table, update_table
    from narrator.phones.settings_page import SettingsPage
    from narrator.phones.table import page_packs

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.toml"
        path.write_text(DEFAULT_TABLE, encoding="utf-8")
        update_table(path, {"players": 6, "names": NAMES6.split(",")})
        app = SimpleNamespace(path=path, table=load_table(path))
        menu = setup_menu.PageHost(app)
        page = SettingsPage(menu.table, menu.apply, lambda line, params: None, menu.play, page_packs(), "ja")
        server = TestServer(page.app(), host="127.0.0.1")
        await server.start_server()
        base, named = f"http://127.0.0.1:{server.port}", 0
        try:
            for number in range(1, 7):
                async with phone(base, "127.0.207.1") as laptop:
                    async with laptop.post("/api/settings/seat", json={"seat": number, "name": f"M{number}",
                                                                       "reading": ""}) as r:
                        named += r.status == 200
        finally:
            await server.close()
        return named


async def run(before: bool) -> dict:
    undo = []
    for obj, name, value in switched_off(before):
        undo.append((obj, name, getattr(obj, name)))
        setattr(obj, name, value)
    try:
        idle, busy, rate = await decoy_flood()
        return {"jam": await jam(), "replay": await replay(), "hog": await hog(),
                "decoys": (idle, busy, rate), "names": await names()}
    finally:
        for obj, name, value in undo:
            setattr(obj, name, value)


def main() -> None:
    for label, before in (("before", True), ("after", False)):
        r = asyncio.run(run(before))
        idle, busy, rate = r["decoys"]
        print(f"{label}: jam: the right code seated after {r['jam']:.1f} s (64 bodiless joins, 32 addresses)")
        print(f"{label}: replay: {r['replay']}")
        print(f"{label}: streams: the page's stream after {r['hog']:.1f} s behind a laptop holding its cookie")
        print(f"{label}: decoys: another seat's reply {idle:.2f} s idle, {busy:.2f} s under {rate:.0f} decoys/s")
        print(f"{label}: names: {r['names']}/6 seats named first by one laptop")


if __name__ == "__main__":
    main()
