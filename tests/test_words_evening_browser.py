"""Issue 37 item 8, the page's words in real Chromium at phone size, in Japanese: a released
seat's old phone is told it is out, and 人狼's result card names the winners in words (not the
raw id 「winner_village」: the game's own win line). The phones' own server (`tests/phones_harness.py`), as
tests/test_phones_browser.py drives it; the spoken words: tests/test_words_evening.py.
"""

import asyncio
from dataclasses import replace

import pytest

from narrator.games.kernel.state import KState
from tests.phones_harness import open_table, wait_for
from tests.test_phones_browser import browsers, new_phone, shown_code

pytestmark = pytest.mark.slow  # Chromium through Playwright


async def seat(table, host, browser, pages, name, number):
    """One player types the code the host screen shows for `name`."""
    letters = await shown_code(host, name)
    page = pages[name] = await new_phone(browser)
    await page.goto(table.base + "/")
    await page.fill("#code", letters.lower())
    await page.click("#join")
    await page.wait_for_selector("#who:text-is('%d. %s')" % (number, name))
    return page


async def host_screen(table, browser, pages):
    host = pages["host"] = await new_phone(browser)
    await host.goto(f"{table.base}/#code={table.server.seats.table_code}")
    await host.wait_for_selector("#host")
    return host


async def _now(value):
    return value


def test_a_released_seats_old_phone_is_told_it_is_out_in_japanese(request):
    async def main():
        table = await open_table("Aki,Ben,Chika,Dai,Emi", seed=3, lang="ja")
        async with browsers(request, table) as (browser, pages):
            host = await host_screen(table, browser, pages)
            ben = await seat(table, host, browser, pages, "Ben", 2)
            host.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))  # 「…を解放しますか？」
            await host.click('#host .seat[data-seat="Ben"] .release')
            await wait_for(lambda: _now(not table.server.seats.taken("Ben")), timeout=30)
            await ben.wait_for_selector("#released", timeout=30_000)
            text = await ben.inner_text("#released")
            assert text == "この端末の席は解放されました。続けて遊ぶときは、ホスト画面で席のコードを聞いて、入力してください。"
            assert await ben.locator("#code").count() == 1  # and the code box to sit again
            await ben.reload()  # told once: a reload is a fresh phone at the code box
            await ben.wait_for_selector("#code")
            assert await ben.locator("#released").count() == 0

    asyncio.run(main())


def test_a_released_host_screens_phone_is_told_it_is_no_longer_the_host_screen(request):
    async def main():
        table = await open_table("Aki,Ben,Chika,Dai,Emi", seed=3, lang="ja")
        async with browsers(request, table) as (browser, pages):
            host = await host_screen(table, browser, pages)
            table.server.release("host")  # `release host` at the terminal: a new table code
            await host.wait_for_selector("#released", timeout=30_000)
            assert await host.inner_text("#released") == (
                "このホスト画面は解放されました。ホスト画面に戻すときは、ナレーターが読み上げた新しいテーブルコードを入力してください。")

    asyncio.run(main())


def test_werewolf_on_the_host_screen_asks_for_a_tap_and_its_result_card_names_the_winners(request):
    """人狼's 「全員の準備ができたら…」 on the host screen asks for the button, not a word said to
    nobody; its result card reads the game's own win line 「村人チームの勝利です！」, not 「winner_village」."""
    async def main():
        table = await open_table("Aki,Ben,Chika,Dai,Emi", seed=3, lang="ja", game="werewolf")
        async with browsers(request, table) as (browser, pages):
            host = await host_screen(table, browser, pages)
            aki = await seat(table, host, browser, pages, "Aki", 1)
            await host.wait_for_selector('#ask[data-line="wolf.ready"]', timeout=60_000)
            prompt = await host.inner_text('#ask[data-line="wolf.ready"] p')
            assert prompt == "全員の準備ができたら、ボタンを押してください。"
            state = table.server.state if isinstance(table.server.state, KState) else KState()
            over = replace(state, step="over", winner="village", day=2, night=2)
            table.server.shown = None
            table.server.set_state(over)  # the game's end as the loop would show it
            table.server.shown = over
            table.server._changed()
            for page in (aki, host):
                await page.wait_for_selector("#result #winner", timeout=30_000)
                assert await page.inner_text("#result #winner") == "村人チームの勝利です！"  # wolf.win.village
                assert "winner_" not in await page.inner_text("#app")

    asyncio.run(main())
