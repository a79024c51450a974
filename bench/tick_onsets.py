"""Audible onset of every countdown number (0 … 60), per pack and engine, with and without
onset trimming (the old trim cut silence at −45 dB from the peak only).

The audible onset is the first 10 ms frame within 20 dB of the clip's loudest frame
(`narrator.sound.clips.audible_onset`); a number is "heard on its second" when it is at most
80 ms. Real renders, each into a fresh cache. Run: `.venv/bin/python bench/tick_onsets.py`
(about a minute and a half).
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

import _common  # noqa: F401  (puts the repository on sys.path)

from narrator.sound import voice as voice_module
from narrator.sound.clips import audible_onset
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.sound.render_ahead import TICKS_UP_TO
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack


def onsets(pack, engine, trimmed: bool) -> dict[int, float]:
    voice_module.ON_SECOND_LINES = ("tick",) if trimmed else ()
    voice = EngineVoice(pack, engine, cache_dir=Path(tempfile.mkdtemp()))
    return {n: audible_onset(voice.clip("tick", {"n": n}).wav) for n in range(TICKS_UP_TO + 1)}


def main() -> None:
    print("pack/engine        trim     median   max  (number)   late > 80 ms")
    for name in ("ja", "en"):
        pack = load_pack(name)
        for engine_name in pack.engines:
            try:
                engine = load_tts(engine_name)
            except EngineUnavailable:
                continue
            for trimmed in (False, True):
                found = onsets(pack, engine, trimmed)
                worst = max(found, key=found.get)
                late = [n for n, s in found.items() if s > 0.080]
                print(f"{name}/{engine_name:10s}  {'onset' if trimmed else 'silence':8s} "
                      f"{statistics.median(found.values()) * 1000:5.0f} ms {found[worst] * 1000:5.0f} ms ({worst:2d})"
                      f"   {len(late)}: {late[:12]}")
    voice_module.ON_SECOND_LINES = ("tick",)


if __name__ == "__main__":
    main()
