"""A real table in-process for the phone tests: the game loop, the store and the phone server.

The narration runs on the instant clock with the text voice; the phone server listens on
127.0.0.1 on a free port; each test phone is an aiohttp client with its own cookie jar
(one player, one browser). The test may look at `table.state` to choose its moves, as
the players would by looking at their own phones.
"""

from __future__ import annotations

import asyncio
import itertools
import base64
import json
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from narrator import home
from narrator.games import get_game
from narrator.phones import crypto
from narrator.phones.seats import CODE_ALPHABET, SEAT_CODE_LENGTH, normal_code
from narrator.phones.table import make_server
from narrator.table.clock import ManualClock
from narrator.table.runner import play as play_loop
from narrator.table.runner import start_position
from narrator.table.session import RunOptions, open_sitting
from narrator.settings import build_settings
from narrator.table.store import GameStore

NAMES5 = "Aki,Ben,Chika,Dai,Emi"
SERVERS: dict[str, Any] = {}
"""The server behind each test table's address: a test phone gets its seat's code from it,
as a player gets it from the host screen at the table."""


@dataclass
class Table:
    rules: Any
    config: Any
    store: GameStore
    sitting: Any
    server: Any
    base: str
    task: asyncio.Task
    door: ManualClock = field(default_factory=ManualClock)
    """The clock of the join gate (`server.gate.now`): a phone whose code was wrong tries
    again once the test has moved it on (`await table.door.advance(1)`)."""

    @property
    def state(self) -> Any:
        return self.server.state

    def events(self) -> list[dict[str, Any]]:
        return self.store.events()

    async def host(self) -> "Phone":
        """The table's host screen (joined with the table code on first use)."""
        if getattr(self, "_host", None) is None:
            self._host = Phone(self.base, "host")
            assert await self._host.join_code(self.server.seats.table_code) == 200
        return self._host

    async def close(self) -> None:
        if getattr(self, "_host", None) is not None:
            await self._host.close()
        if not self.task.done():
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        await self.server.stop()
        if SERVERS.get(self.base) is self.server:  # its port may be the next server's (tests/test_harness_ports.py)
            del SERVERS[self.base]
        self.sitting.close()


async def open_table(names: str | None = NAMES5, seed: int = 7, transcript: str | None = None, lang: str = "en",
                     game: str = "additional-werewolf", time_scale: float = 0, clock: Any = None,
                     **options: Any) -> Table:
    if game == "additional-werewolf":
        options = {"digital_cards": "true", **options}
    if names:
        options = {"names": names, **options}
    settings = build_settings({}, {"game": game, "seed": seed, "phones": True, **options}, "test")
    rules = get_game(settings.game)
    config = rules.configure(settings)
    run = RunOptions(lang=lang, voice="text", time_scale=time_scale, keyboard=False, phones=True, transcript=transcript)
    sitting = open_sitting(run, clock=clock, game=rules)  # a test's ManualClock, if given; a file's own lines
    store = GameStore.create(home.app_home(), rules.name, config.to_dict(), run.to_dict())
    server = make_server(rules, config, store, sitting.hub, lang)
    server.clock = sitting.scheduler.clock  # as open_phones does
    port = await server.start("127.0.0.1", 0)
    SERVERS[f"http://127.0.0.1:{port}"] = server
    server.guard.per_address = server.guard.total  # every test phone comes from 127.0.0.1
    server.reply_after = 0  # sealed replies at once (tests/test_phones_crypto.py checks the pacing)
    for name in server.seats.free():  # each seat's key derived now, as the page will (one scrypt each)
        server.keys.for_code(server.seats.code(name))
    position = start_position(rules, config, store)
    task = asyncio.create_task(play_loop(rules, config, store, sitting.scheduler, position,
                                         on_state=server.set_state))
    await asyncio.sleep(0)
    table = Table(rules, config, store, sitting, server, f"http://127.0.0.1:{port}", task)
    server.gate.now = table.door.now
    return table


_ADDRESSES = (f"127.0.{n // 250}.{n % 250 + 2}" for n in itertools.count())
"""Each test phone's own loopback address, as each phone at a table has its own."""


class Phone:
    """One player's phone: its own cookie jar, so its own token."""

    def __init__(self, base: str, name: str):
        self.base, self.name, self.address = base, name, next(_ADDRESSES)
        self.session = self._session(aiohttp.CookieJar(unsafe=True))

    def _session(self, jar: Any) -> aiohttp.ClientSession:
        # a browser sends the page's own Origin with every POST
        return aiohttp.ClientSession(base_url=self.base, cookie_jar=jar, headers={"Origin": self.base},
                                     connector=aiohttp.TCPConnector(local_addr=(self.address, 0)))

    async def join(self, seat: str | None = None) -> int:
        """Join seat `seat` (default: this phone's name) with its code from the host screen;
        a seat that is taken has no code to give (the attempt sends a spent one)."""
        server = SERVERS.get(self.base)
        code = server.seats.code(seat or self.name) if server is not None and server.listening.running else None
        return await self.join_code(code or "SPENTSPENT")

    async def join_code(self, code: str) -> int:
        """Join with `code` as the page does: a seat's code never sent, but proven (its seat
        id and a box sealed with its key, both derived from it); the table code, or a code
        that cannot be a seat's, sent as it is. A seated phone then holds its seat's key."""
        normal = normal_code(code)
        if len(normal) == SEAT_CODE_LENGTH and set(normal) <= set(CODE_ALPHABET):
            if self.base in SERVERS and SERVERS[self.base].listening.running:
                key, seat_id = SERVERS[self.base].keys.for_code(code)  # what the page derives (cached)
            else:
                async with self.session.get("/api/seats") as r:
                    key, seat_id = crypto.derive(code, base64.b64decode((await r.json())["salt"]))
            self.counter += 1
            async with self.session.get("/api/join/challenge") as r:  # as the page asks, just before
                challenge = (await r.json())["challenge"]
            body = {"id": seat_id, "box": crypto.seal(key, {"from": "phone", "n": self.counter, "join": True,
                                                            "challenge": challenge}, crypto.PLAIN_REQUEST)}
        else:
            key, body = None, {"code": code}
        async with self.session.post("/api/join", json=body) as r:
            if r.status == 200 and "seat" in await r.json():
                self.key = key
            return r.status

    key: bytes | None = None
    counter = 0

    async def sealed(self, to: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """A request through the seat's sealed channel: (the status inside, the reply inside)."""
        self.counter += 1
        n = self.counter
        box = crypto.seal(self.key, {"from": "phone", "n": n, "to": to, "body": body or {}},
                          crypto.PLAIN_REQUEST)
        async with self.session.post("/api/seat", json={"box": box}) as r:
            reply = await r.json()
            if r.status != 200:
                return r.status, reply
        inner = crypto.unseal(self.key, reply["box"])
        assert inner["from"] == "narrator" and inner["n"] == n, inner
        return inner["status"], inner["body"]

    async def view(self) -> tuple[int, Any]:
        if self.key is not None:
            return await self.sealed("view")
        async with self.session.get("/api/view") as r:
            return r.status, await r.json()

    async def private(self, serial: Any, answer: Any) -> tuple[int, Any]:
        if self.key is not None:
            return await self.sealed("private", {"serial": serial, "answer": answer})
        async with self.session.post("/api/private", json={"serial": serial, "answer": answer}) as r:
            return r.status, await r.json()

    async def answer(self, serial: Any, value: Any) -> tuple[int, Any]:
        if self.key is not None:
            return await self.sealed("answer", {"serial": serial, "value": value})
        async with self.session.post("/api/answer", json={"serial": serial, "value": value}) as r:
            return r.status, await r.json()

    async def post_raw(self, path: str, data: bytes, content_type: str = "application/json") -> int:
        async with self.session.post(path, data=data, headers={"Content-Type": content_type}) as r:
            return r.status

    async def reconnect(self) -> None:
        """A dropped connection: a new session that keeps only the cookie (a reload)."""
        jar = aiohttp.CookieJar(unsafe=True)
        jar.update_cookies({c.key: c.value for c in self.session.cookie_jar})
        await self.session.close()
        self.session = self._session(jar)

    async def first_event(self, bound: float = 10.0) -> dict[str, Any]:
        """The first view the server pushes on the events stream. The server sends it at once;
        `bound` (seconds) only turns a stream that stays silent (a bug, a mutant) into a
        failure instead of a test that never ends."""
        try:
            return await asyncio.wait_for(self._first_event(), bound)
        except asyncio.TimeoutError:
            raise AssertionError(f"the stream sent no view within {bound} s") from None

    async def _first_event(self) -> dict[str, Any]:
        async with self.session.get("/api/events") as r:
            assert r.status == 200, r.status
            async for raw in r.content:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    data = json.loads(line[6:])
                    if self.key is None or "box" not in data:
                        return data
                    view = crypto.unseal(self.key, data["box"])
                    assert view.pop("from") == "narrator"
                    return view
        raise AssertionError("the stream ended without a view")

    async def close(self) -> None:
        await self.session.close()


async def wait_for(predicate, timeout: float = 10.0, every: float = 0.01) -> Any:
    """Poll an async predicate until it returns something truthy."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        result = await predicate()
        if result:
            return result
        await asyncio.sleep(every)
    raise AssertionError("timed out waiting")


def as_sent(server, private):
    """A game's private view as the server sends it: its own lines worded in the page's languages."""
    return {k: [server._text(line, params) for line, params in v] if k.endswith("lines") else v
            for k, v in private.items()}
