"""Role aliases (issue 22): sets name one role differently (占い師 = 預言者, 騎士 = 狩人 =
ボディガード, 霊媒師 = 霊能者, 狂人 = 裏切り者), and every place a table names a role takes
any of them, in both languages: the game file's deal, steps and wins, and the table's
`roles` counts. One name given to two roles is a contradiction, refused at load time.
"""

from __future__ import annotations

import tomllib

import pytest

from narrator.errors import SetupError
from narrator.games import get_game
from narrator.games.kernel import files as kernel
from narrator.games.kernel.parse import parse_game, read_game_file
from narrator.settings import build_settings
from narrator.sound.voicepack import load_pack

WEREWOLF = kernel.shipped_files()["werewolf"]
NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"


@pytest.mark.parametrize("name,role", [("占い師", "seer"), ("預言者", "seer"), ("騎士", "knight"), ("狩人", "knight"),
                                       ("ボディガード", "knight"), ("霊媒師", "medium"), ("霊能者", "medium"),
                                       ("狂人", "madman"), ("裏切り者", "madman"), ("Bodyguard", "knight"),
                                       ("ＳＥＥＲ", "seer"), ("traitor", "madman")])
@pytest.mark.parametrize("game", ["werewolf", "tabula"])
def test_every_name_of_a_role_finds_it_in_both_languages(game, name, role):
    if game == "tabula":  # its own roles for werewolf's knight and medium (狩人, 霊能者)
        role = {"knight": "hunter", "medium": "psychic"}.get(role, role)
    assert read_game_file(kernel.shipped_files()[game]).role_id(name) == role


def test_a_table_counts_the_cards_by_any_name_of_a_role():
    game = get_game("werewolf")
    given = "村人=2,人狼=2,裏切り者=1,預言者=1,霊能者=1,ボディガード=1"
    config = game.configure(build_settings({}, {"names": NAMES, "roles": given}, "command line"))
    assert config.roles == {"villager": 2, "werewolf": 2, "madman": 1, "seer": 1, "medium": 1, "knight": 1}
    same = game.configure(build_settings({}, {"names": NAMES, "roles": "villager=2,wolf=2,madman=1,seer=1,"
                                                                           "medium=1,hunter=1"}, "command line"))
    assert same.roles == config.roles


def test_a_role_the_file_does_not_know_is_refused_naming_the_roles():
    """The shared normaliser (`narrator.games.card_names`) reads the names, as for every game."""
    game = get_game("werewolf")
    assert game.card_names.lookup("roles", "ボディガード") == "knight"
    assert game.card_names.lookup("roles", "吸血鬼") is None and game.card_names.lookup("roles", "預言者") == "seer"
    assert game.card_names.lookup("roles", "ｳﾗﾅｲｼ") == "seer"  # the pack's reading of 占い師 (wolf.role.seer)
    roles = tomllib.loads(WEREWOLF.read_text(encoding="utf-8"))["roles"]
    pack = load_pack("ja")
    known = "、".join(pack.speak(f"wolf.role.{rid}").text for rid in roles)
    assert known.startswith("村人、人狼、")  # each role by the name the narrator says, in the file's order
    with pytest.raises(SetupError, match=rf"^コマンドライン: 役職カードの「吸血鬼」という役職はありません。使える名前: {known}$"):
        game.configure(build_settings({}, {"names": NAMES, "roles": "村人=7,吸血鬼=1"}, "command line"))
    with pytest.raises(SetupError, match=r"^command line: unknown role 'vampire' in roles; known: villager, werewolf, "):
        game.configure(build_settings({}, {"names": NAMES, "roles": "villager=7,vampire=1", "lang": "en"},
                                      "command line"))


def test_a_game_file_may_name_its_roles_by_their_aliases_in_the_deal_steps_and_wins():
    text = WEREWOLF.read_text(encoding="utf-8")
    plain = parse_game(tomllib.loads(text), "w.toml")
    text = text.replace('5 = { villager = 2, werewolf = 1, seer = 1, knight = 1 }',
                        '5 = { "村人" = 2, "人狼" = 1, "預言者" = 1, "ボディガード" = 1 }')
    text = text.replace('role = "knight"', 'role = "狩人"').replace('role = "seer"', 'role = "占い師"')
    text = text.replace('kind = "eliminated"\nrole = "werewolf"', 'kind = "eliminated"\nrole = "Wolf"')
    aliased = parse_game(tomllib.loads(text), "w.toml")
    assert aliased.deal == plain.deal and aliased.steps == plain.steps and aliased.wins == plain.wins


def test_one_name_for_two_roles_is_refused_at_load_time():
    text = WEREWOLF.read_text(encoding="utf-8").replace('aliases = { ja = ["霊能者"] }',
                                                        'aliases = { ja = ["霊能者"], en = ["seer"] }')
    assert 'en = ["seer"]' in text
    with pytest.raises(SetupError) as err:
        parse_game(tomllib.loads(text), "w.toml")
    assert str(err.value) == ("game file w.toml: [roles.medium] aliases: 'seer' names [roles.seer] too; "
                              "give each name to one role")
