"""Issue 38, items 1, 2 and 4: the host screen is the table's alone. A listener with the Wi-Fi
password holds the host cookie (it travels in the clear) and the host key's public half (sent at
join); a laptop at the table heard the table code. Each attack runs against the real server
twice: with its protection monkeypatched off it succeeds, with it on it fails."""

import asyncio
import base64
import json
from types import SimpleNamespace

import aiohttp
import nacl.exceptions
import nacl.public
import pytest

from narrator import home
from narrator.games import get_game
from narrator.phones import carry, crypto, host, host_turns
from narrator.phones.crypto import SeatKeys
from narrator.phones.seats import HOST, _digest
from narrator.phones.table import make_server
from narrator.settings import build_settings
from narrator.table.session import RunOptions, open_sitting
from narrator.table.store import GameStore
from tests.phones_harness import Phone, open_table
from tests.test_host_carry import Evening, confirmed_host, get, phone, post


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def sniffer(base: str, cookie: str) -> aiohttp.ClientSession:
    """A laptop on the Wi-Fi sending the host screen's sniffed cookie from its own address."""
    jar = aiohttp.CookieJar(unsafe=True)
    jar.update_cookies({carry.COOKIE: cookie})
    return aiohttp.ClientSession(base, cookie_jar=jar, headers={"Origin": base},
                                 connector=aiohttp.TCPConnector(local_addr=("127.0.0.77", 0)))


# --- item 1: a sniffed host cookie binds no key, so it reads no seat code -----------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_sniffed_host_cookie_reads_no_seat_code_and_so_no_role(narrator_home, tmp_path, monkeypatch, protected):
    """The appliance: the settings page's host screen (its key confirmed by the press) carried
    into a game. The attacker binds his own key with the sniffed cookie, asks for every free
    seat's code, and binds the real key back (its public half was sniffed at join)."""
    if not protected:  # as before issue 38: the game takes any key sent with the host cookie
        monkeypatch.setattr(carry, "CARRY_KEY", False)
        monkeypatch.setattr(carry, "PRESS_FOR_KEY", False)

    async def main():
        evening = Evening(tmp_path)
        base = await evening.open_page()
        real = nacl.public.PrivateKey.generate()
        await confirmed_host(evening, base, b64(bytes(real.public_key)))
        await evening.close_page()
        server = evening.game()
        assert carry.into_game(evening.page, server)
        port = await server.start("127.0.0.1", 0)
        game = f"http://127.0.0.1:{port}"
        cookie = next(c.value for c in evening.jar if c.key == carry.COOKIE)
        laptop = nacl.public.PrivateKey.generate()
        read = []
        try:
            async with phone(game, evening.jar) as screen, sniffer(game, cookie) as attacker:
                if not protected:  # the old page gave the game its key with the cookie alone
                    assert (await post(screen, "/api/host/key", {"key": b64(bytes(real.public_key))}))[0] == 200
                status, _ = await post(attacker, "/api/host/key", {"key": b64(bytes(laptop.public_key))})
                box = nacl.public.Box(laptop, server.keys.private_key.public_key)
                for number in range(1, len(server.seats.free()) + 1):
                    code_status, reply = await get(attacker, f"/api/host/code/{number}")
                    try:
                        read.append(json.loads(box.decrypt(base64.b64decode(reply["box"])))["code"])
                    except (KeyError, nacl.exceptions.CryptoError):
                        pass
                await post(attacker, "/api/host/key", {"key": b64(bytes(real.public_key))})  # put back
                honest = nacl.public.Box(real, server.keys.private_key.public_key)
                sealed = (await get(screen, "/api/host/code/1"))[1]
                still_works = "code" in json.loads(honest.decrypt(base64.b64decode(sealed["box"])))
        finally:
            await server.stop()
        return status, read, still_works, server

    status, read, still_works, server = asyncio.run(main())
    assert still_works  # the host screen never noticed either way
    free = [server.seats.code(n) for n in server.seats.free()]
    if protected:
        assert status == 202 and read == []  # asked aloud, bound on no press: nothing read
        assert [line for line, _ in server.said] == ["phones.host_key_ask"]  # the put-back: 409
    else:
        assert status == 200 and read == free and len(read) == 5  # every seat's code: every role
        assert server.said == []  # and nothing said aloud


def test_a_new_host_key_is_bound_only_on_the_tables_press_said_aloud(narrator_home, tmp_path):
    """A host screen whose page lost its key asks anew: the number is said, the press binds it."""
    async def main():
        evening = Evening(tmp_path)
        base = await evening.open_page()
        await confirmed_host(evening, base, b64(bytes(nacl.public.PrivateKey.generate().public_key)))
        await evening.close_page()
        server = evening.game()
        assert carry.into_game(evening.page, server)
        port = await server.start("127.0.0.1", 0)
        game, fresh = f"http://127.0.0.1:{port}", nacl.public.PrivateKey.generate()
        box = nacl.public.Box(fresh, server.keys.private_key.public_key)
        try:
            async with phone(game, evening.jar) as screen:
                assert (await post(screen, "/api/host/key", {"key": "short"}))[0] == 400
                status, reply = await post(screen, "/api/host/key", {"key": b64(bytes(fresh.public_key))})
                assert status == 202 and reply["word"] == server.said[-1][1]["n"]
                assert (await post(screen, "/api/host/key", {"key": b64(bytes(fresh.public_key))}))[0] == 409
                sealed = (await get(screen, "/api/host/code/1"))[1]
                with pytest.raises(nacl.exceptions.CryptoError):  # not yet: no press
                    box.decrypt(base64.b64decode(sealed["box"]))
                assert evening.hub.offer_text("done", "button") is None  # the table presses
                sealed = (await get(screen, "/api/host/code/1"))[1]
                assert "code" in json.loads(box.decrypt(base64.b64decode(sealed["box"])))
                assert [line for line, _ in server.said] == ["phones.host_key_ask", "phones.host_key_confirmed"]
                # a press after the window binds nothing
                other = nacl.public.PrivateKey.generate()
                assert (await post(screen, "/api/host/key", {"key": b64(bytes(other.public_key))}))[0] == 202
                server.gate.now = lambda: 10 ** 9
                assert host.confirm_host(server) is False
                assert server.keys.host_public_key(server.seats.host_digest()) == b64(bytes(fresh.public_key))
        finally:
            await server.stop()

    asyncio.run(main())


@pytest.mark.parametrize("protected", [False, True])
def test_a_host_key_bound_again_keeps_its_counters(tmp_path, monkeypatch, protected):
    """Issue 38: a rebind reset the host's counters, so a captured "release seat 6", refused
    once, was taken the second time. Kept with the key across a resume too."""
    if not protected:
        monkeypatch.setattr(crypto, "KEEP_COUNTERS", False)
    keys = SeatKeys(tmp_path / "k.json")
    private = nacl.public.PrivateKey.generate()
    pk = b64(bytes(private.public_key))
    box = nacl.public.Box(private, keys.private_key.public_key)
    captured = b64(bytes(box.encrypt(crypto.padded_json({"from": "host", "n": 5, "to": "release"}, 512))))
    def sealed(n):
        return b64(bytes(box.encrypt(crypto.padded_json({"from": "host", "n": n, "to": "start"}, 512))))

    old = sealed(20)  # made, never sent: by the time it is, too old for the window
    assert keys.bind_host("tok", pk) and keys.open_host_request("tok", captured) is not None
    assert keys.open_host_request("tok", sealed(100)) is not None
    assert keys.open_host_request("tok", captured) is None  # refused: taken once
    assert keys.bind_host("tok", pk)  # bound again (with the table's press)
    assert (keys.open_host_request("tok", captured) is None) == protected  # still refused
    assert (keys.open_host_request("tok", old) is None) == protected  # still too old
    assert keys.host_public_key(None) is None
    assert SeatKeys(tmp_path / "k.json").open_host_request("tok", captured) is None


# --- item 2: a claim waits for the table's press, whatever is listening yet ---------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_claim_while_the_code_is_announced_waits_for_the_tables_press(narrator_home, monkeypatch, protected):
    """`narrator play --phones` with a keyboard: the server listens and says the code before
    the keyboard starts. A laptop that heard the code claims at once."""
    if not protected:
        monkeypatch.setattr(host, "WAITS_FOR_TABLE", False)

    async def main():
        settings = build_settings({}, {"game": "additional-werewolf", "players": 5, "seed": 3, "phones": True,
                                       "names": "Aki,Ben,Chika,Dai,Emi"}, "test")
        rules = get_game("additional-werewolf")
        config = rules.configure(settings)
        run = RunOptions(lang="en", voice="text", time_scale=0, keyboard=True, phones=True)
        store = GameStore.create(home.app_home(), rules.name, config.to_dict(), run.to_dict())
        sitting = open_sitting(run)  # as `narrator play` makes it: a keyboard still to start
        assert sitting.hub.table_to_come and not (sitting.hub.sources & {"keyboard"})
        server = make_server(rules, config, store, sitting.hub, "en")
        port = await server.start("127.0.0.1", 0)
        laptop = Phone(f"http://127.0.0.1:{port}", "laptop")
        try:  # the code is being said; the laptop heard it
            status = await laptop.join_code(server.seats.table_code)
            has_host_before_press = server.seats.has_host
            if status == 202:  # the number said is the one its screen shows, kept for the press
                assert server.pending_host.word == server.said[0][1]["n"]
            clock = [server.gate.now() + 20]  # the keyboard starts 20 s later: the claim's 15 s ran out
            server.gate.now = lambda: clock[0]
            sitting.starters.clear()  # the keyboard as started (this test's stdin is not the table's)
            sitting.start_listeners(asyncio.get_running_loop())
            sitting.hub.register("keyboard")
            assert sitting.hub.table_to_come is False
            if status == 202:  # its whole window from the keyboard's start: the table presses Enter
                clock[0] += host.CONFIRM_SECONDS - 1
                sitting.hub.offer_text("", "keyboard")
                assert server.seats.has_host
            return status, has_host_before_press, [line for line, _ in server.said]
        finally:
            await laptop.close()
            await server.stop()
            sitting.close()

    status, has_host, said = asyncio.run(main())
    if protected:
        assert (status, has_host, said) == (202, False, ["phones.host_claim", "phones.host_confirmed"])
    else:
        assert (status, has_host) == (200, True)


# --- item 4: a laptop cannot hold the claim forever --------------------------------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_laptop_reclaiming_at_each_window_cannot_hold_the_host_claim(narrator_home, monkeypatch, protected):
    """The laptop types the table code again the moment its window runs out; the table's phone
    tries every 2 s for 40 s. Its number is the one the table presses for."""
    if not protected:
        monkeypatch.setattr(host_turns, "FAIR", False)

    async def main():
        table = await open_table()
        table.server.hub.register("button")  # the appliance's button confirms
        clock = [0.0]
        table.server.gate.now = lambda: clock[0]
        laptop, screen = Phone(table.base, "laptop"), Phone(table.base, "screen")
        code, got = table.server.seats.table_code, 0
        try:
            assert await laptop.join_code(code) == 202
            for step in range(20):
                clock[0] = 2.0 * step + 1.0
                pending = table.server.pending_host
                if pending.until <= clock[0] and pending.address == laptop.address:
                    await laptop.join_code(code)  # the laptop's window ran out: again at once
                if await screen.join_code(code) == 202:
                    got += 1
                    assert table.server.hub.offer_text("done", "button") is None  # the table presses
                    break
            async with screen.session.get("/api/seats") as r:
                return got, (await r.json())["host"]
        finally:
            await laptop.close()
            await screen.close()
            await table.close()

    got, is_host = asyncio.run(main())
    assert (got, is_host) == ((1, True) if protected else (0, False))


def test_turns_pass_on_and_a_lone_phone_may_claim_again_at_once():
    turns = host_turns.Turns(15.0)

    class Pending:
        def __init__(self, address, until):
            self.address, self.until = address, until

    assert turns.may_claim("a", None, 0.0)
    pending = Pending("a", 15.0)
    assert not turns.may_claim("b", pending, 1.0) and not turns.may_claim("c", pending, 2.0)
    assert not turns.may_claim("a", pending, 3.0) and turns.line == ["b", "c"]  # the holder is not queued
    assert not turns.may_claim("a", pending, 15.0) and turns.line == ["b", "c", "a"]
    assert not turns.may_claim("c", pending, 29.0)  # b's turn
    assert turns.may_claim("c", pending, 30.0)  # b let its turn pass: c's
    assert turns.line == ["a"]
    pending = Pending("c", 45.0)
    assert turns.may_claim("a", pending, 45.0) and turns.line == []
    late = host_turns.Turns(15.0)  # nobody asks until long after the claim ran out at 15
    assert not late.may_claim("b", Pending("a", 15.0), 1.0) and not late.may_claim("c", Pending("a", 15.0), 2.0)
    assert not late.may_claim("d", Pending("a", 15.0), 3.0) and late.line == ["b", "c", "d"]
    assert not late.may_claim("d", Pending("a", 15.0), 31.0)  # b's turn was 15-30: c's now
    assert late.line == ["c", "d"] and not late.may_claim("d", Pending("a", 15.0), 44.0)  # still c's
    assert late.may_claim("d", Pending("a", 15.0), 45.0)
    lone = host_turns.Turns(15.0)
    assert lone.may_claim("a", Pending("a", 15.0), 15.0)  # nobody waits: again at once
    full = host_turns.Turns(15.0)
    for n in range(host_turns.QUEUE + 3):
        full.may_claim(f"x{n}", Pending("a", 15.0), 1.0)
    assert len(full.line) == 16 == host_turns.QUEUE


@pytest.mark.parametrize("protected", [False, True])
def test_a_press_for_an_open_question_never_binds_a_laptops_key(monkeypatch, protected):
    """The laptop asks for a new host key just as the narrator asks the table to press when
    ready: the press answers the question; the key stays the one the table confirmed."""
    from tests.test_phones_host_mutants import FakeServer

    server = FakeServer()
    server.seats.claim(HOST, "real")
    server.keys.bind_host("real", b64(bytes(nacl.public.PrivateKey.generate().public_key)))
    confirmed = server.keys.host_public_key(server.seats.host_digest())
    laptop = b64(bytes(nacl.public.PrivateKey.generate().public_key))
    server.pending_host = host.PendingHost("real", "37", server.gate.now() + host.CONFIRM_SECONDS, "x", laptop)
    server.hub.open_ask = (4, object())  # "press the button when you are ready"
    if not protected:
        monkeypatch.setattr(host, "KEY_AFTER_QUESTIONS", False)
    assert host.confirm_host(server) is (not protected)
    assert (server.keys.host_public_key(server.seats.host_digest()) == confirmed) == protected
    server.hub.open_ask = None  # once nothing is asked, the table's press binds it
    assert host.confirm_host(server) is protected


def test_asking_for_a_new_host_key_replies_exactly(monkeypatch):
    """`POST /api/host/key`, each reply as the page and a script get it (carry.bind_key)."""
    from tests.test_phones_host_mutants import FakeServer, post as request

    server = FakeServer()
    server.seats.claim(HOST, "real")
    server.host_cookie = "h"
    server.keys.bind_host("real", b64(bytes(nacl.public.PrivateKey.generate().public_key)))
    monkeypatch.setattr(carry.secrets, "randbelow", lambda n: n - 1)  # the highest number: 99
    key = b64(bytes(nacl.public.PrivateKey.generate().public_key))

    def ask(body, cookie="real", address="10.42.0.7"):
        response = asyncio.run(carry.bind_key(server, request(body, address, cookies={"h": cookie})))
        return response.status, json.loads(response.body)

    assert ask({"key": key}, cookie="sniffed?") == (403, {"error": "only the host screen may do this"})
    shape = {"error": 'send {"key": PUBLIC_KEY} (32 bytes, base64)'}
    assert ask({"key": b64(b"x" * 31)}) == (400, shape) == ask({"key": 5}) == ask({})
    assert ask({"key": key}, address="10.42.0.9") == (202, {"host": "pending", "word": "99", "seconds": 15.0})
    pending = server.pending_host
    assert (pending.token, pending.word, pending.key) == ("real", "99", key)
    assert pending.until == server.gate.now() + host.CONFIRM_SECONDS
    assert server.said == [("phones.host_key_ask", {"n": "99"})]
    waiting = {"error": "another phone is waiting for the table to confirm it; try again shortly"}
    assert ask({"key": key}) == (409, waiting)
    server.clock.t = pending.until  # its window is over at its last instant
    assert ask({"key": key})[0] == 202
    monkeypatch.setattr(carry, "PRESS_FOR_KEY", False)  # as before issue 38: bound at once
    other = b64(bytes(nacl.public.PrivateKey.generate().public_key))
    assert ask({"key": other}) == (200, {"ok": True})
    assert server.keys.host_public_key(server.seats.host_digest()) == other


def test_carrying_leaves_a_resumed_games_own_host_screen_and_a_game_of_another_cookie():
    """carry.into_game / back_from_game at their edges (the key carried is the table's alone)."""
    from types import SimpleNamespace

    from narrator.phones.seats import Seats

    page = SimpleNamespace(host_digest="d" * 64, keys=SeatKeys(None), pending=object(), table_code="1",
                           host_changed=lambda: None)  # serving.Menu: what carry asks of the settings page
    resumed = SimpleNamespace(seats=Seats(["Aki", "Ben"]), keys=SeatKeys(None), host_cookie="narrator_g_host")
    resumed.seats.claim(HOST, "its own")
    assert carry.into_game(page, resumed) is False and resumed.host_cookie == "narrator_g_host"
    assert resumed.keys.host_public_key("d" * 64) is None
    carry.back_from_game(page, resumed)  # another cookie: the settings page's host is untouched
    assert page.host_digest == "d" * 64 and page.pending is not None
    resumed.host_cookie = carry.COOKIE
    carry.back_from_game(None, resumed)  # no settings page (`narrator play`): nothing to do
    carry.back_from_game(page, resumed)
    assert page.pending is None and page.host_digest == resumed.seats.host_digest()


class SettingsPageStandIn:
    """What carry.claim and carry.confirm ask of the settings page (serving.Menu)."""

    def __init__(self, sources=("button",)):
        self.pending, self.host_digest, self.keys, self.t = None, None, SeatKeys(None), 100.0
        self.hub, self.said = SimpleNamespace(sources=set(sources)), []
        self.turns = host_turns.Turns(carry.CONFIRM_SECONDS)

    def host_changed(self):
        pass

    def now(self):
        return self.t

    def announce(self, line, params):
        self.said.append((line, params))


def _reply(response):
    return response.status, json.loads(response.body)


def test_the_settings_pages_claim_takes_turns_and_replies_exactly(monkeypatch):
    monkeypatch.setattr(carry.secrets, "randbelow", lambda n: n - 1)  # the highest number: 99
    page, key = SettingsPageStandIn(), b64(bytes(nacl.public.PrivateKey.generate().public_key))
    response = carry.claim(page, key, "10.0.0.5")
    assert _reply(response) == (202, {"host": "pending", "word": "99", "seconds": 15.0})
    cookie = response.cookies[carry.COOKIE]
    assert (cookie["httponly"], cookie["samesite"], cookie["path"]) == (True, "Strict", "/")
    token = cookie.value
    assert (page.pending.token, page.pending.word, page.pending.until, page.pending.address) == (token, "99", 115.0, "10.0.0.5")
    assert page.keys.host_public_key(_digest(token)) == key
    assert page.said == [("phones.host_claim", {"n": "99"})]
    waiting = (409, {"error": "another phone is waiting for the table to confirm it; try again shortly"})
    page.t = 101.0
    assert _reply(carry.claim(page, key, "10.0.0.6")) == waiting and page.turns.line == ["10.0.0.6"]
    page.t = 115.0  # the first phone's window is over at its last instant: a press confirms nothing
    pending = page.pending
    assert carry.confirm(page) is False and page.host_digest is None
    page.pending = pending
    page.t = 116.0  # the next turn is the one in line's
    assert _reply(carry.claim(page, key, "10.0.0.5")) == waiting
    assert carry.claim(page, key, "10.0.0.6").status == 202
    second = page.pending.token
    assert carry.confirm(page) is True and page.host_digest == _digest(second)
    assert page.said[-1] == ("phones.host_confirmed", {})


def test_the_settings_pages_claim_without_a_press_and_an_old_line(monkeypatch):
    page = SettingsPageStandIn(sources=())  # nothing at the table to press
    response = carry.claim(page, None, "10.0.0.5")
    assert _reply(response) == (200, {"host": True}) and page.host_digest == _digest(response.cookies[carry.COOKIE].value)
    assert page.said == [("phones.host_confirmed", {})]
    bare = SettingsPageStandIn()
    bare.hub = None  # a page with no table (a test's own): nothing said
    assert _reply(carry.claim(bare, None, "10.0.0.5")) == (200, {"host": True}) and bare.said == []
    lined = SettingsPageStandIn()
    lined.turns = host_turns.Turns(15.0)  # the page's own line, kept between claims
    lined.turns.line = ["10.0.0.9"]
    lined.turns.start = 100.0
    assert carry.claim(lined, None, "10.0.0.5").status == 409


def test_a_host_cookie_digest_has_a_bounded_token():
    assert carry.digest("t" * 200) == _digest("t" * 200) and carry.digest("t" * 201) is None
    assert carry.digest("") is None and carry.digest(None) is None


def test_a_new_key_asked_for_a_host_screen_released_meanwhile_binds_nothing():
    from tests.test_phones_host_mutants import FakeServer

    server = FakeServer()
    server.seats.claim(HOST, "real")
    laptop = b64(bytes(nacl.public.PrivateKey.generate().public_key))
    server.pending_host = host.PendingHost("real", "37", server.gate.now() + host.CONFIRM_SECONDS, key=laptop)
    server.seats.release(HOST)  # `release host` at the table meanwhile
    assert host.confirm_host(server) is False and server.said == []
    assert server.keys.host_public_key(_digest("real")) is None
    server.seats.claim(HOST, "real")
    server.pending_host = host.PendingHost("real", "37", server.gate.now() + host.CONFIRM_SECONDS, key=laptop)
    assert host.confirm_host(server) is True and server.said == [("phones.host_key_confirmed", {})]
    assert server.keys.host_public_key(_digest("real")) == laptop and server.pending_host is None
