"""A phone that reloads just as the address changes hands (issue 37's evening): the game's
page and the settings page take turns at one address, so a reload at a game's end can get the
game's HTML from the game and its scripts from the settings page that took its place. Then
the settings page refused app.js and the phone stayed at 「…」 for good; now it serves it, the
game's script finds no game and reloads to the settings page. Real Chromium at phone size, ja;
the game's HTML is handed to the first navigation by Playwright (the game just gone)."""

import asyncio
from types import SimpleNamespace

import pytest

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.phones.settings_page import STATIC, SettingsPage
from narrator.phones.table import page_packs
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright


def settings_page(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    host = setup_menu.PageHost(SimpleNamespace(path=path, table=load_table(path)))
    return SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")


DRAWN = "() => typeof namesCard === 'function' && !document.body.innerText.includes('…')"
"""The settings page drawn: its script ran and the placeholder 「…」 is gone."""


def test_the_games_html_with_the_settings_pages_scripts_ends_on_the_settings_page(tmp_path):
    page = settings_page(tmp_path)
    served = []

    async def game_html_once(route):
        if served:
            return await route.continue_()
        served.append(route.request.url)  # the game's page, as its last reply before it stopped
        await route.fulfill(status=200, headers={"Content-Type": "text/html; charset=utf-8"},
                            body=(STATIC / "index.html").read_bytes())

    async def drive():
        port = await page.start("127.0.0.1", 0)
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    phone = await new_phone(browser)
                    await phone.route(f"http://127.0.0.1:{port}/", game_html_once)
                    await phone.goto(f"http://127.0.0.1:{port}/")
                    # the settings page drawn (its language button, its card) within a bound
                    await phone.wait_for_function(DRAWN, timeout=20000)
                    assert served  # the first page was the game's HTML
                finally:
                    await browser.close()
        finally:
            await page.stop()

    asyncio.run(drive())


@pytest.mark.parametrize("lost", ["settings.js", "strings.json"])
def test_a_page_whose_script_or_words_never_came_is_drawn_all_the_same(tmp_path, lost):
    """Nothing answered for the page's own script (the address between the two pages): the
    last script, stuck.js, loads the page again two seconds later. Nothing answered for its
    words (strings.json): the page asks again a second later. Either way it is drawn."""
    page = settings_page(tmp_path)
    dropped = []

    async def drop_once(route):
        if dropped:
            return await route.continue_()
        dropped.append(route.request.url)
        await route.abort("connectionrefused")

    async def drive():
        port = await page.start("127.0.0.1", 0)
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    phone = await new_phone(browser)
                    await phone.route(f"**/static/{lost}", drop_once)
                    await phone.goto(f"http://127.0.0.1:{port}/")
                    await phone.wait_for_function(DRAWN, timeout=20000)
                    assert dropped
                finally:
                    await browser.close()
        finally:
            await page.stop()

    asyncio.run(drive())
