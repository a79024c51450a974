"""The host screen's night order, dragged (issue 23), in real Chromium at phone size, in Japanese:
a night call dragged by its grip with the mouse and with a finger (Pointer Events, one path for
both) lands where it is dropped; the drop is saved through the same request as ↑ / ↓, so the table
file's night order changes, the narrator says it in its one line and the page draws the saved
order; a drop the game's checks refuse shows the refusal and leaves the file as it was.

No reorder of a seed game's night calls is refused by itself (Additional Werewolf checks only that
every night card in play is named once; Bestia Magica that every step is), so the refused drop is
the one a table meets: the card set changed under the page while the host was dragging (another
phone, `narrator config set`), and the page's order lacks a card now in play.

The page is served by the real `SettingsPage` over the appliance's own `PageHost.apply` (its
`update_table`: the checks of `narrator play`) on a table file in `tmp_path`.
"""

import asyncio
import tomllib
from types import SimpleNamespace

import pytest
from aiohttp.test_utils import TestServer

from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, check_table, load_table, update_table
from narrator.errors import SetupError
from narrator.phones.settings_page import SettingsPage
from narrator.phones.table import page_packs
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright

ORDER = '[data-key="night_order"]'
SAID_ORDER = ("appliance.changed", {"what": [["appliance.setting.night_order", 0]]})


def serve_page(tmp_path, drive, table=None):
    """Serve the settings page on a fresh table file; `drive(page, path, app, said)` runs with the
    host screen's phone (390x844, touch, Japanese) joined. Returns what the narrator said."""
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    if table:
        update_table(path, table)
    app = SimpleNamespace(path=path, table=load_table(path))
    said = []
    host = setup_menu.PageHost(app)
    host.announce = lambda line, params: said.append((line, params))
    settings = SettingsPage(host.table, host.apply, host.announce, host.play, page_packs(), "ja")

    async def main():
        server = TestServer(settings.app(), host="127.0.0.1")
        await server.start_server()
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    page = await new_phone(browser)
                    await page.goto(f"http://127.0.0.1:{server.port}/#code={settings.table_code}")
                    await page.wait_for_selector(f"{ORDER} .handle", timeout=30_000)
                    await drive(page, path, app, said)
                finally:
                    await browser.close()
        finally:
            await server.close()

    asyncio.run(main())
    return said


def night_order(path):
    return tomllib.loads(path.read_text(encoding="utf-8")).get("night_order")


async def shown(page):
    return await page.locator(f"{ORDER} [data-id] span").all_text_contents()


async def rows(page):
    """Each night call's row: its grip's centre and the row's top and height, in page order, in
    the viewport's coordinates once the night order is scrolled into the middle of the screen."""
    return await page.evaluate("""sel => {
        document.querySelector(sel).scrollIntoView({block: 'center'});
        return [...document.querySelectorAll(sel + ' [data-id]')].map(row => {
            const r = row.getBoundingClientRect(), h = row.querySelector('.handle').getBoundingClientRect();
            return {id: row.dataset.id, x: h.left + h.width / 2, y: h.top + h.height / 2, top: r.top, height: r.height};
        });
    }""", ORDER)


def slot(row, upward):
    """Where to hold the pointer for the dragged row to land in `row`'s place: above its middle
    when moving up, below it when moving down."""
    return row["top"] + row["height"] * (0.25 if upward else 0.75)


async def clear_message(page):
    await page.evaluate("message = ''; document.getElementById('msg').textContent = ''")


async def says(page, text):
    await page.wait_for_function("t => (document.getElementById('msg') || {}).textContent === t", arg=text, timeout=15_000)


async def lifted(page, id_, near_y):
    """Mid-drag: the row follows the pointer (lifted out of the list, its grip under the pointer)
    and a placeholder holds its place in the list. Chromium hands a page the pointer's moves once
    per frame, so the last move may land a frame after it was sent: wait for the grip first."""
    grip = f'{ORDER} [data-id="{id_}"] .handle'
    await page.wait_for_function("""([sel, y]) => {
        const h = document.querySelector(sel).getBoundingClientRect();
        return Math.abs(h.top + h.height / 2 - y) < 3;
    }""", arg=[grip, near_y], timeout=15_000)
    state = await page.evaluate("""([sel, id]) => {
        const row = document.querySelector(`${sel} [data-id="${id}"]`);
        const h = row.querySelector('.handle').getBoundingClientRect();
        const list = [...document.querySelector(sel + ' .order').children].filter(n => n !== row);
        return {dragging: row.classList.contains('dragging'), position: getComputedStyle(row).position,
                y: h.top + h.height / 2, placeholder: list.findIndex(n => n.classList.contains('placeholder'))};
    }""", [ORDER, id_])
    assert state["dragging"] and state["position"] == "fixed", state
    assert abs(state["y"] - near_y) < 3, state
    return state["placeholder"]


async def redrawn(page, labels):
    """The page drew the saved order: numbered anew, no row lifted, no placeholder left."""
    await page.wait_for_function("""([sel, labels]) => {
        const shown = [...document.querySelectorAll(sel + ' [data-id] span')].map(s => s.textContent);
        return JSON.stringify(shown) === JSON.stringify(labels)
            && !document.querySelector(sel + ' .placeholder, ' + sel + ' .dragging');
    }""", arg=[ORDER, labels], timeout=15_000)


def test_a_night_call_dragged_with_the_mouse_from_third_to_first_is_saved(tmp_path):
    async def drive(page, path, app, said):
        assert night_order(path) is None  # the game's own order until the table changes it
        assert await shown(page) == ["1. 占い師", "2. 霊能者", "3. 香具師", "4. 幻影魔導師", "5. 恋人"]
        grips = await rows(page)
        peddler, first = grips[2], grips[0]
        assert peddler["id"] == "peddler"
        await clear_message(page)
        await page.mouse.move(peddler["x"], peddler["y"])
        await page.mouse.down()
        target = slot(first, upward=True)
        await page.mouse.move(peddler["x"], (peddler["y"] + target) / 2, steps=5)
        await page.mouse.move(peddler["x"], target, steps=5)
        assert await lifted(page, "peddler", target) == 0  # the gap is at the top now
        assert said == [] and night_order(path) is None  # nothing is saved before the drop
        await page.mouse.up()
        await says(page, "保存しました")
        await redrawn(page, ["1. 香具師", "2. 占い師", "3. 霊能者", "4. 幻影魔導師", "5. 恋人"])
        assert night_order(path) == ["peddler", "seer", "medium", "phantom_mage", "lovers"]
        assert said == [SAID_ORDER]

    serve_page(tmp_path, drive)


def test_a_night_call_dragged_with_a_finger_is_saved(tmp_path):
    async def drive(page, path, app, said):
        grips = await rows(page)
        seer, fourth = grips[0], grips[3]
        assert seer["id"] == "seer"
        await clear_message(page)
        # Playwright has no touch move: the finger goes through the DevTools protocol
        cdp = await page.context.new_cdp_session(page)

        async def touch(kind, x=None, y=None):
            points = [] if x is None else [{"x": x, "y": y, "id": 1}]
            await cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        scrolled = await page.evaluate("window.scrollY")
        await touch("touchStart", seer["x"], seer["y"])
        target = slot(fourth, upward=False)
        for i in range(1, 11):
            await touch("touchMove", seer["x"], seer["y"] + (target - seer["y"]) * i / 10)
        assert await lifted(page, "seer", target) == 3  # the gap is in the fourth place
        assert await page.evaluate("window.scrollY") == scrolled  # the finger on the grip did not scroll the page
        await touch("touchEnd")
        await says(page, "保存しました")
        await redrawn(page, ["1. 霊能者", "2. 香具師", "3. 幻影魔導師", "4. 占い師", "5. 恋人"])
        assert night_order(path) == ["medium", "peddler", "phantom_mage", "seer", "lovers"]
        assert said == [SAID_ORDER]

    serve_page(tmp_path, drive)


def test_a_drop_the_games_checks_refuse_shows_the_refusal_and_saves_nothing(tmp_path):
    three = {"cards": {"seer": 1, "medium": 1, "peddler": 1, "strategist": 1, "on_break": 1},
             "night_order": ["seer", "medium", "peddler"]}
    four = {"cards": {"seer": 1, "medium": 1, "peddler": 1, "phantom_mage": 1, "on_break": 1},
            "night_order": ["seer", "medium", "peddler", "phantom_mage"]}

    async def drive(page, path, app, said):
        assert await shown(page) == ["1. 占い師", "2. 霊能者", "3. 香具師"]
        grips = await rows(page)
        peddler, first = grips[2], grips[0]
        await clear_message(page)
        await page.mouse.move(peddler["x"], peddler["y"])
        await page.mouse.down()
        await page.mouse.move(peddler["x"], (peddler["y"] + first["y"]) / 2, steps=5)
        await lifted(page, "peddler", (peddler["y"] + first["y"]) / 2)
        # meanwhile the card set changes under the page (a 幻影魔導師 now in play, called 4th)
        app.table = update_table(path, four)
        before = path.read_bytes()
        target = slot(first, upward=True)
        await page.mouse.move(peddler["x"], target, steps=5)
        assert await lifted(page, "peddler", target) == 0
        with pytest.raises(SetupError) as refused:  # the line `narrator play` prints for this order
            check_table({**tomllib.loads(before.decode()), "night_order": ["peddler", "seer", "medium"]},
                        f"table file {path}")
        await page.mouse.up()
        await page.wait_for_function(  # shown in the order's own card, without the file's path
            "t => (document.querySelector(\"[data-key='night_order'] #field-msg\") || {}).textContent === t",
            arg=refused.value.page_lines()["ja"], timeout=15000)
        assert "幻影魔導師" in str(refused.value)  # the card named as the table reads it (a ja table)
        await redrawn(page, ["1. 占い師", "2. 霊能者", "3. 香具師", "4. 幻影魔導師"])  # the file's order
        assert path.read_bytes() == before
        assert said == []

    serve_page(tmp_path, drive, table=three)
