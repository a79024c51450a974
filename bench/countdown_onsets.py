"""Countdown onset error: |actual − scheduled| first-sample time of each number of a 10 s countdown.

Three ways to count, each on the same clocked null sink (`narrator.sound.outputs.NullSink`, which
consumes 10 ms blocks on their real-time deadlines like a sound card with a 200 ms buffer,
and notes when each clip's first sample is heard: on time, or late if its block was
rendered late), idle and with every core busy:

- narrator: the real `Scheduler` playing `Countdown(10)`; all eleven numbers are handed to
  the mixer at once, each at t0 + k.
- wake-then-play: sleep to each absolute deadline t0 + k (less the output buffer, which
  "now" always adds), then start the clip "now": absolute deadlines without the mixer, so
  the error is how late the event loop wakes plus the 10 ms block it lands in.
- naive: start the clip, wait until it has played, then `sleep(1)` (drifts by a clip a tick).

Run: `.venv/bin/python bench/countdown_onsets.py` (about a minute).
"""

from __future__ import annotations

import asyncio
import time

from _common import cpu_load, en_voice, ms

from narrator.sound.outputs import NullSink
from narrator.table.clock import ScaledClock
from narrator.cues import Countdown
from narrator.table.display import ConsoleDisplay
from narrator.inputs.hub import ListenerHub
from narrator.table.scheduler import Scheduler
from narrator.table.transcript import Transcript

SECONDS = 10
SAMPLE_MS = 1000 / 24_000
WOKE_LATE: list[float] = []
"""How late the event loop woke for each deadline (what a busy CPU does to a sleeper)."""


class Watch:
    """Wraps the sink to keep every handle with its scheduled game second."""

    def __init__(self, sink):
        self.sink, self.handed = sink, []
        self.live = True

    def start(self, pcm, at, speech=True):
        handle = self.sink.start(pcm, at, speech)
        self.handed.append((handle, at))
        return handle

    def __getattr__(self, name):
        return getattr(self.sink, name)


def errors(sink, handed) -> list[float]:
    time.sleep(0.1)
    return [sink.onset(h) - at for h, at in handed]


def narrator_way(voice) -> list[float]:
    clock = ScaledClock()
    out = Watch(NullSink(clock))
    sched = Scheduler(voice, out, clock, ListenerHub(), Transcript(None), ConsoleDisplay(False))
    sched.cursor = 0.3
    asyncio.run(sched.play([Countdown(SECONDS)], {"night": 1, "day": 0}))
    result = errors(out.sink, out.handed)
    out.sink.close()
    return result


def wake_then_play(voice) -> list[float]:
    clips = [voice.clip("tick", {"n": n}) for n in range(SECONDS, -1, -1)]
    clock = ScaledClock()
    sink, handed = NullSink(clock), []
    t0 = 0.3

    async def run():
        for k, clip in enumerate(clips):
            await clock.sleep_until(t0 + k - sink.buffer)  # early by the output buffer, to be fair
            WOKE_LATE.append(clock.now() - (t0 + k - sink.buffer))
            handed.append((sink.start(clip.pcm, clock.now()), t0 + k))

    asyncio.run(run())
    result = errors(sink, handed)
    sink.close()
    return result


def naive(voice) -> list[float]:
    clips = [voice.clip("tick", {"n": n}) for n in range(SECONDS, -1, -1)]
    clock = ScaledClock()
    sink, handed = NullSink(clock), []
    time.sleep(0.3)
    t0 = clock.now()
    for k, clip in enumerate(clips):
        handed.append((sink.start(clip.pcm, clock.now()), t0 + k))
        time.sleep(clip.duration)  # "play" blocks until the clip has been heard
        time.sleep(1)
    result = errors(sink, handed)
    sink.close()
    return result


def main() -> None:
    voice = en_voice()
    voice.prepare([("tick", {"n": n}) for n in range(SECONDS + 1)])
    print(f"{'load':6} {'method':15} {'median ms':>10} {'max ms':>10} {'last tick late by':>18}")
    for busy in (False, True):
        rows = {}
        with cpu_load(busy):
            for name, way in (("narrator", narrator_way), ("wake-then-play", wake_then_play), ("naive", naive)):
                errs = way(voice)
                rows[name] = ms(errs)
                print(f"{'busy' if busy else 'idle':6} {name:15} {rows[name][0]:10.2f} {rows[name][1]:10.2f} {errs[-1]:17.3f}s")
        woke = ms(WOKE_LATE)
        WOKE_LATE.clear()
        print(f"       (the event loop woke for a deadline late by median {woke[0]:.2f} ms, max {woke[1]:.2f} ms)")
        # the narrator's error is below one sample: ratios use one sample (0.042 ms) as its floor
        n = [max(v, SAMPLE_MS) for v in rows["narrator"]]
        for other in ("wake-then-play", "naive"):
            o = rows[other]
            print(f"       ratio {other}/narrator: median {o[0] / n[0]:.0f}x, max {o[1] / n[1]:.0f}x")


if __name__ == "__main__":
    main()
