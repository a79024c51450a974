"""The host screen grows a named table and shows a refusal where the host typed (issue 37, items
2 and 7), through `narrator serve` and real Chromium at phone size, in Japanese.

A café table of five named players becomes eight on the host screen alone: the five names are
kept, three default seats added (nothing else of the setup wiped); emptying the names drops
them. A refused value shows its line in its own card, beside the field, with no file path, and
the field keeps what the host typed; the per-card countdown list offers only the night cards in
play, by their Japanese names. `serve` runs in a thread on a real table file, as in
tests/test_host_settings_browser.py, whose `Button` confirms the host screen.
"""

import asyncio
import threading
import tomllib

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.table import DEFAULT_TABLE, check_table
from narrator.errors import NoMoreAnswers
from narrator.games import get_game
from narrator.games.additional_werewolf.setup import definition
from narrator.sound.voicepack import load_pack
from tests.phones_harness import wait_for
from tests.test_host_settings_browser import Button, _code, act, free_port
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright

FIVE = ["翔太:しょうた", "美咲", "Ken", "優斗", "葵"]


def test_the_host_screen_grows_the_table_and_shows_a_refusal_beside_its_field(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    table_file = narrator_home / "table.toml"
    names_line = "names = [" + ", ".join(f'"{n}"' for n in FIVE) + "]\n"
    table_file.write_text(DEFAULT_TABLE.replace("[appliance]", names_line + "discussion = 120\n\n[appliance]"),
                          encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    port = free_port()
    overrides = {"voice": "text", "time_scale": "0", "transcript": str(transcript), "phones": "true",
                 "host": "127.0.0.1", "port": str(port)}
    outcome: dict = {}
    button = Button()

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[button]), log=print)
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        seen = asyncio.run(drive(port, table_file, button, transcript))
    finally:
        if button.hub is not None:  # the table goes home: the menu's question ends the service
            button.loop.call_soon_threadsafe(button.hub.fail, NoMoreAnswers("the table went home"))
        thread.join(60)
    assert not thread.is_alive()

    ja = load_pack("ja")
    seats = [ja.speak("appliance.default_seat", {"n": n}).text for n in (6, 7, 8)]
    assert seen["grown"] == FIVE + seats and seen["grown_players"] == 8 and seen["grown_discussion"] == 120
    assert seen["emptied"] is None and seen["emptied_players"] == 6
    assert seen["row_names"][:5] == ["翔太", "美咲", "Ken", "優斗", "葵"] and seen["row_names"][5] == seats[0]

    # the refusal: its line beside the field, no path, the typed value kept
    assert seen["line"].startswith("話し合いの時間は3600以下") and str(table_file) not in seen["line"]
    assert "テーブルファイル" not in seen["line"] and seen["top_msg"] == ""
    assert seen["gap"] < 200, seen["gap"]  # px between the field and its refusal's line
    assert seen["line_visible"] and seen["kept"] == "99999" and seen["kept_after_poll"] == "99999"
    assert seen["saved_after_fix"] == 150

    # the countdown list: the night cards in play, in Japanese; nothing it would refuse
    _, config, _ = check_table(tomllib.loads(table_file.read_text(encoding="utf-8")), "test")
    night = definition()["cards"]
    in_play = [c for c, n in config.cards.items() if n and night[c]["night"]]
    assert seen["countdown_ids"] == in_play and "strategist" not in in_play and "citizen" not in in_play
    game = get_game("additional-werewolf")
    assert seen["countdown_names"] == [ja.speak(game.label(c)).text for c in in_play]
    assert "占い師" in seen["countdown_names"] and not any(n.isascii() for n in seen["countdown_names"])


async def drive(port, table_file, button, transcript):
    url = f"http://127.0.0.1:{port}/"
    code = await wait_for(lambda: _code(transcript), timeout=30)
    seen: dict = {}

    def table():
        return tomllib.loads(table_file.read_text(encoding="utf-8"))

    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            host = await new_phone(browser)
            await host.goto(f"{url}#code={code}")
            await host.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')")
            button.press()  # the table confirms the host screen (carry.claim)
            await host.wait_for_selector("#play")

            # 5 named players → 8: the names kept, three default seats added
            await host.fill("#players", "8")
            await act(host, "#save-names")
            seen["grown"], seen["grown_players"] = table()["names"], table()["players"]
            seen["grown_discussion"] = table()["discussion"]
            await host.wait_for_selector('.name-row[data-seat="8"]')
            seen["row_names"] = await host.eval_on_selector_all(".name-row input.name", "els => els.map(e => e.value)")

            # every name emptied: the names are dropped, the count kept as typed
            for i in range(1, 9):
                await host.fill(f'.name-row[data-seat="{i}"] input.name', "")
                await host.fill(f'.name-row[data-seat="{i}"] input.reading', "")
            await host.fill("#players", "6")
            await act(host, "#save-names")
            seen["emptied"], seen["emptied_players"] = table().get("names"), table()["players"]

            # a refused value: its line beside the field, no path, the field keeps what was typed
            field = '[data-key="discussion"] input.value'
            await host.fill(field, "99999")
            await act(host, '[data-key="discussion"] button.save', "")
            line = host.locator('[data-key="discussion"] #field-msg')
            await line.wait_for(timeout=10000)
            seen["line"] = await line.text_content()
            seen["top_msg"] = await host.locator("#msg").text_content()
            await host.locator(field).scroll_into_view_if_needed()
            box_field, box_line = await host.locator(field).bounding_box(), await line.bounding_box()
            seen["gap"] = abs((box_line["y"] + box_line["height"] / 2) - (box_field["y"] + box_field["height"] / 2))
            seen["line_visible"] = 0 <= box_line["y"] and box_line["y"] + box_line["height"] <= 844
            seen["kept"] = await host.input_value(field)
            await host.evaluate("refresh()")  # the page's poll redraws: still as typed
            seen["kept_after_poll"] = await host.input_value(field)
            await host.fill(field, "150")
            await act(host, '[data-key="discussion"] button.save')
            seen["saved_after_fix"] = table()["discussion"]

            # the per-card countdown list
            options = host.locator('[data-key="countdowns"] select.add-id option')
            seen["countdown_ids"] = await options.evaluate_all("els => els.map(e => e.value)")
            seen["countdown_names"] = await options.all_text_contents()
        finally:
            await browser.close()
    return seen
