"""The voice listener: audio in → small-grammar recognition → the hub, never its own voice.

Recognition runs in its own thread (vosk decodes in C and releases nothing to asyncio);
each result is handed to the hub on the loop's thread, where the first fitting answer from
any listener wins. Three guards against mishearing live here:

- the microphone is muted while the narrator speaks and for `mute_tail` seconds after
  (the hub tells us when a clip starts and how long it lasts), and the recognizer is reset
  so no half-heard narration leaks into the next utterance;
- a result less sure than `confidence` is ignored;
- every answer is sent with `confirm=True`, so the hub has it confirmed before it counts.

An utterance ends when vosk's own endpointing says so (about a second of silence), or
sooner when `endpoint_silence` seconds of quiet follow loud audio: then the recognizer is
finalized at once (bench/README.md: ~1 s → ~0.4 s from the end of a word to its event).

The grammar follows the open question: the hub calls `on_ask` whenever one opens or closes.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Protocol

from narrator.cues import Ask
from narrator.inputs.voice.grammar import Grammar
from narrator.inputs.voice.microphone import audible_seconds, loudness
from narrator.sound.engines import Recognition, Recognizer, SpeechToText

SOURCE = "voice"


@dataclass(frozen=True)
class Hearing:
    """What one utterance became: `used` (given to the hub) or why it was not."""

    text: str
    confidence: float
    meaning: str | None
    outcome: str
    """used, stale (its question closed), low-confidence, not-understood, refused: the hub's hint."""
    at: float


class Phrases(Protocol):
    """What the listener asks of its phrase book (`grammar.PhraseBook`; `narrator listen`'s
    fixed one): the grammar of the words that answer `ask` (None: commands only)."""

    def grammar(self, ask: Ask | None, also: tuple[str, ...] = ()) -> Grammar: ...


class AudioSource(Protocol):
    """Where the listener's audio comes from (`Microphone`, a WAV file, tests' chunks): 16-bit
    mono chunks at the engine's rate until the audio ends; `close` ends it from another thread."""

    def chunks(self) -> Iterator[bytes]: ...

    def close(self) -> None: ...


class HeardSink(Protocol):
    """What the listener feeds (`ListenerHub`; `narrator listen`'s echo): it registers, learns
    each new question, offers the words it understood, and retires when the audio ends."""

    def register(self, source: str) -> None: ...

    def observe(self, on_ask: Callable[[Ask | None], None] | None = None,
                on_speech: Callable[[float, Path | None], None] | None = None) -> None: ...

    def offer_text(self, text: str, source: str, confirm: bool = False) -> str | None: ...

    def retire(self, source: str) -> None: ...


class VoiceListener:
    def __init__(self, engine: SpeechToText, source: AudioSource, phrases: Phrases, confidence: float = 0.7,
                 mute_tail: float = 0.5, report: Callable[[Hearing], None] | None = None,
                 endpoint_silence: float | None = 0.4, loud: float = 300.0):
        self.engine, self.source, self.phrases = engine, source, phrases
        self.confidence, self.mute_tail = confidence, mute_tail
        self.endpoint_silence, self.loud = endpoint_silence, loud
        self.report = report or (lambda hearing: None)
        self.hearings: list[Hearing] = []
        self.muted_until = 0.0
        self.dropped_chunks = 0
        self._grammar: Grammar = phrases.grammar(None)
        self._grammar_serial = 0
        self._recognizers: dict[tuple[str, ...], Recognizer] = {}
        self._unusable: set[str] = set()
        self._hub: HeardSink | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None

    # --- hub side (loop thread) -------------------------------------------------------------

    def start(self, hub: HeardSink, loop: asyncio.AbstractEventLoop) -> None:
        self._hub, self._loop = hub, loop
        hub.register(SOURCE)
        hub.observe(on_ask=self._on_ask, on_speech=self._on_speech)
        self.thread = threading.Thread(target=self._run, daemon=True, name="voice")
        self.thread.start()

    def _on_ask(self, ask: Ask | None) -> None:
        self._grammar = self.phrases.grammar(ask, getattr(self._hub, "listen_also", ()))
        self._grammar_serial += 1

    def _on_speech(self, seconds: float, wav: Path | None = None) -> None:
        """Mute until the clip's last audible sound has passed, plus the tail (echo, output latency).

        espeak-ng's clips end in up to half a second of silence (a countdown tick lasts ~0.8 s,
        of which ~0.3 s is sound): muting only for the sound leaves room to speak between ticks.
        """
        audible = min(seconds, audible_seconds(wav)) if wav is not None else seconds
        self.muted_until = max(self.muted_until, time.monotonic() + audible + self.mute_tail)

    def _offer(self, recognition: Recognition, grammar: Grammar, serial: int, at: float) -> None:
        meaning = grammar.read(recognition.text)
        if serial != self._grammar_serial:
            outcome = "stale"  # heard for a question that has closed since: never answers the next one
        elif recognition.confidence < self.confidence:
            outcome = "low-confidence"
        elif meaning is None:
            outcome = "not-understood"
        else:
            assert self._hub is not None  # set by start(), before any speech is heard
            hint = self._hub.offer_text(meaning, SOURCE, confirm=True)
            outcome = f"refused: {hint}" if hint else "used"
        self._note(Hearing(recognition.text, recognition.confidence, meaning, outcome, at))

    def _note(self, hearing: Hearing) -> None:
        self.hearings.append(hearing)
        self.report(hearing)

    # --- recognition thread ---------------------------------------------------------------

    def _recognizer(self, grammar: Grammar) -> Recognizer:
        key = tuple(grammar.phrases)
        if key not in self._recognizers:
            missing = set(self.engine.missing_words(grammar.phrases))
            usable = [p for p in grammar.phrases if not set(p.split()) & missing]
            for phrase in grammar.phrases:
                if phrase not in usable and phrase not in self._unusable:
                    self._unusable.add(phrase)  # said once: the model cannot hear this word
                    self._call(self._note, Hearing(phrase, 0.0, grammar.meanings[phrase],
                                                   "not in the model: add a spelling to [listening.phrases]",
                                                   time.monotonic()))
            self._recognizers[key] = self.engine.recognizer(usable)
        return self._recognizers[key]

    def _run(self) -> None:
        try:
            self._recognize()
        finally:  # end of audio, or a failing device: the hub must not wait for this listener
            assert self._hub is not None  # _run is started by start()
            self._call(self._hub.retire, SOURCE)

    def _recognize(self) -> None:
        serial, grammar = self._grammar_serial, self._grammar
        recognizer = self._recognizer(grammar)
        was_muted = False
        spoke, quiet = False, 0.0
        for chunk in self.source.chunks():
            if time.monotonic() < self.muted_until:
                if not was_muted:
                    recognizer.reset()
                    was_muted = True
                    spoke = False
                self.dropped_chunks += 1
                continue
            was_muted = False
            if serial != self._grammar_serial:
                serial, grammar = self._grammar_serial, self._grammar
                recognizer.reset()
                recognizer = self._recognizer(grammar)
                recognizer.reset()
                spoke = False
            result = recognizer.accept(chunk)
            if self.endpoint_silence is not None:
                if loudness(chunk) >= self.loud:
                    spoke, quiet = True, 0.0
                else:
                    quiet += len(chunk) / 2 / self.engine.sample_rate
                if result is None and spoke and quiet >= self.endpoint_silence:
                    result = recognizer.finish()  # quiet after speech: end the utterance now
                if result is not None or (spoke and quiet >= self.endpoint_silence):
                    spoke = False
            if result is not None:
                self._post(result, grammar, serial)
        result = recognizer.finish()
        if result is not None:
            self._post(result, grammar, serial)

    def _post(self, result: Recognition, grammar: Grammar, serial: int) -> None:
        self._call(self._offer, result, grammar, serial, time.monotonic())

    def _call(self, func: Callable[..., object], *args: object) -> None:
        assert self._loop is not None  # set by start(), before the listening thread runs
        try:
            self._loop.call_soon_threadsafe(func, *args)
        except RuntimeError:  # the loop closed: the game is over
            pass

    def stop(self) -> None:
        self.source.close()


def describe(hearing: Hearing) -> str:
    """One line for the console: what was heard, how sure, and what became of it."""
    meaning = f" → {hearing.meaning}" if hearing.meaning else ""
    outcome = "" if hearing.outcome == "used" else f"  (ignored: {hearing.outcome})"
    return f"heard 「{hearing.text}」 ({hearing.confidence:.2f}){meaning}{outcome}"
