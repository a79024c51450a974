"""Each table-file key is declared once (narrator/settings.toml, a game's `[settings]`), and
everything that lists keys agrees with the declarations: `TableSettings`, `RunOptions`,
`ListenOptions`, `narrator play`'s flags and the key tables of the docs pages.
"""

from __future__ import annotations

import shutil
from dataclasses import MISSING, fields
from pathlib import Path

import click
import pytest

from narrator.cli import docs_settings
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


def test_the_docs_key_tables_are_written_from_the_declarations():
    """Each key table's rows are the declarations' (scripts/docs-settings writes them): a row
    missing, left over or different is a stale page, and the line says what to run."""
    stale = docs_settings.stale()
    assert not stale, f"{', '.join(stale)}: the settings tables differ from the declarations; run scripts/docs-settings"


def test_every_row_naming_a_key_is_in_a_written_table():
    """A key row written by hand outside the markers would escape the check above: on the
    English pages (`key`) and on the Japanese ones (`項目`)."""
    for page in [*DOCS.glob("*.md"), *DOCS.glob("ja/*.md")]:
        lines = page.read_text(encoding="utf-8").split("\n")
        name = page.relative_to(DOCS).as_posix()
        inside = {i for m in docs_settings.marked(lines, name) for i in range(m.start, m.end)}
        for i, line in enumerate(lines):
            columns = [c.strip() for c in line.strip().strip("|").split("|")]
            if not (line.startswith("|") and (columns[0], *columns[1:2]) in (
                    ("key", "flag"), ("key", "default"), ("項目", "フラグ"), ("項目", "既定値"))):
                continue
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(row)
            if any(docs_settings.KEYED.match(row) for row in rows):
                assert i in inside, f"docs/{name}: mark the key table at line {i + 1} " \
                    "(<!-- settings table … -->) and run scripts/docs-settings"


@pytest.fixture
def docs(tmp_path):
    """A copy of docs/ to make a page stale in."""
    shutil.copytree(DOCS, tmp_path / "docs")
    return tmp_path / "docs"


def test_a_page_with_a_row_missing_or_different_is_stale_and_the_tool_writes_it_back(docs):
    page = docs / "bestia-magica.md"
    text = page.read_text(encoding="utf-8")
    assert docs_settings.stale(docs) == []
    row = next(line for line in text.split("\n") if line.startswith("| `guard_self` (P-BM-2) |"))
    page.write_text(text.replace(row + "\n", ""), encoding="utf-8")
    assert docs_settings.stale(docs) == ["docs/bestia-magica.md"]
    page.write_text(text.replace(row, row.replace("| false |", "| true |")), encoding="utf-8")
    assert docs_settings.stale(docs) == ["docs/bestia-magica.md"]
    page.write_text(text.replace(row, row + "\n| `guard_twice` | false | a row with no declaration |"), encoding="utf-8")
    assert docs_settings.stale(docs) == ["docs/bestia-magica.md"]
    assert docs_settings.write(docs) == ["docs/bestia-magica.md"]
    assert page.read_text(encoding="utf-8") == text and docs_settings.stale(docs) == []


def test_the_prose_rows_and_the_pages_columns_are_kept(docs):
    """`*role defaults*` is the page's own row; the columns are the page's choice."""
    page = docs / "bestia-magica.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("| key | default | rule |\n|---|---|---|", "| key | rule |\n|---|---|")
                    .replace("| see `definition.toml` `[roles]` |", "|"), encoding="utf-8")
    docs_settings.write(docs)
    rows = page.read_text(encoding="utf-8").split("| key | rule |\n|---|---|\n")[1].split("\n")
    assert rows[0].startswith("| *role defaults* (P-BM-1/2) | each role's team")
    assert rows[1] == "| `murderer_reads` (P-BM-2) | what prophet and undertaker see for the murderer: `H` or `U` " \
                      "(angel, demon, sleep demon read `U`; beasts `B`; others `H`) |"


def test_a_setting_no_page_marks_or_without_its_words_is_one_line_naming_the_fix(docs, monkeypatch):
    extra = Setting("tiny_timer", doc="seconds of the tiny timer", doc_ja="小さなタイマーの秒数", page="tiny.md")
    monkeypatch.setattr(docs_settings, "declared", lambda: [*declared(), extra])
    with pytest.raises(docs_settings.Stale, match="no page of docs/ marks the settings table tiny.md"):
        docs_settings.stale(docs)
    monkeypatch.setattr(docs_settings, "declared", lambda: [*declared(), Setting("tiny_timer")])
    with pytest.raises(docs_settings.Stale, match="tiny_timer declares no `doc`"):
        docs_settings.stale(docs)


def test_the_tool_checks_and_writes_from_the_command_line(docs, monkeypatch, capsys):
    page = docs / "history.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("| `history` | true |", "| `history` | yes |"), encoding="utf-8")
    assert docs_settings.main(["--check"], docs) == 1
    assert capsys.readouterr().out == ("docs/history.md: its settings table differs from the declarations; "
                                       "run scripts/docs-settings\n")
    assert docs_settings.main([], docs) == 0
    assert capsys.readouterr().out == "docs/history.md: settings table written\n"
    assert page.read_text(encoding="utf-8") == text and docs_settings.main(["--check"], docs) == 0
    page.write_text(text.replace("<!-- end of settings table -->", ""), encoding="utf-8")
    assert docs_settings.main(["--check"], docs) == 1
    assert capsys.readouterr().err == ("scripts/docs-settings: docs/history.md: the settings table history.md has no "
                                       "`<!-- end of settings table -->` line; add it after the table\n")


def test_the_japanese_key_tables_are_written_from_the_declarations_too(docs):
    """The Japanese page's tables were written by hand, and nothing checked them: a row missing,
    left over or different there is a stale page too, and the tool writes it back."""
    page = docs / "ja" / "table-file.md"
    text = page.read_text(encoding="utf-8")
    assert docs_settings.stale(docs) == []
    row = next(line for line in text.split("\n") if line.startswith("| `night_order` | `--night-order"))
    assert "占い師、霊能者、香具師、幻影魔導師、恋人" in row  # the declaration's Japanese words
    for broken in (text.replace(row + "\n", ""), text.replace(row, row.replace("恋人 |", "恋人、策士 |")),
                   text.replace(row, row + "\n| `night_order_twice` | なし | なし | 宣言のない行 |")):
        page.write_text(broken, encoding="utf-8")
        assert docs_settings.stale(docs) == ["docs/ja/table-file.md"]
    assert docs_settings.write(docs) == ["docs/ja/table-file.md"]
    assert page.read_text(encoding="utf-8") == text and docs_settings.stale(docs) == []


def test_check_names_a_stale_japanese_page(docs, capsys):
    page = docs / "ja" / "game-files.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("| `look` | `--look S` | 5 |", "| `look` | `--look S` | 10 |"), encoding="utf-8")
    assert docs_settings.main(["--check"], docs) == 1
    assert capsys.readouterr().out == ("docs/ja/game-files.md: its settings table differs from the declarations; "
                                       "run scripts/docs-settings\n")


def test_a_japanese_table_is_written_in_the_declarations_japanese_words():
    """The Japanese row: `doc_ja` and the other `…_ja` words, the English ones where they are
    code or a number, the page's own header words; the flag's Japanese example (`form_ja`)."""
    (werewolf,) = [s for s in get_game("additional-werewolf").settings if s.key == "roles"]
    assert werewolf.page_ja == "ja/table-file.md#additional-werewolf"
    assert docs_settings.row(werewolf, docs_settings.JA_COLUMNS, werewolf.page_ja) == (
        '| `roles` | `--roles "市民=3,裏切り者=1,人狼=1"` | 人数のおすすめ | 役職カードの枚数(合計 = 人数) |')
    (rule,) = [s for s in get_game("bestia-magica").settings if s.key == "reform_counts_at_end"]
    assert docs_settings.row(rule, ("項目", "既定値"), rule.page_ja) == "| `reform_counts_at_end`(FAQ 3 の読み方) | false |"
    (history,) = [s for s in SETTINGS if s.key == "history"]
    assert docs_settings.row(history, docs_settings.JA_COLUMNS, history.page_ja).startswith("| `history` | なし | true |")


def test_every_declaration_has_its_japanese_docs_words():
    """Japanese is the table's first language: a setting cannot ship without its Japanese row."""
    refused = []
    for setting in declared():
        try:
            docs_settings.row(setting, docs_settings.JA_COLUMNS, setting.page_ja)
        except docs_settings.Stale as err:
            refused.append(str(err))
    assert not refused, refused[0]


@pytest.mark.parametrize("spec, field", [
    ({"doc": "seconds of the tiny timer"}, "doc_ja"),
    ({"doc": "…", "doc_ja": "…", "default": "random"}, "default_ja"),
    ({"doc": "…", "doc_ja": "…", "value": ["seer", "medium"]}, "default_ja"),
    ({"doc": "…", "doc_ja": "…", "cites": "house rule"}, "cites_ja"),
    ({"doc": "…", "doc_ja": "…", "help": "A timer.", "flag_doc": "argument of `play`"}, "flag_doc_ja"),
])
def test_a_declaration_without_its_japanese_words_is_one_line_naming_the_field(docs, monkeypatch, capsys, spec, field):
    from narrator.settings import declare

    (tiny,) = declare({"tiny_timer": spec})
    monkeypatch.setattr(docs_settings, "declared", lambda: [*declared(), tiny])
    assert docs_settings.main(["--check"], docs) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"scripts/docs-settings: tiny_timer declares no `{field}` (its Japanese docs row's ")
    assert err.endswith(f"declare it beside `{field.removesuffix('_ja')}`\n") and err.count("\n") == 1


def test_english_code_and_numbers_need_no_japanese_twin():
    """`auto`, 1.0, 60, 10 and true read alike in both languages: only words are declared twice."""
    from narrator.settings import declare

    (tiny,) = declare({"tiny_timer": {"doc": "…", "doc_ja": "小さなタイマー", "default": "`auto`", "cites": "P-BM-2",
                                      "help": "A timer.", "form": "S"}})
    assert docs_settings.row(tiny, docs_settings.JA_COLUMNS, tiny.page_ja) == \
        "| `tiny_timer`(P-BM-2) | `--tiny-timer S` | `auto` | 小さなタイマー |"
    (bare,) = declare({"tiny_timer": {"doc": "…", "doc_ja": "小さなタイマー", "value": [60, 10]}})
    assert docs_settings.row(bare, docs_settings.JA_COLUMNS, bare.page_ja) == "| `tiny_timer` | なし | 60, 10 | 小さなタイマー |"
    (unset,) = declare({"tiny_timer": {"doc": "…", "doc_ja": "小さなタイマー", "default": "none"}})
    assert docs_settings.row(unset, ("項目", "既定値"), unset.page_ja) == "| `tiny_timer` | なし |"


def test_a_japanese_table_no_page_marks_names_the_japanese_page(docs, monkeypatch):
    extra = Setting("tiny_timer", doc="…", doc_ja="…", page="history.md", page_ja="ja/tiny.md")
    monkeypatch.setattr(docs_settings, "declared", lambda: [*declared(), extra])
    with pytest.raises(docs_settings.Stale, match="no page of docs/ja marks the settings table ja/tiny.md; "
                                                  ".* to docs/ja/tiny.md$"):
        docs_settings.stale(docs)


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
    ({"doc_ja": ["秒"]}, "doc_ja is text"),
])
def test_a_declaration_of_the_wrong_type_is_one_line_naming_the_field(spec, named):
    """A declaration is untrusted TOML (a game from outside brings its own): a field of the wrong
    type is refused where it is declared, not carried into a flag's help or a docs row."""
    from narrator.errors import SetupError
    from narrator.settings import declare

    with pytest.raises(SetupError, match=f"setting x: {named}"):
        declare({"x": spec})


def test_a_declared_bound_may_name_a_max_constant():
    from narrator.settings import declare
    from narrator.values.readers import MAX_TIMER

    (setting,) = declare({"x": {"low": 0, "high": "MAX_TIMER", "value": [60, 10]}})
    assert (setting.low, setting.high, setting.value, setting.default) == (0, MAX_TIMER, (60, 10), "60, 10")
