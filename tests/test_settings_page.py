"""The host screen's settings page (issue 23): who may change the table, what a refusal says,
and a player's phone typing its own name. Each protection is shown twice: the attack fails
with it, and succeeds with it monkeypatched off."""

import asyncio
import tomllib
from types import SimpleNamespace

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table, update_table
from narrator.phones import settings_page
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs


def table_with_names(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    update_table(path, {"names": ["Aki", "Ben", "Chika", "Dai", "Emi"]})
    return path


def run(tmp_path, test, monkeypatch=None):
    path = table_with_names(tmp_path)
    app = SimpleNamespace(path=path, table=load_table(path))
    said = []
    host = setup_menu.PageHost(app)
    host.announce = lambda line, params: said.append((line, params))
    page = SettingsPage(host.table, host.apply, host.announce, host.play, page_packs(), "ja")

    async def main():
        server = TestServer(page.app(), host="127.0.0.1")
        await server.start_server()
        base = f"http://127.0.0.1:{server.port}"
        phones = [aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base},
                                        connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{11 + k}", 0)))
                  for k in range(3)]  # three phones, three addresses
        try:
            await test(page, phones, said)
        finally:
            for phone in phones:
                await phone.close()
            await server.close()

    asyncio.run(main())
    return path


async def post(phone, path, body):
    async with phone.post(path, json=body) as r:
        return r.status, await r.json()


def test_only_the_host_screen_changes_the_table_and_a_refusal_is_the_tables_own_line(tmp_path, monkeypatch):
    monkeypatch.setattr(settings_page, "WRONG_CODE_DELAY", 0)

    async def check(page, phones, said):
        host, stranger, _ = phones
        assert await post(stranger, "/api/settings/change", {"changes": {"discussion": 120}}) == (
            403, {"error": "only the host screen changes the settings"})
        assert await post(stranger, "/api/settings/join", {"code": "00000000"}) == (
            403, {"error": "wrong code: the narrator says the table code"})
        assert (await post(host, "/api/settings/join", {"code": page.table_code}))[0] == 200
        assert await post(stranger, "/api/settings/join", {"code": page.table_code}) == (
            409, {"error": "the table already has a host screen"})
        status, reply = await post(host, "/api/settings/change", {"changes": {"discussion": 99999}})
        assert status == 400 and reply["error"].startswith("話し合いの時間は3600以下")  # a ja table, no file path
        assert reply["errors"]["en"].startswith("discussion must be at most")
        assert await post(host, "/api/settings/change", {"changes": {"discussion": 120}}) == (200, {"ok": True})
        assert said == [("appliance.changed", {"what": [["appliance.setting.discussion", 0]]})]
        async with host.get("/api/settings") as r:
            view = await r.json()
        assert view["host"] is True
        [row] = [s for s in view["settings"] if s["key"] == "discussion"]
        assert row["value"] == 120 and row["label"]["ja"] == "話し合いの時間"
        assert view["labels"]["peddler"]["ja"] == "香具師"

    path = run(tmp_path, check)
    assert tomllib.loads(path.read_text(encoding="utf-8"))["discussion"] == 120


def test_without_the_host_check_a_stranger_would_change_the_table(tmp_path, monkeypatch):
    monkeypatch.setattr(SettingsPage, "is_host", lambda self, request: True)

    async def attack(page, phones, said):
        assert await post(phones[1], "/api/settings/change", {"changes": {"discussion": 30}}) == (200, {"ok": True})

    path = run(tmp_path, attack)
    assert tomllib.loads(path.read_text(encoding="utf-8"))["discussion"] == 30


def test_a_page_elsewhere_cannot_post_and_could_without_the_origin_check(tmp_path, monkeypatch):
    async def attack(page, phones, said):
        assert (await post(phones[0], "/api/settings/join", {"code": page.table_code}))[0] == 200
        async with phones[0].post("/api/settings/change", json={"changes": {"discussion": 30}},
                                  headers={"Origin": "http://evil.example"}) as r:
            return r.status

    statuses = []

    async def checked(page, phones, said):
        statuses.append(await attack(page, phones, said))

    (tmp_path / "on").mkdir()
    run(tmp_path / "on", checked)

    @aiohttp.web.middleware
    async def no_check(self, request, handler):
        return await handler(request)

    monkeypatch.setattr(SettingsPage, "_same_origin", no_check)
    (tmp_path / "off").mkdir()
    path = run(tmp_path / "off", checked)
    assert statuses == [403, 200]
    assert tomllib.loads(path.read_text(encoding="utf-8"))["discussion"] == 30


def test_a_players_phone_types_its_own_seats_name_and_reading_only(tmp_path):
    async def check(page, phones, said):
        host, ben, other = phones
        assert await post(ben, "/api/settings/seat", {"seat": 2, "name": "健一", "reading": "けんいち"}) == (
            200, {"ok": True, "seat": 2})
        assert await post(ben, "/api/settings/seat", {"seat": 3, "name": "x", "reading": ""}) == (
            403, {"error": "this phone holds another seat; ask the host screen"})
        assert await post(other, "/api/settings/seat", {"seat": 2, "name": "y", "reading": ""}) == (
            409, {"error": "another phone holds that seat; ask the host screen"})
        status, reply = await post(other, "/api/settings/seat", {"seat": 3, "name": "はい", "reading": ""})
        assert status == 400 and "is an answer or command word" in reply["errors"]["en"]
        assert "答えや操作の言葉" in reply["error"] == reply["errors"]["ja"]
        async with host.get("/api/settings") as r:
            view = await r.json()
        assert view["names"][1] == {"name": "健一", "reading": "けんいち", "said": "けんいち"}

    path = run(tmp_path, check)
    assert tomllib.loads(path.read_text(encoding="utf-8"))["names"] == ["Aki", "健一:けんいち", "Chika", "Dai", "Emi"]


def test_a_rebound_name_gets_nothing_and_would_without_the_host_check(tmp_path):
    """DNS rebinding: a page at evil.example points its name at the table's address; its
    requests carry its own Host (and a matching Origin). The page answers only its own names."""
    path = table_with_names(tmp_path)
    app = SimpleNamespace(path=path, table=load_table(path))
    host = setup_menu.PageHost(app)
    page = SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")

    async def seat_by_rebinding(check=True):
        port = await page.start("127.0.0.1", 0)
        if not check:
            page.allowed_hosts = None  # the protection off
        evil = f"evil.example:{port}"
        try:
            async with aiohttp.ClientSession() as session:
                async with session.post(f"http://127.0.0.1:{port}/api/settings/seat",
                                        json={"seat": 1, "name": "Mallory", "reading": ""},
                                        headers={"Host": evil, "Origin": f"http://{evil}"}) as r:
                    return r.status
        finally:
            await page.stop()

    assert asyncio.run(seat_by_rebinding()) == 421
    assert load_table(path)["names"][0] == "Aki"
    assert asyncio.run(seat_by_rebinding(check=False)) == 200
    assert load_table(path)["names"][0] == "Mallory"


@pytest.mark.parametrize("protected", [False, True])
def test_one_laptop_with_a_fresh_cookie_jar_per_seat_names_one_seat_only(tmp_path, monkeypatch, protected):
    """Issue 38, item 7: a laptop named every seat first (a new cookie jar for each), and the
    players then got 409. Now an address that named a seat with a new cookie names no other
    for a while; the players, each on their own phone, name theirs."""
    from narrator.phones import naming

    if not protected:
        monkeypatch.setattr(naming.FirstNames, "may_name", lambda self, address: True)
    results = {}

    async def check(page, phones, said):
        clock = [1000.0]
        page.now = lambda: clock[0]
        base = str(phones[0]._base_url)
        statuses = []
        for number in range(1, 6):  # the laptop, one address, a fresh cookie jar each time
            async with aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base},
                                             connector=aiohttp.TCPConnector(local_addr=("127.0.0.66", 0))) as laptop:
                status, reply = await post(laptop, "/api/settings/seat", {"seat": number, "name": f"M{number}", "reading": ""})
                statuses.append(status)
                if status == 429:
                    assert "席は1台に1つ" in reply["error"] == reply["errors"]["ja"]
                    assert "each phone takes one" in reply["errors"]["en"]
        results["laptop"] = statuses
        results["players"] = [(await post(phones[k], "/api/settings/seat", {"seat": k + 2, "name": f"P{k}",
                                                                            "reading": ""}))[0] for k in range(2)]
        clock[0] += naming.WINDOW  # a while later the address may name a seat again
        async with aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base},
                                         connector=aiohttp.TCPConnector(local_addr=("127.0.0.66", 0))) as laptop:
            results["later"] = (await post(laptop, "/api/settings/seat", {"seat": 5, "name": "M5", "reading": ""}))[0]

    run(tmp_path, check)
    if protected:
        assert results == {"laptop": [200, 429, 429, 429, 429], "players": [200, 200], "later": 200}
    else:
        assert results == {"laptop": [200] * 5, "players": [409, 409], "later": 409}


def test_first_names_forget_the_oldest_address_past_their_bound():
    from narrator.phones import naming

    clock = [0.0]
    names = naming.FirstNames(now=lambda: clock[0], window=10.0)
    names.named("a")
    assert not names.may_name("a") and names.may_name("b")
    clock[0] = 9.9
    assert not names.may_name("a")
    clock[0] = 10.0
    assert names.may_name("a")
    names.named("a")
    for k in range(naming.KEPT):
        names.named(f"x{k}")
    assert len(names.named_at) == naming.KEPT and "a" not in names.named_at and "x0" in names.named_at
    names.named("x1")  # named again: the newest, and nobody else goes for it
    assert len(names.named_at) == naming.KEPT and list(names.named_at)[-1] == "x1"
    names.named("y")
    assert "x1" in names.named_at and "x0" not in names.named_at and "x2" in names.named_at
    assert len(names.named_at) == naming.KEPT and not names.may_name("y")
