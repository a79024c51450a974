"""Growing and shrinking a named table (issue 37, item 2), and refusals that name cards and
players in the table's language without the file's path (item 7): the table file's side."""

import tomllib

import pytest

from click.testing import CliRunner

from narrator.appliance import seat_fill, table
from narrator.cli import main
from narrator.errors import Refusal, SetupError
from narrator.games import get_game
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack

FIVE = ["Aki", "Ben", "心愛:ここあ", "Dai", "Emi"]


def cli(*args):
    return CliRunner().invoke(main, list(args))


def five_named(narrator_home, game="additional-werewolf"):
    assert cli("config", "show").exit_code == 0
    path = narrator_home / "table.toml"
    table.update_table(path, {"game": game, "players": 5, "names": FIVE})
    return path


def test_config_set_players_8_keeps_the_five_names_and_adds_default_seats(narrator_home):
    path = five_named(narrator_home)
    result = cli("config", "set", "players", "8")
    assert result.exit_code == 0, result.output
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    ja = load_pack("ja")
    seats = [ja.speak("appliance.default_seat", {"n": n}).text for n in (6, 7, 8)]
    assert data["players"] == 8 and data["names"] == FIVE + seats
    assert seats[0] == "6番さん"
    settings, config, _ = table.check_table(data, "test")
    assert config.players == 8 and settings.listening["name_readings"] == {"心愛": "ここあ"}


def test_shrinking_keeps_the_first_names_and_nothing_else_changes(narrator_home):
    path = five_named(narrator_home)
    table.update_table(path, {"discussion": 120})
    table.update_table(path, {"players": 4})
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["names"] == FIVE[:4] and data["players"] == 4 and data["discussion"] == 120


def test_a_game_that_names_its_seats_fills_them_by_its_own_names(narrator_home):
    path = five_named(narrator_home, "bestia-magica")
    table.update_table(path, {"players": 8})
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    game = get_game("bestia-magica")
    own = game.names(game.configure(build_settings({"game": "bestia-magica", "players": 8}, {}, "t")))
    assert data["names"] == FIVE + list(own[5:8])


def test_the_host_screens_names_and_count_together_grow_the_table(narrator_home):
    path = five_named(narrator_home)
    table.update_table(path, {"names": FIVE[:2], "players": 6})
    names = tomllib.loads(path.read_text(encoding="utf-8"))["names"]
    assert names[:2] == FIVE[:2] and len(names) == 6 and names[2] == "3番さん"


def test_an_english_table_names_its_added_seats_in_english(narrator_home):
    path = five_named(narrator_home)
    table.update_table(path, {"lang": "en"})
    table.update_table(path, {"players": 6})
    assert tomllib.loads(path.read_text(encoding="utf-8"))["names"][5] == "Seat 6"


def test_a_default_seat_never_takes_a_name_already_given(narrator_home):
    assert seat_fill.fit({"names": ["6番さん", "b", "c", "d", "e"], "lang": "ja"}, 6)[5] != "6番さん"


def test_a_conflicting_pair_typed_together_on_the_command_line_is_still_refused():
    with pytest.raises(SetupError) as refused:
        build_settings({"lang": "ja"}, {"players": 8, "names": "a,b,c"}, "command line")
    assert "人数が8人なのに名前が3人分" in str(refused.value)
    assert "narrator config set players 8" in str(refused.value)  # the way to grow the table file


def test_a_card_refusal_names_a_role_typed_as_a_card_in_japanese(narrator_home):
    path = five_named(narrator_home)
    try:
        table.update_table(path, {"countdowns": {"citizen": 1}})
    except Refusal as err:
        ja = err.page_lines()["ja"]
    else:
        raise AssertionError("a citizen countdown was accepted")
    assert ja.startswith("カウントダウンの「市民」") and "citizen" not in ja and "countdowns" not in ja
    assert str(path) not in ja


def test_a_refusal_on_the_page_has_no_file_path(narrator_home):
    path = five_named(narrator_home)
    try:
        table.update_table(path, {"discussion": 99999})
    except Refusal as err:
        assert str(path) in str(err)  # the terminal's line names the file
        lines = err.page_lines()
    assert lines["ja"].startswith("話し合いの時間は") and lines["en"].startswith("discussion must be")


def test_a_bestia_magica_deal_refusal_names_the_player_whose_card_is_wrong(narrator_home):
    path = five_named(narrator_home, "bestia-magica")
    result = cli("config", "set", "names", '[]', "deal", "Aki=町民,Ben=魔獣,Chika=魔女,Dai=町民,Emi=町民")
    assert result.exit_code == 2
    assert "配ったカード「Chika」の「魔女」という役職はありません" in result.output
    with pytest.raises(Refusal) as refused:
        table.update_table(path, {"deal": "Aki=町民,Ben=魔獣,Chika=預言者:X,Dai=町民,Emi=町民"})
    assert "deal.Chika" in refused.value.page_lines()["en"]
    assert refused.value.page_lines()["ja"].startswith("配ったカード「Chika」の「X」という属性はありません")


def test_the_countdown_list_offers_only_the_night_cards_in_play():
    from narrator.phones import settings_view
    from narrator.phones.table import page_packs

    view = settings_view.build({"game": "additional-werewolf", "players": 5, "lang": "ja",
                                "cards": {"seer": 1, "peddler": 1, "strategist": 1, "on_break": 2}},
                               page_packs(), [])
    [row] = [r for r in view["settings"] if r["key"] == "countdowns"]
    assert row["addable"] == ["seer", "peddler"]  # not 策士 (no night call), 霊能者 (not in play), 市民 (a role)
    assert [view["labels"][i]["ja"] for i in row["addable"]] == ["占い師", "香具師"]


def test_names_set_alone_set_the_count(narrator_home):
    path = five_named(narrator_home)
    result = cli("config", "set", "names", '["Aya", "Bo", "Cy", "Dee", "Eve", "Fay"]')
    assert result.exit_code == 0, result.output
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["players"] == 6 and data["names"] == ["Aya", "Bo", "Cy", "Dee", "Eve", "Fay"]
