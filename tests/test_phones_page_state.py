"""What a phone shows and when: only what the narrator has announced, the wait for phones,
the same call (vibration) on every phone."""

import asyncio

import pytest

from narrator.cues import Say
from narrator.games import get_game
from narrator.inputs.hub import ListenerHub
from narrator.phones.seats import Seats
from narrator.phones.server import PhoneServer
from narrator.table.clock import settle
from tests.phones_harness import NAMES5, Phone, open_table, wait_for
from tests.test_phones_bestia import answer_round, close, memo_for, open_bestia, round_open


@pytest.mark.parametrize("protected", [False, True])
def test_day_and_death_show_only_after_the_morning_is_announced(protected):
    """Dai dies in night 1. While the narrator is still saying the night's deaths, no phone may
    already show "Day 1", and Dai's may not say "You are dead"."""
    async def main():
        table, phones = await open_bestia()
        if not protected:  # phones follow the game's state at once, before anything is said
            table.server._follows_cues = False
        seen = []

        def at_cue(cue):
            if isinstance(cue, Say) and cue.line.startswith("bm.morning"):
                view = table.server.view("Dai")
                seen.append((cue.line, view["phase"], view["private"].get("alive"), table.state.day))

        table.sitting.hub.cue_watchers.append(at_cue)
        try:
            await wait_for(lambda: round_open(table, "night"))
            await answer_round(phones, memo_for)
            await wait_for(lambda: round_open(table, "vote"))
            status, view = await phones["Dai"].view()
            assert view["phase"] == "day" and view["private"]["alive"] is False and "Dai" not in view["alive"]
        finally:
            await close(table, phones)
        return seen

    seen = asyncio.run(main())
    deaths = [s for s in seen if s[0] == "bm.morning.deaths"]
    assert deaths and deaths[0][3] == 1  # the game's state is already day 1 while it is said
    early = [s for s in seen if s[1] == "day" or s[2] is False]
    assert (early == []) == protected, seen


def test_the_game_waits_for_phones_and_the_host_can_start_anyway():
    async def main():
        table = await open_table(NAMES5, seed=3)
        host = await table.host()
        aki = Phone(table.base, "Aki")
        try:
            assert await aki.join() == 200
            waiting = asyncio.ensure_future(table.server.wait_for_phones())
            await settle()
            status, view = await aki.view()
            assert view["waiting"] == {"free": 4} and not waiting.done()
            async with aki.session.post("/api/host/start", json={}) as r:
                assert r.status == 403  # only the host screen may start the game early
            ben = Phone(table.base, "Ben")
            assert await ben.join() == 200
            assert (await aki.view())[1]["waiting"] == {"free": 3}
            async with host.session.post("/api/host/start", json={}) as r:
                assert r.status == 200
            await asyncio.wait_for(waiting, 2)
            assert (await aki.view())[1]["waiting"] is None
            await ben.close()
        finally:
            await aki.close()
            await table.close()

    asyncio.run(main())


def test_the_wait_ends_when_every_seat_has_a_phone_or_the_table_says_done():
    async def main():
        table = await open_table("Aki,Ben,Chika,Dai", seed=3)
        phones = [Phone(table.base, n) for n in ("Aki", "Ben", "Chika", "Dai")]
        try:
            waiting = asyncio.ensure_future(table.server.wait_for_phones())
            for phone in phones:
                await settle()
                assert not waiting.done()
                assert await phone.join() == 200
            await asyncio.wait_for(waiting, 2)
        finally:
            for phone in phones:
                await phone.close()
            await table.close()
        # before the first step nothing is asked: Enter (or the appliance's button) starts the game
        hub = ListenerHub()
        server = PhoneServer(get_game("additional-werewolf"), None, hub, Seats(("Aki", "Ben")), "c", "en", {})
        waiting = asyncio.ensure_future(server.wait_for_phones())
        await settle()
        assert not waiting.done()
        assert hub.offer_text("done", "keyboard") is None
        await asyncio.wait_for(waiting, 2)

    asyncio.run(main())


def test_every_phone_sees_the_same_call_count_at_every_night_call():
    async def main():
        table = await open_table(NAMES5, seed=5)
        phones = {n: Phone(table.base, n) for n in NAMES5.split(",")}
        try:
            for phone in phones.values():
                await phone.join()
            host = await table.host()
            assert (await host.answer(1, "done"))[0] == 200
            calls = []
            for _ in range(3):  # the night's first private calls
                open_ask = await wait_for(lambda: _private_ask(table))
                views = [(await p.view())[1] for p in phones.values()]
                calls.append({v["call"] for v in views})
                holder = next(v for v in views if v["ask"])
                answer = holder["ask"]["choices"][-1]
                assert (await phones[holder["seat"]].answer(open_ask[0], answer))[0] == 200
                await wait_for(lambda open_ask=open_ask: _moved_on(table, open_ask[0]))
            assert all(len(c) == 1 for c in calls), calls  # the same on every phone
            counts = [c.pop() for c in calls]
            assert counts == sorted(set(counts)) and len(counts) == 3, counts  # one more at each call
        finally:
            for phone in phones.values():
                await phone.close()
            await table.close()

    asyncio.run(main())


async def _private_ask(table):
    open_ask = table.sitting.hub.open_ask
    return open_ask if open_ask and open_ask[1].player else None


async def _moved_on(table, serial):
    open_ask = table.sitting.hub.open_ask
    return table.task.done() or open_ask is None or open_ask[0] != serial
