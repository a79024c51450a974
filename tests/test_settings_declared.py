"""Each table-file key is declared once (narrator/settings.toml, a game's `[settings]`), and
everything that lists keys agrees with the declarations: `TableSettings`, `RunOptions`,
`ListenOptions`, `narrator play`'s flags and the key tables of the docs pages.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from pathlib import Path

import click
import pytest

from narrator.cli.flags import table_flags
from narrator.cli.play import play, resume_options
from narrator.games import game_names, get_game
from narrator.inputs.voice.setup import ListenOptions
from narrator.settings import (
    COMMON_KEYS, COMMON_SETTINGS, LISTEN_KEYS, RUN_KEYS, SETTINGS, RunSettings, Setting, TableSettings, read_value,
)
from narrator.table.session import PATH_KEYS, RunOptions

DOCS = Path(__file__).resolve().parent.parent / "docs"


def declared() -> list[Setting]:
    """Every declaration: the shared keys, then each game's own."""
    return [*SETTINGS, *(s for name in game_names() for s in get_game(name).settings)]


def default_of(f):
    return f.default_factory() if f.default is MISSING else f.default


def test_run_options_are_the_declared_run_settings():
    assert {f.name for f in fields(RunSettings)} == set(RUN_KEYS)
    assert [f.name for f in fields(RunOptions)] == [f.name for f in fields(RunSettings)] + ["keyboard"]
    assert set(PATH_KEYS) <= set(RUN_KEYS)


def test_a_run_as_saved_before_the_declarations_still_resumes(tmp_path):
    saved = {"lang": "en", "voice": "text", "time_scale": 0, "answers": str(tmp_path / "a.txt"),
             "transcript": None, "transcript_private": False, "audio": "null", "audio_device": None,
             "audio_out": None, "volume": 1.0, "speech_rate": 1.0, "night_done": False, "ambience": True,
             "phones": False, "host": None, "port": 8080, "listening": {"listen": "off"}, "keyboard": True}
    run = resume_options(saved, {"voice": "en"}, keyboard=False)
    added = {"history": True}  # keys declared since: their defaults
    assert run.to_dict() == {**saved, **added, "voice": "en", "keyboard": False}
    assert [k for k in run.to_dict() if k not in added] == list(saved)


def test_table_settings_hold_the_common_keys_and_listen_options_the_listening_keys():
    assert {f.name for f in fields(TableSettings)} == {*COMMON_KEYS, "options", "source", "listening", "stated_lang"}
    assert {f.name for f in fields(ListenOptions)} == set(LISTEN_KEYS)
    assert set(RUN_KEYS) - {"listening"} <= set(COMMON_KEYS)


def test_every_shared_key_has_a_parser_that_reads_its_default():
    defaults = {f.name: default_of(f) for f in fields(TableSettings)}
    for setting in COMMON_SETTINGS:
        if setting.parse == "names" or defaults[setting.key] is None:
            continue
        assert read_value(setting, defaults[setting.key], "test") == defaults[setting.key], setting.key


@pytest.mark.parametrize("name", game_names())
def test_a_game_declares_each_key_once_and_no_shared_key(name):
    keys = [s.key for s in get_game(name).settings]
    assert len(keys) == len(set(keys)) and not set(keys) & {*COMMON_KEYS, *LISTEN_KEYS}
    assert all(s.kind == "option" for s in get_game(name).settings)


def test_bestia_magica_declares_every_timer_of_its_definition():
    from narrator.games.bestia_magica.setup import definition

    assert set(definition()["defaults"]) <= set(definition()["settings"])


def test_play_has_a_flag_for_every_declared_flag_with_its_help_line():
    options = {opt: p for p in play.params if isinstance(p, click.Option) for opt in p.opts}
    flags = {flag: (key, text) for flag, key, text in table_flags()}
    assert len(flags) == len(table_flags())
    for setting in SETTINGS:  # a shared key's flag says exactly what is declared
        if setting.flag and not setting.switch:
            assert flags[setting.flag] == (setting.key, setting.help)
    first: dict[str, Setting] = {}
    for name in game_names():
        for setting in get_game(name).settings:
            if setting.flag is None:
                continue
            assert setting.flag in options, setting.key
            if setting.switch:
                assert options[setting.flag].help == setting.help, setting.key
                continue
            key, text = flags[setting.flag]
            lead = first.setdefault(setting.key, setting)
            assert key == setting.key, setting.key
            if text == lead.help:  # one line for every game: only where every game says the same
                assert (setting.help, setting.form) == (lead.help, lead.form), setting.key
            else:  # each game named with its own saying (its help line, else its form)
                assert name in text and (setting.help.rstrip(".") in text or setting.form in text), setting.key
    assert len(flags) == len([s for s in SETTINGS if s.flag and not s.switch]) + len(first)


def key_tables(page: Path) -> list[tuple[list[str], list[str]]]:
    """Each key table of a page: (its header's column names, its row lines)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    tables = []
    for i, line in enumerate(lines):
        columns = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns[0] == "key" and len(columns) > 1 and columns[1] in ("flag", "default"):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(row)
            tables.append((columns, rows))
    return tables


def row_of(setting: Setting, columns: list[str]) -> str:
    """The row the declaration gives, for a table with these columns."""
    flag = setting.flag_doc or (f"`{setting.flag} {setting.form}`" if setting.form else f"`{setting.flag}`"
                                if setting.flag else "—")
    cells = {"key": f"`{setting.key}`", "flag": flag, "default": setting.default, "meaning": setting.doc}
    return "| " + " | ".join(cells[c] for c in columns) + " |"


def test_the_docs_key_tables_are_the_declared_settings():
    by_page: dict[str, list[Setting]] = {}
    for setting in declared():
        by_page.setdefault(setting.page, []).append(setting)
    pages = {p.name for p in DOCS.glob("*.md") if key_tables(p)}
    assert set(by_page) <= pages
    for name in sorted(pages):
        rows = {}
        for columns, lines in key_tables(DOCS / name):
            for line in lines:
                key = re.match(r"\|\s*`([a-z_]+)`", line)
                if key:  # a row whose key is prose ("*role defaults*") names no key
                    rows[key.group(1)] = (columns, line)
        settings = {s.key: s for s in by_page.get(name, [])}
        assert sorted(rows) == sorted(settings), name
        for key, setting in settings.items():
            columns, line = rows[key]
            if setting.doc:
                assert line == row_of(setting, columns), f"{name}: {key}"


def test_a_flag_whose_zero_means_different_things_names_each_games_meaning():
    """Issue 40, item 4: `--countdown 0` and `--discussion 0` meant different things per game
    under one help line (the seed game's)."""
    flags = {flag: text for flag, _, text in table_flags()}
    discussion, countdown = flags["--discussion"], flags["--countdown"]
    assert discussion.startswith("additional-werewolf, bestia-magica: ") and "0: no timer" in discussion
    assert "werewolf: Seconds of discussion on day 1, 2" in discussion and "at least 1" in discussion
    assert countdown.startswith("additional-werewolf: ") and "werewolf: Seconds of every night call" in countdown
    roles = flags["--roles"]
    assert "werewolf: Role cards of the game file" in roles and roles.count("citizen=3") == 1


def host_screen_settings() -> list[Setting]:
    """What the host screen shows a heading for: the game, players and names, and every game's own keys."""
    return [*(s for s in SETTINGS if s.key in ("game", "players", "names")),
            *(s for name in game_names() for s in get_game(name).settings)]


def test_every_setting_on_the_host_screen_declares_its_japanese_and_english_heading():
    """Issue 40, item 2: a heading lived in the voice packs, a default in the setup code too, and
    nothing checked the Japanese (without it the host screen showed the English help line)."""
    missing = [s.key for s in host_screen_settings() if not {"ja", "en"} <= set(s.headings)]
    assert not missing, f"declare heading = {{ ja = \"…\", en = \"…\" }} for {missing}"


def test_the_host_screen_shows_the_declared_heading():
    from narrator.phones import settings_view

    packs = {"ja": object(), "en": object()}
    for setting in host_screen_settings():
        assert settings_view.heading(setting, packs) == setting.headings


def test_a_game_reads_its_declared_defaults():
    """The default is declared once (`value`): what `configure` uses for an unset key."""
    game = get_game("additional-werewolf")
    config = game.configure(TableSettings(game="additional-werewolf", players=5)).to_dict()
    values = {s.key: s.value for s in game.settings if s.value is not None}
    assert values
    for key, value in values.items():
        assert config[key] == (list(value) if isinstance(value, tuple) else value), key


@pytest.mark.parametrize("spec, named", [
    ({"help": 3}, "help is text"),
    ({"heading": {"ja": 1}}, "heading is text"),
    ({"low": "ten"}, "low is a number"),
    ({"choices": "a,b"}, "choices is a list"),
    ({"switch": "yes"}, "switch is true or false"),
    ({"helps": "A typo."}, "unknown field helps"),
])
def test_a_declaration_of_the_wrong_type_is_one_line_naming_the_field(spec, named):
    """A declaration is untrusted TOML (a game from outside brings its own): a field of the wrong
    type is refused where it is declared, not carried into a flag's help or a docs row."""
    from narrator.errors import SetupError
    from narrator.settings import declare

    with pytest.raises(SetupError, match=f"setting x: {named}"):
        declare({"x": spec})


def test_a_declared_bound_may_name_a_max_constant():
    from narrator.settings import MAX_TIMER, declare

    (setting,) = declare({"x": {"low": 0, "high": "MAX_TIMER", "value": [60, 10]}})
    assert (setting.low, setting.high, setting.value, setting.default) == (0, MAX_TIMER, (60, 10), "60, 10")
