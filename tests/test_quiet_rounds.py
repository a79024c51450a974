"""A table that has gone quiet (issue 37 item 3): Bestia Magica on phones nobody answers does not
play on alone. After three private rounds in a row closed by their timers with no answer, the
narrator stops and asks the table (aloud and on the host screen) whether to go on; いいえ pauses
and asks again, はい goes on, and the count starts again. The game's clock is a `ManualClock`
the test moves deadline by deadline: no real time passes."""

import asyncio

import pytest

from narrator.cues import Collect
from narrator.table import quiet_rounds
from narrator.table.clock import ManualClock
from narrator.table.quiet_rounds import QuietWatch, unanswered
from narrator.inputs.heard import Heard
from tests.phones_harness import open_table
from tests.test_phones_bestia import DEAL


def _empty_rounds(table):
    return sum(1 for e in table.events() if e["type"] == "answer" and e["value"] == {})


def _open_ask(table):
    open_ask = table.sitting.hub.open_ask
    return open_ask[1].line if open_ask else None


@pytest.mark.parametrize("protected", [False, True])
def test_three_unanswered_rounds_stop_bestia_magica_and_ask_the_table(protected, monkeypatch, narrator_home):
    if not protected:  # the game runs on through every empty round, as on the appliance of issue 37
        monkeypatch.setattr(QuietWatch, "heard", lambda self, cues, heard: False)

    async def main():
        clock = ManualClock()
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja", clock=clock)
        host = await table.host()
        try:
            def asked():
                return _open_ask(table) is not None or table.task.done() or _empty_rounds(table) > 4
            await clock.run_until(asked, limit=36000)
            if not protected:
                return _empty_rounds(table), None
            # asked as the third round closes: two empty rounds logged, the third not yet
            assert _open_ask(table) == quiet_rounds.QUIET_ASK and _empty_rounds(table) == 2
            _, view = await host.view()
            ask = view["host"]["ask"]
            assert "3回続けて、誰からも答えがありませんでした" in ask["text"]["ja"], ask
            assert (await host.answer(ask["serial"], "no"))[0] == 200  # いいえ: paused, asked again
            await clock.run_until(lambda: _open_ask(table) == quiet_rounds.PAUSED_ASK, limit=60)
            await clock.advance(3600)  # an hour later: still paused, no round has run
            assert _open_ask(table) == quiet_rounds.PAUSED_ASK and _empty_rounds(table) == 2
            _, view = await host.view()
            assert (await host.answer(view["host"]["ask"]["serial"], "yes"))[0] == 200
            # はい: the third round's (empty) answer counts and the game goes on; the count starts
            # again, so the next question comes as the sixth round closes
            await clock.run_until(lambda: _open_ask(table) is not None or table.task.done(), limit=36000)
            return _empty_rounds(table), _open_ask(table)
        finally:
            await table.close()

    rounds, ask = asyncio.run(main())
    if protected:
        assert (rounds, ask) == (5, quiet_rounds.QUIET_ASK)
    else:
        assert rounds > 4  # five empty rounds and more, nobody asked


def test_only_a_round_its_timer_closed_with_nobody_answering_counts():
    memos = Collect("night", 1, (object(),), closes_with_timer=True)
    call = Collect("call", 1, (object(),), closes_with_timer=True, call=True)
    assert unanswered([memos], Heard("answer", {}, "timer"))
    assert not unanswered([memos], Heard("answer", {"Aki": {"vote": "Ben"}}, "timer"))
    assert not unanswered([memos], Heard("answer", {}, "script"))  # an answers file, passing one device
    assert not unanswered([call], Heard("answer", {}, "timer"))  # a night call may have nobody to ask
    watch = QuietWatch(3)
    quiet = Heard("answer", {}, "timer")
    assert [watch.heard([memos], quiet) for _ in range(2)] == [False, False]
    assert not watch.heard([memos], Heard("answer", {"Aki": {}}, "timer"))  # one answer starts it again
    assert [watch.heard([memos], quiet) for _ in range(3)] == [False, False, True]
    assert not watch.heard([], None) and watch.quiet == 0
    assert [watch.heard([memos], quiet), watch.heard([], None), watch.heard([memos], quiet)] == [False] * 3
    assert watch.quiet == 2  # a step between rounds (the morning) leaves the count as it was
    assert not QuietWatch(0).heard([memos], quiet)


def test_bestia_magicas_count_is_its_house_rule_and_older_saves_keep_three():
    from narrator.errors import NarratorError
    from narrator.games import get_game
    from narrator.settings import build_settings

    game = get_game("bestia-magica")
    config = game.configure(build_settings({}, {"game": "bestia-magica", "players": 6, "quiet_rounds": 2}, "test"))
    assert game.quiet_rounds(config) == 2
    old = config.to_dict()
    del old["rules"]["quiet_rounds"]  # a game saved before the rule
    assert game.quiet_rounds(game.config_from_dict(old)) == 3
    with pytest.raises(NarratorError):
        game.configure(build_settings({}, {"game": "bestia-magica", "players": 6, "quiet_rounds": 0}, "test"))
    assert get_game("werewolf").quiet_rounds(None) == 3
