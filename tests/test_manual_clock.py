"""`ManualClock`: the game waits at each deadline until the test moves the clock there."""

from __future__ import annotations

import asyncio

import pytest

from narrator.cues import Ask, Countdown, Say
from narrator.inputs.hub import ListenerHub
from narrator.sound.outputs import NullOutput, NullSink, open_output
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import InstantClock, ManualClock
from narrator.table.display import ConsoleDisplay
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript, read_transcript


def _sleep_through(clock, deadlines, seen, label=None, work=0):
    """A task that sleeps to each deadline in turn, does `work` steps, and notes (label, now)."""
    async def chain():
        for t in deadlines:
            await clock.sleep_until(t)
            for _ in range(work):
                await asyncio.sleep(0)
            seen.append((label, clock.now()))
    return asyncio.ensure_future(chain())


def test_a_sleeper_parks_until_the_clock_reaches_its_deadline():
    async def scene():
        clock = ManualClock()
        woke = []
        task = _sleep_through(clock, [2.0], woke)
        await clock.settle()
        await asyncio.sleep(0.05)  # real time passes: the manual clock does not move
        assert not task.done() and clock.now() == 0.0 and clock.parked() == [2.0]
        await clock.advance_to(1.999)
        assert not task.done() and woke == []
        await clock.advance_to(2.0)
        assert task.done() and woke == [(None, 2.0)] and clock.parked() == []

    asyncio.run(scene())


def test_sleepers_wake_in_deadline_order_each_reading_its_own_deadline():
    async def scene():
        clock = ManualClock(start_at=10.0)
        woke = []
        tasks = [_sleep_through(clock, [t], woke, n) for n, t in (("c", 13.0), ("a", 11.0), ("b", 12.5), ("d", 20))]
        await clock.advance_to(15.0)
        assert woke == [("a", 11.0), ("b", 12.5), ("c", 13.0)]
        assert clock.now() == 15.0 and clock.next_deadline() == 20
        await clock.advance(5)
        assert woke[-1] == ("d", 20.0)
        await asyncio.gather(*tasks)

    asyncio.run(scene())


def test_what_a_woken_sleeper_schedules_before_the_target_runs_before_advance_returns():
    async def scene():
        clock = ManualClock()
        seen = []
        task = _sleep_through(clock, [1.0, 2.0, 3.0, 4.0], seen, work=2)  # a few steps after each wake-up
        await clock.advance_to(3.5)
        assert [t for _, t in seen] == [1.0, 2.0, 3.0]  # each new deadline was slept to, in turn
        await clock.advance_to(4.0)
        await task
        assert [t for _, t in seen] == [1.0, 2.0, 3.0, 4.0]

    asyncio.run(scene())


def test_a_deadline_already_passed_returns_at_once_and_a_cancelled_sleeper_is_dropped():
    async def scene():
        clock = ManualClock(start_at=5.0)
        for t in (4.0, 5.0):  # returns without suspending, as a real clock does
            with pytest.raises(StopIteration):
                clock.sleep_until(t).send(None)
        task = asyncio.ensure_future(clock.sleep_until(6.0))
        await clock.settle()
        task.cancel()
        await clock.settle()
        assert clock.parked() == []
        await clock.advance_to(7.0)  # the cancelled one is skipped, not woken
        assert task.cancelled()
        with pytest.raises(ValueError):
            await clock.advance_to(6.0)

    asyncio.run(scene())


def test_run_until_steps_deadline_by_deadline_and_gives_up_when_nothing_is_parked():
    async def scene():
        clock = ManualClock()
        ticks = []
        task = _sleep_through(clock, [1.5, 3.0, 4.5], ticks)
        assert await clock.run_until(lambda: len(ticks) == 2) == 3.0
        await clock.run_until(task.done)
        assert clock.now() == 4.5
        with pytest.raises(TimeoutError):
            await clock.run_until(lambda: False)

    asyncio.run(scene())


def test_settle_lets_every_ready_task_run_but_not_a_real_timer():
    async def scene():
        clock = ManualClock()
        steps = []

        async def busy():
            for k in range(50):
                await asyncio.sleep(0)
                steps.append(k)

        async def later():
            await asyncio.sleep(30)  # real time: settle does not wait for it

        busy_task, later_task = asyncio.ensure_future(busy()), asyncio.ensure_future(later())
        await clock.settle()
        assert busy_task.done() and steps == list(range(50))
        assert not later_task.done()
        later_task.cancel()

    asyncio.run(scene())


def _scheduler(clock, tmp_path, output=None):
    hub = ListenerHub()
    hub.register("keyboard")
    path = tmp_path / "t.jsonl"
    scheduler = Scheduler(TextVoice(load_pack("en")), output or NullOutput(), clock, hub, Transcript(path),
                          ConsoleDisplay(False))
    return scheduler, hub, path


def test_a_countdown_on_a_manual_clock_ticks_only_as_the_clock_is_moved(tmp_path):
    clock = ManualClock()
    scheduler, hub, path = _scheduler(clock, tmp_path)

    async def scene():
        task = asyncio.ensure_future(scheduler.play([Countdown(5), Say("night.sleep")], {"night": 1}))
        await clock.advance_to(2.5)
        assert [r["n"] for r in read_transcript(path) if r["kind"] == "tick"] == [5, 4, 3]
        await asyncio.sleep(0.05)
        assert [r["n"] for r in read_transcript(path) if r["kind"] == "tick"] == [5, 4, 3]  # real time: nothing
        await clock.run_until(task.done)

    asyncio.run(scene())
    assert [r["t"] for r in read_transcript(path) if r["kind"] == "tick"] == [0, 1, 2, 3, 4, 5]


def test_at_a_given_second_the_table_types_an_answer(tmp_path):
    """The scheduler treats a manual clock as a real one: the question waits for its answer."""
    clock = ManualClock()
    scheduler, hub, path = _scheduler(clock, tmp_path)
    question = Ask("nomination.werewolf_found", ("yes", "no"))
    said = load_pack("en").seconds_for(load_pack("en").speak("nomination.werewolf_found").text)

    async def scene():
        task = asyncio.ensure_future(scheduler.play([question], {"day": 1}))
        await clock.advance_to(said + 30)
        assert not task.done()  # nobody has answered: the game waits, however long
        hub.offer_text("n", "keyboard")
        await clock.settle()
        assert task.done()
        return task.result()

    heard = asyncio.run(scene())
    assert heard.value == "no"
    answer = [r for r in read_transcript(path) if r["kind"] == "answer"][-1]
    assert answer["t"] == pytest.approx(said + 30)
    assert not isinstance(clock, InstantClock)


def test_the_live_outputs_take_a_manual_clock(tmp_path):
    clock = ManualClock()
    assert isinstance(open_output("none", clock), NullOutput)
    sink = NullSink(clock)
    try:
        handle = sink.start(b"\0\0" * 240, 1.0)
        sink.ambience(b"\0\0" * 240, 1.0)
        sink.ambience(None, 2.0)
        sink.cancel(handle)
    finally:
        sink.close()


def test_a_sitting_takes_the_clock_it_is_given(narrator_home):
    from narrator.table.session import RunOptions, open_sitting

    clock = ManualClock(start_at=7.0)
    run = RunOptions(lang="en", voice="text", time_scale=1, keyboard=False, listening={"listen": "off"})
    sitting = open_sitting(run, clock=clock)
    try:
        assert sitting.scheduler.clock is clock and sitting.scheduler.cursor == 7.0
    finally:
        sitting.close()
    plain = open_sitting(run)  # without one, the run's time scale makes it, as before
    try:
        assert type(plain.scheduler.clock).__name__ == "ScaledClock"
    finally:
        plain.close()
