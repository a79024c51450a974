"""The phone page cannot take the game down: connection caps, timeouts, the open-file limit.

Each limit is tested from both sides: with it off (monkeypatched inside the test) the idle
connections stay open; with it on they are closed, while the page still answers a phone
from another address and the game goes on. The whole-process version (1,100 connections
against a narrator limited to 1,024 open files) is `bench/phones_idle.py`, and
`test_a_narrator_limited_to_1024_files_survives_1100_idle_connections` below.
"""

import asyncio
import os
import resource
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from narrator.phones import guard
from tests.phones_harness import NAMES5, open_table, wait_for

pytestmark = pytest.mark.slow  # narrator processes under file limits, 1100 real connections

ROOT = Path(__file__).resolve().parent.parent


async def _true(value):
    return value


async def _idle(port: int, count: int, source: str = "127.0.0.1") -> list:
    conns = []
    for _ in range(count):
        conns.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)))
    return conns


async def _closed_by_server(conn, wait: float) -> bool:
    reader, _ = conn
    try:
        return await asyncio.wait_for(reader.read(1), wait) == b""
    except asyncio.TimeoutError:
        return False
    except ConnectionError:
        return True


async def _page_answers(base: str, source: str = "127.0.0.2") -> int:
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as s:
        async with s.get(base + "/api/seats", headers={"Host": base.removeprefix("http://")}) as r:
            return r.status


@pytest.mark.parametrize("protected", [False, True])
def test_connections_over_the_caps_are_refused_and_the_page_still_answers(protected):
    async def main():
        table = await open_table(NAMES5, seed=5)
        g = table.server.guard
        g.total, g.per_address = (12, 6) if protected else (10_000, 10_000)
        port = table.server.addresses[0][1]
        seen = lambda: len(g.conns) + g.refused + g.evicted  # noqa: E731  (each connection counts once)
        before = seen()
        conns = await _idle(port, 20)
        try:
            await wait_for(lambda: _true(seen() - before >= 20), timeout=30)  # the server has taken all 20
            closed = [await _closed_by_server(c, 0.3) for c in conns]
            assert (sum(closed) == 14) == protected and (sum(closed) == 0) == (not protected), closed
            assert await _page_answers(table.base) == 200  # another address still gets the page
            assert not table.task.done()
        finally:
            for _, writer in conns:
                writer.close()
            await table.close()

    asyncio.run(main())


@pytest.mark.parametrize("protected", [False, True])
def test_a_request_that_never_finishes_is_closed(protected):
    async def main():
        table = await open_table(NAMES5, seed=5)
        table.server.guard.request_timeout = 0.5 if protected else 10_000
        port = table.server.addresses[0][1]
        silent, slow = await _idle(port, 2)
        slow[1].write(b"GET /api/seats HTTP/1.1\r\nHost: x")  # half a request, never finished
        try:
            results = [await _closed_by_server(c, 3.0) for c in (silent, slow)]
            assert results == [protected, protected]
        finally:
            for _, writer in (silent, slow):
                writer.close()
            await table.close()

    asyncio.run(main())


def test_the_soft_open_file_limit_is_raised_where_the_hard_one_allows(tmp_path):
    code = ("import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (256, 2048));"
            "from narrator.phones import guard; print(guard.raise_file_limit(), guard.caps_for(256))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True, timeout=60).stdout
    assert out.split()[0] == "2048"
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    total, per_address = guard.caps_for(1024)
    assert total <= 1024 // 4 and per_address < total


def test_a_narrator_limited_to_1024_files_survives_1100_idle_connections(tmp_path):
    """The issue's attack on a real process: the game still saves events and the page answers."""
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "phones_idle.py"), "--connections", "1100",
                             "--json"], capture_output=True, text=True, cwd=ROOT, timeout=240,
                            env={**os.environ, "NARRATOR_HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    import json

    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["game_alive"] and report["page_status"] == 200 and report["answer_saved"], report
