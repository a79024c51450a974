"""One-night on four phones in real browsers (Chromium at phone size, in Japanese): each night
call's round on the asked player's own phone, headed and worded as a night call, its choices
in the page's words (seats by number, 中央のカード, 中央の1枚目, 交換しない, never a raw id),
the private result on that phone alone, the public questions on the host screen, and every
phone called at every call whoever holds the card.
"""

import asyncio

import pytest

from tests.phones_harness import open_table
from tests.test_phones_browser import browsers, seat_everyone, view_of

pytestmark = pytest.mark.slow  # Chromium through Playwright

NAMES = "Aki,Ben,Chika,Dai"
SEED = 11
"""Deals Aki a lone werewolf (the other in the centre), Ben the seer, Chika the thief, Dai a villager."""
LABELS = {"centre1": "中央の1枚目", "centre2": "中央の2枚目", "centre": "中央のカード", "nobody": "交換しない"}
PICKS = {"Aki": "centre2", "Ben": "centre", "Chika": "nobody"}


async def night_results(players) -> bool:
    """Each phone's own night, shown on tapping its cards: the seer's look at the centre on Ben's
    phone, the lone wolf's centre card on Aki's, the thief's kept card on Chika's, nothing on Dai's."""
    expected = {"Aki": "中央の2枚目のカードは", "Ben": "中央のカードは", "Chika": "カードは交換しませんでした", "Dai": None}
    roles = {"Aki": "werewolf", "Ben": "seer", "Chika": "thief", "Dai": "villager"}
    for name, words in expected.items():
        page = players[name]
        await page.click("#reveal")  # its own card as dealt (a game file's card once left the page blank)
        assert await page.get_attribute("#role", "data-role") == roles[name]
        if words is None:
            assert await page.locator("#messages li").count() == 0
        else:
            assert words in await page.inner_text("#messages"), name
        await page.click("#reveal")
    return True


def test_one_night_calls_on_four_phones_in_japanese(request):
    async def main():
        table = await open_table(NAMES, seed=SEED, game="one-night", digital_cards="true", lang="ja")
        names = NAMES.split(",")
        assert table.config.roles and table.server is not None
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, names, pages)
            players = {n: pages[n] for n in names}
            asked, loop, seen, tapped = {}, asyncio.get_running_loop(), False, set()
            end = loop.time() + 120
            while not table.task.done():
                assert loop.time() < end, "the game did not end in time"
                for name, page in players.items():
                    req = (await view_of(page))["request"]
                    if not req or req["answered"] or req["serial"] in asked.get(name, ()):
                        continue
                    box = f'#request[data-serial="{req["serial"]}"]'
                    await page.wait_for_selector(box)
                    assert await page.get_attribute(box, "data-phase") == "call"
                    assert await page.inner_text(f"{box} h2") == "夜の行動"
                    labels = {c: await page.inner_text(f'{box} button[data-target="{c}"]') for c in req["choices"]}
                    for choice, label in labels.items():
                        seat = names.index(choice) + 1 if choice in names else None
                        assert label == (f"{seat}. {choice}" if seat else LABELS[choice]), labels
                    await page.click(f'{box} button[data-target="{PICKS[name]}"]')
                    await page.click("#send")
                    await page.wait_for_selector(f"{box} #send", state="detached")
                    asked.setdefault(name, set()).add(req["serial"])
                host_view = await view_of(host)
                ask = host_view["host"]["ask"]
                if ask and ask["line"] == "wolf.executed_any" and not seen:  # the day: each phone's own night
                    seen = await night_results(players)
                if ask and ask["serial"] not in tapped:  # each question tapped once (the next view may still show it)
                    tapped.add(ask["serial"])
                    await host.wait_for_selector(f'#ask[data-serial="{ask["serial"]}"]')
                    if ask["multiple"]:
                        await host.click('#ask button[data-choice="Aki"]')
                        await host.click("#submit")
                    else:
                        await host.click(f'#ask button[data-choice="{"yes" if "yes" in ask["choices"] else "done"}"]')
                await asyncio.sleep(0.02)
            state = await table.task
            assert set(asked) == {"Aki", "Ben", "Chika"}  # the villager is never asked
            assert state.winner == "village" and state.executed == ("Aki",)
            assert seen
            counts = [await page.evaluate("window.__vibrations") for page in players.values()]
            assert counts[0] >= 3 and len(set(counts)) == 1, counts  # every phone at each of the three calls

    asyncio.run(main())
