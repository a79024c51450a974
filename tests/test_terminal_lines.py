"""The program's own terminal lines in the table's language (issue 37, item 9).

Every key of narrator/terminal/lines.toml is walked in both languages (a new line cannot forget its
Japanese), every key the code and scripts/setup print exists there, and the language is the
table's (`lang` of the table file), else the locale's, else English. The CLI tests run the real
`narrator` in a bounded subprocess: Ctrl-C, resume, doctor, a missing speech model, dry run.
"""

from __future__ import annotations

import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator import terminal
from narrator.cli import main

REPO = Path(__file__).resolve().parent.parent
VENV_PYTHON = sys.executable
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
SAME_IN_EVERY_LANGUAGE = {"error", "warning", "doctor_optional"}
"""Lines that are only a token and a param (`error: {message}`) or a mark: nothing to translate."""


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_has_both_languages_with_the_same_params():
    table = terminal.lines()
    assert set(table) == set(terminal.LANGS)
    assert set(table["ja"]) == set(table["en"])
    for key, english in table["en"].items():
        japanese = table["ja"][key]
        assert fields(japanese) == fields(english), key
        if key not in SAME_IN_EVERY_LANGUAGE:
            assert japanese != english and (JAPANESE.search(japanese) or not fields(english) and len(english) < 12), key


def used_keys() -> dict[str, set[str]]:
    """Every key the code prints by `said(...)`/`.said(...)` and scripts/setup by `line`/`tell`."""
    found: dict[str, set[str]] = {}
    for path in [*(REPO / "narrator").rglob("*.py")]:
        for key in re.findall(r"""\bsaid(?:_in)?\((?:[a-z_]+, )?["']([a-z_]+)["']""", path.read_text(encoding="utf-8")):
            found.setdefault(key, set()).add(str(path.relative_to(REPO)))
        for key in re.findall(r"""said\(\s*["']([a-z_]+)["'] if .+? else ["']([a-z_]+)["']""", path.read_text(encoding="utf-8")):
            for each in key:
                found.setdefault(each, set()).add(str(path.relative_to(REPO)))
    setup = (REPO / "scripts/setup").read_text(encoding="utf-8")
    for key in re.findall(r"(?:\bline|\btell) (setup_[a-z_]+)", setup):
        found.setdefault(key, set()).add("scripts/setup")
    return found


def test_every_key_printed_is_in_the_file_and_every_line_is_printed():
    used = used_keys()
    known = set(terminal.lines()["en"])
    assert not {k: v for k, v in used.items() if k not in known}
    code = "".join(path.read_text(encoding="utf-8") for path in (REPO / "narrator").rglob("*.py"))
    areas = {k for k in known if k.startswith("area_")}  # the doctor's areas, by the finding's area
    unused = {k for k in known - set(used) - areas if f'"{k}"' not in code}
    assert unused == set()


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "C.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "ja_JP.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({}, None),
])
def test_the_locale_that_words_messages(env, expected):
    assert terminal.locale_lang(env) == expected


def test_the_table_file_beats_the_locale_and_the_table_beats_both(narrator_home, monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert terminal.terminal_lang() == "ja"
    narrator_home.mkdir(parents=True, exist_ok=True)
    (narrator_home / "table.toml").write_text('lang = "en"\n', encoding="utf-8")
    assert terminal.terminal_lang() == "en"
    (narrator_home / "table.toml").write_text("lang = \n", encoding="utf-8")  # broken: the locale's
    assert terminal.terminal_lang() == "ja"
    terminal.choose("en")
    assert terminal.said("stopped") == "stopped"


# --- the CLI in a real process -------------------------------------------------------------

def run(args: list[str], home: Path, lang_env: str = "C.UTF-8", timeout: float = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env.update({"LANG": lang_env, "NARRATOR_HOME": str(home), "PYTHONPATH": str(REPO)})
    return subprocess.run([VENV_PYTHON, "-m", "narrator", *args], env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def ja_table(home: Path) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "table.toml"
    path.write_text('lang = "ja"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["table", "locale", "english"])
def test_a_missing_speech_model_is_said_in_the_tables_language(tmp_path, how):
    home = tmp_path / "home"
    if how == "table":
        ja_table(home)
    done = run(["listen", "--lang", "ja"], home, "ja_JP.UTF-8" if how == "locale" else "C.UTF-8")
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    if how == "english":
        assert done.stderr.startswith("error: no speech model for 'ja' in "), done.stderr
    else:
        assert done.stderr.startswith("error: ") and "「ja」の音声認識モデルがありません" in done.stderr, done.stderr
        assert "models install ja" in done.stderr  # the command, as it is in every language


def test_a_broken_model_folder_is_said_in_japanese(tmp_path):
    done = run(["listen", "--lang", "ja", "--model", str(tmp_path)], tmp_path / "home", "ja_JP.UTF-8")
    assert "vosk のモデルのフォルダーではありません" in done.stderr, done.stderr


@pytest.mark.parametrize("how", ["table", "locale", "english"])
def test_a_dry_run_and_its_refusal_in_the_tables_language(tmp_path, how):
    home = tmp_path / "home"
    table = ja_table(tmp_path / "elsewhere") if how == "table" else None
    args = ["play", "additional-werewolf", "--players", "5", "--dry-run", *(["--table", str(table)] if table else [])]
    done = run(args, home, "ja_JP.UTF-8" if how == "locale" else "C.UTF-8")
    last = done.stderr.strip().splitlines()[-1]
    if how == "english":
        assert last == "additional-werewolf: the setup is valid (dry run: nothing played, nothing saved)", done.stderr
    elif how == "table":
        assert last.startswith("additional-werewolf: この設定で遊べます") and "から読みました" in last, done.stderr
    else:
        assert last == "additional-werewolf: この設定で遊べます（お試し: 何も進めず、何も保存していません）", done.stderr


@pytest.mark.parametrize("how", ["table", "locale", "english"])
def test_the_doctor_reports_in_the_tables_language(tmp_path, monkeypatch, how):
    """In-process (the real checks take a minute on a loaded machine): the audio check, no speaker."""
    from narrator.sound import doctor

    monkeypatch.setattr(doctor, "CHECKS", [doctor.check_audio])
    monkeypatch.setattr("narrator.sound.outputs.output_devices", lambda: [])
    monkeypatch.setattr("narrator.sound.outputs.import_sounddevice", lambda: None)
    if how == "table":
        ja_table(Path(os.environ["NARRATOR_HOME"]))
    if how == "locale":
        monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 0, result.output
    if how == "english":
        assert result.stdout.splitlines() == [
            "ok  audio: PortAudio and sounddevice: installed", "--  audio: no audio output device",
            "      fix: connect a speaker (USB or 3.5 mm), or play with --audio null / --audio-out FILE.wav"]
        assert result.stderr == "everything needed is here\n"
    else:
        assert result.stdout.splitlines() == [
            "OK  音声出力: PortAudio と sounddevice: 入っています", "--  音声出力: 音声の出力デバイスがありません",
            "      直し方: スピーカー（USB か 3.5 mm）をつなぐか、--audio null / --audio-out FILE.wav で遊んでください"]
        assert result.stderr == "必要なものはすべてそろっています\n"


def interrupted_game(args: list[str], home: Path, lang_env: str, transcript: Path, skip: int = 0) -> str:
    """Run `narrator ARGS` at a terminal (a pty) until its (skip+1)th spoken line, press Ctrl-C;
    its stderr. Bounded: every wait has a timeout and the process is reaped."""
    import pty
    import signal

    from tests.clock_helpers import records, wait_until
    from tests.processes import started

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env.update({"LANG": lang_env, "NARRATOR_HOME": str(home), "PYTHONPATH": str(REPO)})
    game = started([VENV_PYTHON, "-m", "narrator", *args], stdin=slave, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        try:
            wait_until(lambda: len([r for r in records(transcript) if r["kind"] == "say"]) > skip or None,
                       "a line is said", alive=lambda: game.poll() is None)
        except AssertionError:
            raise AssertionError(game.communicate(timeout=60)[1].decode()) from None
        os.killpg(game.pid, signal.SIGINT)
        _, err = game.communicate(timeout=60)
    finally:
        if game.poll() is None:
            os.killpg(game.pid, signal.SIGKILL)
            game.communicate(timeout=30)
        os.close(master)
        os.close(slave)
    assert game.returncode == 130, err
    return err.decode()


@pytest.mark.slow
@pytest.mark.parametrize("how", ["table", "locale", "english"])
def test_ctrl_c_and_resume_in_the_tables_language(tmp_path, how):
    home = tmp_path / "home"
    transcript = tmp_path / "transcript.jsonl"
    table = ["--table", str(ja_table(tmp_path / "elsewhere"))] if how == "table" else []
    lang_env = "ja_JP.UTF-8" if how == "locale" else "C.UTF-8"
    err = interrupted_game(["play", *table, "--voice", "text", "--audio", "null", "--transcript", str(transcript)], home, lang_env, transcript)
    game_id = re.search(r"(\d{8}-\d{6}-[0-9a-f]+)", err).group(1)
    if how == "english":
        assert f"game {game_id} saved in " in err and "stopped: the game is saved; continue it with `" in err, err
    else:
        assert f"ゲーム {game_id} を " in err and "に保存しています" in err, err
        assert "止めました。ゲームは保存されています。続きは `" in err and " resume` で始められます" in err, err
    said_before = len([line for line in transcript.read_text().splitlines() if '"say"' in line])
    err = interrupted_game(["resume", "--transcript", str(transcript)], home, lang_env, transcript, skip=said_before)
    if how == "english":
        assert f"resuming game {game_id}" in err and "stopped: the game is saved" in err, err
    else:
        assert f"ゲーム {game_id} を再開します" in err and "止めました。ゲームは保存されています" in err, err


@pytest.mark.slow
@pytest.mark.parametrize("how", ["table", "locale", "english"])
def test_setup_says_not_ready_in_the_tables_language(tmp_path, how):
    """scripts/setup with fake apt, pip and narrator (tests/setup_fakes.py): the model fails."""
    from tests.setup_fakes import Fakes, make_checkout, run_script

    checkout = make_checkout(tmp_path)
    if how == "table":  # setup's home is $HOME's (NARRATOR_HOME is not passed): the table file there
        ja_table(tmp_path / "home" / ".local" / "share" / "narrator")
    env = {"LANG": "ja_JP.UTF-8" if how == "locale" else "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    done = run_script(checkout, "setup", ["--no-link", "--no-service", "--model"], Fakes(model_rc=1, extra_env=env))
    assert done.returncode == 1, done.stderr[-2000:]
    if how == "english":
        assert done.last_line.startswith("setup: not ready: the speech model (--model) is not installed"), done.stderr
        assert "setup: installing narrator and its engines into .venv" in done.stderr
    else:
        assert done.last_line.startswith("setup: 準備できていません: 音声認識モデル（--model）が入っていません"), done.stderr
        assert done.last_line.endswith("直し方: narrator models install ja") or "models install ja" in done.last_line
        assert "setup: narrator と音声エンジンを .venv に入れています" in done.stderr


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_appliance_logs_its_game_in_the_tables_language(narrator_home, tmp_path, lang):
    """`narrator serve` on a fresh appliance: its table file (Japanese by default, or set to
    English) words the log lines of the game it saves and plays."""
    from narrator.appliance.serve import ServeOptions, serve
    from narrator.appliance.table import ensure_table

    path = ensure_table()
    if lang == "en":
        path.write_text(path.read_text(encoding="utf-8").replace('lang = "ja"', 'lang = "en"'), encoding="utf-8")
    answers = tmp_path / "answers.txt"
    answers.write_text("yes\ndone\nyes\n", encoding="utf-8")
    logged: list[str] = []
    opts = {"voice": "text", "time_scale": "0", "answers": str(answers), "transcript": str(tmp_path / "t.jsonl")}
    assert serve(ServeOptions(once=True, keyboard=False, buttons=False, overrides=opts), log=logged.append) == 1
    saved = [line for line in logged if line.startswith(("game ", "ゲーム "))]
    if lang == "ja":
        assert any(re.fullmatch(r"ゲーム \S+（additional-werewolf、5人）を \S+ に保存しています", line) for line in saved), logged
    else:
        assert any(re.fullmatch(r"game \S+ \(additional-werewolf, 5 players\) saved in \S+", line) for line in saved), logged
