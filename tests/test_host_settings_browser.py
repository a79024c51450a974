"""The host screen sets the game up (issue 23), on the appliance's path, in real Chromium at
phone size, in Japanese: with only phones and the button, a table changes the night order,
one card's countdown, the names with readings and the discussion length, has a bad value
refused with `narrator play`'s own line, saves a preset, plays it, and plays again.

`narrator serve` runs in a thread on the real table file of a narrator home, with the phone
page on; the only listener besides the page is `Button`, which presses the button for the
game's own questions and for "play again?", never for the menu's offer (the host screen's
start button answers that). The text voice and time scale 0 make the games instant.
"""

import asyncio
import re
import socket
import threading
import tomllib

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.table import DEFAULT_TABLE, check_table
from narrator.errors import NoMoreAnswers, SetupError
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript
from tests.phones_harness import wait_for
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, two served games

FRIDAY = "金曜の5人卓"
NAMES = [("翔太", "しょうた"), ("美咲", "みさき"), ("Ken", "けん"), ("優斗", "ゆうと"), ("葵", "あおい")]


class Button:
    """The table's one button: pressed to confirm the host screen and for the game's questions;
    never at "play again?" (the host screen's start answers the first); at the second the table
    goes home (the service would wait for ever)."""

    def __init__(self):
        self.agains = 0
        self.hub = self.loop = None

    def start(self, hub, loop):
        self.hub, self.loop = hub, loop
        hub.register("button")
        loop.create_task(self._run(hub))

    def press(self):
        self.loop.call_soon_threadsafe(self.hub.offer_text, "done", "button")

    async def _run(self, hub):
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            if ask.line == "appliance.again":
                self.agains += 1
                if self.agains == 2:
                    hub.fail(NoMoreAnswers("the table went home"))
                    return
            elif not ask.line.startswith("appliance."):
                value = "done" if "done" in ask.choices else "yes" if "yes" in ask.choices else ask.choices[0]
                hub.offer_value(serial, value, "button")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def says(page, text):
    """Wait for the page's message line to show `text` (each action first clears it: see `act`)."""
    await page.wait_for_function("t => (document.getElementById('msg') || {}).textContent === t", arg=text, timeout=10000)


async def act(page, selector, expect="保存しました"):
    """Tap `selector` with the message line cleared, then wait for the page's answer to it."""
    await page.evaluate("message = ''; document.getElementById('msg').textContent = ''")
    await page.click(selector)
    await says(page, expect)


async def the_page(page, url, timeout=30.0):
    """Open the settings page once the appliance serves it again (between games)."""
    async def opened():
        try:
            await page.goto(url)
            return await page.locator("#play").count() > 0
        except playwright_api.Error:
            return False
    await wait_for(opened, timeout=timeout, every=0.2)


def test_the_host_screen_sets_up_saves_a_preset_plays_it_and_plays_again(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    table_file = narrator_home / "table.toml"
    table_file.write_text(DEFAULT_TABLE, encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    port = free_port()
    messages: list[str] = []
    overrides = {"voice": "text", "time_scale": "0", "transcript": str(transcript), "phones": "true",
                 "host": "127.0.0.1", "port": str(port)}
    outcome: dict = {}

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[button]),
                  log=messages.append)
        except BaseException as err:
            outcome["error"] = err

    button = Button()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    asyncio.run(drive(port, messages, table_file, button, transcript))
    thread.join(60)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome

    # the table file holds the setup and the preset; both games played it, dealt anew
    table = tomllib.loads(table_file.read_text(encoding="utf-8"))
    played = {k: table["presets"][FRIDAY][k] for k in ("night_order", "countdowns", "discussion", "names")}
    assert played == {"night_order": ["peddler", "seer", "medium", "phantom_mage", "lovers"],
                      "countdowns": {"seer": 20}, "discussion": 120,
                      "names": ["翔太:しょうた", "美咲:みさき", "健一:けんいち", "優斗:ゆうと", "葵:あおい"]}
    games = saved_games(narrator_home)
    assert len(games) == 2
    for game in games:
        config = game.meta["config"]
        assert config["night_order"][:2] == ["peddler", "seer"] and config["countdowns"] == {"seer": 20}
        assert config["discussion"] == 120 and config["names"][2] == "健一" and game.meta["finished"]
    assert games[0].meta["config"]["seed"] != games[1].meta["config"]["seed"]  # reshuffled

    # the narrator said each saved change in one short line, in Japanese
    said = [r for r in read_transcript(transcript) if r["kind"] == "say"]
    changed = [r["text"] for r in said if r["line"].startswith("appliance.") and r["line"] != "appliance.greeting"]
    assert "夜の順番を変えました。" in changed and "カードごとのカウントダウンを変えました。" in changed
    assert "話し合いの時間を変えました。" in changed and "名前を変えました。" in changed
    assert f"いまの設定を、{FRIDAY}として保存しました。" in changed and f"{FRIDAY}の設定にしました。" in changed
    lines = [r["line"] for r in read_transcript(transcript) if r["kind"] in ("say", "ask")]
    assert lines.count("setup.welcome") == 2


async def drive(port, messages, table_file, button, transcript):
    url = f"http://127.0.0.1:{port}/"
    code = await wait_for(lambda: _code(transcript), timeout=30)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            host, player = await new_phone(browser), await new_phone(browser)
            await host.goto(f"{url}#code={code}")
            await host.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')")
            button.press()  # the table confirms the phone whose number was said (carry.claim)
            await host.wait_for_selector("#play")
            assert await host.locator("#who").text_content() == "ホスト画面"
            assert await host.locator('[data-key="cards"] [data-id="peddler"] span').text_content() == "香具師"

            # the names with their readings, typed on the host screen
            for i, (name, reading) in enumerate(NAMES, 1):
                await host.fill(f'.name-row[data-seat="{i}"] input.name', name)
                await host.fill(f'.name-row[data-seat="{i}"] input.reading', reading)
            await act(host, "#save-names")

            # a player's own phone types its own name and reading; the host screen sees it and corrects it
            await player.goto(url)
            await player.wait_for_selector("#send-name")
            await player.select_option("#seat-number", "3")
            await player.fill("#my-name", "健一")
            await player.fill("#my-reading", "けんいち")
            await act(player, "#send-name")
            await host.goto(url)
            await host.wait_for_selector('.name-row[data-seat="3"] input.name')
            assert await host.input_value('.name-row[data-seat="3"] input.name') == "健一"
            assert await host.input_value('.name-row[data-seat="3"] input.reading') == "けんいち"

            # the night order: 香具師 up twice, to the first call
            for _ in range(2):
                await act(host, '[data-key="night_order"] [data-id="peddler"] button.up')
            order = await host.locator('[data-key="night_order"] [data-id] span').all_text_contents()
            assert order[:3] == ["1. 香具師", "2. 占い師", "3. 霊能者"]

            # one card's countdown: 占い師 20 seconds
            await host.select_option('[data-key="countdowns"] select.add-id', "seer")
            await host.fill('[data-key="countdowns"] input.add-n', "20")
            await act(host, '[data-key="countdowns"] button.add')

            # a discussion the game refuses: the same line `narrator play` prints, on the page
            with pytest.raises(SetupError) as refused:
                check_table({**tomllib.loads(table_file.read_text(encoding="utf-8")), "discussion": 99999}, f"table file {table_file}")
            await host.fill('[data-key="discussion"] input.value', "99999")
            await act(host, '[data-key="discussion"] button.save', "")  # shown in its card, without the path
            await host.wait_for_function(
                "t => (document.querySelector(\"[data-key='discussion'] #field-msg\") || {}).textContent === t",
                arg=refused.value.page_lines()["ja"], timeout=10000)
            await host.fill('[data-key="discussion"] input.value', "120")
            await act(host, '[data-key="discussion"] button.save')

            # save the preset, go back to the recommended set, pick the preset again
            await host.fill("#preset-name", FRIDAY)
            await act(host, "#save-preset")
            await act(host, '.preset[data-name=""] button.pick')
            assert await host.input_value('[data-key="discussion"] input.value') == "180"
            await act(host, f'.preset[data-name="{FRIDAY}"] button.pick')
            assert await host.input_value('[data-key="discussion"] input.value') == "120"

            # play it; the page comes back after the game; the host screen plays again
            await host.click("#play")
            await host.click("#start", timeout=60000)  # no phones joined: the host starts anyway
            await wait_for(lambda: _count(messages, "settings page:", 2), timeout=60)
            await the_page(host, url)
            await host.click("#play")
            await host.click("#start", timeout=60000)
            await wait_for(lambda: _count(messages, "settings page:", 3), timeout=60)
        finally:
            await browser.close()


async def _code(transcript):
    """The table code as the narrator said it (never in the log: the journal is not the table's)."""
    if not transcript.exists():
        return None
    said = [r["text"] for r in read_transcript(transcript) if r.get("line") == "appliance.settings_page"]
    found = re.search(r"(?<!\d)\d(?: \d){7}(?!\d)", said[0]) if said else None  # said digit by digit
    return found.group().replace(" ", "") if found else None


async def _count(messages, prefix, n):
    return sum(m.startswith(prefix) for m in messages) >= n
