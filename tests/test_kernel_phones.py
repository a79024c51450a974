"""A game file on the real phone server, through the game contract alone (no code in phones/):
one-night with the cards dealt on the phones, the seer and the thief answering on their own
phone; werewolf's night choices the same way. Each phone sees its own card only.
"""

from __future__ import annotations

import asyncio

from tests.phones_harness import Phone, open_table

NAMES4 = "Aki,Ben,Chika,Dai"


async def _play(table, phones, pick) -> None:
    """Answer every question: a night call's round from each asked player's own phone, the
    public questions from the host screen."""
    host = await table.host()
    loop = asyncio.get_running_loop()
    end = loop.time() + 120  # a bound on a loaded machine, never a pause: the game runs on the instant clock
    while not table.task.done():
        assert loop.time() < end, "the game did not end in time"
        views = await asyncio.gather(*(p.view() for p in phones))
        assert not [view["ask"] for _, view in views if view["ask"]]  # a phone answers no public question
        for phone, (_, view) in zip(phones, views):
            request = view["request"]
            if request and not request["answered"]:
                status, body = await phone.private(request["serial"], {request["key"]: pick(request)})
                assert status in (200, 409), body
        _, host_view = await host.view()
        ask = host_view["host"]["ask"]
        if ask:
            status, body = await host.answer(ask["serial"], pick(ask))
            assert status in (200, 409), body
        await asyncio.sleep(0.005)


def _pick(ask):
    choices = ask["choices"]
    if "yes" in choices:
        return "yes"
    return choices[:1] if ask.get("multiple") else choices[0]


def test_one_night_on_the_phones_deals_and_resolves_the_seer_and_the_thief_privately():
    async def main():
        table = await open_table(NAMES4, seed=5, game="one-night", digital_cards="true")
        phones = [Phone(table.base, n) for n in NAMES4.split(",")]
        try:
            assert [await p.join() for p in phones] == [200] * 4
            await _play(table, phones, _pick)
            state = await table.task
            assert state.winner in ("village", "werewolves") and state.finished
            for phone, dealt in zip(phones, state.first):
                _, view = await phone.view()
                assert view["private"]["role"] == dealt  # its own card as dealt, nobody else's
                assert view["phase"] == "over" and view["winner"] == state.winner
            answers = [e for e in table.events() if e["type"] == "answer"]
            assert answers and all(e["source"] == "phone" for e in answers)
            views = {p.name: (await p.view())[1] for p in phones}
            seat = dict(zip(NAMES4.split(","), state.first))
            seer = next(n for n, r in seat.items() if r == "seer")
            thief = next(n for n, r in seat.items() if r == "thief")
            assert [m["en"] for m in views[seer]["messages"]][-1].endswith(("is the werewolf.", "is the thief.",
                                                                           "is the villager.", "is the seer."))
            assert [m["en"] for m in views[thief]["messages"]][-1].startswith(("Your new card", "You kept your card"))
            for name, role in seat.items():  # a villager learns nothing at night, nor of anyone else's result
                if role == "villager":
                    assert views[name]["messages"] == []
        finally:
            for p in phones:
                await p.close()
            await table.close()

    asyncio.run(main())


def test_werewolf_on_the_phones_plays_to_a_judged_end():
    async def main():
        names = "Aki,Ben,Chika,Dai,Emi"
        table = await open_table(names, seed=3, game="werewolf")
        phones = [Phone(table.base, n) for n in names.split(",")]
        try:
            assert [await p.join() for p in phones] == [200] * 5
            await _play(table, phones, _pick)
            state = await table.task
            assert state.winner in ("village", "werewolves")
            _, view = await phones[0].view()
            assert view["winner"] == state.winner
        finally:
            for p in phones:
                await p.close()
            await table.close()

    asyncio.run(main())
