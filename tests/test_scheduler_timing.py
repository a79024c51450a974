"""The scheduler hands every clip over with its exact start; done/pause take back the rest."""

import asyncio

from narrator.table.clock import ManualClock
from narrator.cues import Countdown, Say, Timer
from narrator.table.display import ConsoleDisplay
from narrator.inputs.hub import ListenerHub
from narrator.table.scheduler import NightOptions, Scheduler
from narrator.sound.voice import Clip
from narrator.table.transcript import Transcript
from narrator.sound.voicepack import Spoken

CLIP_S = 0.4


class FakeVoice:
    """Every line is a 0.4 s clip (unit tests only: the real engines have their own tests)."""

    pack = None

    def clip(self, line, params=None):
        return Clip(Spoken(line, f"{line}{params or ''}", ""), None, CLIP_S, bytes(int(CLIP_S * 24000) * 2), "cache")

    def sound(self, name):
        return None


class Timeline:
    """An output that remembers what was handed over, when for, and what was taken back."""

    live = False

    def __init__(self):
        self.started, self.cancelled = {}, set()

    def start(self, pcm, at, speech=True):
        self.started[len(self.started) + 1] = at
        return len(self.started)

    def cancel(self, handle):
        self.cancelled.add(handle)

    def ambience(self, pcm, at, gain=0.3):
        pass

    def extend(self, t):
        pass

    def heard(self):
        return [at for h, at in self.started.items() if h not in self.cancelled]


def run(cues, context, commands=(), night=None):
    """Play cues on a manual clock; each (game second, word) is said when the clock gets there.

    The clock is moved to each word's second (every deadline before it passing on the way),
    the word is said, and then on to the end.
    """
    out = Timeline()
    clock = ManualClock()

    async def main():
        hub = ListenerHub()
        hub.register("test")  # the timed words below are a listener: it can end a pause
        sched = Scheduler(FakeVoice(), out, clock, hub, Transcript(None), ConsoleDisplay(False), night or NightOptions())
        task = asyncio.ensure_future(sched.play(cues, context))
        for when, word in sorted(commands):
            await clock.advance_to(when)
            hub.offer_text(word, "test")
        await clock.run_until(task.done)
        task.result()
        return sched

    sched = asyncio.run(asyncio.wait_for(main(), 10))
    return out, sched


def test_countdown_ticks_are_handed_over_at_once_on_whole_seconds():
    out, sched = run([Say("a"), Countdown(5)], {"night": 0, "day": 0})
    assert out.heard() == [0.0] + [CLIP_S + k for k in range(6)]
    assert sched.cursor == CLIP_S + 5 + CLIP_S


def test_done_ends_a_day_countdown_and_takes_back_the_ticks_not_heard():
    out, sched = run([Countdown(10)], {"night": 1, "day": 1}, commands=[(3.5, "done")])
    assert out.heard() == [0.0, 1.0, 2.0, 3.0]
    assert sched.cursor == 3.5


def test_done_at_night_is_ignored_so_every_call_lasts_the_same():
    plain, _ = run([Countdown(10), Say("sleep")], {"night": 1, "day": 0})
    with_done, _ = run([Countdown(10), Say("sleep")], {"night": 1, "day": 0}, commands=[(3.5, "done")])
    assert with_done.heard() == plain.heard() == [float(k) for k in range(11)] + [10 + CLIP_S]


def test_night_done_setting_lets_done_end_a_night_countdown():
    out, _ = run([Countdown(10)], {"night": 1, "day": 0}, commands=[(3.5, "done")], night=NightOptions(night_done=True))
    assert out.heard() == [0.0, 1.0, 2.0, 3.0]


def test_pause_shifts_the_remaining_ticks_by_the_pause():
    out, sched = run([Countdown(5)], {"night": 0, "day": 0}, commands=[(2.5, "pause"), (7.5, "pause")])
    ticks = [at for at in out.heard() if at not in (2.5, 7.5)]  # paused/resumed lines are said at those times
    # pause from 2.5 to 7.5 plus the resume line: later ticks move by exactly that much
    shift = 7.5 + CLIP_S - 2.5
    assert ticks[:3] == [0.0, 1.0, 2.0]
    assert [round(t - shift, 6) for t in ticks[3:]] == [3.0, 4.0, 5.0]


def test_timer_warnings_are_handed_over_at_their_seconds():
    out, sched = run([Timer("discussion", 180, (60, 10))], {"night": 1, "day": 1})
    assert out.heard() == [120.0, 170.0]
    assert sched.cursor == 180.0
