"""Issue 38, item 3, with the page's JavaScript: a seat's page and the host screen show their
views while a laptop holding their sniffed cookies keeps every stream place it can.

In real Chromium (the page joins with a challenge and opens its stream with a proof, app.js).
With the protection monkeypatched off (no stream counts as proven), a reloaded page stays
blank behind the laptop's four streams (429); with it on, it shows its view at once.
"""

from __future__ import annotations

import aiohttp
import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout

from narrator.phones import streams
from narrator.phones.event_stream import MAX_STREAMS_PER_SEAT
from narrator.phones.seats import HOST
from tests.phones_harness import NAMES5, open_table, wait_for
from tests.test_phones_browser import browsers, seat_everyone

pytestmark = pytest.mark.slow  # Chromium through Playwright

SHOWN = 5000
"""Milliseconds a reloaded page may take to show its view (it takes well under one)."""


async def _true(value):
    return value


@pytest.mark.parametrize("protected", [False, True])
def test_a_reloaded_page_shows_its_view_past_a_laptop_holding_its_cookie(request, monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(streams, "proven", lambda server, request, seat: False)

    async def main():
        table = await open_table(NAMES5, seed=5, lang="ja")
        laptop, held = None, []
        async with browsers(request, table) as (browser, pages):
            try:
                host = await seat_everyone(table, browser, ["Aki"], pages)
                aki = pages["Aki"]
                cookies = {c["name"]: c["value"] for page in (aki, host) for c in await page.context.cookies()}
                laptop = aiohttp.ClientSession(base_url=table.base, cookie_jar=aiohttp.CookieJar(unsafe=True))
                seats = table.server.live.seats
                for page, key, cookie, shown in ((aki, "Aki", table.server.cookie, "#who:text-is('1. Aki')"),
                                                 (host, HOST, table.server.host_cookie, "#host")):
                    await page.goto("about:blank")  # the phone's screen locks; its stream ends
                    await wait_for(lambda key=key: _true(seats.get(key) == 0), timeout=10)
                    laptop.cookie_jar.clear()  # the laptop takes every place of the seat with its cookie
                    laptop.cookie_jar.update_cookies({cookie: cookies[cookie]})
                    for _ in range(MAX_STREAMS_PER_SEAT):
                        held.append(await laptop.get("/api/events"))
                    assert [r.status for r in held[-MAX_STREAMS_PER_SEAT:]] == [200] * MAX_STREAMS_PER_SEAT
                    await page.goto(table.base + "/")  # the player opens the page again
                    if protected:
                        await page.wait_for_selector(shown, timeout=SHOWN)
                    else:
                        with pytest.raises(PlaywrightTimeout):
                            await page.wait_for_selector(shown, timeout=SHOWN)
            finally:
                for r in held:
                    r.close()
                if laptop is not None:
                    await laptop.close()

    import asyncio
    asyncio.run(main())
