"""A whole Additional Werewolf game with digital cards played in real browsers.

Headless Chromium from Debian (`/usr/bin/chromium`) driven by Playwright for Python, one
browser context per player (its own cookies, like its own phone), a phone-sized viewport,
Japanese page. The first phone opens the table code's link and becomes the host screen; it
shows each seat's own code in turn, and each player types it (or opens its link, as a QR
scan does). Each player reveals their cards by tapping, answers their own private
questions by tapping buttons (the host screen answers the public ones), and sees the
winners. On failure every phone's screen is saved to `test-artifacts/`.
"""

import asyncio
import contextlib
import json
import os
from pathlib import Path

import pytest

from narrator.games.additional_werewolf import cards
from narrator.phones.seats import HOST
from narrator.sound.voicepack import load_pack
from tests.phones_harness import NAMES5, open_table, wait_for
from tests.phones_policy import choose
from tests.setup_parts import missing, require_import

pytestmark = pytest.mark.slow  # Chromium through Playwright

CHROMIUM = Path("/usr/bin/chromium")
STATIC = Path(__file__).resolve().parent.parent / "narrator" / "phones" / "static"
ARTIFACTS = Path(os.environ.get("NARRATOR_TEST_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]

if os.environ.get("CI"):  # CI installs both (scripts/setup --test): a missing one is a failure there
    import playwright.async_api as playwright_api

    assert CHROMIUM.exists(), "scripts/setup --test did not install Debian's chromium"
else:
    playwright_api = require_import("playwright.async_api", "test", "the test extras are missing: scripts/setup --test")
    if not CHROMIUM.exists():
        missing("test", "Debian's chromium is missing: run scripts/setup --test (apt-get install chromium)",
                allow_module_level=True)


async def view_of(page):
    """The view the page's own session gets (its own cookie), opened with the page's own key
    (a seat's view is sealed for its phone)."""
    return await page.evaluate("fetch('/api/view').then(r => r.json()).then(opened)")


async def tap_answer(page, table, view):
    ask = view["ask"]
    value = choose(table, ask)
    if isinstance(value, list):
        for choice in value:
            await page.click(f'#ask button[data-choice="{choice}"]')
        await page.click("#submit")
    else:
        await page.click(f'#ask button[data-choice="{value}"]')
    return value


VIBRATIONS = "window.__vibrations = 0; navigator.vibrate = () => { window.__vibrations += 1; return true; };"


async def new_phone(browser):
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP",
                                        has_touch=True, is_mobile=True)
    await context.add_init_script(VIBRATIONS)  # counts each vibration
    return await context.new_page()


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two CSS rgb() colours."""
    def luminance(css):
        r, g, b = (int(v) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def shown_code(host, name):
    """The host screen shows `name`'s code: its letters as the player reads them off the card."""
    await host.click(f'#host .seat[data-seat="{name}"] .show-code')
    await host.wait_for_selector(f'#seat-code[data-seat="{name}"] #letters:not(:empty)')
    letters = await host.inner_text("#letters")
    assert letters.strip(), f"the host screen showed {name}'s code card with no code in it"
    return letters


async def seat_everyone(table, browser, names, pages):
    """The join flow at the table: the host screen first, then each seat's own code in turn."""
    host = pages["host"] = await new_phone(browser)
    await host.goto(f"{table.base}/#code={table.server.seats.table_code}")  # the terminal's QR code
    await host.wait_for_selector("#host")
    assert "#code" not in host.url  # the spent code leaves the address bar
    for number, name in enumerate(names, 1):
        letters = await shown_code(host, name)
        assert await host.locator("#qr").count() == 1
        page = pages[name] = await new_phone(browser)
        if number == len(names):  # the last player scans the QR code: its link carries the code
            link = await host.evaluate(f"fetch('/api/host/code/{number}').then(r => r.json())"
                                       ".then(d => d.box ? Seal.openForHost(mine.sk, table.key, d.box).link : d.link)")
            await page.goto(link)
        else:
            await page.goto(table.base + "/")
            await page.fill("#code", letters.lower())  # typed: case and spaces do not matter
            await page.click("#join")
        await page.wait_for_selector("#who:text-is('%d. %s')" % (number, name))
        await host.wait_for_selector(f'#host .seat[data-seat="{name}"] .release')
    return host


def test_digital_cards_game_in_five_browsers(request):
    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        names = NAMES5.split(",")
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, names, pages)
            await pages["Ben"].reload()  # a reload keeps the seat (the cookie)
            await pages["Ben"].wait_for_selector("#who:text-is('2. Ben')")
            players = {n: pages[n] for n in names}
            await check_cards_hidden_until_tapped(table, players)
            await play(table, players, host)
            state = await table.task
            assert state.winner == "citizens"
            for name, page in players.items():
                await page.wait_for_selector("#result")
                won = await page.get_attribute("#you-won", "data-won")
                assert won == str(cards.role(table.config, state, name) == "citizen").lower()
                assert "勝利" in await page.inner_text("#result")
            counts = [await page.evaluate("window.__vibrations") for page in players.values()]
            assert counts[0] > 0 and len(set(counts)) == 1, counts  # every phone at every call

    asyncio.run(main())


async def check_cards_hidden_until_tapped(table, pages):
    for name, page in pages.items():
        await page.wait_for_selector("#reveal")
        assert await page.locator("#role").count() == 0  # hidden by default
        await page.click("#reveal")
        role = await page.get_attribute("#role", "data-role")
        assert role == cards.role(table.config, table.state, name)
        card = table.state.extras_of[table.config.names.index(name)]
        assert await page.get_attribute("#card", "data-card") == card
        ja = load_pack("ja")  # the game's own lines, worded by the server (the page holds no card name)
        assert await page.inner_text("#role") == f"役職カード：{ja.speak('label.' + role).text}"
        assert await page.inner_text("#card") == f"アディショナルカード：{ja.speak('label.' + card).text}"
        await page.click("#reveal")
        assert await page.locator("#role").count() == 0


async def play(table, pages, host, limit: float = 120.0):
    """Tap through the game: private questions on their player's phone, public ones on the host screen."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    answered = set()
    saw_night_screen = saw_private_ja = False
    while not table.task.done():
        assert loop.time() < end, "the game did not end in time"
        host_view = await view_of(host)
        for page in [host] + list(pages.values()):
            view = host_view if page is host else await view_of(page)
            ask = view["host"]["ask"] if page is host else view["ask"]
            if not ask or ask["serial"] in answered:
                continue
            await page.wait_for_selector(f'#ask[data-serial="{ask["serial"]}"]')
            if ask["private"]:
                assert "あなたの番です" in await page.inner_text("#ask")
                saw_private_ja = True
                if ask["line"] != "strategist.give_phone":  # choices are numbered by seat, as everywhere
                    name = ask["choices"][0]
                    label = await page.inner_text(f'#ask button[data-choice="{name}"]')
                    assert label == f"{table.config.names.index(name) + 1}. {name}"
            if view["phase"] == "night":
                saw_night_screen |= await page.evaluate("document.body.className") == "phase-night"
            await tap_answer(page, table, {**view, "ask": ask})
            answered.add(ask["serial"])
            break
        await asyncio.sleep(0.02)
    assert saw_night_screen and saw_private_ja


@contextlib.asynccontextmanager
async def browsers(request, table):
    """Chromium for one test: (the browser, the phones' pages by name); on failure every
    phone's screen is saved; the table is closed either way."""
    pages = {}
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser, pages
        except BaseException:
            await screenshots(pages, request.node.name)
            raise
        finally:
            await browser.close()
            await table.close()


async def screenshots(pages, test_name):
    folder = ARTIFACTS / test_name
    folder.mkdir(parents=True, exist_ok=True)
    for name, page in pages.items():
        try:
            await page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        except Exception:  # a crashed page must not hide the real failure
            pass
    print(f"phone screenshots: {folder}")


def test_bestia_magica_six_players_in_six_browsers(request):
    from tests.test_phones_bestia import DEAL, NAMES, memo_for, vote_for

    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
        async with browsers(request, table) as (browser, pages):
            await seat_everyone(table, browser, NAMES, pages)
            players = {n: pages[n] for n in NAMES}
            for name, page in players.items():  # own role and attribute, hidden until tapped
                await page.wait_for_selector("#reveal")
                assert await page.locator("#role").count() == 0
                await page.click("#reveal")
                player = table.state.player(name)
                assert await page.get_attribute("#role", "data-role") == player.role
                assert await page.get_attribute("#attribute", "data-attribute") == player.attribute
                await page.click("#reveal")
            phases = []
            rounds, memo_screens = await play_rounds(table, players, {"night": memo_for, "vote": vote_for,
                                                                      "revote": vote_for}, phases=phases)
            # the page counts as the voice does: 1回目の夜 / 1回目の朝, never 1日目 (issue 26, item 11)
            assert any(p.endswith("回目の夜") for p in phases) and not any("日目" in p for p in phases), phases
            assert rounds >= 2
            for texts in memo_screens.values():  # hidden cards: the same screen for every role
                assert len(texts) == 6 and len(set(texts.values())) == 1, texts
            dead = table.server.shown.dead_names()
            assert dead, "somebody died in this game"
            await pages[dead[0]].wait_for_selector("#dead")
            colours = await pages[dead[0]].evaluate(
                "[getComputedStyle(document.getElementById('dead')).color, getComputedStyle(document.body).backgroundColor]")
            assert contrast(*colours) >= 4.5, colours
            state = await table.task
            assert state.winner == "town"
            for name, page in players.items():
                await page.wait_for_selector("#result")
                assert await page.get_attribute("#you-won", "data-won") == str(name != "Aki").lower()
                assert await page.inner_text("#winner") == "町民チームの勝利"  # the voice's word for the team
            host = pages["host"]  # the end as it was said, every night's reveal included, to read back
            await host.wait_for_selector("#end-lines li")
            said = await host.inner_text("#end-lines")
            assert "町民チームの勝利" in said and "回目の夜" in said, said
            await pages["Ben"].click("#reveal")  # the prophet's result, shown to Ben alone
            assert await pages["Ben"].locator("#messages li").count() >= 1

    asyncio.run(main())


REPLIES_SEEN = """(() => {
  window.__held = 0;  // the held replies the page has read (their handlers ran in the same task)
  const fetch0 = window.fetch;
  window.fetch = (...args) => fetch0(...args).then((r) => {
    if (!r.headers.get("x-held")) return r;
    const json = r.json.bind(r);
    r.json = () => json().then((v) => { window.__held += 1; return v; });
    return r;
  });
})();"""


def test_a_late_reply_to_the_last_memo_leaves_the_vote_unsent(request):
    """The last memo ends the night, and the narrator goes on to the day and the vote before
    the memo's reply reaches the phone. That late reply once marked the vote "sent" on the
    page (送信した内容: null) while the narrator waited for that vote: the game stood still."""
    from tests.test_phones_bestia import DEAL, NAMES, memo_for, round_open

    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
        async with browsers(request, table) as (browser, pages):
            await seat_everyone(table, browser, NAMES, pages)
            last = NAMES[-1]
            await pages[last].evaluate(REPLIES_SEEN)
            held, armed = [], asyncio.Event()

            async def hold(route):
                if not armed.is_set() or held or route.request.method != "POST":
                    return await route.continue_()
                held.append((route, await route.fetch()))  # the narrator has the memo; the phone not yet

            await pages[last].route("**/api/seat", hold)
            for name in NAMES:
                page = pages[name]
                await page.wait_for_selector('#request[data-phase="night"] #send')
                req = (await view_of(page))["request"]
                await page.click(f'#request button[data-target="{memo_for(name, req)[req["key"]]}"]')
                await page.click('#request button[data-ability="false"]')
                if name == last:
                    armed.set()
                await page.click("#send")
            await wait_for(lambda: round_open(table, "vote"), timeout=60)
            await wait_for(lambda: _true(held), timeout=60)
            route, response = held[0]
            await route.fulfill(response=response, headers={**response.headers, "x-held": "1"})
            page = pages[last]
            await page.wait_for_function("() => window.__held >= 1")
            await page.wait_for_selector('#request[data-phase="vote"]')
            assert await page.locator("#request #msg[data-sent]").count() == 0, await page.inner_text("#request")
            assert await page.locator("#request #send").count() == 1  # the vote is still to be sent

    asyncio.run(main())


async def play_rounds(table, pages, policies, limit: float = 120.0, phases: list | None = None):
    """Each phone fills in its own memo or vote by tapping; returns (rounds played, the night memo
    screens' text by round and player, read while the cards were hidden). `phases` collects the
    phase heading each page showed with a round open."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    done, rounds, screens = set(), set(), {}
    saw_day = False
    while not table.task.done():
        assert loop.time() < end, "the game did not end in time"
        for name, page in pages.items():
            view = await view_of(page)
            req = view["request"]
            if view["phase"] == "day" and not saw_day:
                await page.wait_for_selector("#day #alive")
                alive = await page.inner_text("#alive")
                assert all(f"{view['names'].index(n) + 1}. {n}" in alive for n in view["alive"])
                saw_day = True
            if not req or req["answered"] or (name, req["serial"]) in done:
                continue
            await page.wait_for_selector(f'#request[data-serial="{req["serial"]}"]')
            if phases is not None:
                phases.append(await page.inner_text("#phase"))
            if req["phase"] == "night":
                assert await page.locator("#role").count() == 0  # cards hidden
                screens.setdefault(req["serial"], {})[name] = await page.inner_text("#request")
            answer = policies[req["phase"]](name, req)
            target = answer[req["key"]]
            shown = page.locator(f'#request[data-serial="{req["serial"]}"] #msg[data-sent]')
            if await shown.count():  # the page has it sent already (a retry got through): as the player sees it
                # ... and then the narrator has it: a page must never say "sent" for a round it did
                # not send (a late reply to the last memo once marked the vote after it sent)
                again = (await view_of(page))["request"]
                assert again is None or again["serial"] != req["serial"] or again["answered"], (name, again)
                done.add((name, req["serial"]))
                continue
            await page.click(f'#request button[data-target="{target}"]')
            if req["ability"]:
                await page.click(f'#request button[data-ability="{str(answer["ability"]).lower()}"]')
            await page.click("#send")
            # sent: this round's form goes; the choice sent stays, by seat number and name
            await page.wait_for_selector(f'#request[data-serial="{req["serial"]}"] #send', state="detached")
            sent = page.locator(f'#request[data-serial="{req["serial"]}"] #msg[data-sent]')
            if await sent.count():
                assert f"{view['names'].index(target) + 1}. {target}" in await sent.inner_text()
            done.add((name, req["serial"]))
            rounds.add(req["serial"])
        await asyncio.sleep(0.02)
    assert saw_day, "the day screen showed who is alive"
    return len(rounds), screens


def test_the_day_screen_shows_the_timer_running(request):
    """A real (fast) clock: the discussion timer counts down on the page while it runs."""
    async def main():
        table = await open_table(NAMES5, seed=2, lang="ja", digital_cards="false", time_scale=0.1)
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, ["Aki"], pages)
            await pages["Aki"].wait_for_selector("#wait, #waiting")
            ask = await wait_for(lambda: _host_ask(host, "setup.ready"), timeout=30)
            await host.click(f'#ask[data-serial="{ask["serial"]}"] button[data-choice="done"]')
            await pages["Aki"].wait_for_selector("#day #timer", timeout=60_000)
            first = await pages["Aki"].inner_text("#timer")

            async def counted_on():  # the page shows a later time (a bounded wait, not a fixed one)
                shown = await pages["Aki"].inner_text("#timer")
                return shown if shown != first else None

            later = await wait_for(counted_on, timeout=60, every=0.1)
            assert first != later and ":" in later, (first, later)
            assert "1. Aki" in await pages["Aki"].inner_text("#alive")
            assert await pages["Aki"].inner_text("#phase") == "1日目の昼"
            assert await pages["Aki"].locator("#end-timer").count() == 0  # a player's phone cannot end it
            async with host.expect_response("**/api/host") as reply:  # the host screen can, sealed
                await host.click("#end-timer")
            assert (await reply.value).status == 200
            sent = (await reply.value).request.post_data
            assert '"box"' in sent and "timer" not in sent  # nothing readable
            await host.wait_for_selector('#ask[data-line="nomination.who"]', timeout=60_000)

    asyncio.run(main())


async def _host_ask(host, line):
    view = await view_of(host)
    ask = view["host"]["ask"]
    return ask if ask and ask["line"] == line else None


def test_the_host_screen_waits_for_the_tables_press_showing_the_number_the_narrator_says():
    """Issue 24: the table code alone no longer makes the host screen; the page shows its
    number, the narrator says it, and the host screen appears once the table presses."""
    async def main():
        table = await open_table(NAMES5, seed=5)
        table.sitting.hub.register("button")  # the appliance's button is at the table
        table.server.seats.release(HOST)
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                try:
                    page = await new_phone(browser)
                    await page.goto(f"{table.base}/#code={table.server.seats.table_code}")
                    await wait_for(lambda: _true(table.server.pending_host is not None), timeout=30)
                    word = table.server.pending_host.word
                    await page.wait_for_selector(f'#msg:has-text("{word}")', timeout=30_000)
                    assert table.server.said[-1] == ("phones.host_claim", {"n": word})
                    assert await page.locator("#host").count() == 0
                    assert table.sitting.hub.offer_text("done", "button") is None  # the table presses
                    await page.wait_for_selector("#host", timeout=30_000)
                finally:
                    await browser.close()
        finally:
            await table.close()

    asyncio.run(main())


BLANK_CODES = """window.__cards = 0; window.__blank = 0;
new MutationObserver((records) => {
  for (const r of records) for (const node of r.addedNodes) {
    const card = node.id === "seat-code" ? node : node.querySelector && node.querySelector("#seat-code");
    if (!card) continue;
    window.__cards += 1;
    if (!card.querySelector("#letters").textContent.trim()) window.__blank += 1;
  }
}).observe(document.body, { childList: true, subtree: true });"""


def test_a_seat_code_being_copied_stays_on_the_host_screen_through_every_push(request):
    """The host screen is drawn again at every push, and a night call brings one a second from
    every phone. Each drawing once fetched the code anew and showed an empty card until the
    reply came: a player copying the letters saw them blink, and the CI's browser test read ""
    between two pushes, typed it as the seat's code and was shut out (the run of 2026-12-02)."""
    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        name = NAMES5.split(",")[0]
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, [], pages)
            await shown_code(host, name)
            await host.evaluate(BLANK_CODES)
            for pushes in range(1, 6):
                table.server._changed()  # a phone's decoy, a memo, a new line: the screen is drawn again
                await host.wait_for_function(f"() => window.__cards >= {pushes}")
            assert await host.evaluate("window.__blank") == 0
            code = table.server.seats.code(name)
            assert (await host.inner_text("#letters")).replace(" ", "") == code

    asyncio.run(main())


def test_a_join_whose_connection_drops_goes_again_and_seats_the_phone(request):
    """A join's connection can drop (a Wi-Fi gap; a flood makes the narrator shed strangers'
    connections, and a phone not yet seated is one): the page once stayed at "joining" for
    good. It goes again after 0.5, 1, 2... s, so the player's one tap seats them."""
    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        name = NAMES5.split(",")[0]
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, [], pages)
            letters = await shown_code(host, name)
            page = pages[name] = await new_phone(browser)
            dropped = []

            async def drop_first(route):
                if dropped:
                    return await route.continue_()
                dropped.append(route.request.url)
                await route.abort("connectionreset")

            await page.route("**/api/join", drop_first)
            await page.goto(table.base + "/")
            await page.fill("#code", letters)
            await page.click("#join")
            await page.wait_for_selector(f"#who:text-is('1. {name}')", timeout=15_000)
            assert len(dropped) == 1

    asyncio.run(main())


def test_a_join_that_never_gets_an_answer_says_so_after_its_retries(request):
    """Every try of the join dropped: after the retries (0.5 + 1 + 2 + 4 + 8 s, run on the
    page's fake clock, not waited for) the page says the send failed and keeps the code box."""
    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        async with browsers(request, table) as (browser, pages):
            page = pages["phone"] = await new_phone(browser)
            tries = []

            async def drop(route):
                tries.append(1)
                await route.abort("connectionreset")

            await page.clock.install()
            await page.route("**/api/join", drop)
            await page.goto(table.base + "/")
            await page.fill("#code", "ABCDE FGHJK")
            await page.click("#join")
            strings = json.loads((STATIC / "strings.json").read_text(encoding="utf-8"))["ja"]
            for _ in range(60):  # each wait of the retry loop, run on the fake clock
                if await page.locator(f'#msg:text-is("{strings["send_failed"]}")').count():
                    break
                await page.clock.run_for(1000)
            assert await page.inner_text("#msg") == strings["send_failed"]
            assert len(tries) == 6  # the first try and five more
            assert await page.locator("#code").count() == 1

    asyncio.run(main())


async def _true(value):
    return value
