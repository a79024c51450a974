"""A phone whose views came late still sends every slot of a call (app.js: COVER), in Chromium.

Every seated phone sends one sealed request per slot of each private call, so neither who
sends nor when tells who was called. A phone whose slot timer ran late sends the slots it
missed when it hears the call ended. On a loaded phone (or a slow Wi-Fi) it may first hear of
that end only after the next call closed too: the view it then gets says how long each recent
call lasted (`call_lengths`), and it sends the slots that call lasted, as every other phone
did. Before, it sent none of them (CI saw phones of one call send [1] and [1, 2]).
"""

import asyncio

import pytest

from tests.phones_harness import NAMES5, open_table
from tests.test_phones_browser import browsers, new_phone

pytestmark = pytest.mark.slow  # Chromium through Playwright

LATE_END = """(view) => {
  sealedOnce = async () => null;  // what a slot sends is not the point here: which slots go
  COVER.log = [];
  // call 5 opened 2.6 s ago; this phone sent its slot 1, and its timer for slot 2 ran late
  cover = { call: 5, start: performance.now() - 2600, k: 2, timer: null, queue: [] };
  coverStop(view);
  return COVER.log;
}"""


@pytest.mark.parametrize("view, slots", [
    # the phone hears of call 5's end only once call 6 has closed too
    ({"call": 6, "calling": False, "call_length": 0.4, "call_lengths": {"5": 2.6, "6": 0.4}}, [2]),
    # it hears of it as it happens (the view of call 5 closed): as before
    ({"call": 5, "calling": False, "call_length": 2.6, "call_lengths": {"5": 2.6}}, [2]),
    # call 5 lasted under two slots: slot 2 was never due
    ({"call": 6, "calling": False, "call_length": 0.4, "call_lengths": {"5": 1.9, "6": 0.4}}, []),
])
def test_a_phone_that_hears_late_of_a_calls_end_sends_the_slots_it_lasted(request, view, slots):
    async def main():
        table = await open_table(NAMES5, seed=5)
        async with browsers(request, table) as (browser, pages):
            page = pages["late"] = await new_phone(browser)
            await page.goto(table.base)
            await page.wait_for_function("typeof coverStop === 'function' && typeof cover !== 'undefined'")
            return await page.evaluate(LATE_END, view)

    log = asyncio.run(main())
    assert log == [{"call": 5, "slot": k} for k in slots]
