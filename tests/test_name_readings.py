"""Names are read right (#14 item 2): one reading per name serves the voice and the
recognizer; romaji is read as katakana; the host sees and corrects the readings at setup; a
name is never spelled letter by letter (checked with real Open JTalk and espeak-ng renders);
bad names are refused at setup."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.cli import play as play_module
from narrator.errors import SetupError
from narrator.inputs.name_review import review_readings
from narrator.inputs.voice.grammar import PhraseBook
from narrator.inputs.voice.setup import heard_readings, listen_options
from narrator.settings import build_settings
from narrator.values.names import parse_name_entries, parse_names
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.sound.names import romaji_katakana, with_readings
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from narrator.table.transcript import read_transcript

ROMAJI = ["Aki", "Ben", "Chris", "Emma", "Max", "Nick", "Jessica", "Tom"]
LETTER_NAMES = re.compile(r"エー|ビー|シー|ディー|イー|エフ|ジー|エイチ|アイ(?!サン)|ジェー|ケー|エル|エム|エヌ|オー|ピー|キュー|アール|エス|ティー|ユー|ブイ|ダブリュー|エックス|ワイ|ゼット")


def test_a_names_entry_carries_its_reading():
    names, readings = parse_name_entries(["Aki", "心愛:ここあ", "太郎：たろう"], "test")
    assert names == ("Aki", "心愛", "太郎") and readings == {"心愛": "ここあ", "太郎": "たろう"}
    settings = build_settings({"names": "Aki,心愛:ここあ"}, {}, "test")
    assert settings.names == ("Aki", "心愛") and settings.players == 2
    assert listen_options(settings.listening).name_readings == {"心愛": "ここあ"}


def test_name_readings_stays_an_alias_and_a_names_entry_wins():
    settings = build_settings({"names": "Aki,心愛:ここあ", "name_readings": {"Aki": "あきら", "心愛": "しんあい"}}, {}, "t")
    assert listen_options(settings.listening).name_readings == {"Aki": "あきら", "心愛": "ここあ"}


@pytest.mark.parametrize("names, fix", [
    ("Aki,undo", "command word"), ("Aki,Undo", "command word"), ("Aki,ｕｎｄｏ", "command word"),
    ("Aki,yes", "command word"), ("Aki,r", "command word"), ("Aki,p", "command word"),
    ("Aki,はい", "command word"), ("Aki,イイエ", "command word"), ("Aki,取り消し", "command word"),
    ("Aki,つぎ", "command word"), ("Aki,Ben:はい", "command word"),
    ("Aki," + "あ" * 21, "at most 20"), ("Aki,3", "is a number"), ("Aki,２", "is a number"), ("Aki,:あき", "no name"), ("Aki,aki", "differ"),
])
def test_bad_names_are_refused_with_the_fix(names, fix):
    with pytest.raises(SetupError, match=fix):
        parse_names(names, "test")


def test_a_twenty_character_name_is_fine():
    assert parse_names("Aki," + "あ" * 20, "test")[1] == "あ" * 20


def test_a_player_named_undo_would_rewind_the_game(tmp_path, narrator_home):
    """Why the check exists: with it off, 'undo' typed as a nomination rewinds instead."""
    from narrator.values.names import _command_words

    answers = "done\nundo\ndone\n"
    argv = ["play", "--voice", "text", "--time-scale", "0", "--no-keyboard", "--names", "Aki,Ben,Chika,undo",
            "--transcript", str(tmp_path / "t.jsonl"), "--answers", str(tmp_path / "a.txt")]
    (tmp_path / "a.txt").write_text(answers, encoding="utf-8")
    refused = CliRunner().invoke(main, argv)
    assert refused.exit_code != 0 and "command word" in refused.output
    _command_words.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("narrator.values.names._command_words", lambda: frozenset())
            CliRunner().invoke(main, argv)
        records = read_transcript(tmp_path / "t.jsonl")
        assert any(r["kind"] == "answer" and r["value"] == "undo" for r in records)  # rewound, not nominated
    finally:
        _command_words.cache_clear()


@pytest.mark.parametrize("name, kana", [("Aki", "アキ"), ("Ben", "ベン"), ("Chris", "クリス"), ("Emma", "エマ"),
                                        ("Tom", "トム"), ("John", "ジョン"), ("Sakura", "サクラ"), ("Andy", "アンディ")])
def test_romaji_names_are_read_as_katakana(name, kana):
    assert romaji_katakana(name) == kana


def test_one_reading_serves_voice_keyboard_and_recognition():
    pack = with_readings(load_pack("ja"), ["Aki", "心愛", "あおい"], {"心愛": "ここあ"}, analyse=lambda t: "ダミー")
    assert pack.name_readings == {"Aki": "アキ", "心愛": "ここあ", "あおい": "あおい"}
    spoken = pack.speak("private.call", {"name": "心愛"})
    assert spoken.text.startswith("心愛さん") and spoken.said.startswith("ここあさん")
    assert spoken.reading.startswith("ここあさん")
    heard = heard_readings(pack, ["Aki", "心愛", "あおい"], None)
    assert heard == {"Aki": ["あき"], "心愛": ["ここあ"], "あおい": ["あおい"]}
    book = PhraseBook.from_pack(pack, ["Aki", "心愛"], heard)
    assert book.names == {"Aki": ["あき"], "心愛": ["ここあ"]}
    english = with_readings(load_pack("en"), ["Aki"], None)
    assert english.name_readings == {} and english.speak("private.call", {"name": "Aki"}).said.startswith("Aki")


def test_the_host_sees_the_readings_and_corrects_them():
    typed = iter(["太郎:たろう", "2:ここあ", "nobody:x", ""])
    shown: list[str] = []
    kept = review_readings(["Aki", "心愛", "太郎"], {}, load_pack("ja"), lambda prompt: next(typed), shown.append,
                           analyse=lambda text: "シンアイ" if text == "心愛" else "タロウ")
    assert kept == {"太郎": "たろう", "心愛": "ここあ"}
    assert "  2. 心愛 → シンアイ" in shown and "  2. 心愛 → ここあ" in shown and "  1. Aki → アキ" in shown
    assert any("nobody:x" in line for line in shown)  # a line that names no player is refused
    assert "名前はこう読み上げます：" in shown


def test_play_shows_the_readings_and_keeps_the_hosts_correction(tmp_path, narrator_home, monkeypatch):
    monkeypatch.setattr(play_module, "_keyboard_present", lambda: True)
    argv = ["play", "--voice", "text", "--time-scale", "0", "--names", "Aki,心愛,Ben,Chika",
            "--transcript", str(tmp_path / "t.jsonl")]
    result = CliRunner().invoke(main, argv, input="心愛:ここあ\n\ndone\n")
    assert "心愛 → ここあ" in result.output and "1. Aki → アキ" in result.output
    from narrator.table.saved_games import saved_games

    meta = saved_games(narrator_home)[0].meta
    assert meta["run"]["listening"]["name_readings"] == {"心愛": "ここあ"}


# --- with the real engines: never spelled letter by letter ---------------------------------------


def _engine(name):
    try:
        return load_tts(name)
    except EngineUnavailable as err:
        pytest.skip(str(err))


@pytest.mark.slow
def test_open_jtalk_says_romaji_names_as_words_not_letters(tmp_path):
    engine = _engine("openjtalk")
    raw = load_pack("ja")
    pack = with_readings(raw, ROMAJI, None)
    voice, plain = EngineVoice(pack, engine, cache_dir=tmp_path / "r"), EngineVoice(raw, engine, cache_dir=tmp_path / "p")
    spelled = 0
    for name in ROMAJI:
        words = voice._words(pack.speak("private.call", {"name": name}))
        reading = engine.reading(words)
        assert not LETTER_NAMES.search(reading.split("サン")[0]), f"{name}: {reading}"
        before = engine.reading(plain._words(raw.speak("private.call", {"name": name})))
        spelled += bool(LETTER_NAMES.search(before.split("サン")[0]))
        said = voice.clip("private.call", {"name": name}).duration
        assert said < plain.clip("private.call", {"name": name}).duration + 0.05
    assert spelled >= len(ROMAJI) // 2  # without readings Open JTalk spells most of them out


def _phonemes(text):
    import subprocess

    return subprocess.run(["espeak-ng", "-v", "ja", "-x", "-q", text], capture_output=True, text=True, check=True, timeout=60).stdout


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_espeak_gets_kana_only_and_says_names_shorter_than_spelled(tmp_path):
    engine = _engine("pyttsx3")
    raw = load_pack("ja")
    pack = with_readings(raw, ROMAJI, None)
    voice = EngineVoice(pack, engine, cache_dir=tmp_path / "r")
    plain = EngineVoice(raw, engine, cache_dir=tmp_path / "p")
    longer = 0
    for name in ROMAJI:
        words = voice._words(pack.speak("private.call", {"name": name}))
        assert not re.search(r"[A-Za-z]", words), words
        # espeak-ng's own phonemes: the raw name switches to English letter names ("(en)'eI k'eI …")
        assert "(en)" not in _phonemes(words) and "(en)" in _phonemes(plain._words(raw.speak("private.call", {"name": name})))
        longer += plain.clip("private.call", {"name": name}).duration > voice.clip("private.call", {"name": name}).duration
    assert longer >= len(ROMAJI) // 2


def test_name_readings_that_are_no_table_are_refused_in_the_tables_language():
    """The line lives in narrator/terminal/lines.toml (no text in code), worded in the terminal's language."""
    from narrator import terminal

    for lang, words in (("ja", "のような表で書いてください"), ("en", "must be a table such as")):
        terminal.choose(lang)  # conftest's english_terminal forgets the choice after the test
        with pytest.raises(SetupError) as refused:
            listen_options({"name_readings": "あき"}, source="table file t")
        assert str(refused.value).startswith("table file t: name_readings") and words in str(refused.value)
        assert '{Aki = "あき"}' in str(refused.value)
