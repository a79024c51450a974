"""Each Japanese reading reviewed once and kept (#14 item 9): Open JTalk's analysis of every
line with kanji matches `voices/ja/readings.toml`; the known misreadings stay fixed, for Open
JTalk and for the espeak-ng fallback (whose kana readings say numbers the counter's way)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace

import pytest

from narrator.sound import readings
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.cli.review_readings import with_games_lines  # a game's own lines are reviewed here too
from narrator.sound.voicepack import list_packs, load_pack


@pytest.fixture(scope="module")
def openjtalk():
    try:
        return load_tts("openjtalk")
    except EngineUnavailable as err:
        pytest.skip(str(err))


def japanese_packs():
    """Japanese packs with lines of their own (one that inherits them is checked in its parent)."""
    return [name for name in list_packs() if load_pack(name).lang == "ja" and len(load_pack(name).folders) <= 1]


@pytest.mark.slow
@pytest.mark.parametrize("name", japanese_packs())
def test_open_jtalk_reads_every_line_as_reviewed(name, openjtalk):
    pack = load_pack(name)
    kept = readings.reviewed(pack)
    assert kept, f"{pack.path / readings.FILE} is missing: run scripts/review-readings {name}"
    different = readings.differences(with_games_lines(pack), openjtalk.reading)
    assert not different, "\n".join(
        f"{key}: {'not reviewed' if was is None else 'reviewed ' + was}; Open JTalk now reads {heard} "
        f"(run scripts/review-readings, see docs/voices.md)" for key, _, was, heard in different)
    stale = set(kept) - {key for key, _ in readings.entries(with_games_lines(pack))}
    assert not stale, f"reviewed readings of lines that no longer exist: {sorted(stale)}"


def test_every_line_with_kanji_is_in_the_reviewed_file():
    pack = load_pack("ja")
    keys = {key for key, _ in readings.entries(with_games_lines(pack))}
    assert keys == set(readings.reviewed(pack))
    assert len(keys) > 150


@pytest.mark.parametrize("key, right, wrong", [
    ("bm.reveal.role.murderer", None, "サツジンオニ"),          # no kanji left: さつじんき
    ("bm.reveal.act.kill", "サツジンキ", "サツジンオニ"),
    ("pagan.help.hunter_board", "ホカノイキテイル", "タノイキテイル"),
    ("pagan.upkeep.discard", "テフダ", "シュサツ"),
    ("pagan.upkeep.discard", "ステフダ", "ステサツ"),
    ("lovers.wake_numbered", "ヒトクミメ", "イックミメ"),
    ("setup.welcome", "ヨニンデ、ミッカカン", None),
    ("night.begin", "フツカメ", None),
])
def test_the_known_misreadings_are_fixed_in_the_reviewed_file(key, right, wrong):
    kept = readings.reviewed(load_pack("ja"))
    if right is None:
        assert key not in kept  # the fix left no kanji: nothing for Open JTalk to misread
        return
    assert right in kept[key] and (wrong is None or wrong not in kept[key])


@pytest.mark.slow
def test_without_the_fixes_open_jtalk_misreads_them(openjtalk):
    """The control: the same lines without the pack's new [pronounce] fixes differ from the file."""
    pack = load_pack("ja")
    old = {k: v for k, v in pack.pronounce.items()
           if k not in ("殺人鬼", "他の", "のかたは目", "魔獣の数", "手札", "捨て札", "1組目")}
    bare = replace(pack, pronounce=old)
    keys = ["bm.reveal.act.kill", "pagan.help.hunter_board", "pagan.upkeep.discard", "lovers.wake_numbered"]
    words = dict(readings.entries(bare))
    heard = {key: openjtalk.reading(words[key]) for key in keys}
    kept = readings.reviewed(pack)
    assert all(heard[key] != kept[key] for key in keys)
    assert "サツジンオニ" in heard["bm.reveal.act.kill"] and "シュサツ" in heard["pagan.upkeep.discard"]


@pytest.mark.slow
@pytest.mark.parametrize("written, right, wrong", [
    ("魔獣の方は目を瞑ってください。", "マジュウノカタワ", "カタハ"),   # the wording of the report
    ("町民チームの数が魔獣の数以下になりました。", "マジュウノカズ", "マジュウノスー"),
])
def test_fixed_phrases_that_the_lines_no_longer_use(written, right, wrong, openjtalk):
    """Two misread phrases were reworded away (Bestia Magica's review); their fixes stay, for
    any line that says them again: with the pack's [pronounce] they read right, without, wrong."""
    pack = load_pack("ja")
    assert right in openjtalk.reading(pack.kanji_words(written))
    assert wrong in openjtalk.reading(replace(pack, pronounce={"の方": "のかた"}).kanji_words(written))


def espeak_phonemes(text: str) -> str:
    """espeak-ng's own phonemes for `text`, without its stress and pause marks."""
    out = subprocess.run(["espeak-ng", "-v", "ja", "-x", "-q", text], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    return "".join(c for c in out if c not in ",'_!: \n")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize("line, params, said, misread", [
    ("night.begin", {"night": 2}, "ふつかめ", "2にちめ"),
    ("setup.welcome", {"players": 4, "days": 3}, "よにんで", "4にんで"),
    ("setup.welcome", {"players": 4, "days": 3}, "みっかかんの", "3にちかんの"),
    ("lovers.wake_numbered", {"n": 1}, "ひとくみめ", "1くみめ"),
])
def test_the_espeak_fallback_says_numbers_the_counters_way(line, params, said, misread):
    pack = load_pack("ja")
    reading = pack.speak(line, params).reading
    assert said in reading and misread not in reading
    assert espeak_phonemes(said) in espeak_phonemes(reading)
    bare = replace(pack, counter_readings={}).speak(line, params).reading  # the old reading
    assert misread in bare and espeak_phonemes(said) not in espeak_phonemes(bare)


def test_counter_readings_touch_only_whole_numbers_before_the_counter():
    pack = load_pack("ja")
    assert pack.counted("12にちめ、2にちめ、5にん、2にん") == "12にちめ、ふつかめ、5にん、ふたり"
