"""How fast 20 phones see a change: server-sent events against polling (the naive way).

Run on demand: `.venv/bin/python bench/phones_push.py [rounds]`. A real phone server (aiohttp,
127.0.0.1) for a 20-seat Additional Werewolf game with digital cards; each round changes the
game state once and times until every phone has the new view. Polling phones ask every
0.5 s, as a page without a live stream would. Also counts the HTTP requests each way makes
while nothing changes (what a Pi serves idle). Prints medians and their ratio. The streams
run twice: with every view sealed for its phone (issue 24; each phone opens its own box, as
the page does) and with sealing switched off, in the same run.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.phones import channel, crypto
from narrator.phones.seats import Seats
from narrator.phones.server import PhoneServer
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack

NAMES = [f"P{n:02d}" for n in range(1, 21)]
POLL_EVERY = 0.5


async def setup():
    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": ",".join(NAMES), "digital_cards": "true", "seed": 1}, "b"))
    state, _ = rules.advance(config, rules.new_state(), {"type": "start"})
    seats = Seats(tuple(NAMES), Path(tempfile.mkdtemp()) / "phones.json")
    server = PhoneServer(rules, config, ListenerHub(), seats, "bench", "en",
                         {"en": load_pack("en"), "ja": load_pack("ja")})
    server._follows_cues = False  # no narration here: phones follow each state at once
    server.set_state(state)
    port = await server.start("127.0.0.1", 0)
    server.guard.per_address = server.guard.total  # all 20 phones come from 127.0.0.1
    base = f"http://127.0.0.1:{port}"
    sessions = []
    for name in NAMES:
        s = aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base})
        s.seat_key = server.keys.for_code(seats.code(name))[0]
        async with s.post("/api/join", json={"code": seats.code(name)}) as r:
            assert r.status == 200
        sessions.append(s)
    return server, state, sessions


def opened(session, data):
    """A view as the page reads it: opened with the phone's own key when it is sealed."""
    return crypto.unseal(session.seat_key, data["box"]) if "box" in data else data


async def sse_round(server, state, sessions, night, seen):
    start = time.perf_counter()
    server.set_state(replace(state, night=night))
    while min(seen) < night:
        await asyncio.sleep(0.0005)
    return time.perf_counter() - start


async def stream(session, index, seen):
    async with session.get("/api/events") as r:
        async for raw in r.content:
            line = raw.decode().strip()
            if line.startswith("data: "):
                seen[index] = opened(session, json.loads(line[6:]))["night"]


async def poll(session, index, seen, counter, stop):
    while not stop.is_set():
        async with session.get("/api/view") as r:
            seen[index] = opened(session, await r.json())["night"]
            counter[0] += 1
        await asyncio.sleep(POLL_EVERY)


async def streamed(server, state, sessions, nights) -> list[float]:
    seen = [0] * len(sessions)
    streams = [asyncio.create_task(stream(s, i, seen)) for i, s in enumerate(sessions)]
    await asyncio.sleep(0.5)
    times = [await sse_round(server, state, sessions, night, seen) for night in nights]
    for t in streams:
        t.cancel()
    await asyncio.sleep(0.1)
    return times


async def main(rounds: int) -> None:
    server, state, sessions = await setup()
    sse = await streamed(server, state, sessions, range(1, rounds + 1))  # sealed
    sealed_view = channel.sealed_view
    channel.sealed_view = lambda server_, request, view: view  # sealing off, same run
    unsealed = await streamed(server, state, sessions, range(100, 100 + rounds))
    channel.sealed_view = sealed_view

    seen = [0] * len(sessions)
    counter, stop = [0], asyncio.Event()
    pollers = [asyncio.create_task(poll(s, i, seen, counter, stop)) for i, s in enumerate(sessions)]
    await asyncio.sleep(1.0)
    polled = []
    for night in range(200, 200 + rounds):
        polled.append(await sse_round(server, state, sessions, night, seen))
        await asyncio.sleep(POLL_EVERY * (night % 3) / 3)  # changes fall anywhere in the poll cycle
    before = counter[0]
    await asyncio.sleep(5.0)
    idle_polls = (counter[0] - before) / 5.0 * 60
    stop.set()
    await asyncio.gather(*pollers, return_exceptions=True)
    for s in sessions:
        await s.close()
    await server.stop()

    sse_ms, poll_ms = statistics.median(sse) * 1000, statistics.median(polled) * 1000
    plain_ms = statistics.median(unsealed) * 1000
    print(f"20 phones, {rounds} changes each way")
    print(f"server-sent events, sealed per phone: median {sse_ms:.1f} ms until every phone has the change; idle: no requests, one keepalive line per phone every 15 s")
    print(f"server-sent events, sealing off: median {plain_ms:.1f} ms; sealed/off {sse_ms / plain_ms:.2f}x")
    print(f"polling every {POLL_EVERY} s: median {poll_ms:.1f} ms; {idle_polls:.0f} requests/min idle")
    print(f"ratio polling/SSE latency: {poll_ms / sse_ms:.1f}x")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 15))
