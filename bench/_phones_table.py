"""Shared by the phone benchmarks: a real table with its phone server, in this process.

Works against the code before issue 12 (a seat claimed by its name, any phone answers a
public question) and after it (a seat claimed with its own code, public questions on the
host screen), so one script measures both: copy it into a checkout of the old code and run
it there. `NEW_API` says which one is loaded.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator import home
from narrator.games import get_game
from narrator.phones import seats as seats_module
from narrator.phones.table import make_server
from narrator.settings import build_settings
from narrator.table.runner import play as play_loop
from narrator.table.runner import start_position
from narrator.table.session import RunOptions, open_sitting
from narrator.table.store import GameStore

NEW_API = hasattr(seats_module, "HOST")
NAMES5 = "Aki,Ben,Chika,Dai,Emi"


@dataclass
class BenchTable:
    server: Any
    hub: Any
    store: Any
    config: Any
    task: asyncio.Task
    base: str

    @property
    def state(self) -> Any:
        return self.server.state


async def open_game(game: str = "additional-werewolf", names: str | None = NAMES5, seed: int = 5,
                    host: str = "127.0.0.1", port: int = 0, time_scale: float = 0, **options: Any) -> BenchTable:
    if game == "additional-werewolf":
        options = {"digital_cards": "true", **options}
    if names:
        options = {"names": names, **options}
    settings = build_settings({}, {"game": game, "seed": seed, **options}, "bench")
    rules = get_game(settings.game)
    config = rules.configure(settings)
    run = RunOptions(lang="en", voice="text", time_scale=time_scale, keyboard=False, phones=True)
    sitting = open_sitting(run)
    store = GameStore.create(home.app_home(), rules.name, config.to_dict(), run.to_dict())
    server = make_server(rules, config, store, sitting.hub, "en")
    port = await server.start(host, port)
    task = asyncio.create_task(play_loop(rules, config, store, sitting.scheduler, start_position(rules, config, store),
                                         on_state=server.set_state))
    await asyncio.sleep(0)
    return BenchTable(server, sitting.hub, store, config, task, f"http://{host}:{port}")


def session(base: str, **kwargs: Any) -> aiohttp.ClientSession:
    """A phone: its own cookies; a browser sends its page's Origin with each POST."""
    return aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True),
                                 headers={"Origin": base}, **kwargs)


async def seat(phone: aiohttp.ClientSession, table: BenchTable, name: str) -> int:
    """Join seat `name` as its player does: with its code (new) or its name (old)."""
    body = {"code": table.server.seats.code(name)} if NEW_API else {"seat": name}
    keys = getattr(table.server, "keys", None)  # after issue 24: the seat's key, as the page derives it
    phone.seat_key = keys.for_code(body["code"])[0] if keys is not None else None
    phone.counter = 0
    async with phone.post("/api/join", json=body) as r:
        return r.status


async def private(phone: aiohttp.ClientSession, serial: int, answer: dict[str, Any]) -> int:
    """A private answer as the page sends it: sealed with the seat's key (after issue 24), or plain;
    returns the status of the answer itself."""
    if getattr(phone, "seat_key", None) is None:
        async with phone.post("/api/private", json={"serial": serial, "answer": answer}) as r:
            return r.status
    from narrator.phones import crypto

    phone.counter += 1
    box = crypto.seal(phone.seat_key, {"from": "phone", "n": phone.counter, "to": "private",
                                       "body": {"serial": serial, "answer": answer}}, crypto.PLAIN_REQUEST)
    async with phone.post("/api/seat", json={"box": box}) as r:
        if r.status != 200:
            return r.status
        return crypto.unseal(phone.seat_key, (await r.json())["box"])["status"]


async def public_answerer(table: BenchTable, phones: dict[str, aiohttp.ClientSession]) -> aiohttp.ClientSession:
    """Who answers the table's public questions: the host screen (new) or any phone (old)."""
    if not NEW_API:
        return next(iter(phones.values()))
    host = session(table.base)
    async with host.post("/api/join", json={"code": table.server.seats.table_code}) as r:
        assert r.status == 200, r.status
    return host


async def wait_for(predicate, timeout: float = 10.0) -> Any:
    end = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < end:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.01)
    raise TimeoutError("timed out waiting")
