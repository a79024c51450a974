"""server.py against its mutants, in-process (no socket): a failing call from the game is one
line on stderr and the game goes on; the names the page answers to; the timer and the call
count a phone sees; what `stop` gives back to the hub; the Origin check."""

import asyncio
from types import SimpleNamespace

import pytest

from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.phones import event_stream, network, page_view, server as server_module
from narrator.phones.seats import HOST, Seats
from narrator.phones.server import PhoneServer
from narrator.phones.table import page_packs
from narrator.settings import build_settings

NAMES = "Aki,Ben,Chika,Dai,Emi"


def make(hub=None):
    settings = build_settings({}, {"game": "additional-werewolf", "seed": 1, "phones": True,
                                   "names": NAMES, "digital_cards": "true"}, "test")
    rules = get_game(settings.game)
    config = rules.configure(settings)
    hub = hub or ListenerHub()
    return PhoneServer(rules, config, hub, Seats(tuple(NAMES.split(","))), "narrator_t", "en", page_packs()), hub


def test_a_failing_call_from_the_game_is_one_line_on_stderr_and_returns_nothing(capsys):
    server, _ = make()

    def broken(state):
        raise ValueError("no such seat")

    wrapped = server_module.safe(lambda self, state: broken(state))
    assert wrapped(server, 1) is None
    err = capsys.readouterr().err
    assert err == "phones: <lambda> failed (ValueError: no such seat); the game goes on\n"

    @server_module.safe
    def set_it(self, value):
        return value * 2

    assert set_it(server, 21) == 42 and set_it.__name__ == "set_it"


@pytest.mark.parametrize("bound, lan, mdns, names", [
    ("0.0.0.0", "192.168.4.1", "narrator.local", {"0.0.0.0", "192.168.4.1", "127.0.0.1", "localhost", "narrator.local"}),
    ("", None, None, {"", "127.0.0.1", "localhost"}),
    ("::", "fe80::1", None, {"[::]", "[fe80::1]", "127.0.0.1", "localhost"}),
    ("127.0.0.1", "192.168.4.1", "narrator.local", {"127.0.0.1", "localhost"}),
    ("::1", "192.168.4.1", "narrator.local", {"[::1]", "localhost"}),
    ("localhost", "192.168.4.1", "narrator.local", {"localhost"}),
    ("10.42.0.1", "192.168.4.1", "narrator.local", {"10.42.0.1", "narrator.local"}),
    ("Narrator.LAN", None, "narrator.local", {"narrator.lan", "narrator.local"}),
])
def test_the_page_answers_to_the_names_a_phone_may_use_for_its_address(monkeypatch, bound, lan, mdns, names):
    monkeypatch.setattr(network, "lan_ip", lambda: lan)
    monkeypatch.setattr(network, "mdns_name", lambda: mdns)
    assert network.own_names(bound) == names


def test_the_timer_a_phone_sees_counts_down_by_the_games_clock_and_stops_at_zero():
    server, _ = make()
    clock = SimpleNamespace(t=50.0)
    server.clock = SimpleNamespace(now=lambda: clock.t)
    assert server.view("Aki")["timer"] is None
    server.timer = (50.0, 30.0)
    clock.t = 60.4
    assert server.view("Aki")["timer"] == 20  # 19.6 rounded
    clock.t = 79.6
    assert server.view("Aki")["timer"] == 0
    clock.t = 200.0
    assert server.view("Aki")["timer"] == 0  # never below zero


def test_a_host_screens_view_names_the_running_timer_and_a_players_names_none():
    server, _ = make()
    server.clock = SimpleNamespace(now=lambda: 0.0)
    assert server.view(None, True)["host"]["timer_serial"] is None
    server.timer, server.timer_serial = (0.0, 10.0), 3
    assert server.view(None, True)["host"]["timer_serial"] == 3
    assert server.view("Aki")["host"] is None


def test_the_call_counts_each_private_round_once_however_often_it_changes():
    server, _ = make()
    hub = server.hub = SimpleNamespace(open_ask=None, open_collect=None)  # what is open now
    assert server.call == 0
    hub.open_collect = (4, SimpleNamespace())
    server._changed()
    server._changed()
    assert server.call == 1
    hub.open_collect = (5, SimpleNamespace())
    server._changed()
    assert server.call == 2
    hub.open_collect = None
    hub.open_ask = (5, SimpleNamespace(player="Aki"))  # a private question: a call of its own
    server._changed()
    assert server.call == 3
    hub.open_ask = (6, SimpleNamespace(player=None))  # a public question calls nobody
    server._changed()
    assert server.call == 3


def test_every_open_page_is_told_of_a_change_once_until_it_reads_it():
    server, _ = make()
    queue = asyncio.Queue()
    server.live.queues.add(queue)
    server._changed()
    server._changed()
    assert queue.qsize() == 1 and queue.get_nowait() == "changed"


def test_stop_gives_the_hub_back_what_the_server_took():
    hub = ListenerHub()
    before = hub.rounds_during_timers
    server, _ = make(hub)
    assert hub.rounds_during_timers is True and hub.table_claim == server._table_confirms
    asyncio.run(server.stop())
    assert hub.rounds_during_timers == before and hub.table_claim is None


def test_the_phones_are_a_listener_so_a_table_without_a_keyboard_still_waits_for_them():
    """A hub with no other listener (the appliance's, no keyboard): the phones are the one that
    can still answer, under its own name; with none, a pause would end the game as a listener
    run dry (`table/commands.py`) and the appliance would not wait for the phones."""
    from narrator.phones import answers

    hub = ListenerHub()
    assert hub.sources == frozenset()
    make(hub)
    assert hub.sources == {answers.SOURCE} and answers.SOURCE == "phone"


def test_a_post_must_carry_the_pages_own_origin_in_any_case():
    from narrator.phones import provenance

    def request(origin, host="10.42.0.1:8080", method="POST"):
        return SimpleNamespace(headers={"Origin": origin} if origin is not None else {}, host=host, method=method)

    assert provenance.same_origin(request("http://10.42.0.1:8080"))
    assert provenance.same_origin(request("HTTP://Narrator.Local:8080", "narrator.local:8080"))
    assert not provenance.same_origin(request("https://10.42.0.1:8080"))
    assert not provenance.same_origin(request("http://evil.example"))
    assert not provenance.same_origin(request(None))
    allowed = {"10.42.0.1:8080"}
    assert provenance.refusal(request("http://10.42.0.1:8080"), allowed) is None
    assert provenance.refusal(request("http://evil.example"), allowed).status == 403
    assert provenance.refusal(request("http://evil.example"), allowed, check_origin=False) is None
    assert provenance.refusal(request(None, method="GET"), allowed) is None  # a GET carries none
    assert provenance.refusal(request("http://evil.example:8080", "evil.example:8080"), allowed).status == 421
    assert provenance.refusal(request("http://EVIL.example:8080", "EVIL.example:8080"), None) is None  # no port yet
    assert provenance.refusal(request("http://10.42.0.1:8080", "10.42.0.1:8080", "GET"), {"x"}).status == 421


def test_releasing_the_host_at_the_terminal_makes_a_new_code_said_aloud_and_drops_a_waiting_phone():
    server, _ = make()
    server.seats.claim(HOST, "host-token")
    old = server.seats.table_code
    server.pending_host = object()
    reply = server.release("HOST")
    new = server.seats.table_code
    assert new != old and not server.seats.has_host and server.pending_host is None
    assert server.said[-1] == ("phones.host_released", {"code": " ".join(new)})
    assert new in reply
    assert "Ben" in server.release("ben") and server.seats.code("Ben") is not None
    unknown = server.release("Zed")
    assert "Zed" in unknown and "Aki, Ben, Chika, Dai, Emi" in unknown


class Pack:
    """A language pack that knows some lines and says each with its parameters."""

    def __init__(self, lang, lines):
        self.lang, self.lines = lang, set(lines)

    def has(self, line):
        return line in self.lines

    def speak(self, line, params):
        return SimpleNamespace(text=f"{self.lang}:{line}:{sorted(params.items())}")


def stub_view(monkeypatch, private=None, ask=None):
    """views.build_view (tested on its own in test_phones_views) as a stub that records what
    it is given; what server.view adds around it is what these tests check."""
    calls = []

    def build(game, config, shown, state, name, open_ask, ask_text):
        calls.append((game, config, shown, state, name, open_ask, ask_text))
        return {"private": {k: list(v) if isinstance(v, list) else v for k, v in (private or {}).items()},
                "ask": dict(ask) if ask else None}

    monkeypatch.setattr(page_view, "build_view", build)
    return calls


def test_a_view_is_built_from_what_the_phones_show_and_the_state_for_that_seat(monkeypatch):
    server, hub = make()
    calls = stub_view(monkeypatch)
    server.shown, server.state, server.calls.count = "shown", "state", 7
    view = server.view("Aki")
    assert calls == [(server.game, server.config, "shown", "state", "Aki", hub.open_ask, server._ask_text)]
    assert view["call"] == 7 and view["waiting"] is None and view["host"] is None
    assert view["messages"] == [] and view["request"] is None


def test_a_players_view_says_its_private_lines_once_each_in_every_language(monkeypatch):
    server, _ = make()
    server.packs = {"en": Pack("en", {"card.role", "night.memo"}), "ja": Pack("ja", {"card.role"})}
    stub_view(monkeypatch, private={"lines": [("card.role", {"role": "seer"})]})
    server.private_lines.add("Aki", "card.role", {"en": "You are the seer"}, (0, 0))
    server.private_lines.add("Aki", "night.memo", {"en": "Ben is a citizen"}, (1, 0))
    server.private_lines.add("Ben", "night.memo", {"en": "for Ben only"}, (1, 0))
    view = server.view("Aki")
    assert view["private"]["lines"] == [{"en": "en:card.role:[('role', 'seer')]", "ja": "ja:card.role:[('role', 'seer')]"}]
    assert view["messages"] == [{"en": "Ben is a citizen"}]  # the card line is in the cards box already
    stub_view(monkeypatch, private={})  # no cards shown: every private line is a message
    assert server.view("Aki")["messages"] == [{"en": "You are the seer"}, {"en": "Ben is a citizen"}]
    assert server.view(None, True)["messages"] == []


def test_a_players_view_carries_what_the_open_round_asks_of_them(monkeypatch):
    server, _ = make()
    stub_view(monkeypatch)
    asked = []
    monkeypatch.setattr(page_view, "request_view",
                        lambda collect, name, text: asked.append((collect, name, text)) or {"for": name})
    server.hub = SimpleNamespace(open_ask=None, open_collect=("round", 3))
    assert server.view("Aki")["request"] == {"for": "Aki"}
    assert asked == [(("round", 3), "Aki", server._text)]
    assert server.view(None, True)["request"] is None and len(asked) == 1


def test_a_public_question_is_on_the_host_screen_only_and_a_private_one_on_its_players_phone(monkeypatch):
    server, _ = make()
    server.clock = SimpleNamespace(now=lambda: 0.0)
    stub_view(monkeypatch, ask={"private": False, "line": "vote.ask"})
    assert server.view("Aki")["ask"] is None
    assert server.view(None, True)["ask"] == {"private": False, "line": "vote.ask"}
    stub_view(monkeypatch, ask={"private": True, "line": "seer.ask"})
    assert server.view("Aki")["ask"] == {"private": True, "line": "seer.ask"}


def test_the_host_screen_lists_the_end_lines_and_everyone_sees_the_wait_for_phones(monkeypatch):
    server, _ = make()
    stub_view(monkeypatch)
    server.end_lines = SimpleNamespace(shown=lambda: [{"en": "The village wins"}])
    host_view = server.view(None, True)["host"]
    assert host_view["end_lines"] == [{"en": "The village wins"}] and host_view["free"] == 5
    server.waiting = object()
    server.seats.claim("Aki")
    assert server.view("Ben")["waiting"] == {"free": 4}


def test_the_terminal_answers_in_the_games_language_else_the_first_pack():
    server, _ = make()
    server.packs = {"en": Pack("en", {"hint.x"}), "ja": Pack("ja", {"hint.x"})}
    server.lang = "ja"
    assert server._said_at_the_terminal("hint.x", {"a": 1}) == "ja:hint.x:[('a', 1)]"
    server.lang = "ko"
    assert server._said_at_the_terminal("hint.x", {}) == "en:hint.x:[]"


def test_the_tables_press_confirms_only_a_phone_that_waits():
    server, _ = make()
    assert server._table_confirms() is False
    server.gate.now = lambda: 0.0
    server.pending_host = server_module.host.PendingHost("tok", "42", 15.0)
    assert server._table_confirms() is True and server.seats.is_host("tok")


def run_waiting(server, hub, step):
    async def main():
        task = asyncio.ensure_future(server.wait_for_phones())
        for _ in range(5):
            await asyncio.sleep(0)
        waiting = server.waiting
        await step(server, hub)
        await asyncio.wait_for(task, 5)
        return waiting

    return asyncio.run(main())


def test_the_game_waits_for_phones_until_every_seat_has_one():
    server, hub = make()

    async def seat_all(server, hub):
        assert server.view("Aki")["waiting"] == {"free": 5}
        hub.offer_command("repeat", "keyboard")  # another command: still waiting
        for _ in range(5):
            await asyncio.sleep(0)
        assert server.waiting is not None and not server.waiting.done()
        for name in NAMES.split(","):
            server.seats.claim(name)
        server.seats_changed()

    assert run_waiting(server, hub, seat_all) is not None
    assert server.waiting is None and server.view("Aki")["waiting"] is None
    assert hub.command_nowait() is None  # the command it listened for is not left behind


def test_a_command_after_every_phone_joined_reaches_the_game_not_the_finished_wait():
    """The wait listens for the table's "done"; once every seat has a phone it stops listening,
    so the table's next command (the first answer of the game) is not swallowed by it."""
    server, hub = make()

    async def main():
        task = asyncio.ensure_future(server.wait_for_phones())
        for _ in range(5):
            await asyncio.sleep(0)
        for name in NAMES.split(","):
            server.seats.claim(name)
        server.seats_changed()
        await asyncio.wait_for(task, 5)
        hub.offer_command("done", "keyboard")
        for _ in range(5):
            await asyncio.sleep(0)
        return hub.command_nowait()

    heard = asyncio.run(main())
    assert heard is not None and heard.value == "done"


def test_done_at_the_table_starts_the_game_with_seats_free():
    server, hub = make()

    async def done(server, hub):
        hub.offer_command("done", "keyboard")

    assert run_waiting(server, hub, done) is not None
    assert server.waiting is None and server.seats.free()


def test_a_full_table_does_not_wait():
    server, hub = make()
    for name in NAMES.split(","):
        server.seats.claim(name)
    asyncio.run(asyncio.wait_for(server.wait_for_phones(), 1))
    assert server.waiting is None


def test_a_view_request_needs_a_seat_or_the_host_screen_and_a_seats_view_is_sealed(monkeypatch):
    import json

    server, _ = make()
    stub_view(monkeypatch)
    cookies = {}
    request = SimpleNamespace(cookies=cookies)
    reply = asyncio.run(server._view(request))
    assert (reply.status, json.loads(reply.body)) == (401, {"error": "no seat: enter your seat's code first"})
    token = server.seats.claim("Aki")
    cookies[server.cookie] = token
    key, _ = server.keys.for_code("ABCDEFGH")
    server.keys.bind(token, key)
    reply = asyncio.run(server._view(request))
    from narrator.phones import crypto

    opened = crypto.unseal(key, json.loads(reply.body)["box"])
    assert reply.status == 200 and opened["call"] == 0 and opened["host"] is None
    del cookies[server.cookie]
    cookies[server.host_cookie] = "host-token"
    server.seats.claim(HOST, "host-token")
    reply = asyncio.run(server._view(request))
    assert reply.status == 200 and json.loads(reply.body)["host"]["free"] == 4


def test_without_the_games_clock_the_timer_follows_the_event_loops():
    server, _ = make()

    async def main():
        server.timer = (asyncio.get_running_loop().time(), 30.0)
        return server.view("Aki")["timer"]

    assert asyncio.run(main()) == 30


# --- the live stream, over loopback -------------------------------------------------------------

async def _open_stream(session, base):
    response = await session.get(f"{base}/api/events")
    return response


async def _next_event(response):
    """The next line block of a stream: a padded event's data, or a keepalive comment."""
    block = b""
    while not block.endswith(b"\n\n"):
        block += await asyncio.wait_for(response.content.readuntil(b"\n\n"), 10)
    return block


def streaming(test, monkeypatch=None):
    import aiohttp

    async def main():
        server, hub = make()
        server.check_origin = False
        port = await server.start("127.0.0.1", 0)
        base = f"http://127.0.0.1:{port}"
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            try:
                await test(server, session, base, jar)
            finally:
                await server.stop()

    asyncio.run(main())


def _seat(server, jar, base, name="Aki", key=None):
    from yarl import URL

    token = server.seats.claim(name)
    if key is not None:
        server.keys.bind(token, key)
    jar.update_cookies({server.cookie: token}, URL(base))
    return token


def test_a_seated_phones_stream_sends_its_sealed_view_at_once_and_at_each_change():
    import json

    from narrator.phones import crypto, wire

    async def test(server, session, base, jar):
        key, _ = server.keys.for_code("ABCDEFGH")
        _seat(server, jar, base, key=key)
        response = await _open_stream(session, base)
        assert response.status == 200
        assert response.headers["Content-Type"] == "text/event-stream"
        assert response.headers["X-Accel-Buffering"] == "no"
        first = await _next_event(response)
        assert len(first) == wire.BUCKET and first.startswith(b"data: {")
        view = crypto.unseal(key, json.loads(first[len(b"data: "):])["box"])
        assert view["call"] == 0 and view["host"] is None and view["waiting"] is None
        server.calls.count = 3
        server._changed()
        view = crypto.unseal(key, json.loads((await _next_event(response))[6:])["box"])
        assert view["call"] == 3
        response.close()

    streaming(test)


def test_a_stream_ends_when_its_seat_is_released_or_the_server_stops():
    async def test(server, session, base, jar):
        _seat(server, jar, base)
        response = await _open_stream(session, base)
        await _next_event(response)
        server.seats.release("Aki")
        server._changed()
        assert await asyncio.wait_for(response.content.read(), 10) == b""  # ended
        assert server.live.seats.get("Aki") == 0 and not server.live.queues
        _seat(server, jar, base, "Ben")
        response = await _open_stream(session, base)
        await _next_event(response)
        await server._close_streams(None)
        assert await asyncio.wait_for(response.content.read(), 10) == b""
        assert server.live.seats["Ben"] == 0

    streaming(test)


def test_a_seat_keeps_four_pages_open_and_a_closed_one_frees_its_place(monkeypatch):
    monkeypatch.setattr(event_stream, "CHECK_EVERY", 0.02)  # how soon a gone page is noticed

    async def test(server, session, base, jar):
        _seat(server, jar, base)
        streams = []
        for _ in range(event_stream.MAX_STREAMS_PER_SEAT):
            streams.append(await _open_stream(session, base))
            await _next_event(streams[-1])
        assert server.live.seats["Aki"] == 4
        refused = await _open_stream(session, base)
        assert refused.status == 429
        assert (await refused.json()) == {"error": "too many open pages for this seat; close one and reload"}
        streams.pop().close()
        for _ in range(500):  # the server sees the page gone at its next check
            if server.live.seats["Aki"] == 3:
                break
            await asyncio.sleep(0.01)
        assert server.live.seats["Aki"] == 3
        again = await _open_stream(session, base)
        assert again.status == 200
        for s in streams + [again]:
            s.close()

    streaming(test)


def test_a_quiet_stream_gets_a_keepalive_comment_then_its_next_view(monkeypatch):
    monkeypatch.setattr(event_stream, "CHECK_EVERY", 0.01)
    monkeypatch.setattr(event_stream, "KEEPALIVE", 0.05)

    async def test(server, session, base, jar):
        _seat(server, jar, base)
        response = await _open_stream(session, base)
        await _next_event(response)
        assert await _next_event(response) == b": keepalive\n\n"
        server._changed()
        assert (await _next_event(response)).startswith(b"data: {")
        response.close()

    streaming(test)


def test_the_host_screens_stream_carries_the_host_view_and_a_stranger_gets_none():
    import json

    from yarl import URL

    async def test(server, session, base, jar):
        refused = await _open_stream(session, base)
        assert (refused.status, await refused.json()) == (401, {"error": "no seat: enter your seat's code first"})
        server.seats.claim(HOST, "host-token")
        jar.update_cookies({server.host_cookie: "host-token"}, URL(base))
        response = await _open_stream(session, base)
        view = json.loads((await _next_event(response))[6:])
        assert view["host"]["free"] == 5 and server.live.seats[HOST] == 1
        response.close()

    streaming(test)


def test_a_quiet_stream_sends_keepalives_and_stays_open(monkeypatch):
    """A stream with nothing new says `: keepalive` every KEEPALIVE seconds (proxies and phones
    drop a silent connection), and goes on after each: the waits are cut short here."""
    monkeypatch.setattr(event_stream, "CHECK_EVERY", 0.01)
    monkeypatch.setattr(event_stream, "KEEPALIVE", 0.03)

    async def test(server, session, base, jar):
        _seat(server, jar, base)
        response = await _open_stream(session, base)
        assert (await _next_event(response)).startswith(b"data: ")
        assert await _next_event(response) == b": keepalive\n\n"
        assert await _next_event(response) == b": keepalive\n\n"
        server._changed()
        assert (await _next_event(response)).startswith(b"data: ")  # still the seat's stream
        response.close()

    streaming(test)


# --- listening and stopping (start, stop) -------------------------------------------------------

async def _get(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """One keep-alive GET of /api/seats on a raw connection: (reader, writer, the reply's head)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/seats HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer, head


def test_a_narrator_restarted_at_once_listens_on_the_same_port_again():
    """The appliance restarts the narrator (a crash, a new game) on its fixed port while the
    last one's connections are still in TIME_WAIT: the new server binds anyway (SO_REUSEADDR)."""
    async def main():
        first, _ = make()
        port = await first.start("127.0.0.1", 0)
        _, writer, head = await _get(port)
        assert head.startswith(b"HTTP/1.1 200")
        await first.stop()  # the server closes the phone's connection first: TIME_WAIT on its side
        writer.close()
        second, _ = make()
        assert await second.start("127.0.0.1", port) == port
        _, writer, head = await _get(port)
        assert head.startswith(b"HTTP/1.1 200")
        writer.close()
        await second.stop()

    asyncio.run(main())


def test_a_port_in_use_is_one_line_that_names_the_fix():
    import socket

    from narrator.errors import SetupError

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()

    async def main():
        server, _ = make()
        with pytest.raises(SetupError) as refused:
            await server.start("127.0.0.1", busy.getsockname()[1])
        assert server.listening.listener is None and server.addresses == []
        return str(refused.value)

    try:
        port = busy.getsockname()[1]
        line = asyncio.run(main())
        assert line.startswith(f"the phone page cannot listen on 127.0.0.1:{port} (") and "\n" not in line
        assert "address already in use" in line.lower() and line.endswith("); choose another --port or --host")
    finally:
        busy.close()


def test_requests_leave_no_access_log(caplog):
    """The journal gets no line per request (addresses and paths of every phone, all night)."""
    import logging

    caplog.set_level(logging.DEBUG)

    async def main():
        server, _ = make()
        port = await server.start("127.0.0.1", 0)
        _, writer, head = await _get(port)
        writer.close()
        await server.stop()
        return head

    assert asyncio.run(main()).startswith(b"HTTP/1.1 200")
    assert not [r for r in caplog.records if r.name.startswith("aiohttp.access")]


def test_an_idle_connection_is_closed_after_the_request_timeout(monkeypatch):
    """A phone's idle keep-alive connection is closed after guard.REQUEST_TIMEOUT, not held
    for aiohttp's hour: an idle socket is a place a phone cannot have (guard.py). The timeout is
    cut to 50 ms here, a real wait: aiohttp keeps it on the loop's own clock."""
    from narrator.phones import guard

    monkeypatch.setattr(guard, "REQUEST_TIMEOUT", 0.05)

    async def main():
        server, _ = make()
        port = await server.start("127.0.0.1", 0)
        try:
            reader, writer, head = await _get(port)
            assert head.startswith(b"HTTP/1.1 200")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            await reader.readexactly(length)
            assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the server
            writer.close()
        finally:
            await server.stop()

    asyncio.run(main())


def test_stop_closes_the_port_and_ends_the_sweeper_and_a_second_stop_is_harmless():
    async def main():
        server, _ = make()
        port = await server.start("127.0.0.1", 0)
        sweeper = server.listening.sweeper
        assert not sweeper.done()
        await server.stop()
        await asyncio.wait({sweeper}, timeout=5)  # cancelled by stop, it ends at once (5 s: a bound)
        assert sweeper.cancelled() and server.listening.sweeper is None
        assert server.listening.listener is None and server.listening.runner is None and server.addresses == []
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", port)
        await server.stop()

    asyncio.run(main())


def test_stop_with_a_release_asked_stops_the_voice_hearing_yes_and_else_leaves_its_words():
    from narrator.phones import host_release

    hub = ListenerHub()
    server, _ = make(hub)
    host_release.ask(server)
    assert hub.listen_also == ("yes",)
    asyncio.run(server.stop())
    assert hub.listen_also == ()

    hub = ListenerHub()
    server, _ = make(hub)
    hub.hear_also(("menu",))  # someone else's words (no release asked): not the server's to undo
    asyncio.run(server.stop())
    assert hub.listen_also == ("menu",)


def test_with_the_schedulers_cues_the_phones_show_a_new_state_only_once_its_step_is_announced():
    """A death is said aloud before any phone shows it: the server follows the hub's cues and
    shows the game's state at the next timer, question or end, not at each state change."""
    from narrator.cues import Say, Timer

    hub = ListenerHub()
    server, _ = make(hub)
    from narrator.table.clock import ManualClock

    server.clock = ManualClock()
    assert server._cue in hub.cue_watchers
    server.set_state("night 1")
    server.set_state("morning: Ben died")
    assert (server.state, server.shown) == ("morning: Ben died", "night 1")
    hub.cue_started(Say("morning.deaths"))  # spoken, not yet shown
    assert server.shown == "night 1"
    hub.cue_started(Timer("discussion", 60))
    assert server.shown == "morning: Ben died" and server.timer[1] == 60.0 and server.timer_serial == 1


def test_without_cues_from_the_hub_the_phones_show_every_state_at_once():
    hub = SimpleNamespace(open_ask=None, open_collect=None, attach_phones=lambda claim: None,
                          add_table_action=lambda word, action: None,
                          watch=lambda callback: None, subscribe_private=lambda callback: None,
                          register=lambda source: None, add_table_command=lambda word, handler: None)
    server, _ = make(hub)
    server.set_state("night 1")
    server.set_state("morning: Ben died")
    assert server.shown == "morning: Ben died"


def test_a_line_announced_before_the_voice_is_wired_is_kept_and_says_nothing_wrong(capsys):
    server, _ = make()
    server.announce("phones.host_released", {"code": "A B C"})
    assert server.said == [("phones.host_released", {"code": "A B C"})]
    assert capsys.readouterr().err == ""
    heard = []
    server.speak = lambda line, params: heard.append(line)
    server.announce("phones.seat_released", {"name": "Aki"})
    assert heard == ["phones.seat_released"]


def test_an_open_stream_is_not_swept_as_an_idle_connection():
    """The guard closes a connection idle past its request timeout, but a page's event stream
    is quiet by design: it stays open through the sweep and gets the next change."""
    from narrator.table.clock import ManualClock

    clock = ManualClock()

    async def test(server, session, base, jar):
        server.guard.now = clock.now
        _seat(server, jar, base)
        response = await _open_stream(session, base)
        await _next_event(response)
        await clock.advance(server.guard.request_timeout + 1)
        assert server.guard.sweep() == 0
        server._changed()
        assert (await _next_event(response)).startswith(b"data: ")
        response.close()

    streaming(test)


def test_a_seat_released_with_no_change_pushed_ends_its_stream_at_the_next_check_cleanly(monkeypatch, caplog):
    """A seat freed by another path (a move, a carried host) with no push: the stream sees its
    token is worth nothing at its next check, ends, and frees its place; no error is logged."""
    import logging

    monkeypatch.setattr(event_stream, "CHECK_EVERY", 0.01)
    caplog.set_level(logging.DEBUG, logger="aiohttp")

    async def test(server, session, base, jar):
        _seat(server, jar, base)
        _seat(server, jar, base, "Ben")  # this phone's cookie is Ben's now: Aki's stream is not this one
        response = await _open_stream(session, base)
        await _next_event(response)
        server.seats.release("Ben")  # no _changed(): only the stream's own check can see it
        assert await asyncio.wait_for(response.content.read(), 10) == b""
        assert server.live.seats["Ben"] == 0 and not server.live.queues

    streaming(test)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.records


def test_a_views_call_length_and_age_are_the_calls_own_to_the_millisecond(monkeypatch):
    """The phones' send slots count from the open call's age and cover a late timer from the
    last call's length (app.js: COVER): both leave as the call's own figures, in milliseconds."""
    server, _ = make()
    server.clock = SimpleNamespace(now=lambda: 0.0)
    assert server.view_now("Aki")["call_length"] is None and server.view_now("Aki")["call_age"] is None
    server.calls.length = 12.34567
    monkeypatch.setattr(server, "_count_calls", lambda: None)  # the call's figures as set here, not the hub's
    monkeypatch.setattr(server_module.time, "monotonic", lambda: 1000.98765)
    server.calls.open, server.calls.opened = True, 990.0
    view = server.view_now("Aki")
    assert view["call_length"] == 12.346 and view["call_age"] == 10.988
    assert server.view("Aki")["call_age"] is None  # by the moment: only in the view as it leaves


def test_a_view_carries_the_length_of_each_recent_call_by_its_number():
    """A phone whose views came late may hear of a call's end only after the next call closed
    too; the view says how long each recent call lasted, so it still sends the slots that call
    lasted (app.js: coverStop). Only the last `KEPT_LENGTHS` are kept."""
    from narrator.phones.following import KEPT_LENGTHS, Calls
    from narrator.cues import Ask

    calls = Calls()
    ask = Ask("seer.choose", ("Ben", "Chika"), player="Aki")
    t = 100.0
    for serial in range(1, KEPT_LENGTHS + 3):
        calls.follow((serial, ask), None, t)  # call `serial` opens
        calls.follow(None, None, t + serial + 0.25)  # and closes, having lasted serial + 0.25 s
        t += 50
    assert calls.count == KEPT_LENGTHS + 2 and calls.length == KEPT_LENGTHS + 2.25
    assert calls.lengths == {n: n + 0.25 for n in range(3, KEPT_LENGTHS + 3)}
    server, _ = make()
    server.calls.lengths = {4: 2.34567, 5: 0.5}
    server._count_calls = lambda: None  # the figures as set here, not the hub's
    assert server.view("Aki")["call_lengths"] == {"4": 2.346, "5": 0.5}
