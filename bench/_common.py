"""Shared by the benchmarks: a CPU load on every core, tick clips, medians."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _spin() -> None:
    x = 0
    while True:
        x = (x * 31 + 7) % 1_000_003


@contextlib.contextmanager
def cpu_load(busy: bool):
    """With `busy`, one spinning process per core for the duration of the block."""
    procs = []
    if busy:
        for _ in range(os.cpu_count() or 2):
            p = multiprocessing.Process(target=_spin, daemon=True)
            p.start()
            procs.append(p)
    try:
        yield
    finally:
        for p in procs:
            p.terminate()
            p.join()


def ms(values: list[float]) -> tuple[float, float]:
    """(median, max) of absolute values, in milliseconds."""
    a = [abs(v) * 1000 for v in values]
    return statistics.median(a), max(a)


def en_voice():
    from narrator.sound.voice import EngineVoice, open_engine
    from narrator.sound.voicepack import load_pack

    pack = load_pack("en")
    return EngineVoice(pack, open_engine(pack))
