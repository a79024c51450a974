"""Every Pagan line rendered for real by pyttsx3 + espeak-ng (ja from its kana reading)."""

import array
import wave

import pytest

from narrator.sound.engines import load_tts
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack

pytestmark = pytest.mark.slow
SAMPLE = {"turn": 3, "left": 2, "total": 3, "count": 2, "to_win": 8, "seconds": 30}


def rms(path):
    with wave.open(str(path), "rb") as w:
        samples = array.array("h", w.readframes(w.getnframes()))
    return (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_pagan_line_renders_to_speech(tmp_path, lang):
    pack = load_pack(lang)
    voice = EngineVoice(pack, load_tts("pyttsx3"), cache_dir=tmp_path)
    lines = sorted(l for l in pack.lines if l.startswith("pagan."))
    assert len(lines) >= 35
    for line in lines:
        clip = voice.clip(line, {p: SAMPLE[p] for p in pack.placeholders(line)})
        assert rms(clip.wav) > 300, f"{line} rendered silent"
        # a line lasts about as long as its reading at the pack's pace, not a stray second
        assert 0.5 < clip.duration < 4 * pack.seconds_for(clip.spoken.reading) + 2, line
