"""Issue 37, item 4, in real Chromium at phone size (390x844, ja-JP) against `narrator serve`:
phone A is the host screen and starts a game; the table releases it during the game (the button
held 5 s, then pressed) and phone B takes the game's new table code; after the game B is the
settings page's host screen, saves a setting sealed, and starts the next game, whose seat codes
it reads with no new key asked; at the menu after it the table releases B (the same hold and
press, as docs/ja/host-screen.md says) and A takes the new code.

`narrator serve` runs in a thread, phones on, real HTTP on loopback; the table's button
(tests/test_host_carry_browser.py's) answers the games' questions but each game's first.
"""

import asyncio
import re
import threading

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.table import DEFAULT_TABLE
from narrator.errors import NoMoreAnswers
from narrator.table.transcript import read_transcript
from tests.phones_harness import wait_for
from tests.test_host_carry_browser import TableButton, text_of
from tests.test_host_settings_browser import _code, free_port
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, two served games

HOST = "ホスト画面"


class HoldingButton(TableButton):
    def hold(self):
        """The button held 5 s: the hub's word for it (inputs/button.py)."""
        self.loop.call_soon_threadsafe(self.hub.offer_text, "release_host", "button")


def test_release_host_at_the_menu_and_a_host_claimed_in_the_game_carried_back(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text(DEFAULT_TABLE, encoding="utf-8")
    port = free_port()
    transcript = tmp_path / "t.jsonl"
    overrides = {"voice": "text", "time_scale": "0", "phones": "true", "host": "127.0.0.1", "port": str(port),
                 "history": "false", "transcript": str(transcript)}
    button, outcome = HoldingButton(), {}

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[button]),
                  log=lambda message: None)
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        seen = asyncio.run(drive(f"http://127.0.0.1:{port}/", transcript, button))
    finally:
        button.leave.set()
        thread.join(60)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome
    assert seen == {"b_after_game": HOST, "a_after_game": False, "b_saved": True, "b_reads_codes": True,
                    "released_at_menu": True, "b_after_release": False, "a_after_menu": HOST}


def released_code(transcript, count):
    """The new table code said by the `count`-th release (digit by digit), once said."""
    said = [r["text"] for r in read_transcript(transcript) if r.get("line") == "phones.host_released"]
    found = re.search(r"(?<!\d)\d(?: \d){7}(?!\d)", said[count - 1]) if len(said) >= count else None
    return found.group().replace(" ", "") if found else None


async def claim(page, url, code, button):
    """A phone types the table code, its number is said, the table presses."""
    await page.goto("about:blank")  # else a page already at `url` only changes its hash
    await page.goto(f"{url}#code={code}")
    try:
        await page.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')",
                                     timeout=15000)
    except playwright_api.Error:
        raise AssertionError(await page.content()) from None
    button.press()


async def release(transcript, button, count):
    """The table holds the button 5 s, is asked back, and presses: the `count`-th release."""
    async def asked():
        return sum(r.get("line") == "phones.host_release_ask" for r in read_transcript(transcript)) >= count
    button.hold()
    try:
        await wait_for(asked, timeout=15)
    except AssertionError:
        return None
    button.press()
    async def code():
        return released_code(transcript, count)
    try:
        return await wait_for(code, timeout=15)
    except AssertionError:
        return None


async def drive(url, transcript, button):
    seen = {}
    code = await wait_for(lambda: _code(transcript), timeout=30)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            a, b = await new_phone(browser), await new_phone(browser)
            await claim(a, url, code, button)
            await a.wait_for_selector("#play", timeout=15000)
            await a.click("#play")
            await a.click("#start", timeout=60000)  # a host screen and no phone seated: start anyway
            await a.wait_for_selector("#host #ask button", timeout=60000)

            # during the game: the table releases A, and B takes the game's new table code
            game_code = await release(transcript, button, 1)
            await claim(b, url, game_code, button)
            await b.wait_for_selector("#host #ask button", timeout=30000)
            await b.click("#host #ask button >> nth=0")

            # after the game: B is the settings page's host screen, A is not
            await b.wait_for_selector("#play", timeout=120000)
            seen["b_after_game"] = await text_of(b, "#who")
            await a.goto(url)
            await a.wait_for_selector("#app", timeout=15000)
            await asyncio.sleep(0)
            seen["a_after_game"] = await a.locator("#play").count() > 0
            await b.fill('[data-key="discussion"] input.value', "120")
            await b.click('[data-key="discussion"] button.save')
            try:
                await b.wait_for_function("() => (document.getElementById('msg') || {}).textContent === '保存しました'",
                                          timeout=15000)
                seen["b_saved"] = True
            except playwright_api.Error:
                seen["b_saved"] = False

            # B starts the next game: its seat codes open with the key it claimed with, no new key asked
            await b.click("#play")
            await b.wait_for_selector("#host", timeout=60000)
            await b.click('#host .seat[data-seat] button.show-code >> nth=0')
            try:
                await b.wait_for_function("() => (document.getElementById('letters') || {}).textContent"
                                          "?.replace(' ', '').length === 10", timeout=15000)
                seen["b_reads_codes"] = True
            except playwright_api.Error:
                seen["b_reads_codes"] = False
            await b.click("#start", timeout=60000)  # no phone seated: the host starts anyway
            await b.wait_for_selector("#host #ask button", timeout=30000)
            await b.click("#host #ask button >> nth=0")
            await b.wait_for_selector("#play", timeout=120000)

            # at the menu: the table releases B (hold, asked back, press); A takes the new code
            menu_code = await release(transcript, button, 2)
            seen["released_at_menu"] = menu_code is not None
            if menu_code is not None:
                await b.reload()
                await b.wait_for_selector("#app", timeout=15000)
                seen["b_after_release"] = await b.locator("#play").count() > 0
                await claim(a, url, menu_code, button)
                await a.wait_for_selector("#play", timeout=15000)
                seen["a_after_menu"] = await text_of(a, "#who")
        finally:
            await browser.close()
    return seen
