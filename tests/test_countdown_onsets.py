"""Every countdown number is heard on its second: a tick clip's audible onset (its first
10 ms frame within 20 dB of its loudest frame) comes at most 80 ms after the clip starts,
for every number a pack renders ahead (0 … TICKS_UP_TO), in every pack, with every engine
of that pack installed here (real renders: Open JTalk, espeak-ng through pyttsx3)."""

from __future__ import annotations

import pytest

from narrator.sound import voice as voice_module
from narrator.sound.clips import audible_onset, process
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.sound.render_ahead import TICKS_UP_TO
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import list_packs, load_pack
from tests.audio_helpers import silence, tone, write_wav

LATEST = 0.080

pytestmark = pytest.mark.slow


def _voices(tmp_path_factory):
    for name in ("ja", "en"):
        pack = load_pack(name)
        for engine_name in pack.engines:
            try:
                engine = load_tts(engine_name)
            except EngineUnavailable:
                continue
            yield pack, EngineVoice(pack, engine, cache_dir=tmp_path_factory.mktemp(f"{name}-{engine_name}"))


def test_the_bundled_packs_are_the_ones_measured():
    assert {"ja", "en"} <= set(list_packs())


def test_every_number_of_every_pack_starts_on_its_second(tmp_path_factory):
    late, measured = [], 0
    for pack, voice in _voices(tmp_path_factory):
        for n in range(TICKS_UP_TO + 1):
            onset = audible_onset(voice.clip("tick", {"n": n}).wav)
            measured += 1
            if onset > LATEST:
                late.append(f"{pack.name}/{voice.engine_name} 「{n}」 {onset * 1000:.0f} ms")
    assert measured >= 2 * (TICKS_UP_TO + 1), "no engine rendered the ticks"
    assert not late, "numbers heard late: " + ", ".join(late)


def test_without_onset_trimming_open_jtalks_one_is_late(tmp_path, monkeypatch):
    """The protection's counterpart: the old trim (silence at −45 dB only) leaves 「1」 late."""
    try:
        engine = load_tts("openjtalk")
    except EngineUnavailable as err:
        pytest.skip(str(err))
    pack = load_pack("ja")
    trimmed = EngineVoice(pack, engine, cache_dir=tmp_path / "on").clip("tick", {"n": 1})
    monkeypatch.setattr(voice_module, "ON_SECOND_LINES", ())
    untrimmed = EngineVoice(pack, engine, cache_dir=tmp_path / "off").clip("tick", {"n": 1})
    assert audible_onset(trimmed.wav) <= LATEST < audible_onset(untrimmed.wav)


def test_a_quiet_lead_in_is_trimmed_up_to_the_onset(tmp_path):
    # 400 ms of breath 30 dB under the word, then the word: heard 400 ms late untrimmed
    raw = write_wav(tmp_path / "raw.wav", tone(0.4, 200, 0.01) + tone(0.3, 400, 0.3) + silence(0.1))
    plain, onset = tmp_path / "plain.wav", tmp_path / "onset.wav"
    process(raw, plain)
    process(raw, onset, onset=True)
    assert audible_onset(plain) >= 0.39
    assert audible_onset(onset) <= 0.04
