"""Cue latency: from an answer to the first sample of the next line, rendered ahead or not.

The answer arrives (time A); the scheduler says the next line through the real
`Scheduler` on a clocked null sink (200 ms buffer, like a sound card); the first sample is
heard at time B. Latency = B − A, median of `TRIALS` answers:

- rendered ahead: the clip was prepared at game start (in memory),
- on demand, pyttsx3 (espeak-ng) and Open JTalk: each trial a line never rendered before.

Run: `.venv/bin/python bench/cue_latency.py`.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import _common  # noqa: F401  (puts the repo on sys.path)

from narrator.sound.outputs import NullSink
from narrator.table.clock import ScaledClock
from narrator.cues import Say
from narrator.table.display import ConsoleDisplay
from narrator.inputs.hub import ListenerHub
from narrator.table.scheduler import Scheduler
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.sound.voice import EngineVoice
from narrator.table.transcript import Transcript
from narrator.sound.voicepack import Line, load_pack

TRIALS = 10
LINES = {"en": "Seer number {i}, open your eyes and look at one card.", "ja": "占い師{i}のかた、顔を上げてください。"}


class Watch:
    def __init__(self, sink):
        self.sink, self.handles, self.handed_at = sink, [], []
        self.live = True

    def start(self, pcm, at, speech=True):
        self.handed_at.append(time.monotonic())
        h = self.sink.start(pcm, at, speech)
        self.handles.append(h)
        return h

    def __getattr__(self, name):
        return getattr(self.sink, name)


def latency(voice, line: str, clock, out) -> tuple[float, float]:
    """(answer → clip handed to the output, answer → first sample heard)."""
    sched = Scheduler(voice, out, clock, ListenerHub(), Transcript(None), ConsoleDisplay(False))
    count = len(out.handles)

    async def run() -> float:
        answered = time.monotonic()
        sched.cursor = clock.now()  # the answer resyncs the timeline to now, as after an Ask
        task = asyncio.ensure_future(sched.play([Say(line)], {}))
        while len(out.handles) == count or out.sink.mixer.onsets.get(out.handles[-1]) not in out.sink.played_at:
            await asyncio.sleep(0.001)
        task.cancel()  # the first sample is heard: no need to listen to the rest
        heard = out.sink.played_at[out.sink.mixer.onsets[out.handles[-1]]]
        return out.handed_at[-1] - answered, heard - answered

    return asyncio.run(run())


def measure(lang: str, engine_name: str, ahead: bool) -> tuple[float, float]:
    pack = load_pack(lang)
    lines = {f"bench.{i}": Line(f"bench.{i}", LINES[lang].format(i=i + 1) + (f" {time.time_ns() % 1000}" if not ahead else ""))
             for i in range(TRIALS)}
    pack = replace(pack, lines={**pack.lines, **lines})
    voice = EngineVoice(pack, load_tts(engine_name), cache_dir=Path(tempfile.mkdtemp()))
    if ahead:
        voice.prepare([(line, {}) for line in lines])
    clock = ScaledClock()
    out = Watch(NullSink(clock))
    time.sleep(0.1)
    results = [latency(voice, line, clock, out) for line in lines]
    out.sink._stop.set()
    handed, heard = zip(*results)
    return statistics.median(handed), statistics.median(heard)


def main() -> None:
    print("median of", TRIALS, "answers; 'heard' includes the sink's 200 ms output buffer")
    print(f"{'engine':10} {'lang':5} {'':8} {'rendered ahead':>15} {'on demand':>10} {'ratio':>7}")
    for engine, lang in (("pyttsx3", "en"), ("openjtalk", "ja")):
        try:
            ahead, demand = measure(lang, engine, True), measure(lang, engine, False)
        except EngineUnavailable as err:
            print(f"{engine:10} {lang:5} unavailable: {err}")
            continue
        for i, what in enumerate(("handed", "heard")):
            print(f"{engine:10} {lang:5} {what:8} {ahead[i] * 1000:12.1f} ms {demand[i] * 1000:7.1f} ms "
                  f"{demand[i] / ahead[i]:6.1f}x")


if __name__ == "__main__":
    main()
