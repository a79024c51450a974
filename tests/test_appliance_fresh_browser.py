"""A fresh appliance's host screen and a missing speaker (issue 37, items 1 and 10), through
`narrator serve` and real Chromium at phone size, in Japanese.

Item 1: a home with no table file and no `phones` setting serves the host screen at once: the
narrator says its address and table code, the page (at 390x844, ja-JP) takes the code and,
confirmed by the table's button, becomes the host screen, and any phone there shows the
address as a QR code on request. No shell command at any point.

Item 10: `audio_device` naming a speaker that is not there: serve plays on (text voice,
instant clock), the host screen says there is no speaker, and a speaker that appears between
games (a fake device list: `outputs.import_sounddevice` answers with `FakeSoundDevice`) is taken
before the next game and the notice goes.
"""

import asyncio
import re
import threading
import tomllib

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.errors import NoMoreAnswers
from narrator.phones import table as phones_table
from narrator.sound import outputs
from narrator.table.transcript import read_transcript
from tests.phones_harness import wait_for
from tests.test_host_settings_browser import free_port
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, narrator serve in a thread


class Table:
    """The table's one button: it confirms the host screen when pressed, answers the game's own
    questions, and answers the menu's as `menu` says (a dict of line -> value, else silent;
    None: the table goes home there).
    At "play again?" it plays again while `agains` lasts, then the table goes home."""

    def __init__(self, menu=None, agains=0, at_again=None):
        self.menu, self.agains, self.at_again = dict(menu or {}), agains, at_again
        self.hub = self.loop = None
        self.heard: list[str] = []

    def start(self, hub, loop):
        self.hub, self.loop = hub, loop
        hub.register("button")
        loop.create_task(self._run(hub))

    def press(self):
        self.loop.call_soon_threadsafe(self.hub.offer_text, "done", "button")

    def answer(self, text):
        self.loop.call_soon_threadsafe(self.hub.offer_text, text, "button")

    def home(self):
        if not self.loop.is_closed():  # else serve has ended already
            self.loop.call_soon_threadsafe(self.hub.fail, NoMoreAnswers("the table went home"))

    async def _run(self, hub):
        serial = 0
        while True:
            serial, ask = await hub.next_ask(serial)
            self.heard.append(ask.line)
            if ask.line == "appliance.again":
                if self.at_again is not None:
                    await self.at_again()
                if self.agains <= 0:
                    hub.fail(NoMoreAnswers("the table went home"))
                    return
                self.agains -= 1
                hub.offer_value(serial, "yes", "button")
            elif ask.line in self.menu and self.menu[ask.line] is None:  # the table goes home here
                hub.fail(NoMoreAnswers("the table went home"))
                return
            elif ask.line in self.menu:
                hub.offer_value(serial, self.menu[ask.line], "button")
            elif not ask.line.startswith("appliance."):
                value = "done" if "done" in ask.choices else "yes" if "yes" in ask.choices else ask.choices[0]
                hub.offer_value(serial, value, "button")


def run_serve(overrides, table, messages):
    """`narrator serve` in a thread; returns (thread, outcome)."""
    outcome: dict = {}

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[table]),
                  log=messages.append)
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


async def said_code(transcript):
    """The table code as the narrator said it (digit by digit), once it has."""
    if not transcript.exists():
        return None
    said = [r["text"] for r in read_transcript(transcript) if r.get("line") == "appliance.settings_page"]
    found = re.search(r"(?<!\d)\d(?: \d){7}(?!\d)", said[0]) if said else None
    return found.group().replace(" ", "") if found else None


def test_a_fresh_appliance_serves_its_host_screen_and_shows_its_address_as_a_qr_code(narrator_home, tmp_path):
    transcript = tmp_path / "t.jsonl"
    port = free_port()
    messages: list[str] = []
    # no table file, no `phones`: only where to listen (this machine) and an instant text voice
    overrides = {"voice": "text", "time_scale": "0", "transcript": str(transcript), "host": "127.0.0.1",
                 "port": str(port)}
    table = Table()
    thread, outcome = run_serve(overrides, table, messages)
    try:
        asyncio.run(_fresh(port, transcript, table))
    finally:
        table.home()
        thread.join(60)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome
    said = [r["line"] for r in read_transcript(transcript) if r["kind"] == "say"]
    assert said[:2] == ["appliance.greeting", "appliance.settings_page"]
    assert "phones" not in tomllib.loads((narrator_home / "table.toml").read_text(encoding="utf-8"))


async def _fresh(port, transcript, table):
    url = f"http://127.0.0.1:{port}/"
    code = await wait_for(lambda: said_code(transcript), timeout=30)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            host, player = await new_phone(browser), await new_phone(browser)
            await player.goto(url)
            await player.wait_for_selector("#code")
            assert await player.locator("#entry h2").text_content() == "ホスト画面にする（テーブルコード）"

            # the host screen, by the code said aloud and a press at the table
            await host.goto(f"{url}#code={code}")
            await host.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')")
            table.press()
            await host.wait_for_selector("#play")
            assert await host.locator("#who").text_content() == "ホスト画面"

            # the address as a QR code, on request, on any phone: for the others to scan
            await player.reload()
            await player.wait_for_selector("#show-join")
            assert await player.locator("#join-qr").count() == 0
            assert await player.locator("#show-join").text_content() == "参加用のQRコードを表示"
            await player.click("#show-join")
            await player.wait_for_selector("#join-qr svg path")
            assert await player.locator("#join-url").text_content() == url
            assert await player.locator("#join-qr").get_attribute("aria-label") == "このページのアドレスのQRコード"
            size = await player.locator("#join-qr svg").bounding_box()
            assert size["width"] <= 390 and size["height"] >= 100  # fits the phone, big enough to scan
        finally:
            await browser.close()


class FakeSoundDevice:
    """The device list seam: PortAudio with no output device until `plug()`; then device
    "USBスピーカー" opens (a stream that plays nothing) and each opening is counted."""

    class PortAudioError(Exception):
        pass

    def __init__(self):
        self.plugged = False
        self.opened: list = []

    def plug(self):
        self.plugged = True

    def query_devices(self, device=None, kind=None):
        if not self.plugged or device not in (None, "USBスピーカー"):
            raise self.PortAudioError("Error querying device -1")
        return {"name": "USBスピーカー", "max_output_channels": 2}

    def RawOutputStream(self, **kwargs):
        fake = self

        class Stream:
            def start(self):
                fake.opened.append(kwargs["device"])

            def stop(self):
                pass

            def close(self):
                pass
        return Stream()


def test_a_missing_speaker_plays_on_says_so_on_the_host_screen_and_is_taken_when_it_appears(
        narrator_home, tmp_path, monkeypatch):
    device = FakeSoundDevice()
    monkeypatch.setattr(outputs, "import_sounddevice", lambda: device)
    servers = []  # each game's phone page: its host screen says so while there is no speaker
    make_server = phones_table.make_server
    monkeypatch.setattr(phones_table, "make_server", lambda *a, **k: servers.append(make_server(*a, **k)) or servers[-1])
    transcript = tmp_path / "t.jsonl"
    port = free_port()
    messages: list[str] = []
    overrides = {"voice": "text", "time_scale": "0", "transcript": str(transcript), "host": "127.0.0.1",
                 "port": str(port), "audio_device": "USBスピーカー", "phones": "true"}
    shown: dict = {}
    state = {"url": f"http://127.0.0.1:{port}/", "shown": shown}
    agains = []

    async def between_games():  # at "play again?": what the host screen says; after game 1, a speaker
        agains.append(1)
        when = "after_first" if len(agains) == 1 else "after_second"
        await asyncio.to_thread(asyncio.run, _notice(state, when))
        device.plug()

    table = Table(agains=1, at_again=between_games)
    thread, outcome = run_serve(overrides, table, messages)
    try:
        asyncio.run(_notice(state, "before"))  # at the menu, before the first game
        table.answer("yes")                    # the table plays the offered game
        thread.join(120)
    finally:
        table.home()
        thread.join(30)
    assert not thread.is_alive()
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome  # played on, never stopped
    assert shown["before"] == shown["after_first"] == "スピーカーが見つかりません。音なしで続けます（スマホとこの画面は使えます）。スピーカーをつなぐと、次のゲームから音が出ます。"
    ends = [r for r in read_transcript(transcript) if r["kind"] == "end"]
    assert len(ends) == 2  # both games played
    missing = [m for m in messages if "no audio output device USBスピーカー" in m]
    assert len(missing) == 1 and "playing on without sound" in missing[0]
    assert any(m.startswith("speaker found") for m in messages)
    assert shown["after_second"] is None  # the page after the second game: no notice
    assert [server.no_speaker for server in servers] == [True, False]
    assert servers[0].view(None, is_host=True)["host"]["no_speaker"] is True


async def _notice(state, when):
    """What the page at the appliance's address says about the speaker (None: nothing)."""
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            page = await new_phone(browser)
            await wait_for(lambda: _opened(page, state["url"]), timeout=60, every=0.2)
            notice = page.locator("#no-speaker")
            state["shown"][when] = await notice.text_content() if await notice.count() else None
        finally:
            await browser.close()


async def _opened(page, url):
    try:
        await page.goto(url)
        return await page.locator("#my-seat").count() > 0
    except playwright_api.Error:
        return False
