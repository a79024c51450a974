"""The host screen carried through the evening (issue 23), in real Chromium at phone size, in
Japanese: one phone types the table code on the settings page and the table presses the button;
the host screen starts the game and the same page, with no code typed, is the game's host
screen (it shows a seat's code, sealed to it, and answers the game's first question); when the
game ends the page is the settings again (the end's offer to change them), a change is saved,
and one tap replays the same settings, reshuffled, on the same host screen.

`narrator serve` runs in a thread on a narrator home's real table file, phones on, real HTTP
on loopback; the only other listener is the table's button (`TableButton`). The text voice
and time scale 0 make the games instant.
"""

import asyncio
import base64
import threading

import aiohttp
import nacl.exceptions
import nacl.public

import pytest

from narrator.appliance.serve import ServeOptions, serve
from narrator.appliance.table import DEFAULT_TABLE
from narrator.errors import NoMoreAnswers
from narrator.table.saved_games import saved_games
from tests.phones_harness import wait_for
from tests.test_host_settings_browser import _code, free_port
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, playwright_api

pytestmark = pytest.mark.slow  # Chromium through Playwright, two served games

HOST = "ホスト画面"


class TableButton:
    """The table's button: pressed when the test says (to confirm the host screen), and for the
    games' questions, but for each game's first one (the host screen answers it); never at
    the menu or "play again?" (the host screen's start answers them); at the second "play
    again?" the table goes home once the test has seen the settings back."""

    def __init__(self):
        self.hub = self.loop = None
        self.first_ask: str | None = None
        self.agains = 0
        self.leave = threading.Event()

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
                    while not self.leave.is_set():
                        await asyncio.sleep(0.05)
                    hub.fail(NoMoreAnswers("the table went home"))
                    return
            elif ask.line.startswith("appliance."):
                continue
            elif self.first_ask in (None, ask.line):
                self.first_ask = ask.line  # each game's first question: the host screen answers it
            else:
                value = "done" if "done" in ask.choices else "yes" if "yes" in ask.choices else ask.choices[0]
                hub.offer_value(serial, value, "button")


def test_the_settings_host_screen_is_the_games_and_comes_back_to_the_settings(narrator_home, tmp_path):
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text(DEFAULT_TABLE, encoding="utf-8")
    port = free_port()
    messages: list[str] = []
    transcript = tmp_path / "t.jsonl"
    overrides = {"voice": "text", "time_scale": "0", "phones": "true", "host": "127.0.0.1", "port": str(port),
                 "history": "false", "transcript": str(transcript)}
    button, outcome = TableButton(), {}

    def run():
        try:
            serve(ServeOptions(keyboard=False, buttons=False, overrides=overrides, listeners=[button]),
                  log=messages.append)
        except BaseException as err:
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        code = asyncio.run(drive(f"http://127.0.0.1:{port}/", transcript, button))
    finally:
        button.leave.set()
        thread.join(60)
    assert not thread.is_alive()
    assert not any(code in m for m in messages)  # said, never in the journal (issue 24)
    assert button.first_ask == "setup.ready"
    assert isinstance(outcome.get("error"), NoMoreAnswers), outcome
    first, second = saved_games(narrator_home)
    assert first.meta["finished"] and second.meta["finished"]
    assert first.meta["config"]["discussion"] != 120 and second.meta["config"]["discussion"] == 120
    assert first.meta["config"]["seed"] != second.meta["config"]["seed"]  # reshuffled
    assert not any(m.startswith("appliance.offer") for m in messages[messages.index(
        next(m for m in messages if m.startswith("appliance.again"))):])  # no second question


async def sniffed_cookie_reads_no_code(url, cookies):
    """Issue 38: a laptop on the Wi-Fi with the host screen's sniffed cookie sends a key of its
    own: asked aloud (202), bound on no press, so the seat code it asks for stays sealed to the
    page's key (tests/test_phones_hostkey.py shows it read with the protection off)."""
    laptop = nacl.public.PrivateKey.generate()
    base = url.rstrip("/")
    jar = aiohttp.CookieJar(unsafe=True)
    jar.update_cookies({c["name"]: c["value"] for c in cookies})
    async with aiohttp.ClientSession(base, cookie_jar=jar, headers={"Origin": base}) as s:
        async with s.post("/api/host/key", json={"key": base64.b64encode(bytes(laptop.public_key)).decode()}) as r:
            assert r.status == 202
        async with s.get("/api/seats") as r:
            server_key = (await r.json())["key"]
        sealed = None
        for number in range(1, 9):  # the first free seat's code
            async with s.get(f"/api/host/code/{number}") as r:
                sealed = sealed or (await r.json()).get("box")
    box = nacl.public.Box(laptop, nacl.public.PublicKey(base64.b64decode(server_key)))
    with pytest.raises(nacl.exceptions.CryptoError):
        box.decrypt(base64.b64decode(sealed))


async def text_of(page, selector):
    return await page.locator(selector).first.text_content() if await page.locator(selector).count() else None


async def drive(url, transcript, button):
    code = await wait_for(lambda: _code(transcript), timeout=30)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            host = await new_phone(browser)
            await host.goto(f"{url}#code={code}")
            # the table code alone is not enough: the page shows its number, the table presses
            await host.wait_for_function("() => /\\d\\d/.test((document.getElementById('msg') || {}).textContent || '')",
                                         timeout=15000)
            assert await host.locator("#play").count() == 0
            button.press()
            await host.wait_for_selector("#play", timeout=15000)
            assert await text_of(host, "#who") == HOST

            # start the game: the same page becomes the game's host screen, with no code typed
            await host.click("#play")
            await host.wait_for_selector("#host", timeout=60000)
            assert await text_of(host, "#who") == HOST
            assert await host.locator("#entry").count() == 0
            await host.click('#host .seat[data-seat] button.show-code >> nth=0')
            # the seat's code came sealed to the key the table confirmed on the settings page
            # (carry.into_game), and opened
            await host.wait_for_function("() => (document.getElementById('letters') || {}).textContent"
                                         "?.replace(' ', '').length === 10", timeout=15000)
            await sniffed_cookie_reads_no_code(url, await host.context.cookies())
            await host.click("#start", timeout=30000)  # no phones joined: the host starts anyway
            await host.wait_for_selector("#host #ask button", timeout=30000)
            await host.click("#host #ask button >> nth=0")  # the game's first question, from the host screen

            # the game ends: the same page is the settings again (its offer to change them)
            await host.wait_for_selector("#play", timeout=120000)
            assert await text_of(host, "#who") == HOST
            await host.fill('[data-key="discussion"] input.value', "120")
            await host.click('[data-key="discussion"] button.save')
            await host.wait_for_function("() => (document.getElementById('msg') || {}).textContent === '保存しました'",
                                         timeout=15000)

            # one tap replays the same settings, reshuffled, on the same host screen
            await host.click("#play")
            await host.click("#start", timeout=60000)
            await host.wait_for_selector("#host #ask button", timeout=60000)
            assert await text_of(host, "#who") == HOST
            await host.click("#host #ask button >> nth=0")
            await host.wait_for_selector("#play", timeout=120000)  # and the settings after it
            assert await text_of(host, "#who") == HOST
        finally:
            await browser.close()
    return code
