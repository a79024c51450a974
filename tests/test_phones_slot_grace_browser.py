"""A slot leaves a moment after its time (app.js: COVER.grace), in Chromium on the page's own
fake clock, so a phone told of a call's end a little late sends no slot more than the others.

Every seated phone sends one sealed request per 1 s slot of a private call; slot k belongs to
the call when the call was still open k slots after it opened. A call that ended at 2.9 s
lasted slots 1 and 2. A phone whose view of that end came 0.2 s late (a loaded phone, a slow
Wi-Fi) used to fire slot 3 at 3.0 s before hearing of it, so the Wi-Fi saw it send one slot
more than the phones that heard in time (a CI run saw a call's phones send [1, 2] and [1]).
"""

import asyncio

import pytest

from tests.phones_harness import NAMES5, open_table
from tests.test_phones_browser import browsers, new_phone

pytestmark = pytest.mark.slow  # Chromium through Playwright

OPEN_CALL = """(opened) => {
  sealedOnce = async () => null;  // what a slot sends is not the point here: which slots go
  COVER.log = [];
  // call 5 opened `opened` ms ago; this phone sent its slots 1 and 2, and slot 3 is next
  cover = { call: 5, start: performance.now() - opened, k: 2, timer: null, queue: [] };
  coverNext(cover);
  return true;
}"""
END_HEARD = """(length) => {
  if (cover) coverStop({ call: 5, calling: false, call_length: length, call_lengths: { "5": length } });
  return COVER.log;
}"""


@pytest.mark.parametrize("length, heard_after, slots", [
    (2.9, 0.2, []),    # ended before slot 3's time, heard 0.2 s late: slot 3 never goes
    (3.1, 0.1, [3]),   # ended after slot 3's time, heard before it left: it goes, as on every phone
    (3.1, 0.5, [3]),   # heard after it left: it went once, and only once
])
def test_a_phone_told_a_little_late_of_a_calls_end_sends_only_its_slots(request, length, heard_after, slots):
    async def main():
        table = await open_table(NAMES5, seed=5)
        async with browsers(request, table) as (browser, pages):
            page = pages["late"] = await new_phone(browser)
            await page.clock.install()
            await page.goto(table.base)
            await page.wait_for_function("typeof coverStop === 'function' && typeof cover !== 'undefined'")
            await page.evaluate(OPEN_CALL, 2900)  # the call opened 2.9 s ago
            await page.clock.run_for(round((length - 2.9 + heard_after) * 1000))  # its end, heard late
            return await page.evaluate(END_HEARD, length)

    log = asyncio.run(main())
    assert log == [{"call": 5, "slot": k} for k in slots]
