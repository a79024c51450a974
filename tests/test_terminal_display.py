"""The terminal at the table (#14 item 11): a countdown updates one line instead of printing
a line a second; the discussion timer shows the time left."""

from __future__ import annotations

import asyncio
import io

from narrator.cues import Countdown, Say, Timer
from narrator.inputs.hints import Hints
from narrator.inputs.hub import ListenerHub
from narrator.sound.outputs import NullOutput
from narrator.sound.voice import TextVoice
from narrator.sound.voicepack import load_pack
from narrator.table.clock import InstantClock, ManualClock
from narrator.table.display import ConsoleDisplay
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def play(cues, stream, clock=None, lang="ja"):
    pack = load_pack(lang)
    display = ConsoleDisplay(True, stream, Hints(pack))
    scheduler = Scheduler(TextVoice(pack), NullOutput(), clock or InstantClock(), ListenerHub(),
                          Transcript(None), display)

    async def scene():
        task = asyncio.ensure_future(scheduler.play(cues, {"night": 1}))
        if isinstance(scheduler.clock, ManualClock):  # the test moves it, deadline by deadline
            await scheduler.clock.run_until(task.done)
        await task

    asyncio.run(scene())
    return stream.getvalue()


def test_a_countdown_in_a_log_is_one_line_of_numbers():
    out = play([Say("seer.act"), Countdown(10), Say("night.sleep")], io.StringIO())
    lines = out.splitlines()
    assert lines[1] == "  10 9 8 7 6 5 4 3 2 1 0"
    assert len(lines) == 3


def test_a_countdown_on_a_terminal_updates_its_line_in_place():
    out = play([Say("seer.act"), Countdown(5), Say("night.sleep")], Terminal())
    lines = out.split("\n")
    assert len([l for l in lines if l]) == 3
    count = lines[1]
    assert count.count("\r\033[K") == 6 and count.endswith("\r\033[K  0")


def test_the_discussion_timer_shows_the_time_left_in_a_log():
    out = play([Timer("discussion", 180, (60, 10))], io.StringIO())
    assert "残り 3:00" in out and "残り 1:00" in out and "残り 0:10" in out and "残り 0:00" in out
    assert len(out.splitlines()) <= 6  # not a line a second


def test_the_timer_counts_down_every_second_on_a_terminal():
    out = play([Timer("discussion", 3, ())], Terminal(), clock=ManualClock(), lang="en")
    shown = [part.strip() for part in out.split("\r\033[K") if part.strip()]
    assert shown[0] == "0:03 left"
    assert shown == ["0:03 left", "0:02 left", "0:01 left", "0:00 left"]
    assert out.count("\n") == 1
