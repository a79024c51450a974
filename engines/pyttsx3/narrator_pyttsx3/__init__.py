"""pyttsx3 (espeak-ng on Linux) as a narrator text-to-speech engine.

Measured pitfalls this adapter works around: pyttsx3 2.99 runs only the last of several
queued `save_to_file` calls, so each line gets its own `runAndWait`; its `say()` shells
out to `aplay`, so we never use it and play the WAV ourselves; it prints "Audio saved to …"
on every save, which we swallow. espeak-ng reads kana but not kanji, hence
`reads_kanji = False`: the narrator hands us each line's kana reading.

A line is spoken by a fresh espeak-ng (its `espeak-ng` command, the same library and data
pyttsx3 loads), not by the library pyttsx3 keeps loaded. libespeak-ng carries state from one
utterance to the next that no call resets (function-level statics in its wave generator: the
pitch flutter's phase, the wave phase, the gain): in one process the same line rendered
four times gave four different files (107,318 / 109,276 / 109,312 / 109,254 bytes), differing
from the 307th sample on. So a clip depended on every line the process had said before it,
and a render split over workers (each with its own history) differed from a one-worker render
in 1,033 of 1,036 clips (issue 39). A fresh espeak-ng starts from the library's initial state,
so a clip is a function of its words and settings alone, whichever worker renders it and
whatever came before: the audio pyttsx3's first line in a new process is (measured on 12 pack
lines: 10 byte-identical, the two longest a few samples apart, as the library in pyttsx3 hands
its audio over in 1 s buffers). It costs a process per line (~8 ms). pyttsx3 still lists the voices, and speaks where the command is
missing (then a render stays in one process: `history_dependent`).
"""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import threading
from pathlib import Path

from narrator.sound.engines import EngineUnavailable, VoiceSettings


DEFAULT_RATE = 200
"""The pace pyttsx3 sets in words per minute, the base for the speech-rate setting (the
`espeak-ng` command's own default is 175: it is always given the rate)."""

ESPEAK = "espeak-ng"
"""The command that speaks each line from a fresh state (Debian's `espeak-ng`, which setup installs)."""

RUN_SECONDS = 300.0
"""How long one `espeak-ng` run may take before it counts as hung (a line takes ~10 ms; the
bound is for a machine under emulation at the lowest priority, as Open JTalk's)."""

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
        self._command = shutil.which(ESPEAK)

    @property
    def history_dependent(self) -> bool:
        """True when lines are spoken by the loaded library (no `espeak-ng` command), whose
        output depends on the lines before: a render then stays in one process."""
        return self._command is None

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
        if self._command is not None:
            self._render_fresh(text, out, voice)
        else:
            self._render_loaded(text, out, voice)

    def command(self, out: Path, voice: VoiceSettings) -> list[str]:
        """The `espeak-ng` run that writes a line (read from stdin) to `out` with pyttsx3's
        settings: its voice, its rate (200 unless the pack says), its volume (1.0 = 100)."""
        rate = round((voice.rate or DEFAULT_RATE) * voice.speed)
        volume = round((1.0 if voice.volume is None else voice.volume) * 100)
        vid = self.voice_id(voice)
        return [self._command or ESPEAK, *(["-v", vid] if vid else []), "-s", str(rate), "-a", str(volume),
                "-w", str(out), "--stdin"]

    def _render_fresh(self, text: str, out: Path, voice: VoiceSettings) -> None:
        """One line, one fresh espeak-ng: the clip depends on nothing said before it."""
        try:
            done = subprocess.run(self.command(out, voice), input=text.encode("utf-8"), capture_output=True,
                                  timeout=RUN_SECONDS)
        except subprocess.TimeoutExpired:
            raise EngineUnavailable(
                f"espeak-ng took over {RUN_SECONDS:g} s on {text[:30]!r}; the machine is too busy or the "
                "program hangs: retry with `narrator voices render` when it is idle") from None
        if done.returncode != 0 or not out.is_file() or out.stat().st_size <= 44:
            detail = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no audio written"])[0]
            raise EngineUnavailable(f"espeak-ng failed on {text[:30]!r}: {detail}; check `espeak-ng --version`")

    def _render_loaded(self, text: str, out: Path, voice: VoiceSettings) -> None:
        """The library pyttsx3 loaded, where there is no `espeak-ng` command."""
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
