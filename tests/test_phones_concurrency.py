"""Twenty phones at once: reconnects midway and duplicate submissions, nothing lost or doubled."""

import asyncio
from collections import Counter

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
            results = await asyncio.gather(*(p.answer(serial, "done") for p in phones for _ in range(3)))
            assert Counter(status for status, _ in results) == {200: 1, 409: 59}
            await asyncio.sleep(0.05)
            answers = [e for e in table.events() if e["type"] == "answer"]
            assert answers == [{"type": "answer", "value": "done", "source": "phone"}]
        finally:
            await asyncio.gather(*(p.close() for p in phones))
            await table.close()

    asyncio.run(main())
