"""Bestia Magica setup: recommended sets, entered and random deals, house rules, clear errors."""

import json
from collections import Counter

import pytest

from narrator.errors import SetupError
from narrator.games.bestia_magica.setup import BMConfig, definition
from narrator.settings import build_settings
from narrator.values.files import read_table_file
from tests.bm_driver import RULES, configure


@pytest.mark.parametrize("players", range(4, 21))
def test_recommended_set_for_every_player_count_is_playable(players):
    config = configure(players=players, seed=1)
    assert len(config.deal) == players == len(set(config.names))
    roles = Counter(c.role for c in config.deal)
    assert roles["beast"] >= 1
    town = sum(n for r, n in roles.items() if definition()["roles"][r]["count"] == "town")
    assert town > roles["beast"]
    assert all(c.attribute == "A" for c in config.deal if c.role in ("angel", "demon"))
    assert all(c.attribute == "N" for c in config.deal if c.role == "murderer")


def test_random_deal_is_seeded():
    assert configure(players=9, seed=4).deal == configure(players=9, seed=4).deal
    assert len({configure(players=9, seed=s).deal for s in range(10)}) > 5


def test_no_seed_draws_one_and_keeps_it_for_resume():
    config = configure(players=6)
    again = BMConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config


def test_entered_deal_from_the_command_line():
    config = configure(deal="Aki=prophet:S,Ben=beast:M,Chika=townsperson:N,Dai=guard:S")
    assert config.names == ("Aki", "Ben", "Chika", "Dai")
    assert [(c.name, c.role, c.attribute) for c in config.deal] == [
        ("Aki", "prophet", "S"), ("Ben", "beast", "M"), ("Chika", "townsperson", "N"), ("Dai", "guard", "S")]


def test_entered_deal_from_a_table_file(tmp_path):
    table = tmp_path / "table.toml"
    table.write_text(
        'game = "bestia-magica"\nguard_repeat = false\ndiscussion = 180\n'
        '[deal]\nAki = "prophet:S"\nBen = "beast"\nChika = "townsperson:M"\nDai = "angel:A"\nEmi = "demon:A"\n',
        encoding="utf-8")
    config = RULES.configure(build_settings(read_table_file(table), {}, "table file"))
    assert config.deal[1].attribute == definition()["roles"]["beast"]["attribute"]  # a role's default
    assert config.rules["guard_repeat"] is False and config.timers["discussion"] == 180


def test_roles_with_attributes_per_card():
    config = configure(players=6, seed=2, roles="beast=1,prophet=1,townsperson=4",
                       attributes={"townsperson": "SMNN", "beast": "M"})
    got = sorted((c.role, c.attribute) for c in config.deal)
    assert got == sorted([("beast", "M"), ("prophet", "S"), ("townsperson", "S"), ("townsperson", "M"),
                          ("townsperson", "N"), ("townsperson", "N")])


def test_cards_list():
    config = configure(players=4, seed=2, cards=["beast:M", "prophet:M", "townsperson:S", "townsperson:S"])
    assert sorted(c.attribute for c in config.deal) == ["M", "M", "S", "S"]


def test_every_house_rule_has_a_default_and_can_be_changed():
    defaults = definition()["house_rules"]
    config = configure(players=8, seed=1)
    assert dict(config.rules) == {k: (tuple(v) if isinstance(v, list) else v) for k, v in defaults.items()}
    changed = configure(players=8, seed=1, murderer_reads="U", curse_delay=2, guard_repeat="false",
                        night_order="guard,sleep,reform,curse,murder,attack,curse_deaths,anima,results")
    assert changed.rules["murderer_reads"] == "U" and changed.rules["curse_delay"] == 2
    assert changed.rules["guard_repeat"] is False and changed.rules["night_order"][0] == "guard"


@pytest.mark.parametrize("options,message", [
    ({"players": 3}, "4 to 20 players"),
    ({"players": 21}, "4 to 20 players"),
    ({"players": 5, "roles": "beast=1,prophet=1"}, "2 cards for 5 players"),
    ({"players": 4, "roles": "wizard=1,townsperson=3"}, "unknown role 'wizard'"),
    ({"players": 4, "roles": "beast=2,townsperson=2"}, "2 town-team players against 2 beasts"),
    ({"players": 4, "roles": "townsperson=4"}, "no beast"),
    ({"deal": "Aki=murderer:S,Ben=beast,Chika=townsperson,Dai=townsperson,Emi=prophet"}, "write murderer:N"),
    ({"deal": "Aki=prophet:X,Ben=beast,Chika=townsperson,Dai=townsperson"}, "unknown attribute 'X'"),
    ({"deal": "Aki=prophet,Aki=beast,Chika=townsperson,Dai=townsperson"}, "names a player twice"),
    ({"deal": "Aki prophet"}, "Name=role:attribute"),
    ({"players": 8, "guard_repeat": "maybe"}, "guard_repeat must be true or false"),
    ({"players": 8, "sole_effect": "triple"}, "sole_effect must be one of"),
    ({"players": 8, "night_order": "sleep,guard"}, "night_order must name each of"),
    ({"players": 8, "wolves": 2}, "unknown option 'wolves'"),
])
def test_bad_setups_are_one_clear_line(options, message):
    with pytest.raises(SetupError, match=message):
        configure(**options)


def test_the_docs_document_every_key_and_house_rule():
    from pathlib import Path

    section = (Path(__file__).resolve().parent.parent / "docs" / "bestia-magica.md").read_text(encoding="utf-8")
    for key in [*definition()["house_rules"], *definition()["defaults"], "deal", "roles", "attributes", "cards"]:
        assert f"`{key}`" in section, key
