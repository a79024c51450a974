"""Issue 37, item 4: the appliance's host screen survives. After a power cut (a new service run:
a new settings page, the game's page made again from its folder) the same phone is the host
screen, with no button hold; its cookie outlives the browser (Max-Age); `release host` typed at
the menu, or asked by the button or voice and confirmed by the table, frees it as in a game; a
host screen claimed during a game is the settings page's afterwards, with its key. Real HTTP on
loopback, the servers as the appliance runs them (tests/test_host_carry.py's `Evening`)."""

import asyncio
import base64

import nacl.public

from narrator import home
from narrator.games import get_game
from narrator.phones import carry, host_keep
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import make_server, page_packs
from narrator.table.saved_games import saved_games
from tests.test_host_carry import Evening, confirmed_host, get, phone, post


def _key() -> str:
    return base64.b64encode(bytes(nacl.public.PrivateKey.generate().public_key)).decode()


def _page_after_power_cut(evening: Evening) -> SettingsPage:
    """The settings page of the next service run (serve's PageHost.made): nothing in memory."""
    page = SettingsPage(evening.page.table, evening.page.apply, lambda line, params: evening.said.append(line),
                        evening.page.play, page_packs(), "ja")
    page.hub = evening.hub
    page.now = evening.page.now
    page.keep_at(home.app_home() / host_keep.FILE)
    return page


def _resumed(hub):
    """The game's page made again from its folder after the power cut (as `play_saved` does)."""
    game = saved_games(home.app_home())[-1]
    rules = get_game(game.meta["game"])
    return make_server(rules, rules.config_from_dict(game.meta["config"]), game, hub, "ja")


def test_after_a_power_cut_the_same_phone_is_the_host_screen_of_the_game_and_the_settings(narrator_home, tmp_path):
    async def main():
        evening = Evening(tmp_path)
        evening.page.keep_at(home.app_home() / host_keep.FILE)  # as serve's PageHost does
        key = _key()
        base = await evening.open_page()
        await confirmed_host(evening, base, key)
        await evening.close_page()
        server = evening.game()
        assert carry.into_game(evening.page, server)
        # the power goes (SIGKILL): the next run makes the settings page and the game's page anew
        evening.page = _page_after_power_cut(evening)
        resumed = _resumed(evening.hub)
        carry.into_game(evening.page, resumed)
        port = await resumed.start("127.0.0.1", 0)
        try:
            async with phone(f"http://127.0.0.1:{port}", evening.jar) as host:
                in_game = (await get(host, "/api/seats"))[1]["host"]
        finally:
            await resumed.stop()
        carry.back_from_game(evening.page, resumed)
        evening.page = _page_after_power_cut(evening)  # and a second power cut, at the menu
        base = await evening.open_page()
        try:
            async with phone(base, evening.jar) as host, phone(base) as stranger:
                at_menu = (await get(host, "/api/settings"))[1]["host"]
                assert (await get(stranger, "/api/settings"))[1]["host"] is False
        finally:
            await evening.close_page()
        return in_game, at_menu, evening.page.keys.host_public_key(evening.page.host_digest) == key

    assert asyncio.run(main()) == (True, True, True)


def test_without_the_kept_host_a_power_cut_locks_the_host_screen_out(narrator_home, tmp_path, monkeypatch):
    """The fix off (no file kept, the game's own cookie on resume): as before issue 37."""
    monkeypatch.setattr(host_keep, "save", lambda *args: None)
    test_locked = {}

    async def main():
        evening = Evening(tmp_path)
        evening.page.keep_at(home.app_home() / host_keep.FILE)
        base = await evening.open_page()
        await confirmed_host(evening, base, _key())
        await evening.close_page()
        server = evening.game()
        carry.into_game(evening.page, server)
        server.seats.host_cookie = None
        server.seats._save()  # as the seats file was before: no cookie kept
        evening.page = _page_after_power_cut(evening)
        resumed = _resumed(evening.hub)
        carry.into_game(evening.page, resumed)
        port = await resumed.start("127.0.0.1", 0)
        try:
            async with phone(f"http://127.0.0.1:{port}", evening.jar) as host:
                test_locked["game"] = (await get(host, "/api/seats"))[1]["host"]
        finally:
            await resumed.stop()
        base = await evening.open_page()
        try:
            async with phone(base, evening.jar) as host:
                test_locked["menu"] = (await get(host, "/api/settings"))[1]["host"]
        finally:
            await evening.close_page()

    asyncio.run(main())
    assert test_locked == {"game": False, "menu": False}


def test_the_host_cookie_outlives_the_browser(narrator_home, tmp_path):
    async def main():
        evening = Evening(tmp_path)
        evening.hub.retire("button")  # nothing to press: the table code takes it at once
        base = await evening.open_page()
        try:
            async with phone(base) as host:
                async with host.post("/api/settings/join", json={"code": evening.page.table_code}) as r:
                    return r.status, r.cookies[carry.COOKIE]["max-age"]
        finally:
            await evening.close_page()

    status, max_age = asyncio.run(main())
    assert status == 200 and int(max_age) >= 86400  # a session cookie ("") went with the browser


def test_release_host_at_the_menu_typed_or_asked_and_confirmed(narrator_home, tmp_path):
    async def main():
        evening = Evening(tmp_path)
        evening.page.keep_at(home.app_home() / host_keep.FILE)
        evening.page.announce = lambda line, params: evening.said.append(line)
        await evening.page.start("127.0.0.1", 0)  # as serve opens it: the table's words registered
        base = f"http://127.0.0.1:{evening.page.port}"
        evening.page.allowed_hosts = None
        try:
            await confirmed_host(evening, base)
            old = evening.page.table_code
            printed = evening.hub.offer_text("release host", "keyboard")  # typed at the menu
            async with phone(base, evening.jar) as lost, phone(base) as script:
                typed = ((await get(lost, "/api/settings"))[1]["host"],
                         (await post(script, "/api/settings/join", {"code": old}))[0])
            assert not (home.app_home() / host_keep.FILE).exists()  # forgotten on the card too
            evening.page.gate.shut_until.clear()  # the script's wrong try shut 127.0.0.1 for a second
            await confirmed_host(evening, base)
            evening.hub.table_actions["release_host"]()  # the button held 5 s, or 「ホスト画面を解放」
            asked = evening.said[-1]
            assert evening.hub.offer_text("done", "button") is None  # the table's press confirms it
            async with phone(base, evening.jar) as lost:
                held = (await get(lost, "/api/settings"))[1]["host"]
            return printed, typed, asked, held, evening.said[-1]
        finally:
            await evening.page.stop()

    printed, typed, asked, held, said = asyncio.run(main())
    assert "ホスト画面を解放しました" in printed
    assert typed == (False, 403)  # the old code was said to everyone: spent
    assert (asked, held, said) == ("phones.host_release_ask", False, "phones.host_released")


def test_a_host_claimed_during_the_game_brings_its_key_back_to_the_settings_page(narrator_home, tmp_path):
    async def main():
        evening = Evening(tmp_path)
        server = evening.game()
        carry.into_game(evening.page, server)
        evening.hub.retire("button")
        key = _key()
        port = await server.start("127.0.0.1", 0)
        try:
            async with phone(f"http://127.0.0.1:{port}", evening.jar) as host:
                status = (await post(host, "/api/join", {"code": server.seats.table_code, "key": key}))[0]
        finally:
            await server.stop()
        carry.back_from_game(evening.page, server)
        return status, evening.page.keys.host_public_key(evening.page.host_digest) == key

    assert asyncio.run(main()) == (200, True)
