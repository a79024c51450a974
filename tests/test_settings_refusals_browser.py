"""A refusal on the host screen reads in the page's language (issue 23), in real Chromium at
phone size: the Japanese table's page shows the Japanese line `narrator play` prints for that
table, with the Japanese card name, and the same bad change after the page's language button
shows the English line. The page is the real settings page on a real table file, its changes
through the appliance's own `PageHost` (`update_table`: the checks of `narrator play`)."""

import asyncio
import tomllib
from types import SimpleNamespace

import pytest

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, check_table, load_table
from narrator.errors import Refusal
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs
from tests.test_host_settings_browser import act
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright


def refusal(path, **change):
    """The line `narrator play` gives for this table with `change`, as the refusal it raises."""
    with pytest.raises(Refusal) as refused:
        check_table({**tomllib.loads(path.read_text(encoding="utf-8")), **change}, f"table file {path}")
    return refused.value


async def beside(phone, key, button, text):
    """Tap the card's button and wait for the refusal's line in that card (beside its field)."""
    await act(phone, f'[data-key="{key}"] {button}', "")
    await phone.wait_for_function(
        "([k, t]) => (document.querySelector(`[data-key='${k}'] #field-msg`) || {}).textContent === t",
        arg=[key, text], timeout=10000)


def test_the_host_screen_shows_a_refusal_in_the_pages_language(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    app = SimpleNamespace(path=path, table=load_table(path))
    host = setup_menu.PageHost(app)
    page = SettingsPage(host.table, host.apply, lambda line, params: None, host.play, page_packs(), "ja")
    too_long = refusal(path, discussion=99999)
    zero = refusal(path, countdowns={"seer": 0})
    assert str(too_long) == too_long.line("ja") and "話し合いの時間" in str(too_long)
    assert "占い師" in zero.line("ja") and "seer" not in zero.line("ja")

    async def drive():
        port = await page.start("127.0.0.1", 0)
        url = f"http://127.0.0.1:{port}/"
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    phone = await new_phone(browser)
                    await phone.goto(f"{url}#code={page.table_code}")
                    await phone.wait_for_selector("#play")
                    await phone.fill('[data-key="discussion"] input.value', "99999")
                    await beside(phone, "discussion", "button.save", too_long.page_lines()["ja"])
                    offered = phone.locator('[data-key="countdowns"] select.add-id option')
                    assert "strategist" not in await offered.evaluate_all("els => els.map(e => e.value)")
                    await phone.select_option('[data-key="countdowns"] select.add-id', "seer")
                    await phone.fill('[data-key="countdowns"] input.add-n', "0")
                    await beside(phone, "countdowns", "button.add", zero.page_lines()["ja"])

                    await phone.click("#lang")  # the page in English: the same refusal in English
                    await phone.wait_for_function("document.documentElement.lang === 'en'")
                    await phone.fill('[data-key="discussion"] input.value', "99999")
                    await beside(phone, "discussion", "button.save", too_long.page_lines()["en"])
                finally:
                    await browser.close()
        finally:
            await page.stop()

    asyncio.run(drive())
    assert "discussion" not in load_table(path) and "countdowns" not in load_table(path)  # nothing was saved
