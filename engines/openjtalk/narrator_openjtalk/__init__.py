"""Open JTalk as a narrator text-to-speech engine: Japanese that reads kanji.

It runs the `open_jtalk` program of the Debian packages `open-jtalk`,
`open-jtalk-mecab-naist-jdic` and `hts-voice-nitech-jp-atr503-m001` (contrib), one process
per line; nothing is downloaded at run time. Measured: ~0.3 s for a 3.4 s line, so lines are
rendered ahead, never while a table waits. It reads 「の方」 as ほう, so packs write 「のかた」
in the text itself where the engine reads the text. The ~0.4 s / 0.5 s of silence it pads
around each clip is trimmed by the narrator's clip processing, not here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from narrator.sound.engines import EngineUnavailable, VoiceSettings

DICTIONARY = Path(os.environ.get("OPEN_JTALK_DICT_DIR", "/var/lib/mecab/dic/open-jtalk/naist-jdic"))
VOICE_DIR = Path("/usr/share/hts-voice")
DEFAULT_VOICE = "nitech-jp-atr503-m001/nitech_jp_atr503_m001.htsvoice"
APT_HINT = ("install it with `scripts/setup` (it enables Debian contrib for the voice) or "
            "`sudo apt-get install open-jtalk open-jtalk-mecab-naist-jdic hts-voice-nitech-jp-atr503-m001`")
RUN_SECONDS = 300.0
"""How long one `open_jtalk` run may take before it counts as hung. Not a speed limit: a line
takes ~0.3 s here, but a setup on a Pi's architecture under emulation, at the lowest priority
beside other work, once took over 60 s (the old bound) for one line, and the whole render
stopped on it with a traceback."""


class OpenJTalkEngine:
    """Renders one line per `open_jtalk` run into a 48 kHz mono WAV file."""

    name = "openjtalk"
    reads_kanji = True

    def __init__(self) -> None:
        self.program = shutil.which("open_jtalk")
        if self.program is None:
            raise EngineUnavailable(f"Open JTalk is not installed; {APT_HINT}")
        if not (DICTIONARY / "sys.dic").is_file():
            raise EngineUnavailable(f"the Open JTalk dictionary is missing ({DICTIONARY}); {APT_HINT}")
        if not self.voices():
            raise EngineUnavailable(f"no Open JTalk voice in {VOICE_DIR}; {APT_HINT}")

    @staticmethod
    def voices() -> list[Path]:
        return sorted(VOICE_DIR.glob("*/*.htsvoice")) if VOICE_DIR.is_dir() else []

    def voice_file(self, voice: VoiceSettings) -> Path:
        """The pack's voice: a path, a file or folder name under /usr/share/hts-voice, or the default."""
        wanted = voice.voice
        if wanted:
            if Path(wanted).is_file():
                return Path(wanted)
            for path in self.voices():
                if wanted in (path.name, path.stem, path.parent.name):
                    return path
        default = VOICE_DIR / DEFAULT_VOICE
        return default if default.is_file() else self.voices()[0]

    def render(self, text: str, out: Path, voice: VoiceSettings) -> None:
        command = [self.program, "-x", str(DICTIONARY), "-m", str(self.voice_file(voice)), "-ow", str(out)]
        speed = float(voice.rate or 1.0) * voice.speed
        if speed != 1.0:
            # Open JTalk's -r is a speed factor (1.0 = the voice's own pace).
            command += ["-r", f"{speed:.3f}"]
        if voice.volume is not None and voice.volume != 1.0:
            command += ["-g", f"{20 * _log10(max(voice.volume, 1e-3)):.2f}"]
        if voice.pitch:
            command += ["-fm", str(voice.pitch)]
        result = self._run(command, text)
        if result.returncode != 0 or not out.is_file() or out.stat().st_size <= 44:
            detail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise EngineUnavailable(f"open_jtalk failed on {text[:30]!r}: {detail[0]}")

    def reading(self, text: str) -> str:
        """How Open JTalk reads `text`, in katakana (from its text analysis), to check a line."""
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            trace = Path(tmp) / "trace.txt"
            # -r 10: the analysis is the same at any speed, and the throwaway audio 5× quicker
            command = [self.program, "-x", str(DICTIONARY), "-m", str(self.voice_file(VoiceSettings("ja"))),
                       "-r", "10", "-ow", str(Path(tmp) / "out.wav"), "-ot", str(trace)]
            result = self._run(command, text)
            if result.returncode != 0:
                detail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
                raise EngineUnavailable(f"open_jtalk failed reading {text[:30]!r}: {detail[0]}")
            analysis = trace.read_text(encoding="utf-8", errors="replace")
        part = analysis.split("[Text analysis result]")[-1].split("[Output label]")[0]
        fields = [line.split(",") for line in part.strip().splitlines()]
        return "".join(f[9] for f in fields if len(f) > 9).replace("’", "")


    def _run(self, command: list[str], text: str) -> subprocess.CompletedProcess:
        """One `open_jtalk` run on `text`; a hung one is one line naming the line and the fix."""
        try:
            return subprocess.run(command, input=text.encode("utf-8"), capture_output=True, timeout=RUN_SECONDS)
        except subprocess.TimeoutExpired:
            raise EngineUnavailable(
                f"open_jtalk took over {RUN_SECONDS:g} s on {text[:30]!r}; the machine is too busy or the "
                "program hangs: retry with `narrator voices render` when it is idle") from None


def _log10(x: float) -> float:
    import math

    return math.log10(x)
