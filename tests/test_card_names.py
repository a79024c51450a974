"""Japanese card and role names wherever a table types them (issue 23): the table file, the
flags and `narrator config`, read as ids by the one normaliser (`narrator/games/card_names.py`),
and a Japanese line naming the Japanese word when one is unknown."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.errors import SetupError
from narrator.games import get_game
from narrator.games.card_names import fold
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack


def configured(game, lang="ja", **options):
    settings = build_settings({"lang": lang, "seed": 7, **options}, {"game": game}, "test")
    return get_game(game).configure(settings).to_dict()


@pytest.mark.parametrize("japanese, ids", [
    ({"cards": "占い師=1,香具師=1,幻影魔導師=2,策士=1"}, {"cards": "seer=1,peddler=1,phantom_mage=2,strategist=1"}),
    ({"roles": {"市民": 3, "裏切り者": 1, "人狼": 1}}, {"roles": {"citizen": 3, "traitor": 1, "werewolf": 1}}),
    ({"players": 6, "night_order": "霊能者,占い師,香具師,幻影魔導師", "countdowns": "占い師=20,れいのうしゃ=5"},
     {"players": 6, "night_order": "medium,seer,peddler,phantom_mage", "countdowns": "seer=20,medium=5"}),
    ({"night_order": ["ウラナイシ", "霊能者", "やし", "げんえいまどうし", "恋人"], "countdowns": {"ＳＥＥＲ": 15}},
     {"night_order": ["seer", "medium", "peddler", "phantom_mage", "lovers"], "countdowns": {"seer": 15}}),
])
def test_additional_werewolf_reads_japanese_names_as_the_ids(japanese, ids):
    assert configured("additional-werewolf", **japanese) == configured("additional-werewolf", **ids)


@pytest.mark.parametrize("japanese, ids", [
    ({"players": 4, "roles": "魔獣=1,預言者=1,町民=2"}, {"players": 4, "roles": "beast=1,prophet=1,townsperson=2"}),
    ({"players": 4, "cards": ["魔獣:ソーレ", "預言者", "ちょうみん:ニエンテ", "町民:m"]},
     {"players": 4, "cards": ["beast:S", "prophet", "townsperson:N", "townsperson:M"]}),
    ({"deal": "Aki=預言者:S,Ben=魔獣,Chika=護衛,Dai=町民:Niente"},
     {"deal": "Aki=prophet:S,Ben=beast,Chika=guard,Dai=townsperson:N"}),
    ({"deal": {"Aki": "殺人鬼", "Ben": "魔獣", "Chika": "聖女", "Dai": "町民", "Emi": "町民"}},
     {"deal": {"Aki": "murderer", "Ben": "beast", "Chika": "saint", "Dai": "townsperson", "Emi": "townsperson"}}),
    ({"players": 4, "roles": {"魔獣": 1, "町民": 3}, "attributes": {"町民": "SMN"}},
     {"players": 4, "roles": {"beast": 1, "townsperson": 3}, "attributes": {"townsperson": "SMN"}}),
])
def test_bestia_magica_reads_japanese_names_as_the_ids(japanese, ids):
    assert configured("bestia-magica", **japanese) == configured("bestia-magica", **ids)


def test_a_japanese_table_file_and_flags_play_the_same_setup(tmp_path):
    table = tmp_path / "table.toml"
    table.write_text('lang = "ja"\nplayers = 6\n[cards]\n"占い師" = 1\n"霊能者" = 1\n"香具師" = 1\n"幻影魔導師" = 2\n'
                     '"策士" = 1\n[countdowns]  # TOML 1.0 quotes a key that is not ASCII\n"占い師" = 20\n',
                     encoding="utf-8")
    runner = CliRunner()
    by_file = runner.invoke(main, ["play", "--table", str(table), "--dry-run"])
    by_ids = runner.invoke(main, ["play", "--players", "6", "--cards",
                                  "seer=1,medium=1,peddler=1,phantom_mage=2,strategist=1",
                                  "--countdowns", "seer=20", "--dry-run"])
    by_flags = runner.invoke(main, ["play", "--cards", "占い師=1,香具師=1,幻影魔導師=2,策士=1", "--dry-run"])
    assert by_file.exit_code == by_ids.exit_code == by_flags.exit_code == 0, (by_file.stderr, by_flags.stderr)
    assert by_file.stdout == by_ids.stdout and "霊能者1枚" in by_file.stdout
    assert "占い師1枚、香具師1枚、幻影魔導師2枚、策士1枚" in by_flags.stdout


@pytest.mark.parametrize("lang, word, expected", [
    ("ja", "占い", "カードの「占い」というアディショナルカードはありません。「占い師」のことですか？"),
    ("ja", "ゲンエイ魔道士", "「幻影魔導師」のことですか？"),
    ("ja", "sear", "unknown additional card 'sear' in cards; did you mean seer (占い師)?"),
    ("en", "sear", "unknown additional card 'sear' in cards; did you mean seer? known: seer, medium,"),
])
def test_an_unknown_name_is_one_line_naming_the_nearest_in_the_tables_language(lang, word, expected):
    result = CliRunner().invoke(main, ["play", "--lang", lang, "--cards", f"{word}=1,香具師=1,幻影魔導師=2,策士=1",
                                       "--dry-run"])
    assert result.exit_code == 2
    source = "コマンドライン" if lang == "ja" and not word.isascii() else "command line"
    assert result.stderr.startswith(f"error: {source}: ") and result.stderr.count("\n") == 1
    assert expected in result.stderr, result.stderr


def test_a_japanese_role_error_names_the_roles_japanese_names():
    with pytest.raises(SetupError, match="役職カードの「魔女」という役職はありません。.*使える名前: 町民、魔獣、預言者"):
        configured("bestia-magica", players=4, roles="魔女=1,町民=3")
    with pytest.raises(SetupError, match="カードの「ソレ」という属性はありません。「ソーレ」のことですか？"):
        configured("bestia-magica", players=4, cards="魔獣:ソレ,預言者,町民,町民")


def test_a_card_named_twice_is_refused_whatever_the_spelling():
    with pytest.raises(SetupError, match="カードに同じアディショナルカードが2回あります（「seer」と「占い師」）"):
        configured("additional-werewolf", cards={"seer": 1, "占い師": 1, "phantom_mage": 2, "strategist": 1})


@pytest.mark.parametrize("game, vocabularies, labels", [
    ("additional-werewolf", ("roles", "cards"), "label"),
    ("bestia-magica", ("roles", "attributes"), "bm.label"),
])
def test_every_card_has_the_japanese_name_the_ja_pack_says(game, vocabularies, labels):
    """The name a table types is the one the narrator says (the pack's label), for every id
    the game knows, and no two ids share a name."""
    rules = get_game(game)
    names = rules.card_names
    pack = load_pack("ja")
    definition_ids = {"roles": set(), "cards": set(), "attributes": set()}
    for setting_vocab in vocabularies:
        ids = names.ids(setting_vocab)
        assert ids, setting_vocab
        for ident in ids:
            assert names.name(setting_vocab, ident, "ja") == pack.speak(f"{labels}.{ident}", {}).text
            definition_ids[setting_vocab].add(ident)
        folded = [fold(w) for i in ids for w in {i, *names.words[setting_vocab][i]["ja"]}]
        assert len(folded) == len(set(folded)), f"{game} {setting_vocab}: a name shared by two ids"
    setup = __import__(f"narrator.games.{game.replace('-', '_')}.setup", fromlist=["definition"])
    assert definition_ids["roles"] == set(setup.definition()["roles"])
    if "cards" in vocabularies:
        assert definition_ids["cards"] == set(setup.definition()["cards"])


def test_the_settings_that_name_cards_are_those_the_docs_say():
    """Each game marks which of its keys name cards; a key that takes cards but is not marked
    would refuse 占い師, so the marked set is pinned here."""
    marked = {g: {s.key: (s.names, s.names_at) for s in get_game(g).settings if s.names}
              for g in ("additional-werewolf", "bestia-magica")}
    assert marked == {
        "additional-werewolf": {"roles": ("roles", "keys"), "cards": ("cards", "keys"),
                                "countdowns": ("cards", "keys"), "night_order": ("cards", "items")},
        "bestia-magica": {"deal": ("roles:attributes", "values"), "roles": ("roles", "keys"),
                          "cards": ("roles:attributes", "items"),
                          "attributes": ("roles", "keys")},
    }


JA_DOC = Path(__file__).resolve().parents[1] / "docs" / "ja" / "table-file.md"


@pytest.mark.parametrize("game", ["additional-werewolf", "bestia-magica"])
def test_the_japanese_docs_give_every_name_beside_its_id(game):
    """docs/ja/table-file.md has a row `| 名前 | `id` | よみ |` for every card and role the game
    declares, with the name the game reads."""
    text = JA_DOC.read_text(encoding="utf-8")
    names = get_game(game).card_names
    for vocab in names.words:
        for ident in names.ids(vocab):
            spelled = names.words[vocab][ident]["ja"]
            row = next((line for line in text.splitlines() if line.startswith(f"| {spelled[0]} | `{ident}` |")), None)
            assert row is not None, f"{game}: no row for {ident} ({spelled[0]})"
            assert all(reading in row for reading in spelled[1:2])


def test_the_japanese_docs_leave_the_host_screen_to_its_page():
    text = JA_DOC.read_text(encoding="utf-8")
    assert "## ホスト画面で設定する" in text and "host-screen.md" in text.split("## ホスト画面で設定する")[1]
    assert "(ja/table-file.md)" in (JA_DOC.parents[1] / "table-file.md").read_text(encoding="utf-8")
    assert "(table-file.md)" in (JA_DOC.parent / "README.md").read_text(encoding="utf-8")
