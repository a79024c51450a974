"""The page's side of issue 24 in real Chromium: what its requests' sizes and senders tell.

Each attack runs with its protection switched off in the page (padding, decoys) and on:
- request sizes: every POST a phone makes (its join, memos, votes, decoys) has one length,
  whatever its role, target or ability (issue 24 measured 687 bytes for "Aki / yes" and 690
  for "Chika / no");
- who sends: at every night call and private round every seated phone sends one request,
  so a listener counting requests per phone cannot tell who was called.
And a send that does not get through: the page tries again and shows "sent" only once the
narrator has it, and says so when it never does.
"""

import asyncio
import collections

import pytest

from tests.phones_harness import NAMES5, open_table, wait_for
from tests.test_phones_browser import browsers, play, play_rounds, seat_everyone, view_of

pytestmark = pytest.mark.slow  # Chromium through Playwright

SEALED = "/api/seat"


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


@pytest.mark.parametrize("protected", [False, True])
def test_every_request_a_phone_sends_has_one_size_whatever_its_role(request, protected):
    from tests.test_phones_bestia import DEAL, NAMES, memo_for, vote_for

    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
        async with browsers(request, table) as (browser, pages):
            posts = collections.defaultdict(list)

            def watch(name, page):
                page.on("request", lambda r: posts[name].append((_path(r.url), len(r.post_data_buffer or b"")))
                        if r.method == "POST" else None)

            await seat_everyone(table, browser, NAMES, pages)
            for name in NAMES:
                watch(name, pages[name])
                if not protected:  # the page before issue 24: no padding
                    await pages[name].evaluate("Seal.sizes.plain = 1; Seal.sizes.request = 1")
            players = {n: pages[n] for n in NAMES}
            await play_rounds(table, players, {"night": memo_for, "vote": vote_for, "revote": vote_for})
            await table.task
            return posts, {n: table.state.player(n).role for n in NAMES}

    posts, roles = asyncio.run(main())
    sealed = {name: [size for path, size in sent if path == SEALED] for name, sent in posts.items()}
    assert all(sealed.values()), sealed  # every phone sent its memos and votes
    sizes = {size for sent in sealed.values() for size in sent}
    named = [n for n, sent in sealed.items()  # a phone whose sizes no phone of another role shares
             if not any(set(sent) & set(other) for m, other in sealed.items() if roles[m] != roles[n])]
    if protected:
        assert sizes == {1024}, sealed
        assert named == []
    else:
        assert len(sizes) > 1, sealed


@pytest.mark.parametrize("protected", [False, True])
def test_who_sends_at_a_night_call_tells_nothing(request, protected):
    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        names = NAMES5.split(",")
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, names, pages)
            players = {n: pages[n] for n in names}
            sent = collections.Counter()
            for name, page in players.items():
                page.on("request", lambda r, name=name: sent.update([name]) if _path(r.url) == SEALED else None)
                if not protected:  # the page before issue 24: only the called phone sends
                    await page.evaluate("COVER.on = false; decoy = () => {}; true")
            await play(table, players, host)
            calls = table.server.call

            async def decoys_in():  # the last call's last slot, the decoys of the page before slots
                return all(sent[n] >= calls for n in names) or None
            try:
                await wait_for(decoys_in, timeout=10, every=0.2)
            except AssertionError:
                pass
            return dict(sent), calls

    sent, calls = asyncio.run(main())
    assert calls >= 4  # seer, peddler, two phantom mages on the first night at least
    every_call = all(sent.get(n, 0) >= calls for n in NAMES5.split(","))  # (a retried send is one more)
    assert every_call == protected, (sent, calls)
    if protected:  # one per slot of each call (tests/test_phones_timing_browser.py: the same slots)
        assert len(set(sent.values())) == 1, (sent, calls)


def test_a_lost_send_is_tried_again_and_shown_sent_only_when_the_narrator_has_it(request):
    from tests.test_phones_bestia import DEAL, memo_for
    from tests.test_phones_bestia import round_open

    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, ["Aki"], pages)
            page = pages["Aki"]
            await page.evaluate("RETRIES.splice(0, RETRIES.length, 50, 100, 200)")  # the backoff, shortened
            # what each try carries (in a call, a phone sends a decoy in every slot its memo does not take)
            await page.evaluate("window.tos = []; const once = sealedOnce;"
                                "sealedOnce = (to, body) => { tos.push(to); return once(to, body); }; true")
            memo_tries = "tos.filter((to) => to === 'private').length"
            async def night_round():  # the host screen answers the table's questions until then
                hv = await view_of(host)
                if hv["host"]["ask"]:
                    ask = hv["host"]["ask"]
                    await host.click(f'#ask[data-serial="{ask["serial"]}"] button[data-choice="{ask["choices"][0]}"]')
                return await round_open(table, "night")
            serial, round_ = await wait_for(night_round, timeout=30, every=0.2)
            await page.wait_for_selector(f'#request[data-serial="{serial}"]')
            req = (await view_of(page))["request"]
            answer = memo_for("Aki", req)

            async def fill():
                await page.click(f'#request button[data-target="{answer["target"]}"]')
                if req["ability"]:
                    await page.click(f'#request button[data-ability="{str(answer["ability"]).lower()}"]')

            tries = []

            async def lose(route):  # the Wi-Fi drops every try
                tries.append(1)
                await route.abort()
            await page.route("**/api/seat", lose)
            await fill()
            await page.click("#send")
            await page.wait_for_selector("#msg:text-is('%s')" % "送れませんでした。Wi-Fiを確かめて、もう一度押してください")
            assert await page.evaluate(memo_tries) == 4 and "Aki" not in round_.answers  # the first and three more
            assert len(tries) >= 4
            assert await page.locator("#msg[data-sent]").count() == 0  # never "sent"
            assert await page.is_enabled("#send")  # and may be pressed again

            lost = []

            async def lose_twice(route):  # two tries lost, then through
                if len(lost) < 2:
                    lost.append(1)
                    await route.abort()
                else:
                    await route.continue_()
            await page.unroute("**/api/seat")
            await page.route("**/api/seat", lose_twice)
            await page.click("#send")
            await page.wait_for_selector("#msg[data-sent]")
            assert round_.answers.get("Aki") == answer and len(lost) == 2
            assert await page.evaluate(memo_tries) >= 5  # the memo, again, until it got through

    asyncio.run(main())
