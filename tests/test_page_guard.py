"""Issue 38, item 6: one gate and one guard for every page the narrator serves.

The settings page (between games) had turn 3's lock bug again (a wrong code slept a second
under one lock, so the right code waited behind 15 hung-up tries) and no connection limits
(1,100 idle connections at 1,024 files made it unreachable, and asyncio wrote a traceback per
failed accept). Each attack runs against the real page listening on loopback, once with the
protection monkeypatched off (it succeeds) and once with it on (it fails). The flood runs in a
child process under its own low open-file limit (`tests/page_flood.py`); every child is
bounded and reaped. `bench/page_guard.py` measures the same attacks.
"""

from __future__ import annotations

import asyncio
import resource
from types import SimpleNamespace

import aiohttp
import pytest

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.appliance.unit import make_spec, render_unit
from narrator.phones import gate, guard, settings_page, wire
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs
from tests.page_flood import idle_flood, settings_page_child
from tests.phones_harness import wait_for

HELD = 2.0
"""Real seconds a reply that must come at once is waited for (it comes in milliseconds)."""


def _page(tmp_path) -> SettingsPage:
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    host = setup_menu.PageHost(SimpleNamespace(path=path, table=load_table(path)))
    return SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")


def _old_join(hold: asyncio.Event, lock: asyncio.Lock):
    """The settings page's join before issue 38: the wrong-code delay slept under one lock for
    the whole page (the delay here is `hold`, never set: time stands still for the queue)."""
    async def join(page, request):
        body = await wire.json_body(request)
        if isinstance(body, aiohttp.web.Response):
            return body
        async with lock:
            if body.get("code") == page.table_code:
                return settings_page.carry.claim(page, body.get("key"))
            await hold.wait()
        return wire.error(403, "wrong code")
    return join


async def _hung_up_tries(port: int, count: int) -> None:
    """`count` wrong codes from one laptop, each sent whole, the connection closed at once."""
    body = b'{"code": "WRONGCODE"}'
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.9.1", 0))
        writer.write(f"POST /api/settings/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Origin: http://127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()
        writer.close()


@pytest.mark.parametrize("protected", [False, True])
def test_fifteen_hung_up_wrong_codes_do_not_hold_up_the_table_code(tmp_path, monkeypatch, protected):
    hold, lock = asyncio.Event(), asyncio.Lock()
    if not protected:
        old = _old_join(hold, lock)

        async def join(self, request):
            return await old(self, request)
        monkeypatch.setattr(SettingsPage, "_join", join)
        monkeypatch.setattr(settings_page, "HANDLER_CANCELLATION", False)
    page = _page(tmp_path)
    wrong = []
    real_wrong = gate.JoinGate.wrong
    monkeypatch.setattr(gate.JoinGate, "wrong", lambda self, address: (wrong.append(address), real_wrong(self, address)))

    async def main():
        port = await page.start("127.0.0.1", 0)
        base = f"http://127.0.0.1:{port}"
        phone = aiohttp.ClientSession(base, headers={"Origin": base},
                                      connector=aiohttp.TCPConnector(local_addr=("127.0.9.2", 0)))
        try:
            await _hung_up_tries(port, 15)
            await wait_for(lambda: _true(lock.locked() or wrong), timeout=10)  # a wrong code was checked
            joined = asyncio.ensure_future(phone.post("/api/settings/join", json={"code": page.table_code}))
            done, _ = await asyncio.wait({joined}, timeout=HELD)
            assert bool(done) == protected
            if protected:
                assert joined.result().status == 200 and page.host_digest is not None
                assert wrong == ["127.0.9.1"]  # one wrong code checked; the rest refused unchecked
            hold.set()
            await asyncio.gather(joined, return_exceptions=True)
        finally:
            hold.set()
            await phone.close()
            await page.stop()

    asyncio.run(main())


async def _true(value):
    return value


async def _get(port: int, timeout: float) -> int:
    """A phone's GET of the settings, from an address of its own; -1: no answer in `timeout`."""
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=connector) as s:
        try:
            async with s.get(f"http://127.0.0.1:{port}/api/settings",
                             timeout=aiohttp.ClientTimeout(total=timeout)) as r:
                return r.status
        except (aiohttp.ClientError, asyncio.TimeoutError):
            return -1


def _flood_then_get(port: int, count: int, sources: int, timeout: float) -> int:
    """`count` idle connections held open while a phone asks for the settings; all closed after."""
    async def run():
        held = await idle_flood(port, count, sources)
        try:
            assert len(held) == count  # the kernel takes them all; the page decides what to keep
            return await _get(port, timeout)
        finally:
            for _, writer in held:
                writer.transport.abort()
    return asyncio.run(run())


def _enough_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"this test needs {wanted} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


@pytest.mark.parametrize("protected", [False, True])
def test_eleven_hundred_idle_connections_at_1024_files_leave_the_settings_page_reachable(tmp_path, protected):
    _enough_files(4096)
    env = {} if protected else {"PAGE_FLOOD_UNGUARDED": "1"}
    with settings_page_child(1024, tmp_path, env) as (port, total, log):
        status = _flood_then_get(port, 1100, 11, timeout=5.0 if protected else 3.0)
    written = log.read_text(errors="replace")
    if protected:
        assert status == 200
        assert total == guard.caps_for(1024)[0]  # the cap comes from the limit the page has
        assert len(written.splitlines()) <= 3 and "Traceback" not in written
    else:
        assert status == -1  # unreachable
        assert written.count("Traceback") > 100


@pytest.mark.parametrize("quiet", [False, True])
def test_accept_errors_when_descriptors_run_out_are_one_line_not_a_traceback_each(tmp_path, quiet):
    _enough_files(2048)
    env = {"PAGE_FLOOD_FILL": "1", **({} if quiet else {"PAGE_FLOOD_QUIET_OFF": "1"})}
    with settings_page_child(256, tmp_path, env) as (port, _total, log):
        assert _flood_then_get(port, 40, 4, timeout=2.0) == -1  # no descriptor left: nothing is accepted
    written = log.read_text(errors="replace")
    if quiet:
        assert written.count("cannot accept connections") == 1 and "Traceback" not in written
        assert len(written.splitlines()) == 1
    else:
        assert written.count("Traceback") > 100


def test_accept_errors_pass_anything_else_on_and_a_new_burst_is_said_again(capsys):
    passed, defaults, clock = [], [], [0.0]
    handler = guard.AcceptErrors(lambda loop, context: passed.append((loop, context)), now=lambda: clock[0])
    loop = SimpleNamespace(default_exception_handler=defaults.append)
    full = {"message": "socket.accept() out of system resource", "exception": OSError(24, "Too many open files")}
    other = [{"message": "something else", "exception": ValueError()},
             {"message": "socket.accept() failed", "exception": OSError(104, "reset")},
             {"exception": OSError(24, "Too many open files")}]  # no message at all
    for context in other:
        handler(loop, context)
    assert passed == [(loop, context) for context in other]
    bare = guard.AcceptErrors(now=lambda: clock[0])  # nothing before it: asyncio's default
    bare(loop, other[0])
    assert defaults == [other[0]]
    for _ in range(50):  # one burst: one line
        handler(loop, full)
        clock[0] += guard.ACCEPT_QUIET / 10
    assert handler.failed == 50
    clock[0] = handler.last + guard.ACCEPT_QUIET  # not yet quiet long enough: the same burst
    handler(loop, full)
    clock[0] += guard.ACCEPT_QUIET + 0.5  # a new burst: said again, with the last one's count
    handler(loop, full)
    assert handler.failed == 1
    assert capsys.readouterr().err.splitlines() == [
        "phones: cannot accept connections (Too many open files); new phones wait until connections close",
        "phones: cannot accept connections (Too many open files) (51 in the last burst); new phones wait "
        "until connections close"]


def test_accept_errors_are_installed_once_per_loop_in_front_of_the_handler_there():
    loop = asyncio.new_event_loop()
    try:
        before = lambda loop, context: None  # noqa: E731
        loop.set_exception_handler(before)
        first = guard.AcceptErrors.install(loop)
        assert guard.AcceptErrors.install(loop) is first and loop.get_exception_handler() is first
        assert first.previous is before
    finally:
        loop.close()


def test_the_service_unit_sets_the_open_file_limit_the_caps_come_from():
    text = render_unit(make_spec(user="nobody"))
    assert f"LimitNOFILE={guard.WANTED_FILES}\n" in text
    assert guard.caps_for(guard.WANTED_FILES)[0] < guard.WANTED_FILES // 2
