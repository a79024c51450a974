"""A settings page in a child process under a low open-file limit, and an idle-connection flood.

Why a child: the flood is about running out of file descriptors, which must not happen to the
test process itself; the child sets its own limit (soft and hard, so the narrator cannot raise
it) before the page starts, as systemd's `LimitNOFILE` does for the appliance. The child says
its port on stdout and serves until its stdin closes; its stderr (the journal, on a Pi) is a
file the test reads. `python -m tests.page_flood LIMIT TABLE_FILE`.

Two switches in the environment, for the tests that show an attack succeed:
`PAGE_FLOOD_UNGUARDED=1` serves the page as before issue 38 (aiohttp's own listener: no caps,
no sweep, asyncio's traceback per failed accept); `PAGE_FLOOD_QUIET_OFF=1` leaves only the
one-line accept errors out. `PAGE_FLOOD_FILL=1` uses up every free descriptor once the page
listens (something else in the narrator took them), so each `accept()` fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import select
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from tests.processes import started

REPO = Path(__file__).resolve().parents[1]
START_WAIT = 60.0
"""Seconds the child has to start listening (a loaded machine imports slowly)."""
CONNECT_WAIT = 2.0
"""Seconds one flood connection may take (a full backlog drops the handshake)."""


def child(limit: int, table_file: Path) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    from narrator.appliance import setup_menu
    from narrator.appliance.table import DEFAULT_TABLE, load_table
    from narrator.phones.settings_page import SettingsPage
    from narrator.phones.table import page_packs

    table_file.write_text(DEFAULT_TABLE, encoding="utf-8")
    app = SimpleNamespace(path=table_file, table=load_table(table_file))
    host = setup_menu.PageHost(app)
    page = SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")
    from narrator.phones import guard

    if os.environ.get("PAGE_FLOOD_UNGUARDED"):  # aiohttp's defaults, as the page had them
        from narrator.phones import settings_page

        guard.listen, guard.REQUEST_TIMEOUT, settings_page.HANDLER_CANCELLATION = unguarded_listen, 75.0, False
    if os.environ.get("PAGE_FLOOD_QUIET_OFF"):
        guard.AcceptErrors.install = classmethod(lambda cls, loop: None)

    async def main() -> None:
        port = await page.start("127.0.0.1", 0)
        loop = asyncio.get_running_loop()
        closed = loop.run_in_executor(None, sys.stdin.read)  # until the test closes our stdin
        held = []
        while os.environ.get("PAGE_FLOOD_FILL"):
            try:
                held.append(open(os.devnull, "rb"))
            except OSError:
                break
        print(port, getattr(getattr(page, "guard", None), "total", 0), flush=True)  # 0: no guard
        await closed
        for file in held:
            file.close()
        await page.stop()

    asyncio.run(main())


async def unguarded_listen(runner, guard_, host_, port_):
    """`guard.listen` as the settings page listened before issue 38 (aiohttp's `TCPSite`: its
    backlog, no caps, no sweep, asyncio's own accept errors)."""
    loop = asyncio.get_running_loop()
    listener = await loop.create_server(runner.server, host_, port_, backlog=128, reuse_address=True)
    return listener, asyncio.ensure_future(asyncio.sleep(0))


@contextlib.contextmanager
def settings_page_child(limit: int, folder: Path, env: dict[str, str] | None = None):
    """Start the child; yields (port, its guard's connection cap, stderr path). Bounded: killed and reaped on the way out."""
    log = folder / "stderr.txt"
    with open(log, "wb") as err:
        proc = started([sys.executable, "-m", "tests.page_flood", str(limit), str(folder / "table.toml")],
                                cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})})
    try:
        ready, _, _ = select.select([proc.stdout], [], [], START_WAIT)
        line = proc.stdout.readline() if ready else b""  # its port, once it listens (or it died)
        if not line.strip():
            raise RuntimeError(f"the settings page did not start: {log.read_text(errors='replace')[-2000:]}")
        port, total = line.split()
        yield int(port), int(total), log
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


async def idle_flood(port: int, count: int, sources: int) -> list:
    """`count` connections that never send a byte, from `sources` loopback addresses."""
    held = []
    for n in range(count):
        try:
            held.append(await asyncio.wait_for(asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.8.{1 + n % sources}", 0)), CONNECT_WAIT))
        except (OSError, asyncio.TimeoutError):
            pass
    return held


if __name__ == "__main__":
    child(int(sys.argv[1]), Path(sys.argv[2]))
