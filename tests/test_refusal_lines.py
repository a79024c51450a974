"""Every refusal a table can get while setting its game up reads in both languages (issue 23).

A refusal is a line key of narrator/games/messages.toml and its params (`errors.Refusal`), so
these checks hold the wording to the code: every key raised has its line in en and ja, each
line's `{params}` are given where it is raised, no line is left unused, and no check of a
configure path raises a bare English `SetupError` (which would reach a Japanese host screen in
English). Then, per game, bad changes each read as the Japanese line in a Japanese table (with
the cards' Japanese names, not their ids) and as the English one in an English table.
"""

import ast
import string
from pathlib import Path

import pytest

from narrator.errors import Refusal, wordings
from narrator.games import get_game
from narrator.settings import build_settings

PACKAGE = Path(__file__).resolve().parents[1] / "narrator"
CARD_NAMES_OWN = {"unknown_name", "did_you_mean", "named_twice", "list_separator", "sources", "keys", "key_quote"}
"""`card_names.py` writes these out itself (`Refusal.written`); `sources`, `keys`, `key_quote` word the params."""
CONFIGURE_PATHS = {
    "games/additional_werewolf/setup.py": None, "games/bestia_magica/setup.py": None,
    "games/pagan/setup.py": None, "games/kernel/game.py": None, "games/card_names.py": None,
    "appliance/presets.py": None, "appliance/table_text.py": None,
    "appliance/table.py": {"parse_appliance", "check_table", "save_checked", "update_table", "_pin", "_seconds"},
    "settings.py": {"build_settings", "_build_settings", "_text", "read_value", "check_options"},
    "values/names.py": {"parse_name_entries"},
    "values/readers.py": {"parse_counts", "parse_list", "parse_seconds_list", "integer", "number", "boolean"},
}
"""Modules (None: all of it) and functions that a host screen's change runs through."""


def raises() -> list[tuple[str, str, set[str]]]:
    """Every `Refusal("key", param=…)` in the package: (where, key, the params it gives)."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refusal":
                assert node.args and isinstance(node.args[0], ast.Constant), f"{path}:{node.lineno}: a literal key"
                found.append((f"{path.name}:{node.lineno}", node.args[0].value, {k.arg for k in node.keywords}))
    return found


def placeholders(line: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(line) if name}


def test_every_refusal_raised_has_its_line_in_both_languages_with_the_params_it_is_given():
    lines = wordings()
    found = raises()
    assert len(found) > 60
    for where, key, params in found:
        for lang in ("en", "ja"):
            assert key in lines[lang], f"{where}: '{key}' has no {lang} line in messages.toml"
            missing = placeholders(lines[lang][key]) - params
            assert not missing, f"{where}: the {lang} line '{key}' needs {missing}"


def test_every_line_is_raised_somewhere_and_each_language_has_the_same_lines():
    lines = wordings()
    used = {key for _, key, _ in raises()}
    assert set(lines["en"]) == set(lines["ja"])
    assert set(lines["en"]) - used - CARD_NAMES_OWN == set()


def test_no_check_a_host_screen_change_runs_raises_an_english_only_error():
    bare = []
    for name, functions in CONFIGURE_PATHS.items():
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        scopes = [tree] if functions is None else [
            n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in functions]
        assert functions is None or len(scopes) == len(functions), f"{name}: a listed function is gone"
        bare += [f"{name}:{n.lineno}" for scope in scopes for n in ast.walk(scope)
                 if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "SetupError"]
    assert bare == [], "raise Refusal(KEY, …) with its line in messages.toml instead"


def refused(game, lang, **table):
    with pytest.raises(Refusal) as err:
        settings = build_settings({"game": game, "lang": lang, **table}, {}, "table file /t.toml")
        get_game(settings.game).configure(settings)
    line = str(err.value)
    assert "\n" not in line and line == err.value.lines()[lang]
    return line


BAD = [
    ("additional-werewolf", {"players": 3}, "played by 4 to 20 players, not 3", "アディショナル人狼は4人から20人で遊びます"),
    ("additional-werewolf", {"names": ["Aki", "aki"]}, "player names must differ", "同じ名前が2人います"),
    ("additional-werewolf", {"names": ["Aki", "3"]}, "is a number", "名前「3」は数字です"),
    ("additional-werewolf", {"players": 5, "names": ["Aki"]}, "players is 5 but 1 names", "人数が5人なのに名前が1人分"),
    ("additional-werewolf", {"cards": "seer=9"}, "9 additional cards for 5 players", "5人にアディショナルカードが9枚です"),
    ("additional-werewolf", {"roles": "citizen=5"}, "add werewolf=1", "役職カードに人狼を1枚"),
    ("additional-werewolf", {"roles": "citizen=2,werewolf=3"}, "2 citizens against", "市民2人に対して人狼側が3人"),
    ("additional-werewolf", {"countdowns": {"strategist": 20}}, "the strategist card has no night call", "策士は夜に呼ばれない"),
    ("additional-werewolf", {"countdowns": {"medium": 20}}, "no medium card is in play", "霊能者のカードが入っていません"),
    ("additional-werewolf", {"countdowns": {"seer": 0}}, "at least 1 second", "カウントダウンは1秒以上"),
    ("additional-werewolf", {"night_order": ["seer", "seer"]}, "names a card twice: seer, seer", "占い師、占い師"),
    ("additional-werewolf", {"night_order": ["seer", "strategist"]}, "'strategist' in night_order", "夜の順番の「策士」"),
    ("additional-werewolf", {"night_order": ["seer"]}, "'peddler' is in play but missing", "香具師が入っているのに夜の順番にありません"),
    ("additional-werewolf", {"discussion": 99999}, "discussion must be at most 3600", "話し合いの時間は3600以下"),
    ("additional-werewolf", {"warnings": "60,x"}, "warnings must be a whole number", "残り時間のお知らせは整数"),
    ("additional-werewolf", {"days": 0}, "days must be at least 1", "日数は1以上"),
    ("additional-werewolf", {"countdowns": "seer"}, "entry 'seer' needs the form", "「カード=枚数」"),
    ("additional-werewolf", {"digital_cards": "maybe"}, "must be true or false", "true か false"),
    ("additional-werewolf", {"wolves": 2}, "unknown option 'wolves'", "「wolves」という設定はありません"),
    ("bestia-magica", {"players": 3}, "Bestia Magica is played by 4 to 20", "ベスティアマギカは4人から20人"),
    ("bestia-magica", {"players": 4, "roles": "townsperson=4"}, "add beast=1", "魔獣を1枚入れて"),
    ("bestia-magica", {"players": 4, "roles": "beast=2,townsperson=2"}, "2 town-team players against 2 beasts",
     "町側2人に対して魔獣2人"),
    ("bestia-magica", {"players": 5, "roles": "beast=1,prophet=1"}, "2 cards for 5 players", "5人にカードが2枚"),
    ("bestia-magica", {"deal": "Aki=murderer:S,Ben=beast,Chika=townsperson,Dai=townsperson,Emi=prophet"},
     "write murderer:N", "ルールでニエンテに決まっています"),
    ("bestia-magica", {"players": 8, "sole_effect": "triple"}, "sole_effect must be one of", "ソーレの効果は double_vote、"),
    ("bestia-magica", {"players": 8, "night_order": "sleep,guard"}, "night_order must name each of", "それぞれ1回ずつ"),
    ("bestia-magica", {"players": 8, "guard_repeat": "maybe"}, "guard_repeat must be true or false", "true か false"),
    ("bestia-magica", {"players": 8, "discussion": -1}, "discussion must be at least 0", "話し合いの時間は0以上"),
    ("pagan", {"players": 3}, "Pagan is played by 2 players", "パーガンは2人"),
    ("pagan", {"names": ["Aki", "Ben"]}, "drop --names", "名前を指定しないでください"),
    ("pagan", {"turn_timer": "x"}, "turn_timer must be a whole number", "整数"),
    ("werewolf", {"players": 2}, "werewolf is played by", "werewolfは"),
    ("werewolf", {"players": 6, "roles": "villager=1"}, "roles give 1 cards", "役職カードが1枚です"),
    ("one-night", {"players": 4, "roles": "seer=1"}, "one-night needs", "真ん中に"),
    ("werewolf", {"players": 5, "roles": "werewolf=5"}, "every role in the set (werewolf) is of one side",
     "構成の役職（人狼）がすべて同じ陣営"),
    ("werewolf", {"players": 5, "roles": "werewolf=3,villager=2"},
     "werewolves win before the first night", "始まる前に勝敗が決まってしまいます"),
]


@pytest.mark.parametrize("game, table, en, ja", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_a_bad_change_reads_in_the_tables_language(game, table, en, ja):
    in_english, in_japanese = refused(game, "en", **table), refused(game, "ja", **table)
    assert en in in_english, in_english
    assert ja in in_japanese, in_japanese
    assert in_japanese.startswith("テーブルファイル /t.toml: ") and in_english.startswith("table file /t.toml: ")


def test_a_table_that_states_no_language_reads_english():
    """The saved games' and the scripts' English lines stay as they were: only a table that says
    `lang = "ja"` (its file, `--lang`) reads its refusals in Japanese."""
    settings = build_settings({"players": 3}, {}, "command line")
    with pytest.raises(Refusal) as err:
        get_game(settings.game).configure(settings)
    assert str(err.value) == "command line: Additional Werewolf is played by 4 to 20 players, not 3"
    assert err.value.lines()["ja"].startswith("コマンドライン: アディショナル人狼は")


def test_a_japanese_line_names_the_cards_by_their_japanese_names():
    line = refused("additional-werewolf", "ja", countdowns={"strategist": 20})
    assert "策士" in line and "strategist" not in line and "phantom_mage" not in line
    line = refused("bestia-magica", "ja", players=4, roles="beast=2,townsperson=2")
    assert "beast" not in line and "town" not in line


@pytest.mark.parametrize("lang, expected", [
    ("ja", "error: コマンドライン: 策士は夜に呼ばれないので、カウントダウンはありません。"),
    ("en", "error: command line: countdowns strategist=20: the strategist card has no night call"),
])
def test_narrator_play_prints_the_tables_language(narrator_home, lang, expected):
    from click.testing import CliRunner

    from narrator.cli import main

    result = CliRunner().invoke(main, ["play", "--lang", lang, "--countdowns", "strategist=20", "--dry-run"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.replace("カウントダウン 策士=20: ", "").startswith(expected), result.stderr
