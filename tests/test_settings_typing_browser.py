"""What the host types survives the settings page's poll, in real Chromium at phone size: a
poll that was already out when the host began typing comes back and draws nothing over the
field (CI saw 99999 typed into the discussion field put back to 180 by such a poll, and the
save then sent 180). The poll's answer is held by the browser's own router until the typing is
done, so the test needs no timing: it holds, types, releases, and reads the field."""

import asyncio

import pytest

from tests.phones_harness import wait_for
from tests.test_settings_drag_browser import serve_page

pytestmark = pytest.mark.slow  # Chromium through Playwright

FIELD = '[data-key="discussion"] input.value'


def test_a_poll_out_while_the_host_types_leaves_the_typing_alone(tmp_path):
    typed: dict[str, str] = {}

    async def drive(page, path, app, said):
        held: list = []
        release = asyncio.Event()

        async def hold(route):
            if route.request.method != "GET":
                return await route.continue_()
            held.append(route)
            await release.wait()
            await route.continue_()

        typed["before"] = await page.input_value(FIELD)
        await page.route("**/api/settings", hold)
        await page.evaluate("window.drawn = false; void refresh(true).then(() => { window.drawn = true; })")
        await wait_for(lambda: _some(held), timeout=10)  # the poll's request at the router
        await page.fill(FIELD, "99999")  # the host begins typing while the poll is out
        release.set()
        await page.wait_for_function("() => window.drawn === true", timeout=10000)
        typed["after"] = await page.input_value(FIELD)

    serve_page(tmp_path, drive)
    assert typed["before"] != "99999"
    assert typed["after"] == "99999"


async def _some(items):
    return bool(items)
