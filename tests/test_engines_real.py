"""Real engines render real WAVs: espeak-ng through pyttsx3, and Open JTalk on kanji."""

import shutil

import pytest

from narrator.sound.clips import measure, process
from narrator.sound.engines import VoiceSettings, load_tts
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from tests.setup_parts import requested_parts

pytestmark = pytest.mark.slow
needs_openjtalk = pytest.mark.skipif(shutil.which("open_jtalk") is None and "app" not in requested_parts(),
                                     reason="Open JTalk not installed (scripts/setup installs it)")
"""Runs (and fails) without Open JTalk when scripts/setup was asked to install the app."""


def test_espeak_ng_renders_a_plausible_english_clip(tmp_path):
    engine = load_tts("pyttsx3")
    engine.render("Seer, open your eyes and look at a card.", tmp_path / "en.wav", VoiceSettings("en", "en", 165))
    m = measure(tmp_path / "en.wav")
    assert 1.0 < m["seconds"] < 6.0
    assert m["dbfs"] > -40


@needs_openjtalk
def test_open_jtalk_reads_a_kanji_line_into_a_plausible_clip(tmp_path):
    engine = load_tts("openjtalk")
    assert engine.reads_kanji
    text = "占い師のかた、顔を上げてください。"
    engine.render(text, tmp_path / "raw.wav", VoiceSettings("ja"))
    raw = measure(tmp_path / "raw.wav")
    # about 6 to 8 morae per second: 17 characters read as ~24 morae is 2-5 s
    assert 2.0 < raw["seconds"] < 6.0 and raw["dbfs"] > -40
    assert raw["lead_s"] > 0.2  # the engine pads (measured ~0.4 s) ...
    process(tmp_path / "raw.wav", tmp_path / "clip.wav")
    clip = measure(tmp_path / "clip.wav")
    assert clip["lead_s"] < 0.01 and clip["trail_s"] < 0.01  # ... and the narrator trims it
    assert raw["seconds"] - clip["seconds"] > 0.5


@needs_openjtalk
def test_open_jtalk_is_the_ja_packs_engine_and_kanji_lines_differ_from_kana_only(tmp_path):
    pack = load_pack("ja")
    assert pack.engine == "openjtalk" and pack.engines == ("openjtalk", "pyttsx3")
    voice = EngineVoice(pack, load_tts("openjtalk"), cache_dir=tmp_path)
    clip = voice.clip("seer.wake")
    assert clip.source == "synthesized" and 1.0 < clip.duration < 5.0
    # the text has 「の方」, which Open JTalk would read ほう: the pack's [pronounce] fixes it
    assert "の方" in clip.spoken.text and "のかた" in pack.kanji_words(clip.spoken.text)


@needs_openjtalk
def test_speech_rate_setting_makes_speech_faster(tmp_path):
    pack = load_pack("ja")
    normal = EngineVoice(pack, load_tts("openjtalk"), cache_dir=tmp_path).clip("seer.act")
    fast = EngineVoice(pack, load_tts("openjtalk"), cache_dir=tmp_path, speed=1.5).clip("seer.act")
    assert fast.duration < normal.duration * 0.8


@needs_openjtalk
@pytest.mark.parametrize("line, wrong, right", [
    ("seer.wake", "ホー", "ウラナイシノカタ"),
    ("peddler.wake", "コーグシ", "ヤシノカタ"),
    ("end.citizens_win", "ガチ", "シミンノカチ"),
    ("strategist.reveal", "ヒョーニ", "オモテニ"),
    ("medium.act", "イッテクダサイ", "オコナッテクダサイ"),
    ("strategist.question", "ホー", "モッテイルカタ"),
])
def test_open_jtalk_reads_the_ja_lines_right(line, wrong, right):
    pack = load_pack("ja")
    reading = load_tts("openjtalk").reading(pack.kanji_words(pack.speak(line).text))
    assert right in reading and wrong not in reading, reading
