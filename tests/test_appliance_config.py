"""The default table file: `narrator config show|set|unset|edit`, validated before saving."""

import sys
import textwrap
import tomllib

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from narrator.appliance import table
from narrator.cli import main


def cli(*args, env=None):
    return CliRunner().invoke(main, list(args), env=env)


def test_show_creates_a_valid_commented_default(narrator_home):
    result = cli("config", "show")
    assert result.exit_code == 0, result.stderr
    path = narrator_home / "table.toml"
    assert path.is_file() and "# The table file" in result.stdout
    assert "valid: additional-werewolf for 5 players, lang ja, buttons on 17" in result.stderr
    settings, config, appliance = table.check_table(tomllib.loads(path.read_text()), "test")
    assert (settings.game, config.players, appliance.button_pin, appliance.button2_pin) == (
        "additional-werewolf", 5, 17, None)


def test_set_changes_one_line_and_keeps_the_comments(narrator_home):
    cli("config", "show")
    path = narrator_home / "table.toml"
    before = path.read_text().splitlines()
    result = cli("config", "set", "players", "6")
    assert result.exit_code == 0 and result.stdout.startswith("players = 6")
    after = path.read_text().splitlines()
    assert [a for a, b in zip(before, after) if a != b] == ["players = 5"]
    assert len(before) == len(after)
    assert cli("config", "set", "appliance.button2_pin", "27").exit_code == 0
    assert cli("config", "set", "discussion", "120").exit_code == 0
    data = tomllib.loads(path.read_text())
    assert data["players"] == 6 and data["discussion"] == 120 and data["appliance"]["button2_pin"] == 27


@pytest.mark.parametrize("key, value, message", [  # the default table is Japanese (lang = "ja")
    ("players", "3", "アディショナル人狼は4人から20人で遊びます（3人ではなく）"),
    ("lang", "fr", "「fr」という言語はありません。ja、en のどれかにしてください"),
    ("roles", "citizen=1,werewolf=4", "市民1人に対して人狼側が4人です"),
    ("countdown", "soon", "夜のカウントダウンは整数で書いてください（「soon」ではなく）"),
    ("bogus", "1", "additional-werewolf に「bogus」という設定はありません"),
    ("appliance.button_pin", "99", "「appliance.button_pin」は 17 のようなGPIO番号"),
    ("appliance.hold_time", "0", "「appliance.hold_time」は0より大きく3600秒以下"),
    ("appliance.colour", "red", "appliance に「colour」という設定はありません"),
    ("appliance.button2_pin", "17", "button_pin と button2_pin が同じ 17 です"),
    ("a.b.c", "1", "「a.b.c」はテーブルファイルの設定名ではありません"),
])
def test_a_bad_value_is_refused_in_one_line_and_the_file_is_unchanged(narrator_home, key, value, message):
    cli("config", "show")
    path = narrator_home / "table.toml"
    before = path.read_bytes()
    result = cli("config", "set", key, value)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1
    assert path.read_bytes() == before


def test_unset_restores_the_default_and_refuses_an_unknown_key(narrator_home):
    cli("config", "set", "discussion", "120")
    assert cli("config", "unset", "discussion").exit_code == 0
    assert "discussion" not in tomllib.loads((narrator_home / "table.toml").read_text())
    result = cli("config", "unset", "discussion")
    assert result.exit_code == 2 and "テーブルファイルに「discussion」の設定はありません" in result.stderr


def write_editor(tmp_path, new_text):
    """An $EDITOR that replaces the file it is given with `new_text`."""
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({new_text!r})\n")
    return f"{sys.executable} {script}"


def test_edit_saves_a_valid_file(narrator_home, tmp_path):
    cli("config", "show")
    editor = write_editor(tmp_path, 'game = "additional-werewolf"\nplayers = 7\nlang = "en"\n')
    result = cli("config", "edit", env={"EDITOR": editor, "VISUAL": ""})
    assert result.exit_code == 0, result.stderr
    assert tomllib.loads((narrator_home / "table.toml").read_text())["players"] == 7
    assert sorted(p.name for p in narrator_home.iterdir()) == [".table.toml.lock", "table.toml"]  # no draft left


@pytest.mark.parametrize("lang, bad, message", [
    ("ja", "players = 30\n", "（30人ではなく）"),  # the home's table file is Japanese: so is its refusal
    ("ja", "players = [\n", "が正しいTOMLになりません"),
    ("en", "players = 30\n", "not 30"),
    ("en", "players = [\n", "would not be valid TOML"),
])
def test_edit_refuses_an_invalid_file_and_keeps_the_old_one(narrator_home, tmp_path, lang, bad, message):
    cli("config", "show")
    if lang != "ja":
        cli("config", "set", "lang", lang)
    path = narrator_home / "table.toml"
    before = path.read_bytes()
    result = cli("config", "edit", env={"EDITOR": write_editor(tmp_path, bad), "VISUAL": ""})
    assert result.exit_code == 2 and message in result.stderr
    assert path.read_bytes() == before


def test_play_accepts_the_appliance_table_file(narrator_home, tmp_path):
    """The service's table file is a normal table file: `narrator play --table` reads it."""
    cli("config", "set", "lang", "en")
    answers = tmp_path / "answers.txt"
    answers.write_text("done\nyes\n")
    result = cli("play", "--table", str(narrator_home / "table.toml"), "--voice", "text", "--time-scale", "0",
                 "--answers", str(answers), "--no-keyboard")
    assert result.exit_code == 0, result.stderr
    assert "game over: citizens win" in result.stderr


SCALARS = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.text(max_size=20),
                    st.floats(allow_nan=False, allow_infinity=False))


@given(st.one_of(SCALARS, st.lists(st.one_of(st.integers(0, 99), st.text(max_size=8)), max_size=4)))
def test_values_round_trip_through_the_file(value):
    text = table.set_key("# c\n[appliance]\nx = 1\n", "key", value)
    assert tomllib.loads(text)["key"] == value
    assert text.startswith("# c\n")


def test_set_key_adds_a_missing_section():
    text = table.set_key(textwrap.dedent("""\
        players = 5
        """), "appliance.button_pin", 22)
    assert tomllib.loads(text) == {"players": 5, "appliance": {"button_pin": 22}}


@pytest.mark.parametrize("raw, value", [("17", 17), ("1.5", 1.5), ("true", True), ("ja", "ja"),
                                        ("Aki,Ben", "Aki,Ben"), ('["Aki", "Ben"]', ["Aki", "Ben"]),
                                        ("2026-01-01", "2026-01-01")])
def test_parse_value(raw, value):
    assert table.parse_value(raw) == value
