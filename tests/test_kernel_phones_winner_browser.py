"""A game file's own team wins on four phones in real browsers (Chromium at phone size, in
Japanese): every result card names the winner in the file's own `wolf.win.cult` line
(「教団の勝利です！」), where it once showed nothing; the host screen reads the end back in it
too. The game: tests/test_kernel_phones_winner.py's one-night with a cult, played to its end.
"""

import asyncio

import pytest

from tests.phones_harness import open_table
from tests.test_kernel_phones_winner import NAMES, SEED, cult_file
from tests.test_phones_browser import browsers, seat_everyone, view_of

pytestmark = pytest.mark.slow  # Chromium through Playwright


async def answer_requests(players, asked) -> None:
    """Each phone's open night round, answered once with its first target."""
    for name, page in players.items():
        req = (await view_of(page))["request"]
        if not req or req["answered"] or req["serial"] in asked.setdefault(name, set()):
            continue
        box = f'#request[data-serial="{req["serial"]}"]'
        await page.wait_for_selector(box)
        await page.click(f"{box} button[data-target]")
        await page.click("#send")
        await page.wait_for_selector(f"{box} #send", state="detached")
        asked[name].add(req["serial"])


def test_a_game_files_own_team_wins_on_every_phone_in_japanese(request, monkeypatch):
    async def main():
        cult_file(monkeypatch)
        table = await open_table(NAMES, seed=SEED, game="cult-night", digital_cards="true", lang="ja")
        names = NAMES.split(",")
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, names, pages)
            players = {n: pages[n] for n in names}
            asked, tapped, loop = {}, set(), asyncio.get_running_loop()
            end = loop.time() + 120  # a bound on a loaded machine; the game runs on the instant clock
            while not table.task.done():
                assert loop.time() < end, "the game did not end in time"
                await answer_requests(players, asked)
                ask = (await view_of(host))["host"]["ask"]
                if ask and ask["serial"] not in tapped:  # each question tapped once
                    tapped.add(ask["serial"])
                    await host.wait_for_selector(f'#ask[data-serial="{ask["serial"]}"]')
                    if ask["multiple"]:  # who was executed: whoever holds the cultist now
                        cards = dict(zip(names, table.server.state.cards))
                        held = [n for n in names if cards[n] == "cultist"]
                        assert held, "the seed put the cultist in the centre"
                        await host.click(f'#ask button[data-choice="{held[0]}"]')
                        await host.click("#submit")
                    else:
                        await host.click(f'#ask button[data-choice="{"yes" if "yes" in ask["choices"] else "done"}"]')
                await asyncio.sleep(0.02)
            state = await table.task
            assert state.winner == "cult"
            for page in [*players.values(), host]:
                await page.wait_for_selector("#result #winner", timeout=30_000)
                assert await page.inner_text("#result #winner") == "教団の勝利です！"
            await host.wait_for_selector("#end-lines li")
            assert "教団の勝利です！" in await host.inner_text("#end-lines")

    asyncio.run(main())
