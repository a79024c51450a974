"""Issue 38, item 7: a seated phone's decoy flood is refused before it writes or pushes anything.

Against a real table over real HTTP: a seated phone's script sends 40 sealed decoys at once.
With the budget monkeypatched off each one is answered as a memo is (its counter saved to
disk, a push to every phone); with it on, the seat's burst is answered and the rest are
refused inside their sealed replies, nothing saved and nothing pushed, while the same seat's
real requests and another seat's go on. Time is a manual clock: nothing sleeps.
"""

from __future__ import annotations

import asyncio

import pytest

from narrator.phones import channel, decoys
from tests.phones_harness import NAMES5, Phone, open_table

FLOOD = 40


@pytest.mark.parametrize("protected", [False, True])
def test_a_decoy_flood_writes_and_pushes_only_the_seats_burst(monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(decoys.DecoyBudget, "take", lambda self, seat: True)

    async def main():
        table = await open_table(NAMES5, seed=5)
        server, clock = table.server, [0.0]
        server.decoys.now = lambda: clock[0]
        aki, ben = Phone(table.base, "Aki"), Phone(table.base, "Ben")
        saves, pushes = [], []
        try:
            assert await aki.join() == 200 and await ben.join() == 200
            save, changed = server.keys._save, server._changed
            server.keys._save = lambda: (saves.append(1), save())[1]
            server._changed = lambda: (pushes.append(1), changed())[1]
            replies = await asyncio.gather(*(aki.sealed("decoy") for _ in range(FLOOD)))
            answered = sum(status == 200 for status, _ in replies)
            assert answered == (int(decoys.BURST) if protected else FLOOD)
            assert len(saves) == len(pushes) == answered
            refused = [body for status, body in replies if status == 429]
            assert all(body == {"error": channel.TOO_MANY_DECOYS} for body in refused)
            assert (await aki.view())[0] == 200 and (await ben.sealed("decoy"))[0] == 200  # others go on
            assert (await aki.sealed("decoy"))[0] == (429 if protected else 200)
            clock[0] += 1 / decoys.RATE  # a slot later: one more in hand
            assert (await aki.sealed("decoy"))[0] == 200
        finally:
            await aki.close()
            await ben.close()
            await table.close()

    asyncio.run(main())


def test_the_budget_refills_at_its_rate_up_to_its_burst():
    clock = [0.0]
    budget = decoys.DecoyBudget(rate=2.0, burst=3.0, now=lambda: clock[0])
    assert [budget.take("Aki") for _ in range(4)] == [True, True, True, False]
    assert budget.take("Ben")  # each seat its own
    clock[0] += 0.25
    assert not budget.take("Aki")  # half a decoy in hand
    clock[0] += 0.25
    assert budget.take("Aki") and not budget.take("Aki")
    clock[0] += 100
    assert [budget.take("Aki") for _ in range(4)] == [True, True, True, False]  # never past the burst
