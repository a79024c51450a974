"""Presets (issue 23): a table's settings saved under a name in the table file, picked again later,
checked like every other table (`check_table`), and the shipped recommended set beside them."""

import tomllib

import pytest

from narrator.appliance import presets
from narrator.appliance.table import DEFAULT_TABLE, check_table, load_table, update_table
from narrator.errors import SetupError

FRIDAY = "金曜の6人卓"


@pytest.fixture
def table_file(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(DEFAULT_TABLE, encoding="utf-8")
    return path


def friday(path):
    table = update_table(path, {"players": 6, "night_order": ["peddler", "seer", "medium", "phantom_mage", "lovers"],
                                "countdowns": {"seer": 20}, "discussion": 120, "voice": "text"})
    return presets.save(path, table, FRIDAY, update_table)


def test_a_preset_is_saved_in_the_table_file_with_what_is_played_only(table_file):
    friday(table_file)
    saved = tomllib.loads(table_file.read_text(encoding="utf-8"))["presets"][FRIDAY]
    assert saved == {"game": "additional-werewolf", "players": 6, "discussion": 120, "countdowns": {"seer": 20},
                     "night_order": ["peddler", "seer", "medium", "phantom_mage", "lovers"]}
    assert "voice" not in saved and "lang" not in saved and "appliance" not in saved
    assert "# Seconds the narrator waits" in table_file.read_text(encoding="utf-8")  # comments kept


def test_picking_the_recommended_set_unsets_the_options_and_the_preset_brings_them_back(table_file):
    table = friday(table_file)
    table = presets.pick(table_file, table, presets.RECOMMENDED, update_table, players=5)
    assert "discussion" not in table and "countdowns" not in table and table["players"] == 5
    settings, config, _ = check_table(load_table(table_file), "t")
    assert config.discussion == 180 and config.night_order[0] == "seer"
    table = presets.pick(table_file, table, FRIDAY, update_table)
    settings, config, _ = check_table(load_table(table_file), "t")
    assert (config.players, config.discussion, config.night_order[0], config.countdowns) == (6, 120, "peddler", {"seer": 20})
    assert table["voice"] == "text"  # how the device runs is not the preset's


def test_a_preset_the_game_refuses_is_refused_with_the_games_own_line(table_file):
    before = table_file.read_text(encoding="utf-8")
    with pytest.raises(SetupError, match='preset "x": アディショナル人狼は4人から20人で遊びます（99人ではなく）'):
        update_table(table_file, {"presets": {"x": {"players": 99}}})
    with pytest.raises(SetupError, match="「voice」は機械の動かし方で"):
        update_table(table_file, {"presets": {"x": {"voice": "text"}}})
    assert table_file.read_text(encoding="utf-8") == before


def test_check_presets_is_what_refuses_them(table_file, monkeypatch):
    """With the check switched off, the bad preset is written: the check is what stops it."""
    monkeypatch.setattr(presets, "check_presets", lambda *a: None)
    update_table(table_file, {"presets": {"x": {"players": 99}}})
    assert tomllib.loads(table_file.read_text(encoding="utf-8"))["presets"]["x"] == {"players": 99}


def test_names_and_unknown_presets(table_file):
    table = load_table(table_file)
    with pytest.raises(SetupError, match="a preset needs a name"):
        presets.save(table_file, table, "  ", update_table)
    with pytest.raises(SetupError, match="no preset named 'nope'; saved: none yet"):
        presets.pick(table_file, table, "nope", update_table)


def test_the_presets_offered_for_a_count_start_with_the_recommended_set(table_file):
    table = friday(table_file)
    table = presets.save(table_file, {**table, "players": 5}, "five", update_table)
    assert presets.for_count(load_table(table_file), "additional-werewolf", 6) == [presets.RECOMMENDED, FRIDAY]
    assert presets.for_count(load_table(table_file), "additional-werewolf", 5) == [presets.RECOMMENDED, "five"]
    assert presets.for_count(load_table(table_file), "pagan", 6) == [presets.RECOMMENDED]
