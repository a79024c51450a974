"""Speech engines behind one contract, found by entry point.

A text-to-speech engine is a class registered in the `narrator.tts` entry-point group
(see `engines/pyttsx3/`). The app ships no engine of its own besides `text`, which speaks
nothing and prints instead, so a missing engine never stops a game.

A speech-to-text engine is a class registered in the `narrator.stt` group (see
`engines/vosk/`), built with a model folder; it recognizes 16-bit mono PCM against a
small grammar of phrases, so a table is only ever heard saying what may be said now.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol, Sequence

from narrator.errors import NarratorError

TTS_GROUP = "narrator.tts"
STT_GROUP = "narrator.stt"


@dataclass(frozen=True)
class VoiceSettings:
    """How a pack wants to sound; engines ignore what they cannot do."""

    lang: str
    voice: str | None = None
    rate: int | None = None
    volume: float | None = None
    pitch: int | None = None
    speed: float = 1.0
    """The table's speech-rate setting, a factor on the pack's rate (engines apply it)."""


class TextToSpeech(Protocol):
    """What an engine does: turn one line into one WAV file."""

    name: str
    reads_kanji: bool
    """False for kana-only engines (espeak-ng): they are given the line's `reading`."""

    def render(self, text: str, out: Path, voice: VoiceSettings) -> None:
        """Write `text` spoken with `voice` to the WAV file `out`."""


class EngineUnavailable(NarratorError):
    """An engine cannot run here; the message says what to install."""


def tts_engine_names() -> list[str]:
    return sorted(ep.name for ep in entry_points(group=TTS_GROUP))


SETUP_FLAGS = {"kokoro": "--natural-voice"}
"""The `scripts/setup` option that installs an engine setup leaves out by default."""


def install_hint(name: str) -> str:
    """The command that installs engine `name`: setup (a fresh Debian has no `pip` on its PATH)."""
    flag = SETUP_FLAGS.get(name)
    return f"scripts/setup {flag}" if flag else "scripts/setup"


def load_tts(name: str) -> TextToSpeech:
    """Instantiate the engine registered as `name`; its own checks run in its constructor."""
    matches = [ep for ep in entry_points(group=TTS_GROUP) if ep.name == name]
    if not matches:
        known = ", ".join(tts_engine_names()) or "none installed"
        raise EngineUnavailable(
            f"no speech engine '{name}' (installed: {known}); install it with `{install_hint(name)}` "
            f"(or by hand: `.venv/bin/pip install -e engines/{name}`)"
        )
    return matches[0].load()()


# --- speech to text -----------------------------------------------------------------------


@dataclass(frozen=True)
class Recognition:
    """One finished utterance: the grammar words heard, and how sure the engine is (0–1)."""

    text: str
    confidence: float
    words: tuple[tuple[str, float], ...] = ()


class Recognizer(Protocol):
    """A recognizer bound to one grammar; fed PCM chunks in order."""

    def accept(self, pcm: bytes) -> Recognition | None:
        """Feed 16-bit mono PCM; returns a Recognition when an utterance has just ended."""

    def finish(self) -> Recognition | None:
        """The end of the audio: whatever utterance is still open."""

    def reset(self) -> None:
        """Forget the audio fed so far (the microphone was muted)."""


class SpeechToText(Protocol):
    """What a recognition engine does, with its model loaded in the constructor."""

    name: str
    sample_rate: int

    def missing_words(self, phrases: Sequence[str]) -> list[str]:
        """The words of `phrases` (split on spaces) that the model cannot recognize."""

    def recognizer(self, phrases: Sequence[str]) -> Recognizer:
        """A recognizer that only hears `phrases`."""


def stt_engine_names() -> list[str]:
    return sorted(ep.name for ep in entry_points(group=STT_GROUP))


def load_stt(name: str, model: Path) -> SpeechToText:
    """Instantiate the recognition engine `name` with the model folder `model`."""
    matches = [ep for ep in entry_points(group=STT_GROUP) if ep.name == name]
    if not matches:
        known = ", ".join(stt_engine_names()) or "none installed"
        raise EngineUnavailable(
            f"no speech recognition engine '{name}' (installed: {known}); install it with "
            f"`pip install -e engines/{name}` or run scripts/setup"
        )
    return matches[0].load()(model)
