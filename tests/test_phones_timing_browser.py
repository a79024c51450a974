"""When phones send at a call, in real Chromium (issue 24: "what phones send tells nothing").

A passive listener on the Wi-Fi sees which address sends when. With a decoy at a random
moment and the real answer at the tap (the page before slots, `COVER.on = false`), the
called player's phone is the first to send after a call opens clearly more often than
chance. With slots (as shipped) every seated phone sends one sealed request per slot from
the call's opening to its close, so at every call each phone sends the same number of
requests in the same slots, whatever its role. The test asserts that structure (slot
numbers, counts), never durations.
"""

import asyncio
import collections

import pytest

from narrator.phones import channel
from tests.phones_harness import NAMES5, open_table, wait_for
from tests.test_phones_browser import browsers, seat_everyone, tap_answer, view_of

pytestmark = pytest.mark.slow  # Chromium through Playwright

INSTANT_TAPS = """(() => {
  const shown = render;  // a private question is answered the moment it is shown
  render = (v) => {
    shown(v);
    const a = v.ask;
    if (!a || !a.private || sentSerial === a.serial) return;
    const choice = a.line === "strategist.give_phone" ? a.choices[a.choices.length - 1] : a.choices[0];
    const button = document.querySelector(`#ask button[data-choice="${choice}"]`);
    if (button) button.click();
  };
  return true;
})()"""
"""The listener's best case: every called player taps at once (as `tests/phones_policy.py` would)."""


async def host_plays(table, host, limit: float = 180.0):
    """The host screen answers the table's public questions until the game ends."""
    end = asyncio.get_running_loop().time() + limit
    answered = set()
    while not table.task.done():
        assert asyncio.get_running_loop().time() < end, "the game did not end in time"
        ask = (await view_of(host))["host"]["ask"]
        if ask and ask["serial"] not in answered:
            await host.wait_for_selector(f'#ask[data-serial="{ask["serial"]}"]')
            await tap_answer(host, table, {"ask": ask})
            answered.add(ask["serial"])
        await asyncio.sleep(0.05)


def first_sender_is_called(calls, heard):
    """For each call with one called player: is the first phone heard while it was the last
    call opened the called one? (`heard`: (call number, whose phone) in order of arrival.)"""
    firsts = {}
    for call, name, _ in heard:
        firsts.setdefault(call, name)
    return [firsts[c] == who for c, who in calls.items() if who is not None and c in firsts]


@pytest.mark.parametrize("protected", [False, True])
def test_when_phones_send_at_a_night_call_tells_nothing(request, monkeypatch, protected):
    names = NAMES5.split(",")
    heard = []  # (the call open, whose phone) of every sealed request as it reaches the narrator

    def hear(server, request, to, body):  # (what a listener on the Wi-Fi sees: who sends, and when)
        open_ask = server.hub.open_ask  # and, for the test only, whom the call open now calls
        heard.append((server.call, server.player(request), open_ask[1].player if open_ask else None))
        return dispatch(server, request, to, body)
    dispatch = channel.dispatch
    monkeypatch.setattr(channel, "dispatch", hear)

    async def main():
        table = await open_table(NAMES5, seed=11, lang="ja")
        async with browsers(request, table) as (browser, pages):
            host = await seat_everyone(table, browser, names, pages)
            players = {n: pages[n] for n in names}
            for page in players.values():
                if not protected:  # the page before slots: a decoy at a random moment, answers at once
                    await page.evaluate("COVER.on = false; true")
                await page.evaluate(INSTANT_TAPS)
            await host_plays(table, host)
            if not protected:
                return None, table.server.call
            logs = {n: await pages[n].evaluate("COVER.log") for n in names}

            async def all_heard():  # every slot a page logged has reached the listener
                return all(sum(h[1] == n for h in heard) >= len(logs[n]) for n in names) or None
            await wait_for(all_heard, timeout=10, every=0.2)
            return logs, table.server.call

    logs, count = asyncio.run(main())
    calls = {}  # whom each private call called, by its number
    for call, _, who in heard:
        calls[call] = calls.get(call) or who
    called = [who for who in calls.values() if who is not None]
    assert len(called) >= 20, calls  # the digital cards' night calls (22 with this seed)
    firsts = first_sender_is_called(calls, heard)
    print(f"first sender is the called player: {sum(firsts)}/{len(firsts)} (chance: 1/{len(names)})")
    if not protected:
        assert sum(firsts) >= 2 * len(firsts) / len(names), firsts  # twice chance, or more
        return
    sent = collections.Counter(name for _, name, _ in heard)
    slots = {n: collections.defaultdict(list) for n in names}
    for name, log in logs.items():
        assert sent[name] == len(log), (sent, {n: len(v) for n, v in logs.items()})  # nothing off the slots
        for entry in log:
            slots[name][entry["call"]].append(entry["slot"])
    assert set(slots[names[0]]) == set(range(1, count + 1))  # every phone sent at every call
    for call in range(1, count + 1):
        each = {n: slots[n][call] for n in names}
        first = each[names[0]]
        assert first == list(range(1, len(first) + 1)), each  # slots 1, 2, ... in order, none twice
        assert all(s == first for s in each.values()), (call, each)  # the same whatever the role
