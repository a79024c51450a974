"""The spoken setup's one-breath read-back (`Game.summary`, said before はい / いいえ) says for
Bestia Magica and the game files what it says for Additional Werewolf: the card set, the night
order (with the countdown where the game has one), the discussion, the days; in both voice
packs. And Bestia Magica's settings have their own headings on the host screen (issue 23)."""

import pytest

from narrator.games import get_game
from narrator.phones.settings_view import build
from narrator.phones.table import page_packs
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack, merged_under


def read_back(game, lang, **table):
    """The read-back as the pack of `lang` says it, one text."""
    rules = get_game(game)
    config = rules.configure(build_settings({"game": game, "lang": lang, "seed": 1, **table}, {}, "test"))
    pack = load_pack(lang)
    pack = merged_under(pack, rules.lines(lang)) if rules.lines else pack
    assert rules.summary is not None
    cues = rules.summary(config)
    assert all(pack.has(cue.line) for cue in cues), [c.line for c in cues if not pack.has(c.line)]
    return " ".join(pack.speak(cue.line, cue.params).text for cue in cues)


def test_bestia_magica_reads_back_its_roles_night_and_day_in_japanese():
    said = read_back("bestia-magica", "ja", players=6, discussion=120,
                     night_order="guard,sleep,reform,curse,murder,attack,curse_deaths,anima,results")
    assert "町民2枚、魔獣1枚、預言者1枚、葬儀屋1枚、護衛1枚" in said
    assert "夜のメモは1分" in said and "護衛、魔獣の襲撃、アニマの復活、預言と葬儀の結果の順に" in said
    assert "睡魔" not in said and "殺人鬼" not in said  # steps of roles not dealt are not read
    assert "話し合いは2分、投票は30秒" in said


def test_bestia_magica_reads_back_in_english():
    said = read_back("bestia-magica", "en", players=6)
    assert "Role cards: 2 townspeople, 1 beast" in said and "Discussion 4 minutes, vote 30 seconds." in said
    assert "the guard, the beasts' attack, Anima's revival and the prophet's and undertaker's results" in said


@pytest.mark.parametrize("lang, countdown, order, countdown_said, discussion", [
    ("ja", 15, "夜は人狼、占い師、騎士の順に呼びます。", "それぞれ15秒", "話し合いは5分、勝負がつくまで続けます。"),
    ("en", 15, "At night: werewolf, seer and knight, in that order.", "15 seconds each.", "until a side wins"),
])
def test_a_game_file_reads_back_its_cards_night_calls_countdown_and_discussion(lang, countdown, order,
                                                                               countdown_said, discussion):
    said = read_back("werewolf", lang, players=7, countdown=countdown)
    assert ("人狼2枚" if lang == "ja" else "2 werewolves") in said
    assert order in said and countdown_said in said and discussion in said


def test_a_one_night_game_file_reads_back_its_one_night_and_one_vote():
    said = read_back("one-night", "ja", players=4, discussion=120)
    assert "夜は人狼、占い師、怪盗の順に呼びます。" in said and "夜は1回、話し合いは2分で、1回の投票で決着します。" in said


def test_every_bestia_magica_setting_has_a_japanese_heading_on_the_host_screen():
    view = build({"game": "bestia-magica", "lang": "ja", "players": 6}, page_packs(), [])
    headings = {row["key"]: row["label"] for row in view["settings"]}
    assert all("ja" in label for label in headings.values()), [k for k, v in headings.items() if "ja" not in v]
    assert headings["memo"]["ja"] == "夜のメモの時間" and headings["cards"]["ja"] == "カード（役職:属性）"
    aw = build({"game": "additional-werewolf", "lang": "ja"}, page_packs(), [])
    assert {r["key"]: r["label"] for r in aw["settings"]}["cards"]["ja"] == "アディショナルカード"
