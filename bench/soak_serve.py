"""Soak: hundreds of games in one `narrator serve`, with every seat's phone seated.

Run on demand: `.venv/bin/python bench/soak_serve.py [--games 300] [--every 50] [--phones 3]`;
with `PYTHONPATH=OTHER_CHECKOUT` it measures another tree (the code before a change), so
before and after come from the same script. The service's own `serve()` runs in this process
(text voice, instant clock, the phone page on 127.0.0.1) with a table that answers every
question. As each game's page opens, `--phones` phones join over HTTP as the page does (the
seat's key and id derived from its code, a sealed join) and keep its event stream open until
the game ends; the host screen (carried from the settings page after the first game) and
the other seats are claimed through `Seats.claim`. Each game is Additional Werewolf with
digital cards (role cards shown privately on the phones).

Printed at each `--every` games: RSS (VmRSS) and open files of this process; at the end, the
RSS slope per 100 games from the first report to the last, and how many private lines the
first game's `phones-private.json` holds against what it showed in its own game: more means
a later game's private lines went into it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

TREE = Path(os.environ.get("PYTHONPATH", Path(__file__).resolve().parent.parent).split(os.pathsep)[0])
sys.path.insert(0, str(TREE))

import aiohttp  # noqa: E402

import narrator.phones.table as phones_table  # noqa: E402
from narrator.appliance.serve import ServeOptions, serve  # noqa: E402
from narrator.phones import crypto  # noqa: E402
from narrator.errors import NoMoreAnswers  # noqa: E402
from narrator.phones.seats import HOST  # noqa: E402
from narrator.table.saved_games import saved_games  # noqa: E402

NAMES = ["Aki", "Ben", "Chika", "Dai", "Emi"]


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


class SoakDone(Exception):
    """Raised into the service after the last game (no NarratorError: nothing catches it)."""


class SeatedTable:
    """Answers every question; seats every phone when the page is announced; counts games."""

    def __init__(self, games: int, every: int, report):
        self.games, self.every, self.report = games, every, report
        self.played = 0

    def start(self, hub, loop) -> None:
        hub.register("table")
        loop.create_task(self._run(hub))


    async def _run(self, hub) -> None:
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            if ask.line == "appliance.again":
                self.played += 1
                if self.played % self.every == 0:
                    self.report(self.played)
                if self.played >= self.games:
                    hub.fail(SoakDone())  # the phones' source stays registered: end the service here
                    return
                hub.offer_text("done", "script")
            elif ask.line == "appliance.offer":
                hub.offer_text("yes", "script")
            elif "yes" in ask.choices:
                hub.offer_text("yes", "script")
            elif "done" in ask.choices:
                hub.offer_text("done", "script")
            elif getattr(ask, "multiple", False):
                hub.offer_text(",".join(c for c in ask.choices if c in NAMES), "script")
            else:  # someone else than the asked player, a different one each time (two picks differ)
                others = [c for c in ask.choices if c in NAMES and c != getattr(ask, "player", None)]
                hub.offer_text(others[serial % len(others)], "script")


class JoiningPhones:
    """Each game's page, as it opens: `count` phones join it over HTTP and listen to its event
    stream until the game ends; the host screen and the other seats are claimed directly."""

    def __init__(self, count: int):
        self.count = count
        self.joined = 0
        self.statuses: list[int] = []
        self.tasks: set[asyncio.Task] = set()
        self._open = phones_table.open_phones

    def install(self) -> None:
        phones_table.open_phones = self.open_phones  # serve imports it from the module at each game

    async def open_phones(self, server, scheduler, host, port, wait=True):
        task = asyncio.ensure_future(self._seat(server))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return await self._open(server, scheduler, host, port, wait)

    async def _seat(self, server) -> None:
        while not server.addresses:
            await asyncio.sleep(0.01)
        host, port = server.addresses[0]
        base = f"http://{host}:{port}"
        phones = [aiohttp.ClientSession(base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True),
                                        headers={"Origin": base}) for _ in range(self.count)]
        streams = []
        try:
            for phone, name in zip(phones, server.seats.free()):
                async with phone.get("/api/seats") as r:
                    salt = crypto._unb64((await r.json())["salt"])
                key, seat_id = crypto.derive(server.seats.code(name), salt)
                body = {"id": seat_id, "box": crypto.seal(key, {"from": "phone", "n": 1, "join": True},
                                            crypto.PLAIN_REQUEST)}
                async with phone.post("/api/join", json=body) as r:
                    self.statuses.append(r.status)
                    if r.status == 200:
                        self.joined += 1
                streams.append(asyncio.ensure_future(self._listen(phone)))
            for name in ([] if server.seats.has_host else [HOST]) + server.seats.free():
                server.seats.claim(name)
            server.seats_changed()
            await asyncio.gather(*streams, return_exceptions=True)
        finally:
            for phone in phones:
                await phone.close()

    @staticmethod
    async def _listen(phone) -> None:
        """The phone's event stream, read until the server closes it (the game's end)."""
        async with phone.get("/api/events", timeout=aiohttp.ClientTimeout(total=None)) as r:
            async for _ in r.content.iter_any():
                pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--phones", type=int, default=3, help="phones that join over HTTP each game (up to 5)")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="narrator-soak-"))
    os.environ["NARRATOR_HOME"] = str(home)
    table = home / "table.toml"
    table.write_text(f'game = "additional-werewolf"\nlang = "en"\nnames = {json.dumps(NAMES)}\n'
                     'digital_cards = true\nphones = true\nhost = "127.0.0.1"\nport = 0\n')
    print(f"tree {TREE}; {args.games} games in one serve, 5 seats and the host screen seated each game, "
          f"{args.phones} of them by phones joining over HTTP")
    phones = JoiningPhones(args.phones)
    phones.install()
    print(f"  start: RSS {rss_mib():5.1f} MiB, open files {open_files()}")
    rows = []

    def report(played: int) -> None:
        rows.append((played, rss_mib(), open_files()))
        print(f"  after {played:3d} games: RSS {rows[-1][1]:5.1f} MiB, open files {rows[-1][2]}", flush=True)

    seated = SeatedTable(args.games, args.every, report)
    options = ServeOptions(table=table, keyboard=False, buttons=False, listeners=[seated],
                           overrides={"voice": "text", "time_scale": "0"})
    try:
        serve(options, log=lambda message: None)
    except (NoMoreAnswers, SoakDone):
        pass
    if len(rows) > 1:
        slope = (rows[-1][1] - rows[0][1]) / (rows[-1][0] - rows[0][0]) * 100
        print(f"RSS slope from game {rows[0][0]} to {rows[-1][0]}: {slope:+.2f} MiB per 100 games; "
              f"phones joined over HTTP: {phones.joined} (join replies: {sorted(set(phones.statuses))})")
    games = saved_games(home)
    first = games[0].folder / "phones-private.json"
    lines = json.loads(first.read_text()) if first.exists() else []
    own = [g for g in games if (g.folder / "phones-private.json").exists()]
    counts = sorted(len(json.loads((g.folder / "phones-private.json").read_text())) for g in own[1:])
    usual = counts[len(counts) // 2] if counts else 0
    print(f"games played: {seated.played}; the first game's phones-private.json holds {len(lines)} private "
          f"lines (a game shows {usual}: median of the others)")
    print(f"games whose private file holds more than that: {sum(c > usual for c in counts) + (len(lines) > usual)}")


if __name__ == "__main__":
    main()
