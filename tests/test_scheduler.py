"""The scheduler keeps time on absolute deadlines and serves done, pause and repeat."""

import asyncio

import pytest

from narrator.sound.outputs import NullOutput
from narrator.table.clock import InstantClock, ManualClock
from narrator.cues import Ask, Countdown, Say, Timer
from narrator.table.display import ConsoleDisplay
from narrator.inputs.hub import ListenerHub
from narrator.table.scheduler import Scheduler
from narrator.sound.voice import TextVoice
from narrator.table.transcript import Transcript, read_transcript
from narrator.sound.voicepack import load_pack


@pytest.fixture
def make(tmp_path):
    def build(clock=None):
        path = tmp_path / "t.jsonl"
        hub = ListenerHub()
        hub.register("test")  # the test offers words itself: a listener that can end a pause
        scheduler = Scheduler(TextVoice(load_pack("en")), NullOutput(), clock or InstantClock(), hub,
                              Transcript(path), ConsoleDisplay(False))
        return scheduler, hub, path
    return build


def test_countdown_ticks_fall_on_whole_seconds_after_the_line(make):
    scheduler, _, path = make()
    asyncio.run(scheduler.play([Say("seer.wake"), Countdown(10), Say("night.sleep")], {"night": 1}))
    records = read_transcript(path)
    said = records[0]
    ticks = [r for r in records if r["kind"] == "tick"]
    assert [r["text"] for r in ticks] == [str(n) for n in range(10, -1, -1)]
    start = said["t"] + load_pack("en").seconds_for(said["text"])
    assert [r["t"] for r in ticks] == [pytest.approx(start + k) for k in range(11)]
    assert records[-1]["line"] == "night.sleep" and records[-1]["t"] >= ticks[-1]["t"]
    assert all(r["night"] == 1 for r in records)


def test_timer_speaks_warnings_at_seconds_left(make):
    scheduler, _, path = make()
    asyncio.run(scheduler.play([Timer("discussion", 180, (60, 10))], {}))
    records = read_transcript(path)
    start = records[0]
    assert start["kind"] == "timer" and start["seconds"] == 180
    warnings = [(r["seconds_left"], r["t"] - start["t"]) for r in records[1:]]
    assert warnings == [(60, pytest.approx(120)), (10, pytest.approx(170))]
    assert scheduler.cursor == pytest.approx(start["t"] + 180)


def test_done_ends_a_countdown_early(make):
    async def scenario(scheduler, hub):
        hub.register("keyboard")
        task = asyncio.ensure_future(scheduler.play([Countdown(10)], {}))
        await scheduler.clock.settle()  # the count has begun (game second 0)
        hub.offer_text("", "keyboard")
        await scheduler.clock.run_until(task.done)
        task.result()

    scheduler, hub, path = make(ManualClock())
    asyncio.run(scenario(scheduler, hub))
    ticks = [r for r in read_transcript(path) if r["kind"] == "tick"]
    assert 1 <= len(ticks) < 11


def test_pause_holds_the_countdown_and_shifts_its_deadlines(make):
    async def scenario(scheduler, hub):
        hub.register("keyboard")
        task = asyncio.ensure_future(scheduler.play([Countdown(3)], {}))
        await scheduler.clock.advance_to(1.5)
        hub.offer_text("p", "keyboard")
        await scheduler.clock.advance_to(6.5)
        hub.offer_text("p", "keyboard")
        await scheduler.clock.run_until(task.done)
        task.result()

    scheduler, hub, path = make(ManualClock())
    asyncio.run(scenario(scheduler, hub))
    records = read_transcript(path)
    lines = [r["line"] for r in records]
    assert "control.paused" in lines and "control.resumed" in lines
    ticks = [r for r in records if r["kind"] == "tick"]
    assert [r["text"] for r in ticks] == ["3", "2", "1", "0"]
    resumed = next(r["t"] for r in records if r["line"] == "control.resumed")
    after = [r["t"] for r in ticks if r["t"] > resumed]
    gaps = [b - a for a, b in zip(after, after[1:])]
    assert all(g == pytest.approx(1.0) for g in gaps)


def test_repeat_during_a_question_says_it_again(make):
    async def scenario(scheduler, hub):
        hub.register("keyboard")
        task = asyncio.ensure_future(scheduler.play([Ask("nomination.werewolf_found", ("yes", "no"))], {}))
        for _ in range(3):
            await asyncio.sleep(0)
        hub.offer_text("r", "keyboard")
        for _ in range(3):
            await asyncio.sleep(0)
        hub.offer_text("y", "keyboard")
        return await task

    scheduler, hub, path = make()
    heard = asyncio.run(scenario(scheduler, hub))
    asks = [r for r in read_transcript(path) if r["kind"] == "ask"]
    assert heard.value == "yes" and len(asks) == 2 and asks[1].get("repeat") is True
    last = read_transcript(path)[-1]
    assert (last["kind"], last["value"], last["source"]) == ("answer", "yes", "keyboard")
