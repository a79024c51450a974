"""Issue 38, item 6: the settings page's jam and idle-connection flood, before and after, timed.

Run on demand: `.venv/bin/python bench/page_guard.py [--hold 0] [--runs 3] [--floods 1100,2200]`. Everything runs against a
real settings page on loopback; "before" is the page as it was (its join slept a second per
wrong code under one lock, aiohttp's default of letting a gone sender's handler run on, and
aiohttp's own listener with no caps), switched in by the same monkeypatches the tests use, so
before and after come from one run of one checkout.
- jam: 15 wrong codes from one laptop address, each sent whole and hung up at once, then the
  table code from a phone's address: seconds until the phone's answer (cut at JAM_CUT s);
- flood: a page in a child process at 1,024 open files (soft and hard, as systemd's default),
  N idle connections from 11 addresses held for `--hold` seconds while a phone asks for the
  settings (5 s timeout): is it answered, and how many tracebacks and log lines the child wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.phones import carry, guard, settings_page, wire
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs
from tests.page_flood import idle_flood, settings_page_child, unguarded_listen

JAM_CUT = 40.0
FLOODS = "1100,2200"
"""Idle connections per flood (`--floods`); a run with 4400 takes minutes more."""


def _page(folder: Path) -> SettingsPage:
    path = folder / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    host = setup_menu.PageHost(SimpleNamespace(path=path, table=load_table(path)))
    return SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")


async def _old_join(page: SettingsPage, request) -> object:
    """The settings page's join before issue 38 (a second slept under one lock per wrong code)."""
    body = await wire.json_body(request)
    if not isinstance(body, dict):
        return body
    async with page.old_lock:
        if body.get("code") == page.table_code:
            return carry.claim(page, body.get("key"))
        await asyncio.sleep(1.0)
    return wire.error(403, "wrong code")


async def jam(folder: Path) -> tuple[float, int]:
    page = _page(folder)
    page.old_lock = asyncio.Lock()
    port = await page.start("127.0.0.1", 0)
    base = f"http://127.0.0.1:{port}"
    body = b'{"code": "WRONGCODE"}'
    try:
        for _ in range(15):
            _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.9.1", 0))
            writer.write(f"POST /api/settings/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {base}\r\n"
                         f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
            await writer.drain()
            writer.close()
        await asyncio.sleep(0.05)  # the tries arrive as the code is announced
        start = time.perf_counter()
        async with aiohttp.ClientSession(base, headers={"Origin": base},
                                         connector=aiohttp.TCPConnector(local_addr=("127.0.9.2", 0))) as phone:
            try:
                async with phone.post("/api/settings/join", json={"code": page.table_code},
                                      timeout=aiohttp.ClientTimeout(total=JAM_CUT)) as r:
                    status = r.status
            except asyncio.TimeoutError:
                status = -1
        return time.perf_counter() - start, status
    finally:
        await page.stop()


def flood(count: int, hold: float, before: bool) -> tuple[str, int, int]:
    env = {"PAGE_FLOOD_UNGUARDED": "1"} if before else {}
    with tempfile.TemporaryDirectory() as folder:
        with settings_page_child(1024, Path(folder), env) as (port, _total, log):
            async def run() -> int:
                held = await idle_flood(port, count, 11)
                try:
                    await asyncio.sleep(hold)
                    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))) as s:
                        try:
                            async with s.get(f"http://127.0.0.1:{port}/api/settings",
                                             timeout=aiohttp.ClientTimeout(total=5)) as r:
                                return r.status
                        except (aiohttp.ClientError, asyncio.TimeoutError):
                            return -1
                finally:
                    for _, writer in held:
                        writer.transport.abort()
            status = asyncio.run(run())
        written = log.read_text(errors="replace")
    return ("answered" if status == 200 else f"unreachable ({status})"), written.count("Traceback"), len(written.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hold", type=float, default=0.0, help="seconds the flood is held before the phone asks")
    parser.add_argument("--runs", type=int, default=3, help="jams timed each way (the median is shown)")
    parser.add_argument("--floods", default=FLOODS, help="idle connections per flood, comma-separated")
    args = parser.parse_args()
    hold = args.hold
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000) if hard != resource.RLIM_INFINITY else 20000, hard))
    print("| settings page | before | after |\n|---|---|---|")
    results = {}
    for before in (True, False):
        real = (SettingsPage._join, settings_page.HANDLER_CANCELLATION, guard.listen, guard.REQUEST_TIMEOUT)
        if before:  # aiohttp's defaults (keep-alive 75 s), as the page had them
            SettingsPage._join, settings_page.HANDLER_CANCELLATION, guard.listen, guard.REQUEST_TIMEOUT = (
                _old_join, False, unguarded_listen, 75.0)
        try:
            runs = []
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory() as folder:
                    runs.append(asyncio.run(jam(Path(folder))))
            results[before] = (statistics.median(r[0] for r in runs), sorted({r[1] for r in runs}))
        finally:
            SettingsPage._join, settings_page.HANDLER_CANCELLATION, guard.listen, guard.REQUEST_TIMEOUT = real
    (b, bs), (a, as_) = results[True], results[False]
    print(f"| table code behind 15 hung-up wrong codes (median of {args.runs}) | {b:.2f} s (status {bs}) "
          f"| {a:.3f} s (status {as_}) |")
    for count in (int(n) for n in args.floods.split(",")):
        before, after = flood(count, hold, True), flood(count, hold, False)
        print(f"| {count} idle connections at 1,024 files, held {hold:g} s | {before[0]}, {before[1]} tracebacks, "
              f"{before[2]} log lines | {after[0]}, {after[1]} tracebacks, {after[2]} log lines |")


if __name__ == "__main__":
    main()
