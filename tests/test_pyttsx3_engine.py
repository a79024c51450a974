"""The first voice for real: pyttsx3 + espeak-ng rendering pack lines into WAV files."""

import array
import math
import wave

import pytest

from narrator.sound.engines import load_tts
from narrator.sound.voice import EngineVoice, wav_duration
from narrator.sound.voicepack import load_pack


@pytest.fixture(scope="module")
def engine():
    return load_tts("pyttsx3")


def loudness(path):
    with wave.open(str(path), "rb") as w:
        assert w.getsampwidth() == 2
        samples = array.array("h", w.readframes(w.getnframes()))
        return math.sqrt(sum(s * s for s in samples) / max(1, len(samples))), w.getframerate()


@pytest.mark.parametrize("lang, line, low, high", [
    ("ja", "seer.wake", 1.0, 6.0),
    ("en", "seer.wake", 0.6, 4.0),
    ("ja", "night.check_role", 1.5, 9.0),
])
def test_a_pack_line_renders_to_a_non_silent_wav_of_plausible_length(tmp_path, engine, lang, line, low, high):
    voice = EngineVoice(load_pack(lang), engine, cache_dir=tmp_path)
    clip = voice.clip(line)
    rms, rate = loudness(clip.wav)
    assert rate >= 16000 and rms > 300, f"silent clip: rms {rms}"
    assert low < clip.duration < high
    assert clip.duration == pytest.approx(wav_duration(clip.wav))


def test_japanese_is_spoken_from_the_kana_reading(tmp_path, engine):
    """espeak-ng says "Chinese letter" for each kanji: the reading must be what it gets."""
    pack = load_pack("ja")
    voice = EngineVoice(pack, engine, cache_dir=tmp_path)
    from_reading = voice.clip("seer.wake").duration
    engine.render(pack.lines["seer.wake"].text, tmp_path / "kanji.wav", voice.settings)
    from_kanji = wav_duration(tmp_path / "kanji.wav")
    assert engine.reads_kanji is False
    assert from_kanji > from_reading * 1.3  # "Chinese letter" read out for every kanji


def test_rendered_lines_are_cached_and_a_changed_line_renders_anew(tmp_path, engine):
    voice = EngineVoice(load_pack("en"), engine, cache_dir=tmp_path)
    first = voice.clip("timer.warning", {"seconds": 10})
    mtime = first.wav.stat().st_mtime_ns
    again = voice.clip("timer.warning", {"seconds": 10})
    assert again.wav == first.wav and again.wav.stat().st_mtime_ns == mtime
    other = voice.clip("timer.warning", {"seconds": 60})
    assert other.wav != first.wav and len(list(tmp_path.glob("*.wav"))) == 2


def test_a_missing_engine_is_one_line_naming_the_fix():
    from narrator.sound.engines import EngineUnavailable

    with pytest.raises(EngineUnavailable, match=r"scripts/setup.*pip install -e engines/nosuch"):
        load_tts("nosuch")


def _frames(path):
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes())


def test_a_line_sounds_the_same_whatever_was_said_before_it(tmp_path, engine):
    """libespeak-ng keeps state between lines (issue 39 item 8): the same line rendered after
    others came out different each time, so workers with other histories made other clips."""
    voice = EngineVoice(load_pack("en"), engine, cache_dir=tmp_path)
    line = "The seer, open your eyes, and choose a player."
    clips = []
    for i in range(3):
        engine.render("Something else first.", tmp_path / f"other{i}.wav", voice.settings)
        engine.render(line, tmp_path / f"line{i}.wav", voice.settings)
        clips.append(_frames(tmp_path / f"line{i}.wav"))
    assert clips[0] == clips[1] == clips[2]


def test_without_the_espeak_ng_command_pyttsx3_speaks_in_one_process(tmp_path, monkeypatch):
    """The library pyttsx3 loaded still speaks where the command is missing; a render then
    stays in one process (its clips depend on the lines before)."""
    from narrator.sound import parallel

    engine = load_tts("pyttsx3")
    monkeypatch.setattr(engine, "_command", None)
    assert engine.history_dependent and parallel.workers_for(engine, 4, 500) == 1
    engine.render("Hello there.", tmp_path / "hello.wav", EngineVoice(load_pack("en"), engine, cache_dir=tmp_path).settings)
    rms, rate = loudness(tmp_path / "hello.wav")
    assert rate == 22050 and rms > 300


def test_a_failing_espeak_ng_is_one_line_naming_the_fix(tmp_path, monkeypatch):
    from narrator.sound.engines import EngineUnavailable

    engine = load_tts("pyttsx3")
    monkeypatch.setattr(engine, "_command", "/bin/false")
    with pytest.raises(EngineUnavailable, match=r"espeak-ng failed on 'Hello.*espeak-ng --version"):
        engine.render("Hello there.", tmp_path / "hello.wav", EngineVoice(load_pack("en"), engine, cache_dir=tmp_path).settings)
