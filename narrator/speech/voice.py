"""A voice: a pack's words made into timed clips, by an engine or as plain text.

The scheduler asks a voice for a `Clip` (words, WAV file, duration) before it plays it,
so that timing is known ahead. Rendered WAVs are cached per pack, keyed by engine, voice
settings and words, so a line is synthesized once and replayed from disk after that.
"""

from __future__ import annotations

import hashlib
import json
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from narrator import home
from narrator.speech import TextToSpeech, VoiceSettings
from narrator.voicepack import Spoken, VoicePack


@dataclass(frozen=True)
class Clip:
    """One line ready to play: its words, its audio (None in text mode), its length."""

    spoken: Spoken
    wav: Path | None
    duration: float


def wav_duration(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


class TextVoice:
    """Speaks nothing: the words are shown, and last as long as reading them aloud would."""

    engine_name = "text"

    def __init__(self, pack: VoicePack):
        self.pack = pack

    def clip(self, line: str, params: Mapping[str, Any] | None = None) -> Clip:
        spoken = self.pack.speak(line, params)
        return Clip(spoken, None, self.pack.seconds_for(spoken.text))


class EngineVoice:
    """Speaks with a TTS engine, rendering each distinct line once into the pack's cache."""

    def __init__(self, pack: VoicePack, engine: TextToSpeech, cache_dir: Path | None = None):
        self.pack = pack
        self.engine = engine
        self.engine_name = engine.name
        self.settings = VoiceSettings(pack.lang, pack.voice, pack.rate, pack.volume, pack.pitch)
        self.cache_dir = cache_dir or _cache_dir(pack)

    def clip(self, line: str, params: Mapping[str, Any] | None = None) -> Clip:
        spoken = self.pack.speak(line, params)
        words = spoken.text if self.engine.reads_kanji else spoken.reading
        wav = self.cache_dir / f"{self._key(words)}.wav"
        if not wav.is_file():
            tmp = wav.with_suffix(".part.wav")
            self.engine.render(words, tmp, self.settings)
            tmp.replace(wav)
        return Clip(spoken, wav, wav_duration(wav))

    def _key(self, words: str) -> str:
        ident = json.dumps([self.engine.name, self.settings.__dict__, words], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(ident.encode()).hexdigest()[:24]


def _cache_dir(pack: VoicePack) -> Path:
    """`voices/<pack>/cache/` (git-ignored), or the app home when the pack is read-only."""
    for folder in (pack.path / "cache", home.app_home() / "cache" / pack.name):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            probe = folder / ".write-test"
            probe.touch()
            probe.unlink()
            return folder
        except OSError:
            continue
    raise OSError(f"no writable cache folder for voice pack {pack.name}")
