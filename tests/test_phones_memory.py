"""A long `narrator serve` with phones keeps no game's phone server (issue 39, item 3).

Each game's page is started, used by a phone over real HTTP on loopback and stopped, as the
appliance does at every game; afterwards nothing may hold the server, its voice packs or its
web app. aiohttp keeps each request's middleware chain in a module-level cache keyed by the
handler (a bound method of the server), so without `app_cache.forget_stopped_apps` every
game's server stayed alive (+49 MiB per 100 games in `bench/soak_serve.py`)."""

import asyncio
import gc
import weakref

import aiohttp
import pytest
from aiohttp import web_app

from narrator import home
from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.phones import app_cache
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import PAGE_LANGUAGES, make_server, page_packs
from narrator.settings import build_settings
from narrator.sound import voicepack
from narrator.table.store import GameStore

GAMES = 3
VISITS = 2
"""Settings-page visits (each stop waits out its runner's shutdown: about a second)."""


def _game_server(hub):
    settings = build_settings({}, {"game": "additional-werewolf", "players": 5, "seed": 3, "phones": True,
                                   "digital_cards": "true", "names": "Aki,Ben,Chika,Dai,Emi"}, "test")
    rules = get_game("additional-werewolf")
    config = rules.configure(settings)
    store = GameStore.create(home.app_home(), rules.name, config.to_dict(), {})
    return make_server(rules, config, store, hub, "en"), store


async def _a_phone_visits(base, paths):
    async with aiohttp.ClientSession(base, cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers={"Origin": base}) as phone:
        statuses = []
        for method, path, body in paths:
            async with phone.request(method, path, json=body) as r:
                statuses.append(r.status)
        return statuses


def _games_kept():
    """Weak references to each game's server, packs and app after GAMES games, and the statuses seen."""
    async def main():
        hub, kept, statuses = ListenerHub(), [], []
        for _ in range(GAMES):
            server, store = _game_server(hub)
            port = await server.start("127.0.0.1", 0)
            statuses += await _a_phone_visits(f"http://127.0.0.1:{port}", [
                ("GET", "/api/seats", None), ("POST", "/api/join", {"code": "WRONGCODE1"}), ("GET", "/api/view", None)])
            kept += [weakref.ref(server), weakref.ref(server.listening.runner.app)]
            kept += [weakref.ref(pack) for pack in server.packs.values()]
            await server.stop()
            store.close()
            del server, store
        return kept, statuses

    kept, statuses = asyncio.run(main())
    gc.collect()
    return [ref for ref in kept if ref() is not None], statuses


def test_no_games_phone_server_outlives_its_game(narrator_home):
    alive, statuses = _games_kept()
    assert statuses == [200, 403, 401] * GAMES  # every request went through the page's middleware
    shared = [voicepack.load_pack(lang) for lang in PAGE_LANGUAGES]  # read once per process (pack_cache.py)
    assert [ref for ref in alive if not any(ref() is pack for pack in shared)] == []


def test_without_forgetting_aiohttps_cache_every_games_server_stays(narrator_home, monkeypatch):
    monkeypatch.setattr(app_cache, "forget_stopped_apps", lambda: None)
    alive, _ = _games_kept()
    assert len(alive) == GAMES * 4  # each game's server, its app and its two page packs


def _settings_apps_kept():
    async def main():
        page = SettingsPage(lambda: {}, lambda kind, arg: None, lambda line, params: None, lambda: None,
                            page_packs(), "en")
        kept, statuses = [], []
        for _ in range(VISITS):  # the settings page between games: opened, visited, closed
            port = await page.start("127.0.0.1", 0)
            statuses += await _a_phone_visits(f"http://127.0.0.1:{port}", [("POST", "/api/settings/join", {})])
            kept.append(weakref.ref(page.listening.runner.app))
            await page.stop()
        return kept, statuses

    kept, statuses = asyncio.run(main())
    gc.collect()
    return [ref for ref in kept if ref() is not None], statuses


def test_the_settings_page_keeps_no_visits_app(narrator_home):
    alive, statuses = _settings_apps_kept()
    assert len(statuses) == VISITS and 500 not in statuses
    assert alive == []


def test_without_forgetting_the_settings_pages_apps_stay(narrator_home, monkeypatch):
    monkeypatch.setattr(app_cache, "forget_stopped_apps", lambda: None)
    alive, _ = _settings_apps_kept()
    assert len(alive) == VISITS


@pytest.mark.parametrize("cache", ["gone", "not an lru_cache"])
def test_an_aiohttp_without_that_cache_ends_the_game_all_the_same(narrator_home, monkeypatch, cache):
    if cache == "gone":
        monkeypatch.delattr(web_app, "_cached_build_middleware")
    else:
        monkeypatch.setattr(web_app, "_cached_build_middleware", web_app._build_middlewares)
    app_cache.forget_stopped_apps()  # nothing raised: `PhoneServer.stop` goes on
