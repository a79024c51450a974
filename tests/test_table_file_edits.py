"""Edits of the table file (issue 23): through tomlkit, so comments and a value written over
several lines survive; under a lock beside the file, so two writers at once (a phone, `config
set`, the service) never lose a change; Japanese keys (`config set cards.占い師 1`)."""

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.appliance import table
from narrator.cli import main
from tests.processes import started

ROOT = Path(__file__).resolve().parents[1]
WORKER = textwrap.dedent("""\
    import sys
    from narrator.cli import main
    who, count = sys.argv[1], int(sys.argv[2])
    print("ready", flush=True)
    sys.stdin.read(1)  # both workers start their edits together
    for i in range(count):
        try:
            main(["config", "set", f"name_readings.{who}{i}", "よみ"], standalone_mode=False)
        except SystemExit as stop:
            if stop.code:
                raise
""")


def cli(*args):
    return CliRunner().invoke(main, list(args))


def run_writers(home: Path, count: int, pythonpath: str = str(ROOT)) -> dict:
    """Two processes, each doing `count` `config set` at once on the same table file."""
    env = {"NARRATOR_HOME": str(home), "PYTHONPATH": pythonpath, "PATH": "/usr/bin:/bin"}
    workers = [started([sys.executable, "-c", WORKER, who, str(count)], env=env, cwd=ROOT, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for who in ("a", "b")]
    for worker in workers:
        assert worker.stdout.readline().strip() == "ready", worker.stderr.read()
    for worker in workers:
        worker.stdin.write("g")
        worker.stdin.close()
    for worker in workers:
        assert worker.wait(timeout=300) == 0, worker.stderr.read()
        worker.stdout.close()
        worker.stderr.close()
    return tomllib.loads((home / "table.toml").read_text(encoding="utf-8"))


@pytest.mark.slow
def test_two_processes_editing_at_once_lose_no_change(narrator_home):
    cli("config", "show")
    readings = run_writers(narrator_home, 20).get("name_readings", {})
    assert sorted(readings) == sorted(f"{w}{i}" for w in "ab" for i in range(20))


@pytest.mark.slow
def test_without_the_lock_concurrent_edits_are_lost(narrator_home):
    """The protection shown to matter: the same two writers, with the lock made a no-op in the
    workers (a sitecustomize on their path), lose changes."""
    patch = narrator_home.parent / "nolock"
    patch.mkdir()
    (patch / "sitecustomize.py").write_text(textwrap.dedent("""\
        import contextlib
        from narrator.appliance import table
        table.locked = lambda path: contextlib.nullcontext()
    """))
    lost = []
    for _ in range(3):  # a lost update needs the two edits to interleave; three tries make it sure
        (narrator_home / "table.toml").unlink(missing_ok=True)
        cli("config", "show")
        lost.append(40 - len(run_writers(narrator_home, 20, f"{patch}:{ROOT}").get("name_readings", {})))
        if lost[-1]:
            break
    assert max(lost) > 0, "without the lock no change was lost: this test shows nothing"


MULTI_LINE = textwrap.dedent("""\
    # our Friday table
    game = "additional-werewolf"
    lang = "ja"
    names = [
        "Aki",    # the host
        "心愛:ここあ",
        "Ben",
        "Chika",
        "Dai",
    ]

    [appliance]
    button_pin = 17  # the red one
    """)


def test_a_multi_line_value_and_its_comments_survive_an_edit_of_another_key(narrator_home):
    path = narrator_home / "table.toml"
    narrator_home.mkdir(parents=True)
    path.write_text(MULTI_LINE, encoding="utf-8")
    assert cli("config", "set", "discussion", "120").exit_code == 0
    assert cli("config", "set", "appliance.hold_time", "1.5").exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith(MULTI_LINE.split("\n[appliance]")[0])  # names = [ … ] as it was written
    assert "button_pin = 17  # the red one" in text
    data = tomllib.loads(text)
    assert data["discussion"] == 120 and data["appliance"]["hold_time"] == 1.5
    assert data["names"][1] == "心愛:ここあ"
    assert cli("config", "unset", "discussion").exit_code == 0
    assert path.read_text(encoding="utf-8").startswith(MULTI_LINE.split("\n[appliance]")[0])


def test_config_set_takes_japanese_card_names_and_edits_the_entry_already_there(narrator_home):
    assert cli("config", "set", "players", "6").exit_code == 0
    result = cli("config", "set", "cards", "占い師=1,霊能者=1,香具師=1,幻影魔導師=2,策士=1")
    assert result.exit_code == 0, result.stderr
    result = cli("config", "set", "countdowns.占い師", "20")
    assert result.exit_code == 0, result.stderr
    result = cli("config", "set", "countdowns.seer", "25")  # the same card: the entry is changed, not doubled
    assert result.exit_code == 0, result.stderr
    path = narrator_home / "table.toml"
    assert tomllib.loads(path.read_text(encoding="utf-8"))["countdowns"] == {"占い師": 25}
    shown = cli("play", "--dry-run")
    assert shown.exit_code == 0 and "霊能者1枚" in shown.stdout
    assert cli("config", "unset", "countdowns.うらないし").exit_code == 0
    assert tomllib.loads(path.read_text(encoding="utf-8"))["countdowns"] == {}


def test_config_set_changes_cards_one_by_one_in_one_checked_save(narrator_home):
    """Card counts must add up to the players, so one card alone cannot change: `config set`
    takes several KEY VALUE pairs and saves them as one checked change."""
    assert cli("config", "set", "cards", "占い師=1,香具師=1,幻影魔導師=2,策士=1").exit_code == 0
    alone = cli("config", "set", "cards.占い師", "2")
    assert alone.exit_code == 2 and "5人にアディショナルカードが6枚です" in alone.stderr  # the default table is Japanese
    result = cli("config", "set", "cards.占い師", "2", "cards.げんえいまどうし", "1")
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads((narrator_home / "table.toml").read_text(encoding="utf-8"))
    assert data["cards"] == {"占い師": 2, "香具師": 1, "幻影魔導師": 1, "策士": 1}
    odd = cli("config", "set", "cards.占い師")
    assert odd.exit_code == 2 and "KEY VALUE" in odd.stderr
    assert "組を渡してください" in odd.stderr  # in the table's language (terminal/lines.toml), not in code


def test_one_card_changed_in_a_file_without_cards_edits_the_recommended_set(narrator_home):
    """A file that leaves `cards` unset plays the recommended set for its count (the host screen
    shows it, the read-back says it), so changing one card edits that set, not an empty one."""
    cli("config", "show")
    alone = cli("config", "set", "cards.占い師", "2")  # 6 cards of the set the host sees, not "2"
    assert alone.exit_code == 2 and "5人にアディショナルカードが6枚です" in alone.stderr, alone.stderr
    result = cli("config", "set", "cards.占い師", "2", "cards.策士", "0")
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads((narrator_home / "table.toml").read_text(encoding="utf-8"))
    assert data["cards"] == {"seer": 2, "peddler": 1, "phantom_mage": 2, "strategist": 0}
    assert "roles" not in data  # only the section changed is written


def test_a_card_changed_with_the_count_starts_from_the_new_counts_set(narrator_home):
    """`players` is applied first, whatever the order typed: the set edited is the new count's."""
    cli("config", "show")
    result = cli("config", "set", "cards.霊能者", "0", "cards.占い師", "2", "players", "6")
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads((narrator_home / "table.toml").read_text(encoding="utf-8"))
    assert data["cards"] == {"seer": 2, "medium": 0, "peddler": 1, "phantom_mage": 2, "strategist": 1}
    assert data["players"] == 6


@pytest.mark.parametrize("key, value, message", [
    ("countdowns.占い", "20", "カウントダウンの「占い」というアディショナルカードはありません。「占い師」のことですか？"),
    ("cards.x.y", "1", "「cards.x.y」はテーブルファイルの設定名ではありません"),
])
def test_a_bad_japanese_key_is_one_line_and_the_file_is_unchanged(narrator_home, key, value, message):
    cli("config", "show")
    path = narrator_home / "table.toml"
    before = path.read_bytes()
    result = cli("config", "set", key, value)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and path.read_bytes() == before


def test_the_lock_file_sits_beside_the_table_file(narrator_home):
    cli("config", "set", "players", "6")
    assert table.lock_path(narrator_home / "table.toml").parent == narrator_home


def test_a_multi_line_value_is_replaced_whole(narrator_home):
    """Setting the key written over several lines replaces all of it (line by line, its first
    line alone was replaced and the rest left behind as broken TOML)."""
    path = narrator_home / "table.toml"
    narrator_home.mkdir(parents=True)
    path.write_text(MULTI_LINE, encoding="utf-8")
    result = cli("config", "set", "names", '["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi"]')
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["names"] == ["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi"]
    assert path.read_text(encoding="utf-8").startswith("# our Friday table\n")
    assert cli("config", "unset", "names").exit_code == 0
    assert "names" not in tomllib.loads(path.read_text(encoding="utf-8"))


def test_play_dry_run_shows_the_home_table_file_and_flags_beat_it(narrator_home):
    """`narrator play` without --table plays the appliance's table file (it printed the
    5-player default instead of the host's 6)."""
    default = cli("play", "--dry-run")
    assert cli("config", "set", "players", "6").exit_code == 0
    six = cli("play", "--dry-run")
    assert default.exit_code == six.exit_code == 0
    assert "市民3枚、裏切り者1枚" in default.stdout and "市民3枚、裏切り者2枚" in six.stdout
    assert "霊能者1枚" in six.stdout  # the recommended set for 6
    # the home table file's language (ja) is the terminal's too (narrator/terminal/lines.py)
    assert f"table file {narrator_home / 'table.toml'} から読みました" in six.stderr
    assert "から読みました" not in default.stderr and "read from" not in default.stderr  # no table file yet
    seven = cli("play", "--players", "7", "--dry-run")
    assert seven.exit_code == 0 and "恋人2枚" in seven.stdout  # a flag beats the file
    english = cli("play", "--lang", "en", "--dry-run")
    assert english.exit_code == 0 and "2 traitors" in english.stdout


def test_play_of_another_game_keeps_only_how_the_table_runs(narrator_home):
    assert cli("config", "set", "players", "6", "discussion", "120", "lang", "en").exit_code == 0
    result = cli("play", "bestia-magica", "--players", "5", "--dry-run", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert "set up for additional-werewolf; its discussion, players are not used for bestia-magica" in result.stderr
    assert result.stdout.startswith("The role cards in this game: ")  # the home's lang (en) still applies


def test_a_broken_home_table_file_is_one_line_naming_the_fix(narrator_home):
    narrator_home.mkdir(parents=True)
    (narrator_home / "table.toml").write_text("players = [\n", encoding="utf-8")
    result = cli("play", "--dry-run")
    assert result.exit_code == 2 and "fix it with `narrator config edit`" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.slow  # the editor is a real process
def test_config_edit_never_overwrites_a_change_made_while_the_editor_was_open(narrator_home, tmp_path):
    cli("config", "show")
    path = narrator_home / "table.toml"
    editor = tmp_path / "editor.py"  # edits the draft while a phone changes the table file
    editor.write_text(textwrap.dedent(f"""\
        import sys
        from narrator.appliance import table
        table.update_table(table.Path({str(path)!r}), {{"discussion": 99}})
        open(sys.argv[1], "a").write("days = 2\\n")
    """))
    result = CliRunner().invoke(main, ["config", "edit"],
                                env={"EDITOR": f"{sys.executable} {editor}", "VISUAL": "", "PYTHONPATH": str(ROOT)})
    assert result.exit_code == 2 and "changed while you edited it" in result.stderr, result.stderr
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["discussion"] == 99 and "days" not in data
    [draft] = narrator_home.glob("table-*.toml")
    assert "days = 2" in draft.read_text(encoding="utf-8") and str(draft) in result.stderr
