"""What the host types survives the settings page's poll, in real Chromium at phone size: a
poll that was already out when the host began typing comes back and draws nothing over the
field (CI saw 99999 typed into the discussion field put back to 180 by such a poll, and the
save then sent 180). The poll's answer is held by the browser's own router until the typing is
done, so the test needs no timing: it holds, types, releases, and reads the field."""

import asyncio
from types import SimpleNamespace

import pytest

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs
from tests.phones_harness import wait_for
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright

FIELD = '[data-key="discussion"] input.value'


def test_a_poll_out_while_the_host_types_leaves_the_typing_alone(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    host = setup_menu.PageHost(SimpleNamespace(path=path, table=load_table(path)))
    page = SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")
    typed: dict[str, str] = {}

    async def drive():
        port = await page.start("127.0.0.1", 0)
        url = f"http://127.0.0.1:{port}/"
        held: list = []
        release = asyncio.Event()

        async def hold(route):
            if route.request.method != "GET":
                return await route.continue_()
            held.append(route)
            await release.wait()
            await route.continue_()

        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    phone = await new_phone(browser)
                    await phone.goto(f"{url}#code={page.table_code}")
                    await phone.wait_for_selector("#play")
                    before = await phone.input_value(FIELD)
                    await phone.route("**/api/settings", hold)
                    await phone.evaluate("window.drawn = false; void refresh(true).then(() => { window.drawn = true; })")
                    await wait_for(lambda: _some(held), timeout=10)  # the poll's request at the router
                    await phone.fill(FIELD, "99999")  # the host begins typing while the poll is out
                    release.set()
                    await phone.wait_for_function("() => window.drawn === true", timeout=10000)
                    typed["after"] = await phone.input_value(FIELD)
                    typed["before"] = before
                finally:
                    await browser.close()
        finally:
            await page.stop()

    asyncio.run(drive())
    assert typed["before"] != "99999"
    assert typed["after"] == "99999"


async def _some(items):
    return bool(items)
