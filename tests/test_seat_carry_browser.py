"""Issue 37, item 5, in real Chromium at phone size (390x844, ja-JP) against `narrator serve`:
three players scan their seat codes from the host screen once; after the game, 「もう一回」 (the
host screen's start) plays again and every one of the three phones is in its seat, its view
sealed with the new game's key, with no code scanned and no wait. Then the host screen renames
a seat: the next game's table is not the same, the narrator says everyone takes a seat again,
and each phone asks for its seat's code.

`narrator serve` runs in a thread on a narrator home's real table file, phones on, real HTTP on
loopback; the table's button answers the games' questions but each game's first (the host
screen answers it, so the test seats the phones first), as tests/test_host_carry_browser.py.
"""

import asyncio
import threading

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.table import DEFAULT_TABLE
from narrator.errors import NoMoreAnswers
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript
from tests.phones_harness import wait_for
from tests.test_host_carry_browser import TableButton, text_of
from tests.test_host_settings_browser import _code, act, free_port
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, two served games

NAMES = ["翔太", "花子", "健", "美咲", "大輔"]
SEATED = 3


def test_play_again_keeps_the_phones_seated_without_a_scan(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    names = "names = [" + ", ".join(f'"{n}"' for n in NAMES) + "]\n"
    (narrator_home / "table.toml").write_text(DEFAULT_TABLE.replace('lang = "ja"\n', f'lang = "ja"\n{names}'),
                                              encoding="utf-8")
    port = free_port()
    messages: list[str] = []
    transcript = tmp_path / "t.jsonl"
    overrides = {"voice": "text", "time_scale": "0", "phones": "true", "host": "127.0.0.1", "port": str(port),
                 "history": "false", "transcript": str(transcript)}
    button, outcome = TableButton(), {}
    button.agains = -1  # three games: the table goes home at the third "play again?"

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[button]),
                  log=messages.append)
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        scans, second, third = asyncio.run(drive(f"http://127.0.0.1:{port}/", transcript, button))
    finally:
        button.leave.set()
        thread.join(60)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome
    assert scans == SEATED  # one scan per player for the evening (before: one per player per game)
    assert second == [f"{i}. {name}" for i, name in enumerate(NAMES[:SEATED], 1)]
    assert f"{SEATED} phones keep their seats from the last game" in messages
    assert third == [1] * SEATED  # a changed table: each phone asks for its seat's code again
    told = [r for r in read_transcript(transcript) if r.get("line") == "phones.seats_new_table"]
    assert len(told) == 1 and "もう一度席に着いてください" in told[0]["text"]  # said, not waited in silence
    first_game, second_game, third_game = saved_games(narrator_home)
    assert first_game.meta["finished"] and second_game.meta["finished"] and third_game.meta["finished"]


async def seat_code(host):
    """The first free seat's code, as the host screen shows it (sealed to it, opened by its page)."""
    await host.click('#host .seat[data-seat] button.show-code >> nth=0')
    await host.wait_for_function("() => (document.getElementById('letters') || {}).textContent"
                                 "?.replace(' ', '').length === 10", timeout=15000)
    return (await text_of(host, "#letters")).replace(" ", "")


async def drive(url, transcript, button):
    code = await wait_for(lambda: _code(transcript), timeout=30)
    scans = 0
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            host = await new_phone(browser)
            await host.goto(f"{url}#code={code}")
            await host.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')",
                                         timeout=15000)
            button.press()  # the table confirms the host screen
            await host.wait_for_selector("#play", timeout=15000)
            await host.click("#play")
            await host.wait_for_selector("#start", timeout=60000)  # the game waits for its seats
            players = []
            for number in range(1, SEATED + 1):
                letters = await seat_code(host)
                player = await new_phone(browser)
                await player.goto(url)
                await player.fill("#code", letters)
                await player.click("#join")
                scans += 1
                await player.wait_for_function("n => (document.getElementById('who') || {}).textContent === n",
                                               arg=f"{number}. {NAMES[number - 1]}", timeout=30000)
                players.append(player)
            await host.click("#start", timeout=60000)  # 3 of 5 seated: the host starts anyway
            await host.click("#host #ask button >> nth=0")
            await host.wait_for_selector("#play", timeout=120000)  # the game ended: the settings page again
            await host.click("#play")  # 「もう一回」 from the host screen
            await host.click("#start", timeout=60000)  # the 3 carried, 2 seats free: start anyway
            await host.wait_for_selector("#host #ask button", timeout=60000)
            second = []
            for number, player in enumerate(players, 1):  # each page comes back to the game on its own
                await player.wait_for_function("n => (document.getElementById('who') || {}).textContent === n",
                                               arg=f"{number}. {NAMES[number - 1]}", timeout=60000)
                assert await player.locator("#entry").count() == 0  # no code asked
                second.append(await text_of(player, "#who"))
            await host.click("#host #ask button >> nth=0")
            await host.wait_for_selector("#play", timeout=120000)

            # the host screen renames seat 5: the next game's table is another one
            await host.fill('.name-row[data-seat="5"] input.name', "葵")
            await act(host, "#save-names")
            await host.click("#play")
            await host.click("#start", timeout=60000)  # a changed table: nobody seated, start anyway
            await host.wait_for_selector("#host #ask button", timeout=60000)
            third = []
            for player in players:
                await player.wait_for_selector("#entry", timeout=60000)
                third.append(await player.locator("#code").count())
            await host.click("#host #ask button >> nth=0")
            await host.wait_for_selector("#play", timeout=120000)
        finally:
            await browser.close()
    return scans, second, third
