"""The host screen carried across the appliance's evening (issue 23, carry.py): the settings
page's host screen, confirmed once by a press at the table, is the game's host screen with no
code to type, and the game's host screen (or none, after `release host`) is the settings
page's again. Each protection is shown twice: the attack fails with it, and succeeds with it
monkeypatched off. Real HTTP on loopback, two servers as the appliance runs them."""

import asyncio
import base64
import json
from types import SimpleNamespace

import aiohttp
import nacl.public
from aiohttp.test_utils import TestServer

from narrator import home
from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.phones import carry
from narrator.phones.host import CONFIRM_SECONDS
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import make_server, page_packs
from narrator.settings import build_settings
from narrator.table.store import GameStore


class Evening:
    """A settings page and the games after it, on one hub with a button, as `narrator serve` has."""

    def __init__(self, tmp_path):
        path = tmp_path / "table.toml"
        path.write_text(DEFAULT_TABLE, encoding="utf-8")
        self.hub = ListenerHub()
        self.hub.register("button")
        self.said = []
        app = SimpleNamespace(path=path, table=load_table(path), hub=self.hub)
        host = setup_menu.PageHost(app)
        self.page = SettingsPage(host.table, host.apply, lambda line, params: self.said.append(line),
                                 host.play, page_packs(), "ja")
        self.page.hub = self.hub
        self.now = [0.0]
        self.page.now = lambda: self.now[0]
        self.jar = aiohttp.CookieJar(unsafe=True)  # the host phone's cookies: shared by both servers

    async def open_page(self):
        self.settings_server = TestServer(self.page.app(), host="127.0.0.1")
        await self.settings_server.start_server()
        self.hub.table_claim = self.page._table_confirms  # as `SettingsPage.start` sets it
        return f"http://127.0.0.1:{self.settings_server.port}"

    async def close_page(self):
        await self.settings_server.close()
        await self.page.stop()

    def game(self):
        settings = build_settings({}, {"game": "additional-werewolf", "players": 5, "seed": 3, "phones": True,
                                       "digital_cards": "true", "names": "Aki,Ben,Chika,Dai,Emi"}, "test")
        rules = get_game("additional-werewolf")
        config = rules.configure(settings)
        store = GameStore.create(home.app_home(), rules.name, config.to_dict(), {})
        return make_server(rules, config, store, self.hub, "ja")


def phone(base, jar=None):
    return aiohttp.ClientSession(base, cookie_jar=jar if jar is not None else aiohttp.CookieJar(unsafe=True), headers={"Origin": base})


async def get(session, path):
    async with session.get(path) as r:
        return r.status, await r.json()


async def post(session, path, body):
    async with session.post(path, json=body) as r:
        return r.status, await r.json()


async def confirmed_host(evening, base, key=None):
    """The host phone types the table code on the settings page (with its page's public key,
    when given); the table presses."""
    async with phone(base, evening.jar) as host:
        body = {"code": evening.page.table_code, **({"key": key} if key else {})}
        status, reply = await post(host, "/api/settings/join", body)
        assert status == 202 and reply["host"] == "pending"
        assert (await get(host, "/api/settings"))[1]["host"] is False  # not before the press
        assert evening.hub.offer_text("done", "button") is None  # the press confirms it
        assert (await get(host, "/api/settings"))[1]["host"] is True
    assert evening.said[-2:] == ["phones.host_claim", "phones.host_confirmed"]


def test_the_settings_pages_table_code_waits_for_a_press_and_took_it_at_once_without(narrator_home, tmp_path, monkeypatch):
    async def main(confirmation):
        (tmp_path / str(confirmation)).mkdir()
        evening = Evening(tmp_path / str(confirmation))
        base = await evening.open_page()
        try:
            async with phone(base) as script:  # it heard the code said aloud
                status, _ = await post(script, "/api/settings/join", {"code": evening.page.table_code})
                return status, (await get(script, "/api/settings"))[1]["host"], evening
        finally:
            await evening.close_page()

    status, host, evening = asyncio.run(main(True))
    assert (status, host) == (202, False)
    evening.now[0] += CONFIRM_SECONDS + 1  # nobody pressed in time: a late press confirms nothing
    assert carry.confirm(evening.page) is False and evening.page.host_digest is None
    monkeypatch.setattr(carry, "TABLE_SOURCES", frozenset())  # the protection off
    assert asyncio.run(main(False))[:2] == (200, True)


def test_the_settings_host_is_the_games_host_screen_and_a_stranger_is_not(narrator_home, tmp_path):
    async def main():
        evening = Evening(tmp_path)
        base = await evening.open_page()
        confirmed = nacl.public.PrivateKey.generate()  # the key pair the settings page made
        await confirmed_host(evening, base, base64.b64encode(bytes(confirmed.public_key)).decode())
        await evening.close_page()
        server = evening.game()
        assert carry.into_game(evening.page, server)
        port = await server.start("127.0.0.1", 0)
        game = f"http://127.0.0.1:{port}"
        box = nacl.public.Box(confirmed, server.keys.private_key.public_key)
        try:
            async with phone(game, evening.jar) as host, phone(game) as stranger:
                assert (await get(host, "/api/seats"))[1]["host"] is True  # no code typed
                assert (await get(stranger, "/api/seats"))[1]["host"] is False
                assert (await get(stranger, "/api/host/code/1"))[0] == 403
                # the seat codes it shows are sealed to the key the table confirmed, not in the clear
                sealed = (await get(host, "/api/host/code/1"))[1]
                assert "code" not in sealed and "code" in json.loads(box.decrypt(base64.b64decode(sealed["box"])))
                key = base64.b64encode(bytes(nacl.public.PrivateKey.generate().public_key)).decode()
                assert (await post(stranger, "/api/host/key", {"key": key}))[0] == 403
                assert (await post(host, "/api/host/key", {"key": key}))[0] == 202  # asked aloud
                sealed = (await get(host, "/api/host/code/1"))[1]  # still to the confirmed key
                assert "code" in json.loads(box.decrypt(base64.b64decode(sealed["box"])))
            assert [line for line, _ in server.said] == ["phones.host_key_ask"]  # no new table code
        finally:
            await server.stop()
        carry.back_from_game(evening.page, server)
        base = await evening.open_page()
        try:
            async with phone(base, evening.jar) as host:  # and between games, the settings again
                assert (await get(host, "/api/settings"))[1]["host"] is True
        finally:
            await evening.close_page()

    asyncio.run(main())


def test_release_host_during_the_game_holds_on_the_settings_page_and_would_not_without_carry_back(
        narrator_home, tmp_path, monkeypatch):
    async def main(carry_back):
        evening = Evening(tmp_path)
        base = await evening.open_page()
        await confirmed_host(evening, base)
        old_code = evening.page.table_code
        await evening.close_page()
        server = evening.game()
        carry.into_game(evening.page, server)
        server.release("host")  # a lost phone: the table releases the host screen
        carry_back(evening.page, server)
        base = await evening.open_page()
        try:
            async with phone(base, evening.jar) as lost, phone(base) as script:
                held = (await get(lost, "/api/settings"))[1]["host"]
                spent = (await post(script, "/api/settings/join", {"code": old_code}))[0]
                return held, spent, evening.page.table_code == server.seats.table_code
        finally:
            await evening.close_page()

    assert asyncio.run(main(carry.back_from_game)) == (False, 403, True)
    (tmp_path / "off").mkdir()
    tmp_path = tmp_path / "off"
    assert asyncio.run(main(lambda page, server: None)) == (True, 409, False)  # the attack, unprotected


def test_a_host_screen_claimed_during_the_game_is_the_settings_pages_afterwards(narrator_home, tmp_path):
    async def main():
        evening = Evening(tmp_path)
        server = evening.game()
        assert carry.into_game(evening.page, server) is False  # nobody held the settings page
        evening.hub.retire("button")  # no press to wait for: the table code takes it at once
        port = await server.start("127.0.0.1", 0)
        game = f"http://127.0.0.1:{port}"
        try:
            async with phone(game, evening.jar) as host:
                assert (await post(host, "/api/join", {"code": server.seats.table_code}))[0] == 200
        finally:
            await server.stop()
        carry.back_from_game(evening.page, server)
        base = await evening.open_page()
        try:
            async with phone(base, evening.jar) as host, phone(base) as stranger:
                return (await get(host, "/api/settings"))[1]["host"], (await get(stranger, "/api/settings"))[1]["host"]
        finally:
            await evening.close_page()

    assert asyncio.run(main()) == (True, False)


def test_start_tapped_before_play_again_opens_answers_it_and_was_lost_before(narrator_home, tmp_path):
    """The settings page comes back before "play again?" is asked: a tap on start meanwhile
    answers the question once it opens (it waited for the next press before)."""
    from narrator.appliance.evening import AGAIN
    from narrator.cues import Ask

    async def main(answer_next):
        hub = ListenerHub()
        hub.register("button")
        host = setup_menu.PageHost(SimpleNamespace(hub=hub))
        if not answer_next:
            host._answer_next = lambda serial: asyncio.sleep(0)  # the fix off: the tap is not kept
        host.play()  # nothing is asked yet
        question = asyncio.ensure_future(hub.answer(Ask("appliance.again", AGAIN)))
        done, _ = await asyncio.wait({question}, timeout=5)
        if not done:
            question.cancel()
            return None
        return question.result().value, question.result().source

    assert asyncio.run(main(True)) == ("done", "phones")
    assert asyncio.run(main(False)) is None
