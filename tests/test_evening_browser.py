"""An evening with nobody at a laptop (issue 37): the appliance and its host screen carry a
Japanese café table of eight from first boot through five games, in Japanese, in real
Chromium at phone size (390x844, ja-JP): a host screen and eight phones.

A fresh home, `narrator serve` (its own process) with no table file; the host screen alone
sets the game, the eight players and their names; Additional Werewolf (the cards on the
phones), Bestia Magica and 人狼 (the game file) are played on the phones; 「もう一回」 replays
with the seats kept; a power cut (SIGKILL of serve) mid-game is resumed with the host screen
back by itself; the host's browser is closed and opened again; the standings. No shell
command at any point; every screen is checked for Japanese and for raw ids. The measures of
issue 37 are printed (run with -s to see them). The phases are tests/evening_harness.py's.
"""

import asyncio
import socket

import pytest

from tests.evening_harness import JAPANESE, NAMES, Evening, Serve, raw_ids
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api



def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_screen_check_finds_raw_ids_and_passes_the_tables_words():
    """The check every screen goes through: 人狼's raw result id, a role id and a default seat
    are caught; a Japanese screen with its seat code's QR word is not."""
    assert raw_ids("ゲーム終了 winner_village") == ["winner_village"]
    assert raw_ids("あなたの役職: citizen") == ["citizen"] and raw_ids("1. P1 解放") == ["P1"]
    shown = "ホスト画面 1日目の夜 席（空席 0）1. 翔太 解放 QRコードを読み取ってください"
    assert raw_ids(shown) == [] and JAPANESE.search(shown)


@pytest.mark.slow  # Chromium through Playwright, nine pages, five served games
def test_an_evening_of_five_games_from_first_boot_to_the_standings(narrator_home, tmp_path, capsys):
    serve = Serve(narrator_home, free_port(), tmp_path)
    measures = {}
    try:
        asyncio.run(evening(serve, measures))
    finally:
        serve.stop()
        with capsys.disabled():
            print("\n" + (measures["m"].report() if "m" in measures else "evening: no measures"))
    m = measures["m"]
    assert m.shell_commands == 0
    assert all(n == 1 for n in m.scans.values()), m.scans  # one seat code per player per evening
    assert m.recoveries == ["resume", "closed browser"]


async def evening(serve, measures):
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            night = Evening(browser, serve, new_phone)
            measures["m"] = night.m
            code = await night.first_boot()             # 1. first boot: the host screen's code said
            await night.claim_host(code)                # 2. the host screen, by the table's press
            await night.set_up("aw")                    # 3. the game, eight players, their names
            for game in ("aw", "bm", "wolf"):           # 4-6. three games on the phones
                await night.start_game(game)
                await night.seat_table()
                await night.play_to_end(game)
            await night.again_with_seats_kept()         # 7. 「もう一回」: the same seats
            await night.play_to_end("wolf again")
            await night.start_game("aw")                # 8. a power cut mid-game, and the resume
            await night.seat_table()
            await night.power_cut_and_resume()
            await night.play_to_end("aw resumed")
            rows = await night.standings()              # 9. the standings, after the last game
            assert len(rows) == len(NAMES)
            await night.browser_closed_and_back()       # 10. the host's browser closed and opened
        except BaseException:
            print(await night.dump(serve.folder))
            raise
        finally:
            await browser.close()
