"""The real natural voice: Kokoro renders ja-natural's lines (pronounce fixes, the pack's voice
and speed), every countdown number starts on its second, names are rendered apart, and a
cache rendered on one machine plays on another that never loads the model.

Kokoro is optional: these tests skip where it is not installed, and fail instead when setup
was asked for it (`scripts/setup --natural-voice` leaves a marker in .venv), as in CI.
Each render takes seconds (about 1 s per second of speech), so only the lines these tests
need are rendered; a whole-pack render is bench/kokoro_render.py's job."""

from __future__ import annotations

import shutil

import pytest

from narrator.sound import name_clips
from narrator.sound.clips import audible_onset, measure
from narrator.sound.engines import EngineUnavailable, VoiceSettings, load_tts
from narrator.sound.render_ahead import TICKS_UP_TO
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from tests import kokoro_support
from tests.kokoro_support import open_kokoro

pytestmark = pytest.mark.slow
LATEST_ONSET = 0.080


@pytest.fixture(scope="module")
def kokoro():
    return open_kokoro()


@pytest.fixture(scope="module")
def voice(kokoro, tmp_path_factory):
    """ja-natural with the real engine, one cache for this module (each line rendered once)."""
    return EngineVoice(load_pack("ja-natural"), kokoro, cache_dir=tmp_path_factory.mktemp("kokoro"))


def test_a_missing_kokoro_fails_instead_of_skipping_when_setup_asked_for_it(monkeypatch, tmp_path):
    def missing(name):
        raise EngineUnavailable("no speech engine 'kokoro'")

    monkeypatch.setattr(kokoro_support, "load_tts", missing)
    marker = tmp_path / "natural-voice-requested"
    monkeypatch.setattr(kokoro_support, "REQUESTED", marker)
    with pytest.raises(pytest.skip.Exception):
        open_kokoro()
    marker.touch()
    with pytest.raises(pytest.fail.Exception, match="setup was asked"):
        open_kokoro()


def test_kokoro_renders_a_kanji_line_into_a_plausible_clip(kokoro, tmp_path):
    text = "占い師のかた、顔を上げてください。"
    kokoro.render(text, tmp_path / "raw.wav", VoiceSettings("ja", "jf_alpha"))
    raw = measure(tmp_path / "raw.wav")
    assert 1.5 < raw["seconds"] < 6.0 and raw["dbfs"] > -40
    assert not kokoro.loaded or kokoro.load_seconds > 0


def test_the_packs_pronounce_fixes_reach_kokoro(kokoro):
    pack = load_pack("ja-natural")
    text = pack.speak("seer.wake").text
    assert "の方" in text
    assert "ホー" in kokoro.reading(text)  # Kokoro's frontend misreads 「の方」 as Open JTalk does …
    fixed = kokoro.reading(pack.kanji_words(text))
    assert "ホー" not in fixed and "カタ" in fixed  # … and the pack's [pronounce] fixes it
    assert "ジンロー" in kokoro.reading(pack.kanji_words(pack.speak("title.additional_werewolf").text))


def test_the_pack_chooses_the_voice_and_the_speed(kokoro, tmp_path):
    text = "夜になりました。"
    kokoro.render(text, tmp_path / "alpha.wav", VoiceSettings("ja", "jf_alpha", 1.0))
    kokoro.render(text, tmp_path / "kumo.wav", VoiceSettings("ja", "jm_kumo", 1.0))
    kokoro.render(text, tmp_path / "fast.wav", VoiceSettings("ja", "jf_alpha", 1.0, speed=1.6))
    assert (tmp_path / "alpha.wav").read_bytes() != (tmp_path / "kumo.wav").read_bytes()
    assert measure(tmp_path / "fast.wav")["seconds"] < 0.8 * measure(tmp_path / "alpha.wav")["seconds"]
    with pytest.raises(EngineUnavailable, match="jf_alpha"):
        kokoro.render(text, tmp_path / "x.wav", VoiceSettings("ja", "nosuch"))


def test_the_onset_measure_sees_a_late_start(tmp_path):
    """The measure can fail: a word after 300 ms of breath 30 dB under it starts late."""
    from tests.audio_helpers import silence, tone, write_wav

    late = write_wav(tmp_path / "late.wav", tone(0.3, 200, 0.01) + tone(0.3, 400, 0.3) + silence(0.1))
    assert 0.29 <= audible_onset(late) > LATEST_ONSET


def test_every_countdown_number_starts_on_its_second(voice):
    late = []
    for n in range(TICKS_UP_TO + 1):
        clip = voice.clip("tick", {"n": n})
        assert clip.source in ("synthesized", "cache") and 0.1 < clip.duration < 3.0
        onset = audible_onset(clip.wav)
        if onset > LATEST_ONSET:
            late.append(f"「{n}」 {onset * 1000:.0f} ms")
    assert not late, "numbers heard late: " + ", ".join(late)


def test_a_name_is_rendered_apart_and_spliced_into_its_lines(voice):
    before = voice.synthesized
    call = voice.clip("private.call", {"name": "太郎"})
    parts = name_clips.pieces(voice, call.spoken)
    assert [p.words for p in parts if p.name] == ["太郎さん"]
    name = measure(name_clips.piece_wav(voice, parts[0]))["seconds"]
    assert 0.3 < name < call.duration - 0.5
    names = voice.clip("nomination.declare_names", {"names": ["花子", "太郎"]})
    new = {p.words for p in name_clips.pieces(voice, names.spoken)} - {p.words for p in parts}
    assert "花子さん" in new and "太郎さん" not in new
    assert voice.synthesized - before == len(parts) + len(new)  # 太郎さん was not rendered again


def test_a_cache_rendered_on_a_pc_plays_where_the_model_never_loads(voice, tmp_path, monkeypatch):
    """Render on a PC, copy the cache: the files alone serve a game on a slow machine."""
    lines = [("seer.wake", {}), ("tick", {"n": 3}), ("private.call", {"name": "太郎"})]
    rendered = {line: voice.clip(line, params) for line, params in lines}
    pi_cache = tmp_path / "copied-cache"
    shutil.copytree(voice.cache_dir, pi_cache)

    engine = load_tts("kokoro")  # a fresh engine: the model is not loaded by opening it
    monkeypatch.setattr(type(engine), "render", lambda *a: pytest.fail("the copied cache was not used"))
    pi = EngineVoice(load_pack("ja-natural"), engine, cache_dir=pi_cache)
    for line, params in lines:
        clip = pi.clip(line, params)
        assert clip.source == "cache" and clip.pcm == rendered[line].pcm
    assert pi.synthesized == 0 and not engine.loaded
