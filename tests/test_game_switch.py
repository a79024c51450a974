"""A switch of the table's game (the host screen's game list, the service's spoken menu,
`narrator config set game`) keeps the old game's own setup aside and brings it back: before,
a table that had set its cards or a countdown could not switch at all (the new game refused
the old game's keys), and only `narrator config edit` over SSH got out."""

import tomllib

import pytest
from click.testing import CliRunner

from narrator.appliance import game_switch
from narrator.appliance.table import check_table, load_table, update_table
from narrator.cli import main
from narrator.errors import SetupError
from narrator.table.saved_games import saved_games


def cli(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def set_up(narrator_home):
    """The default table (Additional Werewolf for 5, Japanese) with its own cards and countdown."""
    assert cli("config", "set", "cards.占い師", "2", "cards.策士", "0", "countdown", "15").exit_code == 0
    return narrator_home / "table.toml"


def read(path):
    return tomllib.loads(path.read_text(encoding="utf-8"))


def plays(path):
    settings, config, _ = check_table(load_table(path), "table file")
    return settings.game, config.to_dict()


def test_a_set_up_table_switches_game_and_keeps_its_setup_aside(set_up):
    result = cli("config", "set", "game", "one-night")
    assert result.exit_code == 0, result.stderr
    data = read(set_up)
    assert data["game"] == "one-night" and "cards" not in data and "countdown" not in data
    assert data["kept"] == {"additional-werewolf": {
        "cards": {"seer": 2, "peddler": 1, "phantom_mage": 2, "strategist": 0}, "countdown": 15}}
    assert plays(set_up)[0] == "one-night"


def test_switching_back_brings_the_setup_back_and_keeps_the_other_games(set_up):
    assert cli("config", "set", "game", "one-night").exit_code == 0
    assert cli("config", "set", "countdown", "7").exit_code == 0  # one-night's own countdown
    result = cli("config", "set", "game", "additional-werewolf")
    assert result.exit_code == 0, result.stderr
    data = read(set_up)
    assert data["cards"] == {"seer": 2, "peddler": 1, "phantom_mage": 2, "strategist": 0}
    assert data["countdown"] == 15
    assert data["kept"] == {"one-night": {"countdown": 7}}
    game, config = plays(set_up)
    assert game == "additional-werewolf" and config["cards"]["seer"] == 2 and config["countdown"] == 15
    assert cli("config", "set", "game", "one-night").exit_code == 0
    assert read(set_up)["countdown"] == 7 and "one-night" not in read(set_up)["kept"]


def test_a_kept_setup_that_no_longer_fits_stays_kept_and_the_game_plays_its_recommended_set(set_up):
    assert cli("config", "set", "game", "one-night").exit_code == 0
    result = cli("config", "set", "game", "additional-werewolf", "players", "6")  # 5 cards kept, 6 players
    assert result.exit_code == 0, result.stderr
    data = read(set_up)
    assert data["players"] == 6 and "cards" not in data
    assert data["kept"]["additional-werewolf"]["cards"]["seer"] == 2
    game, config = plays(set_up)
    assert game == "additional-werewolf"
    assert config["cards"] == {"seer": 1, "medium": 1, "peddler": 1, "phantom_mage": 2, "strategist": 1}


def test_the_service_menu_saves_a_switch_to_a_game_with_other_keys(set_up):
    """The service's menu saves `game` and `players` together (serve.py `_save_choice`)."""
    table = update_table(set_up, {"game": "bestia-magica", "players": 5})
    assert table["game"] == "bestia-magica" and "countdown" not in table
    assert plays(set_up)[0] == "bestia-magica"


def test_without_the_switch_a_set_up_table_cannot_change_game(set_up, monkeypatch):
    """The protection off: the new game refuses the old game's keys, and nothing changes."""
    monkeypatch.setattr(game_switch, "plans", lambda table, changes: [dict(changes)])
    before = set_up.read_bytes()
    with pytest.raises(SetupError, match="countdown"):
        update_table(set_up, {"game": "bestia-magica", "players": 5})
    assert set_up.read_bytes() == before


def test_a_change_that_sets_a_key_of_the_new_game_keeps_it(set_up):
    result = cli("config", "set", "game", "one-night", "countdown", "5")
    assert result.exit_code == 0, result.stderr
    data = read(set_up)
    assert data["countdown"] == 5 and data["kept"]["additional-werewolf"]["countdown"] == 15


def test_a_hand_broken_kept_section_is_one_line_naming_the_fix(narrator_home):
    cli("config", "show")
    path = narrator_home / "table.toml"
    path.write_text(path.read_text(encoding="utf-8") + '\nkept = "x"\n', encoding="utf-8")
    result = cli("config", "show")
    assert result.exit_code == 2 and "kept" in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_a_preset_holds_no_kept_setups(set_up):
    assert cli("config", "set", "game", "one-night").exit_code == 0
    from narrator.appliance import presets
    assert "kept" not in presets.played(load_table(set_up))


def test_the_host_screen_switches_a_set_up_table_and_back(tmp_path, monkeypatch):
    """The phone's game list: the switch is saved and the page shows the new game; back again,
    the cards the table had set are shown again."""
    from tests.test_settings_page import post, run

    async def check(page, phones, said):
        host = phones[0]
        assert (await post(host, "/api/settings/join", {"code": page.table_code}))[0] == 200
        cards = {"cards": {"seer": 2, "peddler": 1, "phantom_mage": 2, "strategist": 0}}
        assert await post(host, "/api/settings/change", {"changes": cards}) == (200, {"ok": True})
        assert await post(host, "/api/settings/change", {"changes": {"game": "werewolf"}}) == (200, {"ok": True})
        async with host.get("/api/settings") as r:
            assert (await r.json())["game"] == "werewolf"
        assert await post(host, "/api/settings/change", {"changes": {"game": "additional-werewolf"}}) == (
            200, {"ok": True})
        async with host.get("/api/settings") as r:
            view = await r.json()
        [row] = [s for s in view["settings"] if s["key"] == "cards"]
        assert row["value"] == {"seer": 2, "peddler": 1, "phantom_mage": 2} and row["set"] is True  # 0s not shown

    path = run(tmp_path, check)
    assert "kept" not in tomllib.loads(path.read_text(encoding="utf-8"))


def test_the_spoken_menu_switches_back_and_plays_the_kept_setup(set_up, narrator_home, tmp_path):
    """The service's menu, one yes/no at a time: back to Additional Werewolf from one-night, the
    kept cards and countdown are what it reads back and plays (not the recommended set)."""
    from tests.test_spoken_setup import served

    assert cli("config", "set", "game", "one-night").exit_code == 0
    games = ["no"] * 7 + ["yes"]  # one-night? tabula? the four villages? werewolf? then round to additional-werewolf
    said, table = served(narrator_home, tmp_path, "no", *games, "no", "yes", "yes", "done", "yes")
    readback = next(r["text"] for r in said if r["line"] == "setup.readback_cards")
    assert "占い師2枚" in readback and "策士" not in readback
    assert table["cards"]["seer"] == 2 and "kept" not in table  # one-night set nothing of its own
    offered = [r["line"] for r in said if r["line"].startswith(("title.", "appliance.game_unnamed"))]
    assert offered[1:9] == ["title.one_night", "title.tabula", "title.village_9", "title.village_11", "title.village_13",
                            "title.village_16", "title.werewolf", "title.additional_werewolf"]  # each by its title
    [game] = saved_games(narrator_home)
    assert game.meta["config"]["cards"]["seer"] == 2 and game.meta["config"]["countdown"] == 15
