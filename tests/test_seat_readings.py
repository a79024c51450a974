"""Default seats are said apart (issue 37 item 6): Bestia Magica's `P1`…`P8` were all read 「プ」
by the Japanese voice (romaji → kanalizer), so deaths and winners could not be told apart. A
default seat (`P3`, or a numbered seat `3` of the other games) is read by the pack's
`seat_readings`: 「サンバンさん」, "Player three". The shown name stays `P3` (saved games, `--deal`,
standings and the phones keep naming seats as before); only how it is said changes. The host
screen shows those readings for a table that named nobody."""

from __future__ import annotations

import tomllib

import pytest

from narrator.appliance.table import DEFAULT_TABLE
from narrator.games import get_game
from narrator.inputs.name_review import review_readings
from narrator.inputs.voice.setup import heard_readings
from narrator.phones.settings_view import build
from narrator.settings import build_settings
from narrator.sound.engines import EngineUnavailable, load_tts
from narrator.sound.names import spoken_readings, with_readings
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack

JA_SEATS = ["イチバン", "ニバン", "サンバン", "ヨンバン",
            "ゴバン", "ロクバン", "ナナバン", "ハチバン"]


def bm_default_names(lang="ja"):
    rules = get_game("bestia-magica")
    table = {"game": "bestia-magica", "players": 8, "lang": lang}
    config = rules.configure(build_settings(table, {}, "test"))
    return rules.names(config)


def test_bestia_magicas_default_seats_are_eight_distinct_japanese_words():
    names = bm_default_names()
    assert names == tuple(f"P{i}" for i in range(1, 9))  # the shown names are kept
    pack = with_readings(load_pack("ja"), names, None)
    deaths = [pack.speak("bm.morning.deaths", {"names": [n]}) for n in names]
    assert [d.said for d in deaths] == [f"昨夜、{seat}さんが死亡しました。" for seat in JA_SEATS]
    assert len({d.reading for d in deaths}) == 8
    assert deaths[2].reading == "さくや、サンバンさんが、しぼうしました。"
    assert deaths[0].text == "昨夜、P1さんが死亡しました。"  # the screens and transcript keep the name
    winners = pack.speak("bm.end.winners", {"names": ["P1", "P2", "P8"]})
    assert winners.said == "勝者は、イチバンさん、ニバンさんとハチバンさんです。"


def test_bestia_magicas_default_seats_are_said_as_players_in_english():
    names = bm_default_names("en")
    pack = with_readings(load_pack("en"), names, None)
    deaths = [pack.speak("bm.morning.deaths", {"names": [n]}) for n in names]
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    assert [d.said for d in deaths] == [f"Last night, Player {w} died." for w in words]
    assert deaths[0].text == "Last night, P1 died."


def test_numbered_seats_given_readings_and_real_names():
    ja, en = load_pack("ja"), load_pack("en")
    assert spoken_readings(ja, ["1", "12", "Aki", "P3"], {"P3": "ぴーさん"}) == {
        "1": "イチバン", "12": "ジュウニバン", "Aki": "アキ", "P3": "ぴーさん"}  # a given reading wins
    # English says real names as written (a kana reading is no English), seats as players
    assert spoken_readings(en, ["2", "Aki", "心愛"], {"心愛": "ここあ"}) == {"2": "Player two"}
    assert with_readings(en, ["Aki", "Ben"], None).name_readings == {}


def test_a_saved_game_with_p_seats_still_loads_and_reads_them_apart():
    rules = get_game("bestia-magica")
    config = rules.configure(build_settings({"game": "bestia-magica", "players": 8}, {}, "test"))
    again = rules.config_from_dict(config.to_dict())  # what `narrator resume` reads from meta.json
    assert rules.names(again) == tuple(f"P{i}" for i in range(1, 9))
    assert list(with_readings(load_pack("ja"), rules.names(again), None).name_readings.values()) == JA_SEATS


def test_the_host_screen_shows_the_default_seats_readings():
    table = {"game": "bestia-magica", "players": 8, "lang": "ja"}
    view = build(table, {"ja": load_pack("ja"), "en": load_pack("en")}, [])
    assert view["names"] == []
    assert [(s["seat"], s["said"]) for s in view["seats"]] == [(f"P{i}", JA_SEATS[i - 1]) for i in range(1, 9)]
    named = build({**tomllib.loads(DEFAULT_TABLE), "players": 4,
                          "names": ["Aki", "ゆうと:ゆーと", "Ben", "Chika"]},
                  {"ja": load_pack("ja"), "en": load_pack("en")}, [])
    assert named["names"][:2] == [{"name": "Aki", "reading": "", "said": "アキ"},
                                  {"name": "ゆうと", "reading": "ゆーと", "said": "ゆーと"}]
    assert named["seats"] == []


@pytest.mark.slow
def test_open_jtalk_reads_the_eight_seats_apart(tmp_path):
    try:
        engine = load_tts("openjtalk")
    except EngineUnavailable as err:
        pytest.skip(str(err))
    names = bm_default_names()
    pack = with_readings(load_pack("ja"), names, None)
    voice = EngineVoice(pack, engine, cache_dir=tmp_path / "r")
    heard = [engine.reading(voice._words(pack.speak("bm.morning.deaths", {"names": [n]}))) for n in names]
    assert len(set(heard)) == 8, heard
    assert "イチバンサン" in heard[0] and "ハチバンサン" in heard[7], heard


def test_the_terminals_review_shows_the_seats_readings():
    shown: list[str] = []
    review_readings(list(bm_default_names()), {}, load_pack("ja"), None, shown.append, analyse=lambda text: text)
    assert "  1. P1 → イチバン" in shown and "  8. P8 → ハチバン" in shown


def test_a_recognizer_listens_for_the_seats_words():
    names = bm_default_names()
    ja = with_readings(load_pack("ja"), names, None)
    en = with_readings(load_pack("en"), names, None)
    assert heard_readings(ja, names, None)["P3"] == ["さんばん"]
    assert heard_readings(en, names, None)["P3"] == ["Player three"]


@pytest.mark.slow
def test_a_game_of_default_seats_stopped_mid_game_resumes_to_its_end(tmp_path, narrator_home):
    """`narrator play` with no names (seats P1…P8), stopped by a missing answer, resumes: the
    names in the saved game are the seats' names as before, so old and new saves read the same."""
    from tests.bm_driver import answers_jsonl, configure, play
    from tests.test_bestia_magica_cli import narrator

    config = configure(players=8, seed=7)
    assert config.names[0] == "P1"
    state, _, rounds = play(config, seed=1)
    full = answers_jsonl(rounds)
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(line + "\n" for line in full.splitlines() if '"night": 1,' in line), encoding="utf-8")
    flags = ["--players", "8", "--seed", "7", "--voice", "text", "--time-scale", "0", "--lang", "ja", "--no-keyboard"]
    stopped = narrator(narrator_home, "play", "bestia-magica", *flags, "--answers", str(partial))
    assert stopped.returncode == 2, stopped.stderr
    rest = tmp_path / "full.jsonl"
    rest.write_text(full, encoding="utf-8")
    resumed = narrator(narrator_home, "resume", "--answers", str(rest), "--no-keyboard")
    assert resumed.returncode == 0, resumed.stderr
    assert f"game over: {state.winner} win" in resumed.stderr
