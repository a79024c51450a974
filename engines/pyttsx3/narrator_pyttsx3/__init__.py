"""pyttsx3 (espeak-ng on Linux) as a narrator text-to-speech engine.

Measured pitfalls this adapter works around: pyttsx3 2.99 runs only the last of several
queued `save_to_file` calls, so each line gets its own `runAndWait`; its `say()` shells
out to `aplay`, so we never use it and play the WAV ourselves; it prints "Audio saved to …"
on every save, which we swallow. espeak-ng reads kana but not kanji, hence
`reads_kanji = False`: the narrator hands us each line's kana reading.
"""

from __future__ import annotations

import contextlib
import io
import threading
from pathlib import Path

from narrator.sound.engines import EngineUnavailable, VoiceSettings


DEFAULT_RATE = 200
"""espeak-ng's own pace in words per minute, the base for the speech-rate setting."""

RENDER_ATTEMPTS = 3
"""pyttsx3 2.99's espeak loop sometimes ends at once and writes nothing (measured: about 1
in 8 renders of an ~80-character line, often the first after a voice change; short lines
hardly ever); the same call again succeeds, so a render is tried up to this many times."""


class Pyttsx3Engine:
    """Renders one line per call into a WAV file with pyttsx3's espeak-ng driver."""

    name = "pyttsx3"
    reads_kanji = False

    def __init__(self) -> None:
        try:
            import pyttsx3
        except ImportError:
            raise EngineUnavailable("pyttsx3 is not installed; run `pip install pyttsx3` (scripts/setup does)") from None
        try:
            self._engine = pyttsx3.init()
        except Exception as err:  # pyttsx3 raises bare RuntimeError/OSError without espeak-ng
            raise EngineUnavailable(
                f"pyttsx3 cannot start espeak-ng ({err}); install it with `sudo apt-get install espeak-ng libespeak-ng1`"
            ) from None
        self._voices = {v.id: v for v in self._engine.getProperty("voices")}
        self._lock = threading.Lock()

    def voice_id(self, voice: VoiceSettings) -> str | None:
        """The espeak-ng voice for a pack: its exact id, or the first voice of its language."""
        wanted = voice.voice or voice.lang
        if wanted in self._voices:
            return wanted
        for vid, v in self._voices.items():
            langs = [str(lang).lower() for lang in (v.languages or [])]
            if vid.split("/")[-1] == wanted or wanted in langs:
                return vid
        return None

    def render(self, text: str, out: Path, voice: VoiceSettings) -> None:
        with self._lock:
            vid = self.voice_id(voice)
            if vid:
                self._engine.setProperty("voice", vid)
            if voice.rate or voice.speed != 1.0:
                self._engine.setProperty("rate", round((voice.rate or DEFAULT_RATE) * voice.speed))
            if voice.volume is not None:
                self._engine.setProperty("volume", voice.volume)
            for _ in range(RENDER_ATTEMPTS):
                with contextlib.redirect_stdout(io.StringIO()):
                    self._engine.save_to_file(text, str(out))
                    self._engine.runAndWait()
                if out.is_file() and out.stat().st_size > 44:
                    return
        if not out.is_file() or out.stat().st_size <= 44:
            raise EngineUnavailable(f"pyttsx3 wrote no audio for {text[:30]!r}; check `espeak-ng --version`")
