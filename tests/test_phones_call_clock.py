"""The call clock every phone's slots follow (app.js: COVER): each view says whether a private
call is open and how long the last one lasted, the same on every phone; the view as it leaves
(`view_now`: the page's events and /api/view) says how long ago the open call opened."""

import asyncio

from tests.phones_harness import NAMES5, Phone, open_table, wait_for
from tests.test_phones_page_state import _moved_on, _private_ask


def test_every_phone_sees_the_same_call_open_its_age_and_then_its_length():
    async def main():
        table = await open_table(NAMES5, seed=5)
        phones = {n: Phone(table.base, n) for n in NAMES5.split(",")}
        try:
            for phone in phones.values():
                await phone.join()
            before = (await phones["Aki"].view())[1]
            assert before["calling"] is False and before["call_length"] is None
            assert table.server.view_now("Aki")["call_age"] is None
            host = await table.host()
            assert (await host.answer(1, "done"))[0] == 200
            open_ask = await wait_for(lambda: _private_ask(table))
            views = [(await p.view())[1] for p in phones.values()]
            assert {(v["call"], v["calling"]) for v in views} == {(table.server.call, True)}  # the same on every phone
            ages = [table.server.view_now(n)["call_age"] for n in phones]
            assert all(isinstance(a, float) and a >= 0 for a in ages) and ages == sorted(ages)  # one clock, going on
            holder = next(v for v in views if v["ask"])
            assert (await phones[holder["seat"]].answer(open_ask[0], holder["ask"]["choices"][-1]))[0] == 200
            await wait_for(lambda: _moved_on(table, open_ask[0]))
            after = (await phones["Aki"].view())[1]
            if after["calling"]:  # the next call opened at once: the last one's length, and a new age
                assert after["call"] == views[0]["call"] + 1
            assert after["call_length"] >= ages[-1]  # the call lasted at least as long as it was seen open
        finally:
            for phone in phones.values():
                await phone.close()
            await table.close()

    asyncio.run(main())
