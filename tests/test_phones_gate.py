"""The join gate and the connection guard's rules, on stand-in transports and a manual clock.

Fast unit tests beside the real-HTTP attacks in test_phones_jam.py: each rule is pinned at
its edge (the second a shut-out ends, the cap reached, the seat's room full), so a changed
comparison or count shows.
"""

from __future__ import annotations

import io

from narrator.phones import gate as gate_module
from narrator.phones import guard as guard_module
from narrator.phones.gate import JoinGate
from narrator.phones.guard import ConnectionGuard
from narrator.phones.table import print_table_code
from narrator.table.clock import ManualClock


def test_a_wrong_code_shuts_out_its_own_address_for_the_delay_only():
    clock = ManualClock(100.0)
    gate = JoinGate(delay=1.0, now=clock.now)
    assert gate.wait_left("a") == 0
    gate.wrong("a")
    assert gate.wait_left("a") == 1.0 and gate.wait_left("b") == 0
    clock._now = 100.999
    assert 0 < gate.wait_left("a") < 0.01
    clock._now = 101.0
    assert gate.wait_left("a") == 0
    gate.wrong("a")
    assert gate.shut_until == {"a": 102.0}


def test_bodies_being_read_are_capped_per_address_and_in_all():
    gate = JoinGate(reading_per_address=2, reading_total=3)
    assert gate.begin("a") and gate.begin("a")
    assert not gate.begin("a")  # a third from one address
    assert gate.begin("b")
    assert not gate.begin("c")  # three in all
    gate.end("a")
    assert gate.reading == {"a": 1, "b": 1}
    assert gate.begin("c") and not gate.begin("d")
    gate.end("a"), gate.end("b"), gate.end("c")
    assert gate.reading == {}
    gate.end("z")  # an end without a begin leaves nothing behind
    assert gate.reading == {}


def test_the_gate_remembers_a_bounded_number_of_addresses(monkeypatch):
    monkeypatch.setattr(gate_module, "KEPT_ADDRESSES", 3)
    clock = ManualClock(0.0)
    gate = JoinGate(delay=1.0, now=clock.now)
    gate.wrong("a")  # shut until 1.0
    clock._now = 0.5
    gate.wrong("z")  # until 1.5
    clock._now = 0.6
    gate.wrong("b")  # until 1.6
    clock._now = 1.0  # a's shut-out ends now: it is dropped first
    gate.wrong("d")
    assert set(gate.shut_until) == {"z", "b", "d"}
    gate.wrong("e")  # all live: the one shut out earliest goes (z, not the first by name)
    assert set(gate.shut_until) == {"b", "d", "e"}


def test_every_shut_out_that_ends_now_is_forgotten_at_once(monkeypatch):
    monkeypatch.setattr(gate_module, "KEPT_ADDRESSES", 3)
    clock = ManualClock(0.0)
    gate = JoinGate(delay=1.0, now=clock.now)
    gate.wrong("a"), gate.wrong("z")  # both until 1.0
    clock._now = 0.6
    gate.wrong("b")
    clock._now = 1.0
    gate.wrong("d")
    assert set(gate.shut_until) == {"b", "d"}


class _Transport:
    def __init__(self, address: str):
        self.address, self.aborted = address, False

    def get_extra_info(self, name):
        return (self.address, 5000) if name == "peername" else None

    def abort(self):
        self.aborted = True


def _guard(total=4, per_address=2):
    clock = ManualClock(0.0)
    return ConnectionGuard(total, per_address, request_timeout=10.0, now=clock.now), clock


def test_at_the_cap_a_stranger_makes_room_idle_first_then_busy_oldest_first_never_a_seated_one():
    g, clock = _guard(total=4, per_address=4)
    seated, idle_old, busy_old, busy_new = (_Transport(f"10.0.0.{i}") for i in range(4))
    for t in (seated, idle_old, busy_old, busy_new):
        assert g.admit(t)
        clock._now += 1
    g.seated(seated, "Aki")
    g.started(busy_old)
    clock._now += 1
    g.started(busy_new)
    first = _Transport("10.0.0.9")
    assert g.admit(first) and idle_old.aborted and not busy_old.aborted  # the idle one goes first
    g.seated(first, "Ben")
    second = _Transport("10.0.0.9")
    assert g.admit(second) and busy_old.aborted and not busy_new.aborted  # then the oldest busy one
    g.seated(second, "Chika"), g.seated(busy_new, "Dai")
    assert not g.admit(_Transport("10.0.0.10"))  # every connection is seated: refused
    assert g.refused == 1 and g.evicted == 2 and not seated.aborted
    assert not g.admit(_Transport("10.0.0.11")) and g.refused == 2


def test_at_the_cap_a_newcomer_pushes_out_its_own_address_first():
    g, clock = _guard(total=3, per_address=3)
    other_old, mine, other_new = _Transport("b"), _Transport("a"), _Transport("c")
    for t in (other_old, mine, other_new):
        assert g.admit(t)
        clock._now += 1
    g.started(mine)  # even busy and younger, its own goes before an idle older stranger
    assert g.admit(_Transport("a")) and mine.aborted and not other_old.aborted
    assert g.admit(_Transport("d")) and other_old.aborted  # a new address: the oldest stranger


def test_the_per_address_cap_counts_strangers_only():
    g, _ = _guard(total=10, per_address=2)
    a1, a2 = _Transport("a"), _Transport("a")
    assert g.admit(a1) and g.admit(a2)
    assert not g.admit(_Transport("a"))
    assert not g.admit(_Transport("a")) and g.refused == 2
    g.seated(a1, "Aki")
    assert g.admit(_Transport("a"))  # a seated phone's connection leaves room for another


def test_a_seat_keeps_room_for_so_many_connections_only(monkeypatch):
    monkeypatch.setattr(guard_module, "SEAT_ROOM", 2)
    g, _ = _guard(total=10, per_address=10)
    conns = [_Transport("a") for _ in range(3)]
    for t in conns:
        g.admit(t)
        g.seated(t, "Aki")
    assert [g.conns[t].seat for t in conns] == ["Aki", "Aki", None]
    g.seated(conns[0], "Ben")  # a connection keeps the first seat it carried
    assert g.conns[conns[0]].seat == "Aki"
    g.seated(_Transport("gone"), "Aki")  # a connection already closed: nothing to mark
    assert len(g.conns) == 3


def test_a_request_that_never_finishes_is_swept_like_an_idle_connection():
    g, clock = _guard(total=10, per_address=10)
    idle, busy, stream = _Transport("a"), _Transport("b"), _Transport("c")
    for t in (idle, busy, stream):
        g.admit(t)
    g.started(busy)
    g.streaming(stream)
    clock._now = 10.0
    assert g.sweep() == 0  # not past its time yet
    clock._now = 10.5
    assert g.sweep() == 2 and idle.aborted and busy.aborted and not stream.aborted
    assert list(g.conns) == [stream]


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


def test_the_table_code_is_printed_on_a_terminal_and_never_in_a_log():
    log, terminal = _Stream(False), _Stream(True)
    print_table_code("48213377", "http://192.168.1.20:8080/", log)
    print_table_code("48213377", "http://192.168.1.20:8080/", terminal)
    assert "48213377" not in log.getvalue() and "announced" in log.getvalue()
    assert "http://192.168.1.20:8080/" in log.getvalue()
    assert "phones: table code 48213377" in terminal.getvalue()


def test_a_body_read_after_its_connection_closed_is_one_line_not_a_traceback():
    """aiohttp raises RuntimeError("Connection closed.") when a handler starts reading a body
    whose connection is gone (issue 24 saw 13 tracebacks of 25 lines in one flood)."""
    import asyncio
    from unittest import mock

    from aiohttp.streams import StreamReader
    from aiohttp.test_utils import make_mocked_request

    from narrator.phones import wire

    async def main():
        protocol = mock.Mock(connected=False)
        payload = StreamReader(protocol, 2**16, loop=asyncio.get_running_loop())
        request = make_mocked_request("POST", "/api/join", headers={"Content-Type": "application/json"},
                                      payload=payload)
        reply = await wire.json_body(request)
        assert reply.status == 400 and b"could not be read" in reply.body

    asyncio.run(main())


def test_a_finished_request_leaves_its_connection_idle_and_first_to_go():
    g, clock = _guard(total=2, per_address=2)
    old, new = _Transport("a"), _Transport("b")
    g.admit(old), g.admit(new)
    g.started(old), g.started(new)
    clock._now = 5.0
    g.finished(new)
    assert (g.conns[new].busy, g.conns[new].since) == (False, 5.0) and g.conns[old].busy
    g.finished(_Transport("gone"))  # a connection already closed: nothing happens
    assert g.admit(_Transport("c")) and new.aborted and not old.aborted  # idle goes before busy


def test_a_peer_without_an_address_pair_is_counted_by_its_name():
    class _Unix(_Transport):
        def get_extra_info(self, name):
            return "/run/narrator.sock" if name == "peername" else None

    g, _ = _guard(total=10, per_address=1)
    first = _Unix("x")
    assert g.admit(first) and g.conns[first].address == "/run/narrator.sock"
    assert not g.admit(_Unix("x"))  # the same name: over the per-address cap


def test_the_guarded_protocol_passes_everything_on_once_admitted_and_nothing_when_refused():
    class _Inner:
        def __init__(self):
            self.calls, self.args = [], []

        def __getattr__(self, name):
            return lambda *args: self.calls.append(name) or self.args.append(args) or f"{name} done"

    g, _ = _guard(total=1, per_address=1)
    inner = _Inner()
    admitted = g.factory(lambda: inner)()
    seat = _Transport("a")
    admitted.connection_made(seat)
    g.seated(seat, "Aki")  # the room is a seated phone's: a newcomer is refused
    assert admitted.data_received(b"x") is None and admitted.eof_received() == "eof_received done"
    admitted.pause_writing(), admitted.resume_writing()
    refused_inner = _Inner()
    refused = g.factory(lambda: refused_inner)()
    t = _Transport("b")
    refused.connection_made(t)
    assert t.aborted and refused.eof_received() is None
    refused.data_received(b"y"), refused.connection_lost(None)
    assert refused_inner.calls == []
    lost = ConnectionResetError("gone")
    admitted.connection_lost(lost)
    assert inner.calls == ["connection_made", "data_received", "eof_received", "pause_writing",
                           "resume_writing", "connection_lost"] and g.conns == {}
    assert inner.args[1] == (b"x",) and inner.args[-1] == (lost,)


def test_strangers_alike_in_every_way_but_their_transport_make_room_without_an_error():
    g, _ = _guard(total=2, per_address=5)  # the clock stands still: the same since for all
    first, second = _Transport("a"), _Transport("a")
    g.admit(first), g.admit(second)
    assert g.admit(_Transport("a")) and first.aborted and not second.aborted  # the first of equals


def test_a_sweep_that_fails_says_why_in_one_line_and_the_sweeping_goes_on(monkeypatch, capsys):
    import asyncio

    monkeypatch.setattr(guard_module, "SWEEP_EVERY", 0)
    g, _ = _guard()
    calls = []

    def failing():
        calls.append(1)
        if len(calls) == 3:
            raise asyncio.CancelledError  # the test's end: the third sweep stops the loop
        raise OSError("no such transport")

    g.sweep = failing

    async def main():
        try:
            await asyncio.wait_for(g.sweep_forever(), 10)
        except asyncio.CancelledError:
            pass

    asyncio.run(main())
    assert len(calls) == 3
    assert capsys.readouterr().err.splitlines() == ["phones: connection sweep failed: no such transport"] * 2


def test_the_soft_file_limit_is_raised_toward_the_wanted_one_never_past_the_hard_one(monkeypatch):
    """In process, on a stand-in `resource` (the real limits are tried in a child process by
    test_phones_limits.py): every branch of `raise_file_limit`."""
    infinity = guard_module.resource.RLIM_INFINITY
    calls = []

    def limits(soft, hard, fails=False):
        monkeypatch.setattr(guard_module.resource, "getrlimit", lambda which: (soft, hard))

        def setrlimit(which, pair):
            calls.append((which, pair))
            if fails:
                raise ValueError("not permitted")
        monkeypatch.setattr(guard_module.resource, "setrlimit", setrlimit)

    nofile = guard_module.resource.RLIMIT_NOFILE
    limits(1024, 2048)
    assert guard_module.raise_file_limit(4096) == 2048 and calls == [(nofile, (2048, 2048))]
    calls.clear(), limits(1024, infinity)
    assert guard_module.raise_file_limit(4096) == 4096 and calls == [(nofile, (4096, infinity))]
    calls.clear(), limits(4096, 8192)
    assert guard_module.raise_file_limit(4096) == 4096 and calls == []  # already there
    calls.clear(), limits(infinity, infinity)
    assert guard_module.raise_file_limit(4096) == infinity and calls == []
    calls.clear(), limits(1024, 2048, fails=True)
    assert guard_module.raise_file_limit(4096) == 1024 and len(calls) == 1  # refused: the old limit


def test_the_caps_are_a_quarter_of_the_file_limit_within_their_bounds():
    caps = guard_module.caps_for
    assert [caps(n) for n in (16, 32, 36, 80, 100, 512, 1024, 1028, 10**6)] == [
        (8, 4), (8, 4), (9, 4), (20, 5), (25, 6), (128, 32), (256, 32), (256, 32), (256, 32)]
