"""The table's standings on the host screen, in a real browser (Debian chromium + Playwright,
as tests/test_phones_browser.py): on request before the first night, nothing while the game
is under way, and by themselves once it is over, the game just played counted."""

import asyncio
import os
import subprocess
import sys

import pytest

from tests.phones_harness import NAMES5
from tests.test_phones_browser import browsers, seat_everyone, view_of
from tests.phones_harness import open_table
from tests.test_phones_wiring import _first_night_script

pytestmark = pytest.mark.slow  # Chromium through Playwright, a narrator process

DIGITAL_WINNERS = ("Aki", "Dai", "Emi")
"""A digital-cards game of seed 3 (tests/test_phones_wiring.py's script): Ben the werewolf,
Chika the traitor; everyone is nominated and the citizens win."""


def finished_game(tmp_path):
    answers = tmp_path / "digital.txt"
    answers.write_text(_first_night_script(3, NAMES5), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "narrator", "play", "--names", NAMES5, "--seed", "3",
                           "--digital-cards", "--phones", "--host", "127.0.0.1", "--port", "0", "--voice", "text",
                           "--time-scale", "0", "--no-keyboard", "--answers", str(answers)],
                          env=dict(os.environ), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


async def rows(page):
    return await page.evaluate("""[...document.querySelectorAll('#standings tr[data-player]')]
        .map(tr => [...tr.children].map(td => td.textContent))""")


def test_the_host_screen_shows_the_standings_before_and_after_a_game_never_during_it(request, tmp_path):
    finished_game(tmp_path)

    async def main():
        table = await open_table(NAMES5, seed=2, lang="ja", digital_cards="false")
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, [], pages)
            await host.click("#standings-button")
            await host.wait_for_selector("#standings tr[data-player]")
            before = {r[0]: r for r in await rows(host)}
            assert before["Aki"] == ["Aki", "1", "1", "100%", "市民 1", "—"]
            assert before["Ben"] == ["Ben", "1", "0", "0%", "人狼 1", "—"]
            assert "この卓の成績" in await host.inner_text("#standings")
            await host.click("#standings-close")
            assert await host.locator("#standings").count() == 0
            await answer_on_the_host_screen(table, host)
            await table.task
            await host.wait_for_selector("#result")
            await host.wait_for_selector("#standings tr[data-player]")
            after = {r[0]: r for r in await rows(host)}
            assert after["Aki"][:4] == ["Aki", "2", "1", "100%"]  # physical cards: played, no win known
            assert after["Ben"][:4] == ["Ben", "2", "0", "0%"]
            assert await host.locator("#standings-close").count() == 0

    asyncio.run(main())


async def answer_on_the_host_screen(table, host, limit: float = 60.0):
    """Play the physical-cards game from the host screen; mid-game, no standings anywhere."""
    loop = asyncio.get_running_loop()
    end, answered, checked = loop.time() + limit, set(), False
    while not table.task.done():
        assert loop.time() < end, "the game did not end in time"
        view = await view_of(host)
        if view["phase"] in ("night", "day") and not checked:
            assert await host.locator("#standings, #standings-button").count() == 0
            reply = await host.evaluate("fetch('/api/host/standings').then(r => r.json())")
            assert reply == {"shown": False, "reason": "later"}
            checked = True
        ask = view["host"]["ask"]
        if ask and ask["serial"] not in answered:
            await host.wait_for_selector(f'#ask[data-serial="{ask["serial"]}"]')
            if ask["line"] == "nomination.who":
                await host.click('#ask button[data-choice="Ben"]')
                await host.click("#submit")
            else:
                value = ("yes" if ask["line"] == "nomination.werewolf_found"
                         else "no" if "no" in ask["choices"] else "done")
                await host.click(f'#ask button[data-choice="{value}"]')
            answered.add(ask["serial"])
        await asyncio.sleep(0.02)
    assert checked
