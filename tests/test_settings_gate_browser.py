"""The settings page's join in real Chromium behind the gate (issue 38, item 6): a wrong table
code shuts the phone's address out for a second, so the right code typed at once is asked to
wait (429); the page sends it again and becomes the host screen. The gate runs on a manual
clock the test moves on once it has seen the 429; with the page's retry taken out (the old
settings.js sent once), the phone stays a guest."""

import asyncio
from types import SimpleNamespace

import pytest

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.phones import settings_page
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs
from narrator.table.clock import ManualClock
from tests.phones_harness import wait_for
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright

NO_RETRY = "joinPost = (send) => send();"


@pytest.mark.parametrize("retry", [False, True])
def test_the_right_code_typed_just_after_a_wrong_one_makes_the_host_screen(tmp_path, retry):
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    host = setup_menu.PageHost(SimpleNamespace(path=path, table=load_table(path)))
    page = SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")
    clock = ManualClock()
    page.gate.now = clock.now
    waits = []
    shut = page.gate.wait_left
    page.gate.wait_left = lambda address: waits.append(shut(address)) or waits[-1]

    async def drive():
        port = await page.start("127.0.0.1", 0)
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    phone = await new_phone(browser)
                    if not retry:  # the page as it was: one send, whatever the answer
                        await phone.route("**/static/settings.js", lambda route: _without_retry(route))
                    await phone.goto(f"http://127.0.0.1:{port}/#code=00000000")  # a typo: shut out
                    await wait_for(lambda: _true(page.gate.shut_until), timeout=20)
                    await phone.wait_for_selector("#code")
                    await phone.fill("#code", page.table_code)
                    await phone.click("#join")
                    await wait_for(lambda: _true(any(w > 0 for w in waits)), timeout=20)  # asked to wait
                    await clock.advance(settings_page.WRONG_CODE_DELAY)
                    if retry:
                        await phone.wait_for_selector("#play", timeout=20000)  # the host screen
                        assert page.host_digest is not None
                    else:
                        await phone.wait_for_function("() => document.body.innerText.includes('少し待ってから')",
                                                      timeout=20000)
                        assert page.host_digest is None and await phone.query_selector("#play") is None
                finally:
                    await browser.close()
        finally:
            await page.stop()

    asyncio.run(drive())


async def _without_retry(route):
    response = await route.fetch()
    await route.fulfill(response=response, body=(await response.text()) + "\n" + NO_RETRY)


async def _true(value):
    return value
