"""The host screen ends a discussion early and lists the end of the game (issue 26, item 11).

A table on phones alone has no Enter key and no button: the host screen's 「話し合いを終える」
sends the same `done`. Only the host screen may (one player cannot cut the discussion short),
and only for the timer it saw (a late tap cannot end the next one). At the end, the lines
said (the winners, Bestia Magica's reveal of every night) are listed on the host screen.
"""

from __future__ import annotations

import asyncio


from narrator.phones import table_controls
from narrator.table.clock import ManualClock
from tests.phones_harness import NAMES5, Phone, open_table


async def _post(phone: Phone, path: str, body: dict) -> int:
    async with phone.session.post(path, json=body) as r:
        return r.status


async def _to_the_discussion(table, clock: ManualClock, host: Phone) -> dict:
    """Answer the public questions (first choice: done, yes) and move the clock until the
    day's discussion timer runs; returns the host screen's view then."""
    for _ in range(500):
        await clock.settle()
        _, view = await host.view()
        if view["phase"] == "day" and view["host"]["timer_serial"] is not None:
            return view
        ask = view["host"]["ask"]
        if ask is not None:
            assert await host.answer(ask["serial"], ask["choices"][0]) == (200, {"ok": True})
            continue
        deadline = clock.next_deadline()
        assert deadline is not None, "the game waits for nothing the test can give"
        await clock.advance_to(deadline)
    raise AssertionError("the discussion never started")


def _at_the_discussion(check) -> None:
    """A 5-player physical-cards game on a ManualClock, the host screen and Aki's phone joined,
    played to the day's discussion; then `check(table, clock, host, aki, view)`."""
    async def main():
        clock = ManualClock()
        table = await open_table(NAMES5, seed=2, lang="ja", digital_cards="false", clock=clock)
        aki = Phone(table.base, "Aki")
        try:
            host = await table.host()
            assert await aki.join() == 200
            view = await _to_the_discussion(table, clock, host)
            await check(table, clock, host, aki, view)
        finally:
            await aki.close()
            await table.close()

    asyncio.run(main())


def test_the_host_screen_ends_the_discussion_and_a_player_phone_cannot(narrator_home):
    async def check(table, clock, host, aki, view):
        serial = view["host"]["timer_serial"]
        started = clock.now()
        assert await _post(aki, "/api/host/end-timer", {"timer": serial}) == 403
        assert await _post(host, "/api/host/end-timer", {"timer": serial + 1}) == 409
        assert await _post(host, "/api/host/end-timer", {"timer": True}) == 409
        await clock.settle()
        assert table.server.timer is not None, "a refused tap ended nothing"
        assert await _post(host, "/api/host/end-timer", {"timer": serial}) == 200
        while (await host.view())[1]["host"]["timer_serial"] == serial:  # the lines after it take time
            await clock.advance_to(clock.next_deadline())
        # the next question (who was pointed at) came long before the 3 minutes ran out:
        # the discussion's 1-minute warning was never said
        assert clock.now() - started < 30
        assert await _post(host, "/api/host/end-timer", {"timer": serial}) == 409  # too late now

    _at_the_discussion(check)


def test_without_the_host_screen_check_a_player_phone_would_end_it(narrator_home, monkeypatch):
    """The protection, monkeypatched off: any seated phone's tap would end the discussion."""
    async def check(table, clock, host, aki, view):
        monkeypatch.setattr(type(table.server), "is_host", lambda self, request: True)
        assert await _post(aki, "/api/host/end-timer", {"timer": view["host"]["timer_serial"]}) == 200

    _at_the_discussion(check)


def test_the_end_lines_follow_the_end_cue_only():
    from narrator.cues import End, Say, Timer

    lines = table_controls.EndLines()
    text = lambda line, params: {"en": line}  # noqa: E731
    assert lines.follow(Say("bm.night.begin"), text) is False and lines.shown() == []
    assert lines.follow(End("bm.end.town", "town"), text) is True
    assert lines.follow(Timer("discussion", 5), text) is False
    assert lines.follow(Say("bm.end.winners", {"names": ["Aki"]}), text) is True
    assert lines.shown() == [{"en": "bm.end.town"}, {"en": "bm.end.winners"}]
