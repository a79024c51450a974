"""Every game with phones waits for every seat before its first timer (issue 37 item 3), on the
appliance, in real Chromium at phone size, in Japanese.

`narrator serve` runs in a thread on a narrator home's real table file (phones on, real HTTP on
loopback, the text voice, time scale 0). The host screen types the table code on the settings
page, the table's button confirms it, the host screen starts the game; three of the seats join
by the codes the host screen shows. The game has not begun: the host screen offers
「このまま始める」 with the free seats counted, no game line has been said, no round is open
and no seated phone has a memo to write. The host presses it, and the game begins (Bestia
Magica's night memo reaches the seated phones). Bestia Magica (8 seats), which started at once
before, and a game file's 人狼 (6 seats; its cards are dealt to the phones, so it waited already:
kept here so the shared step keeps it waiting).

Then a table gone quiet: Bestia Magica's rounds closed by their timers with nobody answering,
on a `ManualClock` the test moves; the host screen asks whether to go on (tests/test_quiet_rounds.py
has the same through HTTP, and the count itself).
"""

import asyncio
import threading

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.errors import NoMoreAnswers
from narrator.table.clock import ManualClock
from narrator.table.quiet_rounds import PAUSED_ASK, QUIET_ASK
from narrator.table.transcript import read_transcript
from tests.phones_harness import open_table, wait_for
from tests.test_host_settings_browser import _code, free_port
from tests.test_phones_bestia import DEAL
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, browsers, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, a served game

SEATED = 3


class Button:
    """The table's button: pressed only when the test says (to confirm the host screen)."""

    def __init__(self):
        self.hub = self.loop = None

    def start(self, hub, loop):
        self.hub, self.loop = hub, loop
        hub.register("button")

    def press(self):
        self.loop.call_soon_threadsafe(self.hub.offer_text, "done", "button")

    def go_home(self):
        self.loop.call_soon_threadsafe(self.hub.fail, NoMoreAnswers("the table went home"))


TABLES = {
    "bestia-magica": 'game = "bestia-magica"\nplayers = 8\nlang = "ja"\n',
    "werewolf": 'game = "werewolf"\nplayers = 6\nlang = "ja"\n',
}


def _game_lines(transcript, game):
    """What the game itself has said or opened so far (its own lines, its rounds)."""
    if not transcript.exists():
        return []
    prefix = "bm." if game == "bestia-magica" else ""
    return [r for r in read_transcript(transcript)
            if r["kind"] in ("say", "ask", "timer", "countdown", "collect", "private")
            and not r.get("line", "").startswith(("appliance.", "phones.", "control.", "title."))
            and r.get("line", "").startswith(prefix)]


@pytest.mark.parametrize("game", ["bestia-magica", "werewolf"])
def test_the_served_game_waits_for_every_seat_until_the_host_starts_anyway(game, narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text(TABLES[game], encoding="utf-8")
    port = free_port()
    transcript = tmp_path / "t.jsonl"
    overrides = {"voice": "text", "time_scale": "0", "phones": "true", "host": "127.0.0.1", "port": str(port),
                 "history": "false", "transcript": str(transcript)}
    button, outcome = Button(), {}

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[button]),
                  log=lambda message: None)
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        seen = asyncio.run(drive(f"http://127.0.0.1:{port}/", transcript, button, game))
    finally:
        for _ in range(120):  # the table goes home: the open question or round fails, serve returns
            button.go_home()
            thread.join(0.5)
            if not thread.is_alive():
                break
    assert not thread.is_alive()
    assert seen["waiting"] == ("8" if game == "bestia-magica" else "6")  # every seat listed
    assert seen["before"] == [], seen["before"]  # nothing of the game before the host started it
    assert seen["after"]  # and the game once it did


async def drive(url, transcript, button, game):
    code = await wait_for(lambda: _code(transcript), timeout=30)
    seen = {}
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            host = await new_phone(browser)
            await host.goto(f"{url}#code={code}")
            await host.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')",
                                         timeout=15000)
            button.press()
            await host.wait_for_selector("#play", timeout=15000)
            await host.click("#play")
            await host.wait_for_selector("#host .seat[data-seat] button.show-code", timeout=60000)
            seats = await host.eval_on_selector_all("#host .seat[data-seat]", "els => els.map(e => e.dataset.seat)")
            seen["waiting"] = str(len(seats))
            phones = []
            for number, name in enumerate(seats[:SEATED], 1):
                await host.click(f'#host .seat[data-seat="{name}"] .show-code')
                await host.wait_for_selector(f'#seat-code[data-seat="{name}"] #letters:not(:empty)')
                letters = await host.inner_text("#letters")
                phone = await new_phone(browser)
                await phone.goto(url)
                await phone.fill("#code", letters.lower())
                await phone.click("#join")
                await phone.wait_for_selector(f"#who:text-is('{number}. {name}')", timeout=15000)
                phones.append(phone)
            # three of the seats have phones: the game waits, the host screen offers to start anyway
            start = host.locator("#start")
            await start.wait_for(timeout=15000)
            assert await start.inner_text() == "このまま始める"
            free = len(seats) - SEATED
            await host.wait_for_function("n => (document.getElementById('wait') || {}).textContent?.includes(n)",
                                         arg=str(free), timeout=15000)
            seen["before"] = _game_lines(transcript, game)
            for phone in phones:  # no seat has anything to answer yet
                assert await phone.locator("#request").count() == 0
            await start.click()
            if game == "bestia-magica":  # the night's memo reaches each seated phone
                for phone in phones:
                    await phone.wait_for_selector("#request", timeout=60000)
            async def begun():
                return _game_lines(transcript, game) or None
            await wait_for(begun, timeout=30)
            seen["after"] = _game_lines(transcript, game)
        finally:
            await browser.close()
    return seen


def test_the_host_screen_asks_a_quiet_table_whether_to_go_on_in_japanese(request, narrator_home):
    """Bestia Magica on the phone server, nobody seated but the host screen, on a `ManualClock`
    the test moves: after three empty rounds the host screen (Chromium, phone size, ja-JP)
    shows the question; いいえ pauses (an hour passes, no round runs), はい goes on."""
    def open_line(table):
        ask = table.sitting.hub.open_ask
        return ask[1].line if ask else None

    def rounds(table):
        return sum(1 for e in table.events() if e["type"] == "answer" and e["value"] == {})

    async def landed(answered):
        # A click returns once Chromium has sent it, not once the server has taken it: until
        # the answer lands the game waits on no deadline, and the clock has nothing to move.
        async def check():
            return answered()
        await wait_for(check, timeout=15)

    async def main():
        clock = ManualClock()
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja", clock=clock)
        async with browsers(request, table) as (browser, pages):
            host = pages["host"] = await new_phone(browser)
            await host.goto(f"{table.base}/#code={table.server.seats.table_code}")
            await host.wait_for_selector("#host")
            await clock.run_until(lambda: open_line(table) is not None or rounds(table) > 4, limit=36000)
            assert open_line(table) == QUIET_ASK, rounds(table)
            await host.wait_for_selector('#ask button[data-choice="no"]', timeout=15000)
            assert "3回続けて、誰からも答えがありませんでした" in await host.inner_text("#ask")
            await host.click('#ask button[data-choice="no"]')
            await landed(lambda: open_line(table) != QUIET_ASK)
            await clock.run_until(lambda: open_line(table) == PAUSED_ASK, limit=60)
            await clock.advance(3600)  # paused: an hour passes and no round runs
            assert open_line(table) == PAUSED_ASK and rounds(table) == 2
            await host.wait_for_function("() => (document.getElementById('ask') || {}).innerText?.includes('一時停止しています')",
                                         timeout=15000)
            await host.click('#ask button[data-choice="yes"]')
            await landed(lambda: open_line(table) != PAUSED_ASK)
            await clock.run_until(lambda: rounds(table) == 3, limit=600)  # the game goes on
            assert open_line(table) is None

    asyncio.run(main())
