"""settings_page.py against its mutants (issue 38): the real `SettingsPage`, served in-process
with a recording `apply`/`announce`/`play`, asked through aiohttp's client from phones on
addresses of their own. Each test pins one handler's exact replies (status, body, cookie,
headers), what `apply` received and what the narrator said, so a changed line is a failed test."""

import asyncio
import base64
import json
import tomllib

import aiohttp
import nacl.public
import pytest
from aiohttp.test_utils import TestServer

from narrator.appliance.table import DEFAULT_TABLE
from narrator.errors import NarratorError, Refusal
from narrator.phones import crypto, naming, settings_page
from narrator.phones.settings_page import HEADERS, SEAT_COOKIE, STATIC, SettingsPage
from narrator.phones.table import page_packs

TABLE = {**tomllib.loads(DEFAULT_TABLE), "names": ["Aki", "Ben", "Chika", "Dai", "Emi"]}
JSON = {"Content-Type": "application/json"}


class Table:
    """The appliance's side, recorded: what the page asked of it and what was said."""

    def __init__(self, refuse=None, table=None):
        self.applied, self.said, self.played, self.refuse = [], [], 0, refuse
        self.tables = table

    def table(self):
        if isinstance(self.tables, Exception):
            raise self.tables
        return self.tables or dict(TABLE)

    def apply(self, what, value):
        self.applied.append((what, value))
        if self.refuse is not None:
            raise self.refuse

    def announce(self, line, params):
        self.said.append((line, params))

    def play(self):
        self.played += 1


def serve(test, table=None, lang="ja", delay=0):
    """`test(page, table, phones)`: three phones on 127.0.0.21-23, the page's own Origin."""
    table = table or Table()
    settings_page.WRONG_CODE_DELAY, old = delay, settings_page.WRONG_CODE_DELAY
    try:
        page = SettingsPage(table.table, table.apply, table.announce, table.play, page_packs(), lang)
    finally:
        settings_page.WRONG_CODE_DELAY = old

    async def main():
        server = TestServer(page.app(), host="127.0.0.1")
        await server.start_server()
        base = f"http://127.0.0.1:{server.port}"
        phones = [aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base},
                                        connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{21 + k}", 0)))
                  for k in range(3)]
        try:
            return await test(page, table, phones)
        finally:
            for phone in phones:
                await phone.close()
            await server.close()

    return asyncio.run(main())


async def post(phone, path, body):
    async with phone.post(path, json=body) as r:
        return r.status, await r.json()


async def join(page, phone, **extra):
    return await post(phone, "/api/settings/join", {"code": page.table_code, **extra})


def cookies(phone):
    return {c.key: c for c in phone.cookie_jar}


# --- refused ---------------------------------------------------------------------------------

def test_a_refusal_carries_its_lines_and_a_plain_error_carries_none():
    plain = settings_page.refused(NarratorError("no such preset"))
    assert plain.status == 400 and json.loads(plain.body) == {"error": "no such preset"}
    worded = Refusal("seat_named_here", minutes=10).worded("en")
    reply = settings_page.refused(worded)
    body = json.loads(reply.body)
    assert reply.status == 400 and body["error"] == str(worded) and body["errors"] == worded.lines()
    assert set(body["errors"]) == {"ja", "en"}


# --- the page and its files ------------------------------------------------------------------

def test_a_page_loaded_from_the_other_page_still_gets_its_scripts_here():
    """The game's page and the settings page take turns at one address. A phone that reloads
    as a game starts or ends may get the HTML from one and ask the other for its scripts; a
    script refused left it at 「…」 for good (issue 37's evening). Each page's scripts are served
    by the other, and the last one (stuck.js) reloads a page whose own script never ran."""
    import re
    from narrator.phones import page_files

    for html in ("index.html", "settings.html"):
        scripts = re.findall(r'src="/static/([^"]+)"', (STATIC / html).read_text())
        assert scripts[-1] == "stuck.js", html
        for other in (page_files.STATIC_FILES, settings_page.FILES):
            missing = [name for name in scripts + ["style.css", "strings.json"] if name not in other]
            assert not missing, f"{html}'s {missing} refused by a page"

    async def check(page, table, phones):
        for name in ("app.js", "scrypt.js", "stuck.js"):  # the game's page's, asked of the settings page
            async with phones[0].get(f"/static/{name}") as r:
                assert r.status == 200 and await r.read() == (STATIC / name).read_bytes(), name

    serve(check)


def test_the_page_and_each_of_its_files_come_with_their_type_and_headers_and_nothing_else():
    async def check(page, table, phones):
        async with phones[0].get("/") as r:
            assert r.status == 200 and r.headers["Content-Type"] == "text/html; charset=utf-8"
            assert await r.read() == (STATIC / "settings.html").read_bytes()
            for key, value in HEADERS.items():
                assert r.headers[key] == value
        for name, kind in settings_page.FILES.items():
            async with phones[0].get(f"/static/{name}") as r:
                assert r.status == 200 and r.headers["Content-Type"] == f"{kind}; charset=utf-8", name
                assert await r.read() == (STATIC / name).read_bytes()
                assert r.headers["Cache-Control"] == "no-store"
        for name in ("settings.html", "index.html", "..%2Fsettings_page.py", "nope"):
            async with phones[0].get(f"/static/{name}") as r:
                assert (r.status, await r.json()) == (404, {"error": "no such file"}), name
        assert table.applied == [] and table.said == []

    serve(check)


# --- the view ----------------------------------------------------------------------------------

def test_the_view_says_who_asks_and_the_pages_key_and_language():
    async def check(page, table, phones):
        host, player, stranger = phones
        async with stranger.get("/api/settings") as r:
            view = await r.json()
        assert r.status == 200
        assert (view["lang"], view["host"], view["seat"], view["has_host"], view["key"]) == (
            "en", False, None, False, page.keys.public_key)
        await join(page, host)
        assert (await post(player, "/api/settings/seat", {"seat": 2, "name": "Bo"}))[0] == 200
        async with host.get("/api/settings") as r:
            view = await r.json()
        assert (view["host"], view["seat"], view["has_host"]) == (True, None, True)
        async with player.get("/api/settings") as r:
            view = await r.json()
        assert (view["host"], view["seat"], view["has_host"]) == (False, 2, True)
        assert [n["name"] for n in view["names"]] == TABLE["names"] and view["presets"] == []

    serve(check, lang="en")


def test_a_table_file_that_cannot_be_read_is_a_409_with_its_line():
    async def check(page, table, phones):
        async with phones[0].get("/api/settings") as r:
            return r.status, await r.json()

    assert serve(check, Table(table=NarratorError("table file t.toml: broken"))) == (
        409, {"error": "table file t.toml: broken"})


# --- join ----------------------------------------------------------------------------------------

def test_the_table_code_makes_one_host_screen_with_its_cookie_and_a_wrong_one_shuts_its_address_out():
    async def check(page, table, phones):
        host, stranger, other = phones
        assert await post(stranger, "/api/settings/join", {"code": "nope"}) == (
            403, {"error": "wrong code: the narrator says the table code"})
        assert await post(stranger, "/api/settings/join", {"code": page.table_code}) == (
            429, {"error": "one code a second from each phone: wait a moment and try again"})
        assert page.host_digest is None
        assert await post(other, "/api/settings/join", {"code": 12345678}) == (
            403, {"error": "wrong code: the narrator says the table code"})
        spaced = " " + page.table_code.upper() + " "
        assert await post(host, "/api/settings/join", {"code": spaced}) == (200, {"host": True})
        cookie = cookies(host)[settings_page.HOST_COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
        assert page.host_digest is not None
        token = cookie.value
        assert await join(page, host) == (200, {"host": True})
        assert cookies(host)[settings_page.HOST_COOKIE].value == token  # no new token
        page.gate = type(page.gate)(delay=0)
        assert await join(page, stranger) == (409, {"error": "the table already has a host screen"})
        assert table.said == [] and table.applied == []

    serve(check, delay=60)


def test_a_join_that_is_not_json_is_refused_and_holds_the_gate_for_nobody():
    async def check(page, table, phones):
        async with phones[0].post("/api/settings/join", data=b"{not json", headers=JSON) as r:
            assert r.status == 400
        assert page.gate.wait_left("127.0.0.21") == 0
        assert await join(page, phones[0]) == (200, {"host": True})

    serve(check, delay=60)


def test_a_wrong_try_meanwhile_from_the_same_address_makes_a_right_one_wait():
    async def check(page, table, phones):
        real = settings_page.wire.json_body

        async def body_then_wrong(request):
            body = await real(request)
            page.gate.wrong(request.remote)  # a wrong try from this address landed while this one read
            return body

        settings_page.wire.json_body = body_then_wrong
        try:
            reply = await join(page, phones[0])
        finally:
            settings_page.wire.json_body = real
        assert reply == (429, {"error": "one code a second from each phone: wait a moment and try again"})
        assert page.host_digest is None

    serve(check, delay=60)


# --- change -----------------------------------------------------------------------------------------

def test_only_the_host_screen_changes_and_a_change_is_one_to_five_settings():
    async def check(page, table, phones):
        host, stranger, _ = phones
        assert await post(stranger, "/api/settings/change", {"changes": {"discussion": 120}}) == (
            403, {"error": "only the host screen changes the settings"})
        await join(page, host)
        bad = (400, {"error": "send the changed settings as {\"changes\": {KEY: VALUE}}"})
        for body in ({}, {"changes": {}}, {"changes": [1]}, {"changes": "x"},
                     {"changes": {f"k{i}": i for i in range(6)}}):
            assert await post(host, "/api/settings/change", body) == bad, body
        assert table.applied == [] and table.said == []
        five = {"discussion": 120, "night": 30, "x1": 1, "x2": 2, "x3": 3}
        assert await post(host, "/api/settings/change", {"changes": five}) == (200, {"ok": True})
        assert table.applied == [("change", five)]
        assert table.said == [("appliance.changed", {"what": [["appliance.setting.discussion", 0]]})]

    serve(check)


def test_a_change_names_its_first_known_setting_or_says_another_one_changed():
    async def check(page, table, phones):
        host = phones[0]
        await join(page, host)
        assert await post(host, "/api/settings/change", {"changes": {"zzz": 1, "discussion": 99}}) == (200, {"ok": True})
        assert await post(host, "/api/settings/change", {"changes": {"zzz": 1}}) == (200, {"ok": True})
        assert table.said == [("appliance.changed", {"what": [["appliance.setting.discussion", 0]]}),
                              ("appliance.changed_other", {})]

    serve(check)


def test_a_refused_change_is_the_tables_line_and_nothing_is_said():
    worded = Refusal("seat_named_here", minutes=10).worded("ja")

    async def check(page, table, phones):
        await join(page, phones[0])
        status, body = await post(phones[0], "/api/settings/change", {"changes": {"discussion": 1}})
        assert (status, body) == (400, {"error": str(worded), "errors": worded.lines()})
        assert table.applied == [("change", {"discussion": 1})] and table.said == []

    serve(check, Table(refuse=worded))


# --- presets -------------------------------------------------------------------------------------------

def test_a_preset_is_saved_or_picked_by_the_host_screen_and_said_by_its_name():
    async def check(page, table, phones):
        host, stranger, _ = phones
        assert await post(stranger, "/api/settings/preset", {"save": "five"}) == (
            403, {"error": "only the host screen changes the settings"})
        await join(page, host)
        bad = (400, {"error": "send {\"save\": NAME} or {\"pick\": NAME}"})
        for body in ({}, {"save": 5}, {"pick": None}, {"pick": ["five"]}, {"other": "five"}):
            assert await post(host, "/api/settings/preset", body) == bad, body
        assert table.applied == []
        assert await post(host, "/api/settings/preset", {"save": " five "}) == (200, {"ok": True})
        assert await post(host, "/api/settings/preset", {"pick": "five"}) == (200, {"ok": True})
        assert await post(host, "/api/settings/preset", {"pick": ""}) == (200, {"ok": True})
        assert await post(host, "/api/settings/preset", {"save": "six", "pick": "five"}) == (200, {"ok": True})
        assert table.applied == [("save", " five "), ("pick", "five"), ("pick", ""), ("save", "six")]
        assert table.said == [("appliance.preset_saved", {"name": "five"}),
                              ("appliance.preset_picked", {"name": "five"}),
                              ("appliance.recommended_picked", {"name": ""}),
                              ("appliance.preset_saved", {"name": "six"})]

    serve(check)


def test_a_refused_preset_is_the_tables_line_and_nothing_is_said():
    async def check(page, table, phones):
        await join(page, phones[0])
        assert await post(phones[0], "/api/settings/preset", {"pick": "none"}) == (400, {"error": "no preset none"})
        assert await post(phones[0], "/api/settings/preset", {"save": "x"}) == (400, {"error": "no preset none"})
        assert table.applied == [("pick", "none"), ("save", "x")] and table.said == []

    serve(check, Table(refuse=NarratorError("no preset none")))


# --- seats -----------------------------------------------------------------------------------------------

def test_a_phone_takes_one_seat_with_a_cookie_and_the_host_screen_types_any():
    async def check(page, table, phones):
        host, player, stranger = phones
        bad = (400, {"error": "send {\"seat\": N, \"name\": NAME, \"reading\": READING}"})
        for body in ({}, {"seat": "2", "name": "Bo"}, {"seat": 2}, {"seat": 2, "name": 3},
                     {"seat": 2, "name": "Bo", "reading": None}):
            assert await post(player, "/api/settings/seat", body) == bad, body
        assert await post(player, "/api/settings/seat", {"seat": 2, "name": "Bo"}) == (200, {"ok": True, "seat": 2})
        cookie = cookies(player)[SEAT_COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/"
        assert page.seat_tokens == {cookie.value: 2}
        assert await post(player, "/api/settings/seat", {"seat": 2, "name": "Bo", "reading": "ぼ"}) == (
            200, {"ok": True, "seat": 2})
        assert cookies(player)[SEAT_COOKIE].value == cookie.value and len(page.seat_tokens) == 1
        assert await post(player, "/api/settings/seat", {"seat": 3, "name": "Bo"}) == (
            403, {"error": "this phone holds another seat; ask the host screen"})
        assert await post(stranger, "/api/settings/seat", {"seat": 2, "name": "Eve"}) == (
            409, {"error": "another phone holds that seat; ask the host screen"})
        await join(page, host)
        assert await post(host, "/api/settings/seat", {"seat": 2, "name": "Ben", "reading": "べん"}) == (
            200, {"ok": True, "seat": 2})
        assert await post(host, "/api/settings/seat", {"seat": 4, "name": "Dai"}) == (200, {"ok": True, "seat": 4})
        assert SEAT_COOKIE not in cookies(host) and len(page.seat_tokens) == 1
        assert table.applied == [("seat", (2, "Bo", "")), ("seat", (2, "Bo", "ぼ")), ("seat", (2, "Ben", "べん")),
                                 ("seat", (4, "Dai", ""))]
        assert table.said == [("appliance.changed", {"what": [["appliance.setting.names", 0]]})] * 4

    serve(check)


def test_one_address_names_one_seat_then_is_told_why_in_the_tables_language():
    async def check(page, table, phones):
        player = phones[0]
        assert (await post(player, "/api/settings/seat", {"seat": 1, "name": "Aki"}))[0] == 200
        player.cookie_jar.clear()  # a fresh cookie jar on the same laptop
        status, body = await post(player, "/api/settings/seat", {"seat": 3, "name": "Chika"})
        worded = Refusal("seat_named_here", minutes=int(naming.WINDOW // 60)).worded("ja")
        assert (status, body) == (429, {"error": str(worded), "errors": worded.lines()})
        assert table.applied == [("seat", (1, "Aki", ""))] and len(page.seat_tokens) == 1
        assert (await post(phones[1], "/api/settings/seat", {"seat": 3, "name": "Chika"}))[0] == 200

    serve(check)


def test_a_refused_seat_sets_no_cookie_takes_no_naming_and_says_nothing():
    async def check(page, table, phones):
        assert await post(phones[0], "/api/settings/seat", {"seat": 9, "name": "X"}) == (400, {"error": "no seat 9"})
        assert await post(phones[0], "/api/settings/seat", {"seat": 8, "name": "X"}) == (400, {"error": "no seat 9"})
        assert SEAT_COOKIE not in cookies(phones[0]) and page.seat_tokens == {} and table.said == []
        assert page.first_names.may_name("127.0.0.21")

    serve(check, Table(refuse=NarratorError("no seat 9")))


# --- play ---------------------------------------------------------------------------------------------------

def test_only_the_host_screen_starts_the_game():
    async def check(page, table, phones):
        assert await post(phones[1], "/api/settings/play", {}) == (
            403, {"error": "only the host screen starts the game"})
        assert table.played == 0
        await join(page, phones[0])
        async with phones[0].post("/api/settings/play", data=b"[", headers=JSON) as r:
            assert r.status == 400
        assert table.played == 0
        assert await post(phones[0], "/api/settings/play", {}) == (200, {"ok": True})
        assert table.played == 1 and table.applied == []

    serve(check)


# --- the sealed door --------------------------------------------------------------------------------------------

class Screen:
    """The host screen's page (`Seal.hostRequest`): its saves sealed to the page's key."""

    def __init__(self, phone, key, page):
        self.phone, self.box, self.n = phone, nacl.public.Box(key, page.keys.private_key.public_key), 0

    async def act(self, to, body):
        self.n += 1
        message = crypto.padded_json({"from": "host", "n": self.n, "to": to, "body": body}, crypto.PLAIN_REQUEST)
        sealed = {"box": base64.b64encode(bytes(self.box.encrypt(message))).decode()}
        async with self.phone.post("/api/settings/sealed", json=sealed) as r:
            reply = await r.json()
            if r.status != 200:
                return r.status, reply
        inner = json.loads(self.box.decrypt(base64.b64decode(reply["box"])))
        assert (inner["from"], inner["n"]) == ("narrator", self.n)
        return inner["status"], inner["body"]


def test_each_save_goes_sealed_through_one_door_to_its_own_handler():
    async def check(page, table, phones):
        host, stranger, _ = phones
        key = nacl.public.PrivateKey.generate()
        assert await join(page, host, key=base64.b64encode(bytes(key.public_key)).decode()) == (200, {"host": True})
        screen = Screen(host, key, page)
        assert await screen.act("change", {"changes": {"discussion": 90}}) == (200, {"ok": True})
        assert await screen.act("preset", {"pick": "five"}) == (200, {"ok": True})
        assert await screen.act("seat", {"seat": 3, "name": "Chika"}) == (200, {"ok": True, "seat": 3})
        assert await screen.act("play", {}) == (200, {"ok": True})
        assert await screen.act("other", {}) == (
            400, {"error": "a host action is one of: change, preset, seat, play"})
        assert table.applied == [("change", {"discussion": 90}), ("pick", "five"), ("seat", (3, "Chika", ""))]
        assert table.played == 1
        assert await post(host, "/api/settings/change", {"changes": {"discussion": 1}}) == (
            401, {"error": "the host screen's actions are sealed: reload the host screen"})
        assert await post(host, "/api/settings/seat", {"seat": 3, "name": "Eve"}) == (
            401, {"error": "the host screen's actions are sealed: reload the host screen"})
        assert await post(stranger, "/api/settings/sealed", {"box": "x"}) == (
            403, {"error": "only the host screen may do this"})
        assert len(table.applied) == 3 and page.seat_tokens == {}

    serve(check)


# --- the guard sees the host screen and the seated phones ----------------------------------------------------

def test_the_guard_keeps_room_for_the_host_screen_and_a_seated_phone_only():
    held = []

    async def check(page, table, phones):
        page.guard.seated = lambda transport, who: held.append(who)
        host, player, stranger = phones
        await join(page, host)
        await post(player, "/api/settings/seat", {"seat": 2, "name": "Bo"})
        held.clear()
        for phone in (host, player, stranger):
            async with phone.get("/api/settings") as r:
                assert r.status == 200
        assert held == ["host", "2"]

    serve(check)


def test_the_token_is_the_host_cookie_or_the_seat_cookie():
    page = SettingsPage(dict, lambda *a: None, lambda *a: None, lambda: None, {}, "ja")
    request = type("R", (), {"cookies": {settings_page.HOST_COOKIE: "h", SEAT_COOKIE: "s"}})()
    assert page.token(request, host_cookie=True) == "h"
    assert page.token(request) == "s"
    assert page.token(type("R", (), {"cookies": {}})()) is None


def test_the_view_lists_the_tables_saved_presets_by_name():
    async def check(page, table, phones):
        async with phones[0].get("/api/settings") as r:
            return r.status, (await r.json())["presets"]

    saved = {**TABLE, "presets": {"five": {"players": 5}, "eight": {"players": 8}}}
    assert serve(check, Table(table=saved)) == (200, ["five", "eight"])
    assert serve(check, Table(table={**TABLE, "presets": None})) == (200, [])


class Clock:
    """The gate's clock, moved by hand."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


SHUT = (429, {"error": "one code a second from each phone: wait a moment and try again"})


def test_a_shut_out_address_is_refused_before_its_body_is_read_even_in_its_last_half_second():
    async def check(page, table, phones):
        clock = Clock()
        page.gate = type(page.gate)(delay=1.0, now=clock)
        assert (await post(phones[0], "/api/settings/join", {"code": "nope"}))[0] == 403
        clock.t += 0.5  # half a second left
        async with phones[0].post("/api/settings/join", data=b"{not json", headers=JSON) as r:
            assert (r.status, await r.json()) == SHUT  # not the body's 400: the body was never read
        assert await join(page, phones[0]) == SHUT
        assert page.gate.reading == {} and page.host_digest is None
        clock.t += 0.5
        assert await join(page, phones[0]) == (200, {"host": True})
        assert page.gate.reading == {}

    serve(check)


def test_a_wrong_try_meanwhile_with_half_a_second_left_still_makes_a_right_one_wait():
    async def check(page, table, phones):
        clock = Clock()
        page.gate = type(page.gate)(delay=0.5, now=clock)
        real = settings_page.wire.json_body

        async def body_then_wrong(request):
            body = await real(request)
            page.gate.wrong(request.remote)
            return body

        settings_page.wire.json_body = body_then_wrong
        try:
            assert await join(page, phones[0]) == SHUT
        finally:
            settings_page.wire.json_body = real
        assert page.host_digest is None and page.gate.reading == {}

    serve(check)


def test_an_address_with_its_joins_already_being_read_is_refused_and_each_join_ends_its_reading():
    async def check(page, table, phones):
        page.gate.reading["127.0.0.21"] = page.gate.reading_per_address  # two joins in flight
        assert await join(page, phones[0]) == SHUT
        assert page.gate.reading == {"127.0.0.21": page.gate.reading_per_address}
        page.gate.reading.clear()
        for _ in range(3):  # the host screen asks again: each join's reading ends
            assert await join(page, phones[0]) == (200, {"host": True})
            assert page.gate.reading == {}
        for _ in range(3):
            assert await post(phones[1], "/api/settings/join", {"code": page.table_code}) == (
                409, {"error": "the table already has a host screen"})
        assert page.gate.reading == {}

    serve(check)


def test_the_cookies_carry_a_fresh_24_byte_token():
    async def check(page, table, phones):
        await join(page, phones[0])
        await post(phones[1], "/api/settings/seat", {"seat": 1, "name": "Aki"})
        await post(phones[2], "/api/settings/seat", {"seat": 2, "name": "Ben"})
        seat1, seat2 = cookies(phones[1])[SEAT_COOKIE].value, cookies(phones[2])[SEAT_COOKIE].value
        assert len(seat1) == len(seat2) == 32 and seat1 != seat2
        assert page.seat_tokens == {seat1: 1, seat2: 2}

    serve(check)


# --- listening: the port kept across visits, the hub's press, the runner's settings -----------------------------

def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_page_listens_where_asked_keeps_its_port_for_the_next_visit_and_stops_twice_quietly(caplog):
    import logging

    async def main():
        from narrator.inputs.hub import ListenerHub

        page = SettingsPage(dict, lambda *a: None, lambda *a: None, lambda: None, page_packs(), "ja")
        page.hub = ListenerHub()
        wanted = _free_port()
        assert page.port is None and not page.running
        assert await page.start("127.0.0.1", wanted) == wanted == page.port
        assert page.running and page.listening.listener.sockets[0].getsockname() == ("127.0.0.1", wanted)
        assert page.allowed_hosts == {f"127.0.0.1:{wanted}", f"localhost:{wanted}"}
        assert page.hub.table_claim == page._table_confirms
        server = page.listening.runner.server
        assert (page.listening.runner._shutdown_timeout, server._kwargs["keepalive_timeout"], server.handler_cancellation) == (
            1.0, settings_page.guard.REQUEST_TIMEOUT, True)
        with caplog.at_level(logging.DEBUG, logger="aiohttp.access"):
            async with aiohttp.ClientSession() as phone:
                async with phone.get(f"http://127.0.0.1:{wanted}/static/style.css") as r:
                    assert r.status == 200
        assert [r for r in caplog.records if r.name == "aiohttp.access"] == []  # no access log
        await page.stop()
        assert not page.running and page.hub.table_claim is None and page.listening.listener is None
        await page.stop()  # a second stop finds nothing left to close
        assert await page.start("127.0.0.1", 0) == wanted  # the next visit: the same address
        page.hub.table_claim = other = (lambda: False)  # the game's page took the table's press
        await page.stop()
        assert page.hub.table_claim is other and page.listening.sweeper is None
        bare = SettingsPage(dict, lambda *a: None, lambda *a: None, lambda: None, page_packs(), "ja")
        bare.hub = ListenerHub()  # never started: the claim on the hub is another's, and kept
        bare.hub.set_table_claim(other)
        await bare.stop()
        assert bare.hub.table_claim is other

    asyncio.run(main())


def test_a_taken_port_is_one_line_naming_the_fix_and_leaves_the_page_stopped():
    import socket

    from narrator.errors import SetupError

    async def main():
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            page = SettingsPage(dict, lambda *a: None, lambda *a: None, lambda: None, page_packs(), "ja")
            with pytest.raises(SetupError) as err:
                await page.start("127.0.0.1", port)
        assert str(err.value).startswith(f"the settings page cannot listen on 127.0.0.1:{port} (")
        assert str(err.value).endswith("); choose another port with `narrator config set port N`")
        assert not page.running and page.listening.runner is None

    asyncio.run(main())


def test_claims_waiting_for_the_tables_press_queue_each_phone_by_its_own_address():
    """A claim waits for a press at the table; a second phone refused meanwhile is next in line
    (by its address), so when the first claim runs out a third phone waits behind it."""
    from types import SimpleNamespace

    from narrator.phones import carry

    async def check(page, table, phones):
        clock = Clock()
        page.now = clock
        page.hub = SimpleNamespace(sources={"button"})
        first, second, third = phones
        status, body = await join(page, first)
        assert status == 202 and body["host"] == "pending" and page.pending.address == "127.0.0.21"
        word = body["word"]
        waiting = (409, {"error": "another phone is waiting for the table to confirm it; try again shortly"})
        assert await join(page, second) == waiting
        assert page.turns.line == ["127.0.0.22"]
        clock.t += carry.CONFIRM_SECONDS + 0.1  # nobody pressed: the first claim ran out
        assert await join(page, third) == waiting  # the second phone's turn, not the third's
        status, body = await join(page, second)
        assert status == 202 and page.pending.address == "127.0.0.22"
        assert table.said == [("phones.host_claim", {"n": word}), ("phones.host_claim", {"n": body["word"]})]

    serve(check)
