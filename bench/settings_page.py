"""How long one change on the host screen's settings page takes, from the POST to its answer.

Each change reads the table file under its lock, applies it with tomlkit, checks the whole
table as `narrator play` would (every preset too) and writes it atomically: that is the cost
a phone waits for. Measured against a plain GET of the view (`/api/settings`) in the same run,
with 0 and with 10 saved presets (each preset is checked as a table of its own on every save).

    .venv/bin/python bench/settings_page.py [--runs 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from aiohttp.test_utils import TestServer

from narrator.appliance import presets, setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table, update_table
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs


async def measure(folder: Path, saved: int, runs: int) -> tuple[float, float]:
    path = folder / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    app = SimpleNamespace(path=path, table=load_table(path))
    for i in range(saved):
        app.table = presets.save(path, app.table, f"preset {i}", update_table)
    host = setup_menu.PageHost(app)
    page = SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")
    server = TestServer(page.app(), host="127.0.0.1")
    await server.start_server()
    base = f"http://127.0.0.1:{server.port}"
    gets, posts = [], []
    async with aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base}) as phone:
        await phone.post("/api/settings/join", json={"code": page.table_code})
        for i in range(runs):
            start = time.perf_counter()
            async with phone.get("/api/settings") as r:
                await r.read()
            gets.append(time.perf_counter() - start)
            start = time.perf_counter()
            async with phone.post("/api/settings/change", json={"changes": {"discussion": 100 + i % 50}}) as r:
                assert r.status == 200, await r.text()
            posts.append(time.perf_counter() - start)
    await server.close()
    return statistics.median(gets), statistics.median(posts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    for saved in (0, 10):
        with tempfile.TemporaryDirectory() as folder:
            view, change = asyncio.run(measure(Path(folder), saved, runs))
        print(f"{saved:2d} presets: view {view * 1000:.1f} ms, change (checked, saved) {change * 1000:.1f} ms "
              f"= {change / view:.1f}x the view (median of {runs})")


if __name__ == "__main__":
    main()
