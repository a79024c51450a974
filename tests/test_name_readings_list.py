"""Names in Latin letters are read as a Japanese host reads them (#23, "Names read right"):
Japanese names in romaji with the long vowels the spelling hides, Western names the way
Japanese people say them. Scored on a list of names with the readings a host accepts; a
second list, not tuned on, is scored by bench/name_readings.py."""

from __future__ import annotations

import pytest

from narrator.sound import romaji
from narrator.sound.names import english_katakana, japanese_reading, readings_for, romaji_katakana

JAPANESE = {  # romaji (Hepburn, kunrei, wapuro, macrons) → the readings a Japanese host accepts
    "Shota": "ショウタ", "Ryo": "リョウ", "Yuta": "ユウタ", "Kenichi": "ケンイチ", "Yuuki": "ユウキ",
    "Ohno": "オオノ", "Taro": "タロウ", "Kota": "コウタ", "Yosuke": "ヨウスケ", "Ryota": "リョウタ",
    "Hattori": "ハットリ", "Shōta": "ショウタ", "Yūki": "ユウキ", "Shinichi": "シンイチ",
    "Junichiro": "ジュンイチロウ", "Shin'ichi": "シンイチ", "Sato": "サトウ", "Satoh": "サトウ",
    "Saito": "サイトウ", "Kato": "カトウ", "Goto": "ゴトウ", "Kondo": "コンドウ", "Yuko": "ユウコ",
    "Yoko": "ヨウコ", "Tomoko": "トモコ", "Aoi": "アオイ", "Haruto": "ハルト", "Sakura": "サクラ",
    "Aki": "アキ", "Koji": "コウジ", "Joji": "ジョウジ", "Shohei": "ショウヘイ", "Namba": "ナンバ",
    "Tsuyoshi": "ツヨシ", "Syouta": "ショウタ", "Kyoko": "キョウコ", "Yuki": "ユキ ユウキ",
    "Ono": "オノ オオノ", "Ito": "イトウ", "Tsutomu": "ツトム", "Hiroshi": "ヒロシ", "Sinzi": "シンジ",
    "Tarou": "タロウ", "Takahashi": "タカハシ", "Suzuki": "スズキ", "Watanabe": "ワタナベ",
    "Ren": "レン", "Minato": "ミナト", "Ryunosuke": "リュウノスケ", "Yamaguchi": "ヤマグチ", "Kimura": "キムラ",
    "Shūji": "シュウジ",
}
WESTERN = {
    "Mike": "マイク", "Emily": "エミリー", "John": "ジョン", "Sarah": "サラ", "Michael": "マイケル",
    "David": "デイビッド デビッド デイヴィッド", "James": "ジェームズ ジェイムズ", "Robert": "ロバート",
    "Jennifer": "ジェニファー", "Jessica": "ジェシカ", "Chris": "クリス", "Tom": "トム",
    "Kate": "ケイト ケート", "Anna": "アンナ アナ", "Lucy": "ルーシー", "George": "ジョージ", "Paul": "ポール",
    "Peter": "ピーター", "Steve": "スティーブ スティーヴ", "Sophie": "ソフィー ソフィ",
    "Olivia": "オリビア オリヴィア", "Emma": "エマ", "Liam": "リアム", "Noah": "ノア", "Ethan": "イーサン",
    "Hannah": "ハンナ", "Daniel": "ダニエル", "Matthew": "マシュー", "Thomas": "トーマス トマス",
    "William": "ウィリアム", "Ben": "ベン", "Andy": "アンディ アンディー", "Jane": "ジェーン ジェイン",
    "Rose": "ローズ", "Ryan": "ライアン", "Joe": "ジョー", "Ian": "イアン", "Amanda": "アマンダ",
    "Maria": "マリア", "Karen": "カレン", "Nick": "ニック", "Max": "マックス", "Alice": "アリス",
    "Charlotte": "シャーロット", "Jack": "ジャック", "Tina": "ティナ", "Diana": "ダイアナ ディアナ",
    "Nina": "ニーナ ニナ", "Gina": "ジーナ", "Sean": "ショーン", "Zoe": "ゾーイ ゾイ ゾエ", "Mia": "ミア",
}
MIN_SCORE = 0.95
"""Of the whole list. Each half is held to what it scores today, so a change that trades one
kind of name for the other shows: the Western names miss where English spelling is irregular
(Ethan エサン, Sean シーン), which kanalizer's model does not know and no dictionary here has."""
FLOORS = {"japanese": 0.95, "western": 0.90, "all": MIN_SCORE}


def _misses(names: dict[str, str]) -> list[str]:
    return [f"{name} → {romaji_katakana(name)} (accepted: {accepted})" for name, accepted in names.items()
            if romaji_katakana(name) not in accepted.split()]


def test_the_list_is_half_japanese_half_western_and_long_enough():
    assert len(JAPANESE) == len(WESTERN) >= 30


@pytest.mark.parametrize("kind", FLOORS)
def test_the_list_scores_at_least_95_percent(kind):
    names = {"japanese": JAPANESE, "western": WESTERN, "all": {**JAPANESE, **WESTERN}}[kind]
    misses = _misses(names)
    score = 1 - len(misses) / len(names)
    print(f"{kind}: {score:.1%} of {len(names)} read as a host accepts; misses: {misses}")
    assert score >= FLOORS[kind], f"{kind}: {score:.1%} < {FLOORS[kind]:.0%}: {misses}"


@pytest.mark.parametrize("word, spelled", [
    ("Shota", {"ショタ", "ショウタ", "ショオタ"}),
    ("Kenichi", {"ケンイチ", "ケニチ"}),
    ("Hattori", {"ハットリ", "ハットウリ", "ハットオリ"}),
    ("Shōta", {"ショウタ", "ショオタ"}),
    ("Ohno", {"オウノ", "オオノ", "オウノウ", "オウノオ", "オオノウ", "オオノオ", "オウンオ", "オオンオ",
              "オウンオウ", "オウンオオ", "オオンオウ", "オオンオオ"}),
    ("Matchi", {"マッチ"}), ("Kennichi", {"ケンニチ", "ケンイチ"}), ("Jun-ichi", {"ジュンイチ"}),
    ("Emma", set()), ("Mike", {"ミケ"}), ("Sarah", set()), ("Emily", set()), ("Fiona", set()),
])
def test_romaji_spells_every_reading_it_may_stand_for(word, spelled):
    assert {r.kana for r in romaji.readings(word)} == spelled


def test_guesses_and_kunrei_spellings_are_counted():
    found = {r.kana: r for r in romaji.readings("Shota")}
    assert found["ショタ"].guesses == 0 and found["ショウタ"].guesses == 1
    assert {r.kunrei for r in romaji.readings("Sinzi")} == {2} and {r.kunrei for r in romaji.readings("Tina")} == {3}
    assert {r.guesses for r in romaji.readings("Satoh")} == {0}  # oh is written long


def test_a_word_is_japanese_only_when_it_spells_a_japanese_name():
    assert japanese_reading("Shota") == "ショウタ" and japanese_reading("Mike") is None
    assert japanese_reading("Emily") is None and english_katakana("Mike") == "マイク"


def test_a_full_name_is_read_word_by_word_and_mixes():
    assert romaji_katakana("Shota Hattori") == "ショウタハットリ"
    assert romaji_katakana("Mike Sato") == "マイクサトウ"
    assert romaji_katakana("Mary-Jane") == english_katakana("Mary") + english_katakana("Jane")


def test_the_hosts_reading_still_wins():
    assert readings_for(["Shota", "Mike"], {"Shota": "しょーた"}) == {"Shota": "しょーた", "Mike": "マイク"}


@pytest.mark.slow  # reads Open JTalk's 100 MB dictionary
def test_the_name_lists_are_open_jtalks_person_names():
    """The shipped lists are what scripts/extract-japanese-names takes from the dictionary."""
    from pathlib import Path

    from narrator.sound.japanese_names import extract, latin_names, name_costs

    pyopenjtalk = pytest.importorskip("pyopenjtalk")
    folder = pyopenjtalk.OPEN_JTALK_DICT_DIR
    costs, latin = extract(Path(folder.decode() if isinstance(folder, bytes) else folder) / "sys.dic")
    assert costs == name_costs() and latin == latin_names()
    assert costs["サトウ"] < costs["サト"] and "ミケ" not in costs and latin["simon"] == "サイモン"


def test_the_extract_script_refuses_a_missing_dictionary_in_one_line(tmp_path, capsys):
    from narrator.sound.japanese_names import main

    assert main([str(tmp_path / "sys.dic")]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "no dictionary at" in err and "scripts/setup" in err


def test_the_host_sees_the_guess_and_corrects_it_at_the_review():
    from narrator.inputs.name_review import review_readings
    from narrator.sound.voicepack import load_pack

    typed = iter(["2:マイキー", ""])
    shown: list[str] = []
    kept = review_readings(["Shota", "Mike", "Ethan"], {"Ethan": "イーサン"}, load_pack("ja"),
                           lambda prompt: next(typed), shown.append, analyse=lambda text: "")
    assert "  1. Shota → ショウタ" in shown and "  2. Mike → マイク" in shown and "  3. Ethan → イーサン" in shown
    assert "  2. Mike → マイキー" in shown and kept == {"Ethan": "イーサン", "Mike": "マイキー"}


def test_without_kanalizer_a_western_name_is_still_never_spelled_letter_by_letter(monkeypatch):
    """32-bit ARM has no kanalizer wheel: the spelling rules read the name instead."""
    import sys

    monkeypatch.setitem(sys.modules, "kanalizer", None)  # import kanalizer raises ImportError
    assert english_katakana("Chris") == "クリス" and english_katakana("Tom") == "トム"
    assert romaji_katakana("Shota Chris") == "ショウタクリス"
