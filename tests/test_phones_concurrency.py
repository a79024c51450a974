"""Twenty phones at once: reconnects midway and duplicate submissions, nothing lost or doubled."""

import asyncio
from collections import Counter
from narrator.table.clock import settle

from tests.phones_harness import Phone, open_table, wait_for
from tests.test_phones_api import play_through

NAMES20 = ",".join(f"P{n:02d}" for n in range(1, 21))


def test_twenty_players_whole_game_with_reconnects_and_duplicates():
    async def main():
        table = await open_table(NAMES20, seed=20)
        phones = [Phone(table.base, n) for n in NAMES20.split(",")]
        try:
            statuses = await asyncio.gather(*(p.join() for p in phones))
            assert statuses == [200] * 20
            accepted, refused = await play_through(table, phones, duplicates=True, reconnect_every=3)
            state = await table.task
            assert state.finished and state.winner == "citizens"
            answers = [e for e in table.events() if e["type"] == "answer"]
            # every question got exactly one answer, each accepted POST is one event
            assert len(answers) == accepted and refused >= 2 * accepted
            views = await asyncio.gather(*(p.view() for p in phones))
            assert all(status == 200 and view["phase"] == "over" for status, view in views)
        finally:
            await asyncio.gather(*(p.close() for p in phones))
            await table.close()

    asyncio.run(main())


def test_twenty_phones_answering_one_question_at_once_count_once():
    async def main():
        table = await open_table(NAMES20, seed=21)
        phones = [Phone(table.base, n) for n in NAMES20.split(",")]
        try:
            await asyncio.gather(*(p.join() for p in phones))

            async def ready():
                open_ask = table.sitting.hub.open_ask
                return open_ask if open_ask and open_ask[1].line == "setup.ready" else None

            serial, _ = await wait_for(ready)
            host = await table.host()
            results = await asyncio.gather(*(p.answer(serial, "done") for p in [host] + phones for _ in range(3)))
            assert Counter(status for status, _ in results[:3]) == {200: 1, 409: 2}  # the host screen's, once
            assert {status for status, _ in results[3:]} <= {403, 409}  # a public question is not a player's
            await settle()  # whatever the game would do with the answers taken has been done
            answers = [e for e in table.events() if e["type"] == "answer"]
            assert answers == [{"type": "answer", "value": "done", "source": "phone"}]
        finally:
            await asyncio.gather(*(p.close() for p in phones))
            await table.close()

    asyncio.run(main())


def test_bestia_magica_twenty_phones_all_rounds_once_each_with_reconnects_and_duplicates():
    """Every living player's memo and vote arrives exactly once, whatever the phones do."""
    import random

    async def main():
        table = await open_table(NAMES20, seed=4, game="bestia-magica")
        phones = {n: Phone(table.base, n) for n in NAMES20.split(",")}
        rng = random.Random(4)
        accepted = {}
        try:
            assert await asyncio.gather(*(p.join() for p in phones.values())) == [200] * 20
            loop = asyncio.get_running_loop()
            end = loop.time() + 90
            while not table.task.done():
                assert loop.time() < end, "the game did not end"
                if rng.random() < 0.3:  # dropped Wi-Fi on a third of the phones
                    await asyncio.gather(*(p.reconnect() for p in list(phones.values())[::3]))
                views = await asyncio.gather(*(p.view() for p in phones.values()))
                sends = []
                for (name, phone), (status, view) in zip(phones.items(), views):
                    assert status == 200
                    req = view["request"]
                    if req and not req["answered"]:
                        answer = {req["key"]: rng.choice(req["choices"])}
                        if req["ability"]:
                            answer["ability"] = rng.random() < 0.3
                        sends += [(name, req["serial"], phone.private(req["serial"], answer)) for _ in range(2)]
                results = await asyncio.gather(*(send for _, _, send in sends))
                for (name, serial, _), (status, body) in zip(sends, results):
                    assert status in (200, 409), body
                    if status == 200:
                        assert (serial, name) not in accepted  # never counted twice
                        accepted[(serial, name)] = True
                await asyncio.sleep(0.005)
            state = await table.task
            assert state.winner
            rounds = [e for e in table.events() if e["type"] == "answer"]
            # each round's event holds exactly the players whose phones were accepted for it
            per_round = {}
            for serial, name in accepted:
                per_round.setdefault(serial, set()).add(name)
            assert [set(e["value"]) for e in rounds] == [per_round[s] for s in sorted(per_round)]
            assert len(rounds) >= 2
        finally:
            await asyncio.gather(*(p.close() for p in phones.values()))
            await table.close()

    asyncio.run(main())
