"""Idle connections against a narrator limited to 1,024 open files (issue 12's attack 2).

Run on demand: `.venv/bin/python bench/phones_idle.py [--connections 1100] [--json]`. A child
process runs a real table (Additional Werewolf, digital cards, phone page on 127.0.0.1) with
its open-file limit set to 1,024 soft and hard (as systemd's default), so it cannot raise it.
This process opens N idle TCP connections to the page from 100 loopback addresses
(127.0.1.x), sends nothing, then checks: does the page still answer (from 127.0.0.2), does
the table's public question still take an answer and is that answer saved to `events.jsonl`,
is the game still alive. Prints one line of figures (JSON with --json).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE_LIMIT = 1024


def child() -> None:
    """The narrator under test: prints `port table-code events-path`, then plays until killed."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))
    sys.path.insert(0, str(HERE))
    import _phones_table as bench

    async def main() -> None:
        table = await bench.open_game()
        code = table.server.seats.table_code if bench.NEW_API else "-"
        print(table.base.rsplit(":", 1)[1], code, table.store.folder / "events.jsonl", flush=True)
        try:
            await table.task
            print("game over", flush=True)
        except BaseException as err:
            print(f"game died: {type(err).__name__}: {err}", flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())


async def attack(port: int, code: str, events: Path, count: int, new_api: bool) -> dict:
    base = f"http://127.0.0.1:{port}"
    conns, refused_at_connect = [], 0
    start = time.monotonic()
    for i in range(count):
        try:
            conns.append(await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.1.{i % 100 + 1}", 0)), 2))
        except (OSError, asyncio.TimeoutError):
            refused_at_connect += 1
    opened = time.monotonic() - start
    await asyncio.sleep(1.0)
    still_open = 0
    for reader, _ in conns:
        try:
            data = await asyncio.wait_for(reader.read(1), 0.001)
            still_open += data != b""
        except asyncio.TimeoutError:
            still_open += 1
        except ConnectionError:
            pass
    import aiohttp

    report = {"connections": count, "refused_at_connect": refused_at_connect, "open_after_1s": still_open,
              "open_seconds": round(opened, 2)}
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    lines_before = len(events.read_text().splitlines()) if events.exists() else 0
    try:
        async with aiohttp.ClientSession(base, connector=connector, headers={"Origin": base},
                                         cookie_jar=aiohttp.CookieJar(unsafe=True),
                                         timeout=aiohttp.ClientTimeout(total=10)) as s:
            async with s.get("/api/seats") as r:
                report["page_status"] = r.status
            join = {"code": code} if new_api else {"seat": "Aki"}
            async with s.post("/api/join", json=join) as r:
                report["join_status"] = r.status
            async with s.post("/api/answer", json={"serial": 1, "value": "done"}) as r:
                report["answer_status"] = r.status
    except Exception as err:
        report["page_status"] = f"{type(err).__name__}: {err}"[:120]
    await asyncio.sleep(1.0)
    lines_after = len(events.read_text().splitlines()) if events.exists() else 0
    report["answer_saved"] = lines_after > lines_before
    for _, writer in conns:
        writer.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true")
    args = parser.parse_args()
    if args.child:
        return child()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.connections + 200:  # this process holds the idle connections
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.connections + 500), hard))
    proc = subprocess.Popen([sys.executable, __file__, "--child"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        port, code, events = proc.stdout.readline().split()
        sys.path.insert(0, str(HERE))
        new_api = code != "-"
        report = asyncio.run(attack(int(port), code, Path(events), args.connections, new_api))
        time.sleep(0.5)
        report["game_alive"] = proc.poll() is None
        if not report["game_alive"]:
            report["child_output"] = (proc.stdout.read() + proc.stderr.read())[-300:]
    finally:
        proc.kill()
        out, err = proc.communicate()
    if "game died" in out:
        report["game_alive"] = False
        report["child_output"] = out.strip()[-300:]
    if "Too many open files" in err:
        report["emfile_in_child"] = True
    print(json.dumps(report) if args.json else "  ".join(f"{k}={v}" for k, v in report.items()))


if __name__ == "__main__":
    main()
