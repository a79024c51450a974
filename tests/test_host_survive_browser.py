"""Issue 37, item 4, in real Chromium at phone size (390x844, ja-JP) against `narrator serve` run
as the systemd unit runs it: the host screen takes the table code on the settings page and
starts a game; its browser is closed (only what a browser keeps when it closes: its storage and
its persistent cookies) and opened again: still the host screen; the service is killed (SIGKILL,
a power cut) and started again: the resumed game's host screen is the same phone, with no
button hold and no code.

No keyboard and no button: the table code makes the host screen at once (said aloud), as on an
appliance with nothing to press. The text voice and time scale 0: every wait is instant but the
wait for the phones, which holds the game where the kill finds it.
"""

import asyncio
import os
import signal
import subprocess

import pytest

from narrator.appliance.table import DEFAULT_TABLE
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript
from tests.phones_harness import wait_for
from tests.processes import started
from tests.test_appliance_serve import serve_command
from tests.test_host_settings_browser import _code, free_port
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, narrator serve as a process, SIGKILL

HOST = "ホスト画面"
PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "ja-JP", "has_touch": True, "is_mobile": True}


def start_serve(narrator_home, transcript, log):
    return started(serve_command() + ["--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "ja",
                                               "--time-scale", "0", "--transcript", str(transcript)],
                            env={**os.environ, "NARRATOR_HOME": str(narrator_home)}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=log, cwd=narrator_home)


def kill(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)


def said(transcript, line):
    return transcript.exists() and any(r.get("line") == line for r in read_transcript(transcript))


async def is_game_host(page, url, timeout=60.0):
    """The page, opened at `url` once the game's page answers, shows the game's host screen."""
    async def shown():
        try:
            await page.goto(url)
            await page.wait_for_selector("#host", timeout=5000)
            return True
        except playwright_api.Error:
            return False
    try:
        await wait_for(shown, timeout=timeout, every=0.5)
    except AssertionError:  # timed out: the page never showed the host screen
        return False
    return await page.locator("#who").first.text_content() == HOST


def test_the_host_screen_survives_a_closed_browser_and_a_power_cut(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    port = free_port()
    (narrator_home / "table.toml").write_text(
        DEFAULT_TABLE.replace('lang = "ja"\n', f'lang = "ja"\nphones = true\nhost = "127.0.0.1"\nport = {port}\n'
                              'history = false\n'), encoding="utf-8")
    url = f"http://127.0.0.1:{port}/"
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    with open(tmp_path / "serve.log", "wb") as log:
        proc = start_serve(narrator_home, first, log)
        try:
            closed = asyncio.run(before_the_cut(url, first, tmp_path / "state.json"))
        finally:
            kill(proc)  # the power cut, in the middle of the game's wait for the phones
        [game] = saved_games(narrator_home)
        assert not game.meta["finished"]
        proc = start_serve(narrator_home, second, log)
        try:
            resumed = asyncio.run(after_the_cut(url, second, tmp_path / "state.json"))
        finally:
            kill(proc)
    assert (closed, resumed) == (True, True)  # the browser closed and opened again, and after the
    # power cut: the same phone is the host screen, with no button hold
    text = (tmp_path / "serve.log").read_text(errors="replace")
    assert "ゲーム" in text and "を再開します" in text  # the table's language: ja (narrator/terminal/lines.toml)


async def before_the_cut(url, transcript, state):
    code = await wait_for(lambda: _code(transcript), timeout=60)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            context = await browser.new_context(**PHONE)
            host = await context.new_page()
            await host.goto(f"{url}#code={code}")
            await host.wait_for_selector("#play", timeout=30000)  # nothing to press: the host screen at once
            await host.click("#play")
            assert await is_game_host(host, url)
            kept = await context.storage_state(path=str(state))  # the power cut's phone keeps all
            await context.close()  # the browser closes: it keeps its storage and its persistent cookies
            kept["cookies"] = [c for c in kept["cookies"] if c.get("expires", -1) > 0]
            reopened = await browser.new_context(**PHONE, storage_state=kept)
            host = await reopened.new_page()
            closed = await is_game_host(host, url, timeout=20)
        finally:
            await browser.close()
    return closed


async def after_the_cut(url, transcript, state):
    async def resumed():
        return said(transcript, "appliance.resume_question")
    assert await wait_for(resumed, timeout=60)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            context = await browser.new_context(**PHONE, storage_state=str(state))
            host = await context.new_page()
            return await is_game_host(host, url)
        finally:
            await browser.close()
