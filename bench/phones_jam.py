"""Issue 24's attacks on joining, on the connection room and on the host screen, timed.

Run on demand: `.venv/bin/python bench/phones_jam.py [--quick]`. Real tables in this process,
real HTTP on loopback; the attacker and each phone have their own 127.x addresses. Every
attack loop is bounded (a count or a deadline) and stops by itself.
- join: W wrong codes (15, 30, 5,000) sent from one address at once, then the real host
  screen's join from another: how long it takes (cut at JOIN_CUT s) and its status;
- memos: Bestia Magica night 1, the beast sends his memo, then floods from K addresses (8, 40)
  with joins whose bodies never come, each address keeping `per_address` of them open and
  reopening any closed; meanwhile each other player's phone sends its memo once (a fresh
  connection, 5 s timeout): how many reach the narrator;
- host: the host screen is released at the terminal; a script that heard the table code
  claims it at once (with the old code and with the code now in force): is it the host
  screen, and what does the real phone get.
Like `_phones_table.py`, it runs against the code before issue 24 too: export an old commit
(`git archive COMMIT | tar -x -C DIR`), copy bench/ into it and run it there.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _phones_table as bench

JOIN_CUT = 40.0
"""Seconds the real join is waited for (the old code queued 5,000 tries for 83 minutes)."""
FLOOD_SECONDS = 8.0
NAMES6 = "Aki,Ben,Chika,Dai,Emi,Fumi"
DEAL = "Aki=beast:S,Ben=prophet:M,Chika=guard:S,Dai=townsperson:M,Emi=undertaker:S,Fumi=townsperson:N"


def phone(base: str, address: str, **kwargs) -> aiohttp.ClientSession:
    return bench.session(base, connector=aiohttp.TCPConnector(local_addr=(address, 0), **kwargs))


async def _status(session: aiohttp.ClientSession, path: str, body: dict, timeout: float) -> int:
    try:
        async with session.post(path, json=body, timeout=aiohttp.ClientTimeout(total=timeout)) as r:
            await r.read()
            return r.status
    except (aiohttp.ClientError, asyncio.TimeoutError, OSError):
        return -1


async def join_under(wrong: int) -> str:
    table = await bench.open_game(seed=5)
    attacker = phone(table.base, "127.0.9.1", limit=32)
    real = phone(table.base, "127.0.9.2")
    try:
        tries = [asyncio.ensure_future(_status(attacker, "/api/join", {"code": f"{n:08d}"}, JOIN_CUT + 5))
                 for n in range(wrong)]
        await asyncio.sleep(0.01)  # the tries go out as the code is announced
        start = time.perf_counter()
        status = await _status(real, "/api/join", {"code": table.server.seats.table_code}, JOIN_CUT)
        took = time.perf_counter() - start
        host = False
        if status in (200, 202):
            async with real.get("/api/seats") as r:
                host = (await r.json())["host"]
        for t in tries:
            t.cancel()
        await asyncio.gather(*tries, return_exceptions=True)
        cut = " (cut)" if status == -1 else ""
        return f"{wrong} wrong codes: real join {took:.3f} s{cut}, status {status}, host screen {host}"
    finally:
        await attacker.close()
        await real.close()
        table.task.cancel()
        await table.server.stop()


async def _hold(port: int, address: str, until: float, base: str, opened: list[int]) -> None:
    """Keep one connection from `address` busy with a join whose body never comes, reopening it."""
    head = (f"POST /api/join HTTP/1.1\r\nHost: {base.removeprefix('http://')}\r\nOrigin: {base}\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n").encode()
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            await asyncio.sleep(0.05)
            continue
        opened[0] += 1
        writer.write(head)
        try:
            await asyncio.wait_for(reader.read(), max(0.01, until - loop.time()))
        except (asyncio.TimeoutError, OSError):
            pass
        writer.close()
        await asyncio.sleep(0.02)  # a pause between reconnections: the machine is shared


async def memos_under_flood(addresses: int) -> str:
    table = await bench.open_game("bestia-magica", names=None, seed=1, deal=DEAL)
    names = list(table.server.seats.names)
    phones = {n: phone(table.base, f"127.0.8.{i + 2}", force_close=True) for i, n in enumerate(names)}
    try:
        for name, p in phones.items():
            assert await bench.seat(p, table, name) == 200
        await bench.wait_for(lambda: table.hub.open_collect and table.hub.open_collect[1].phase == "night")
        serial, round_ = table.hub.open_collect
        answers = {n: {r.key: r.choices[0], "ability": False} for n, r in round_.requests.items()}
        beast = names[0]
        assert await _status(phones[beast], "/api/private", {"serial": serial, "answer": answers.pop(beast)}, 5) == 200
        g = table.server.guard
        per = g.per_address
        port = table.server.addresses[0][1]
        flood = await asyncio.create_subprocess_exec(  # the laptop: its own process, its own CPU
            sys.executable, __file__, "--flood", str(port), str(addresses), str(per), table.base,
            stdout=asyncio.subprocess.PIPE)
        for _ in range(40):  # the flood is on: until the room is full (or 4 s)
            await asyncio.sleep(0.1)
            if len(g.conns) >= g.total:
                break
        await asyncio.sleep(1.5)  # and its requests are under way
        busy, held = sum(c.busy for c in g.conns.values()), len(g.conns)
        sent = await asyncio.gather(*(_status(phones[n], "/api/private", {"serial": serial, "answer": a}, 5)
                                      for n, a in answers.items()))
        opened = int((await flood.communicate())[0] or 0)
        return (f"flood from {addresses} addresses ({per} each, {opened} connections opened; at the memos "
                f"{held} of {g.total} held, {busy} busy): {sent.count(200)}/{len(sent)} other memos reached the narrator "
                f"(statuses {sorted(sent)}); refused {g.refused}, evicted {g.evicted}")
    finally:
        for p in phones.values():
            await p.close()
        table.task.cancel()
        await table.server.stop()


async def host_retaken() -> str:
    table = await bench.open_game(seed=5)
    table.hub.register("button")  # the appliance's button is at the table
    real, script = phone(table.base, "127.0.7.2"), phone(table.base, "127.0.7.3")
    try:
        heard = table.server.seats.table_code
        status = await _status(real, "/api/join", {"code": heard}, 5)
        if status == 202:  # the table presses the button for the number the narrator said
            table.hub.offer_text("done", "button")
        start = time.perf_counter()
        table.hub.offer_text("release host", "keyboard")
        tries = [await _status(script, "/api/join", {"code": code}, 5)
                 for code in (heard, table.server.seats.table_code)]  # the old code, the one now said
        async with script.get("/api/seats") as r:
            took_it = (await r.json())["host"]
        took = time.perf_counter() - start
        back = await _status(real, "/api/join", {"code": table.server.seats.table_code}, 5)
        new_code = table.server.seats.table_code != heard
        return (f"host screen released: new code {new_code}; the script's tries {tries} -> host screen {took_it} "
                f"after {took * 1000:.0f} ms; the real phone then gets {back}")
    finally:
        await real.close()
        await script.close()
        table.task.cancel()
        await table.server.stop()


async def flood(port: int, addresses: int, per: int, base: str) -> None:
    """The flooder's process: `per` held joins from each of `addresses` loopback addresses for
    FLOOD_SECONDS; prints how many connections it opened."""
    until = asyncio.get_running_loop().time() + FLOOD_SECONDS
    opened = [0]
    await asyncio.gather(*(_hold(port, f"127.0.{100 + k // 200}.{k % 200 + 1}", until, base, opened)
                           for k in range(addresses) for _ in range(per)))
    print(opened[0])


def say(result: str) -> None:
    """A result, on stderr (the narration's lines go to stdout): `2>&1 >/dev/null` keeps these."""
    print(f"== {result}", file=sys.stderr, flush=True)


async def main(quick: bool) -> None:
    say(f"code under test: {'with' if hasattr(__import__('narrator.phones.server', fromlist=['x']).PhoneServer, 'announce') else 'before'} issue 24")
    for wrong in (15, 30) if quick else (15, 30, 5000):
        say(await join_under(wrong))
    for addresses in (8,) if quick else (8, 40):
        say(await memos_under_flood(addresses))
    say(await host_retaken())


if __name__ == "__main__":
    if sys.argv[1:2] == ["--flood"]:
        asyncio.run(flood(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
    else:
        asyncio.run(main("--quick" in sys.argv))
