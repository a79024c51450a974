"""server.py against its mutants, in-process (no socket): a failing call from the game is one
line on stderr and the game goes on; the names the page answers to; the timer and the call
count a phone sees; what `stop` gives back to the hub; the Origin check."""

import asyncio
from types import SimpleNamespace

import pytest

from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.phones import network, server as server_module
from narrator.phones.seats import HOST, Seats
from narrator.phones.server import PhoneServer, _own_names
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
    assert _own_names(bound) == names


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
    server._streams.add(queue)
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


def test_a_post_must_carry_the_pages_own_origin_in_any_case():
    server, _ = make()

    def request(origin, host="10.42.0.1:8080"):
        return SimpleNamespace(headers={"Origin": origin} if origin is not None else {}, host=host)

    assert server._same_origin(request("http://10.42.0.1:8080"))
    assert server._same_origin(request("HTTP://Narrator.Local:8080", "narrator.local:8080"))
    assert not server._same_origin(request("https://10.42.0.1:8080"))
    assert not server._same_origin(request("http://evil.example"))
    assert not server._same_origin(request(None))


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
