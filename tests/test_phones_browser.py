"""A whole Additional Werewolf game with digital cards played in real browsers.

Headless Chromium from Debian (`/usr/bin/chromium`) driven by Playwright for Python, one
browser context per player (its own cookies, like its own phone), a phone-sized viewport,
Japanese page. Each player joins by tapping their seat, reveals their cards by tapping,
answers the narrator's questions and their own private ones by tapping buttons, and sees
the winners. On failure every phone's screen is saved to `test-artifacts/`.
"""

import asyncio
import os
from pathlib import Path

import pytest

from narrator.games.additional_werewolf import cards
from tests.phones_harness import NAMES5, open_table
from tests.phones_policy import choose
from tests.setup_parts import missing, require_import

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("NARRATOR_TEST_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]

if os.environ.get("CI"):  # CI installs both (scripts/setup --test): a missing one is a failure there
    import playwright.async_api as playwright_api

    assert CHROMIUM.exists(), "scripts/setup --test did not install Debian's chromium"
else:
    playwright_api = require_import("playwright.async_api", "test", "the test extras are missing: scripts/setup --test")
    if not CHROMIUM.exists():
        missing("test", "Debian's chromium is missing: run scripts/setup --test (apt-get install chromium)",
                allow_module_level=True)


async def view_of(page):
    """The view the page's own session gets (its own cookie)."""
    return await page.evaluate("fetch('/api/view').then(r => r.json())")


async def tap_answer(page, table, view):
    ask = view["ask"]
    value = choose(table, ask)
    if isinstance(value, list):
        for choice in value:
            await page.click(f'#ask button[data-choice="{choice}"]')
        await page.click("#submit")
    else:
        await page.click(f'#ask button[data-choice="{value}"]')
    return value


def test_digital_cards_game_in_five_browsers(request):
    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        names = NAMES5.split(",")
        pages = {}
        async with playwright_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            try:
                for name in names:
                    context = await browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP",
                                                        has_touch=True, is_mobile=True)
                    page = await context.new_page()
                    pages[name] = page
                    await page.goto(table.base + "/")
                    await page.click(f'button[data-seat="{name}"]')
                    await page.wait_for_selector("#who:text-is('%s')" % name)
                await check_cards_hidden_until_tapped(table, pages)
                await play(table, pages)
                state = await table.task
                assert state.winner == "citizens"
                for name, page in pages.items():
                    await page.wait_for_selector("#result")
                    won = await page.get_attribute("#you-won", "data-won")
                    assert won == str(cards.role(table.config, state, name) == "citizen").lower()
                    assert "勝利" in await page.inner_text("#result")
            except BaseException:
                await screenshots(pages, request.node.name)
                raise
            finally:
                await browser.close()
                await table.close()

    asyncio.run(main())


async def check_cards_hidden_until_tapped(table, pages):
    for name, page in pages.items():
        await page.wait_for_selector("#reveal")
        assert await page.locator("#role").count() == 0  # hidden by default
        await page.click("#reveal")
        role = await page.get_attribute("#role", "data-role")
        assert role == cards.role(table.config, table.state, name)
        assert await page.get_attribute("#card", "data-card") == table.state.extras_of[table.config.names.index(name)]
        await page.click("#reveal")
        assert await page.locator("#role").count() == 0


async def play(table, pages, limit: float = 120.0):
    """Tap through the game: private questions on their player's phone, public ones by turns."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    names = list(pages)
    answered = set()
    saw_night_screen = saw_private_ja = False
    while not table.task.done():
        assert loop.time() < end, "the game did not end in time"
        for i, name in enumerate(names):
            page = pages[name]
            view = await view_of(page)
            ask = view["ask"]
            if not ask or ask["serial"] in answered:
                continue
            if not ask["private"] and i != ask["serial"] % len(names):
                continue
            await page.wait_for_selector(f'#ask[data-serial="{ask["serial"]}"]')
            if ask["private"]:
                assert "あなたの番です" in await page.inner_text("#ask")
                saw_private_ja = True
            if view["phase"] == "night":
                saw_night_screen |= await page.evaluate("document.body.className") == "phase-night"
            await tap_answer(page, table, view)
            answered.add(ask["serial"])
            break
        await asyncio.sleep(0.02)
    assert saw_night_screen and saw_private_ja


async def screenshots(pages, test_name):
    folder = ARTIFACTS / test_name
    folder.mkdir(parents=True, exist_ok=True)
    for name, page in pages.items():
        try:
            await page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        except Exception:  # a crashed page must not hide the real failure
            pass
    print(f"phone screenshots: {folder}")


def test_bestia_magica_six_players_in_six_browsers(request):
    from tests.test_phones_bestia import DEAL, NAMES, memo_for, vote_for

    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
        pages = {}
        async with playwright_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            try:
                for name in NAMES:
                    context = await browser.new_context(viewport={"width": 360, "height": 740}, locale="ja-JP",
                                                        has_touch=True, is_mobile=True)
                    page = await context.new_page()
                    pages[name] = page
                    await page.goto(table.base + "/")
                    await page.click(f'button[data-seat="{name}"]')
                    await page.wait_for_selector("#who:text-is('%s')" % name)
                for name, page in pages.items():  # own role and attribute, hidden until tapped
                    await page.wait_for_selector("#reveal")
                    assert await page.locator("#role").count() == 0
                    await page.click("#reveal")
                    player = table.state.player(name)
                    assert await page.get_attribute("#role", "data-role") == player.role
                    assert await page.get_attribute("#attribute", "data-attribute") == player.attribute
                    await page.click("#reveal")
                rounds = await play_rounds(table, pages, {"night": memo_for, "vote": vote_for, "revote": vote_for})
                assert rounds >= 2
                state = await table.task
                assert state.winner == "town"
                for name, page in pages.items():
                    await page.wait_for_selector("#result")
                    assert await page.get_attribute("#you-won", "data-won") == str(name != "Aki").lower()
                await pages["Ben"].click("#reveal")  # the prophet's result, shown to Ben alone
                assert await pages["Ben"].locator("#messages li").count() >= 1
            except BaseException:
                await screenshots(pages, request.node.name)
                raise
            finally:
                await browser.close()
                await table.close()

    asyncio.run(main())


async def play_rounds(table, pages, policies, limit: float = 120.0):
    """Each phone fills in its own memo or vote by tapping; returns how many rounds were played."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    done, rounds = set(), set()
    while not table.task.done():
        assert loop.time() < end, "the game did not end in time"
        for name, page in pages.items():
            view = await view_of(page)
            req = view["request"]
            if not req or req["answered"] or (name, req["serial"]) in done:
                continue
            await page.wait_for_selector(f'#request[data-serial="{req["serial"]}"]')
            answer = policies[req["phase"]](name, req)
            await page.click(f'#request button[data-target="{answer[req["key"]]}"]')
            if req["ability"]:
                await page.click(f'#request button[data-ability="{str(answer["ability"]).lower()}"]')
            await page.click("#send")
            # sent: this round's form goes (the next round may already be open with its own)
            await page.wait_for_selector(f'#request[data-serial="{req["serial"]}"] #send', state="detached")
            done.add((name, req["serial"]))
            rounds.add(req["serial"])
        await asyncio.sleep(0.02)
    return len(rounds)
