"""Issue 13: absurd numbers, odd files and scripts that used to hang, through real processes.
Every run ends in time, with exit 0, or one `error:` line and exit 2 or 3, and a refused
setup saves nothing."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # every case through a real narrator process

NAMES = "Aki,Ben,Chika,Dai,Emi"


def narrator(*args, home, timeout=60):
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    proc = subprocess.run([sys.executable, "-m", "narrator", *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    if proc.returncode in (2, 3):
        assert len([line for line in proc.stderr.splitlines() if line.startswith("error:")]) == 1, proc.stderr
    return proc


def play(tmp_path, *args, answers="done\n", game="additional-werewolf"):
    (tmp_path / "a.txt").write_text(answers, encoding="utf-8")
    names = ["--names", NAMES] if game == "additional-werewolf" else []
    return narrator("play", game, *names, "--voice", "text", "--time-scale", "0", "--no-keyboard",
                    "--answers", str(tmp_path / "a.txt"), *args, home=tmp_path / "home")


def nothing_saved(tmp_path):
    games = tmp_path / "home" / "games"
    return not games.exists() or not list(games.iterdir())


@pytest.mark.parametrize("args,message", [
    (["--countdown", "1e9"], "countdown must be a whole number"),
    (["--countdown", "1000000000"], "countdown must be at most 600"),
    (["--look", "100000"], "look must be at most 600"),
    (["--strategist", "1e300"], "strategist must be a whole number"),
    (["--days", "31"], "days must be at most 30"),
    (["--discussion", "-1"], "discussion must be at least 0"),
    (["--countdowns", "seer=0"], "countdowns seer=0: a card's countdown is at least 1 second; leave seer out"),
    (["--time-scale", "inf"], "time_scale must be between 0 and 10"),
    (["--time-scale", "nan"], "time_scale must be between 0 and 10"),
    (["--time-scale", "-1"], "time_scale must be between 0 and 10"),
    (["--volume", "nan"], "volume must be between 0 and 2"),
    (["--port", "99999"], "port must be between 0 and 65535"),
    (["--audio", "bogus"], "audio must be one of auto, null, device"),
    (["--warnings", "0"], "warnings must be at least 1"),
    (["--seed", str(2**300)], "seed must be at most"),
])
def test_absurd_flags_are_refused_before_anything_is_saved(tmp_path, args, message):
    proc = play(tmp_path, *args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert nothing_saved(tmp_path)


@pytest.mark.parametrize("table,message", [
    ("countdown = true\n", "countdown must be a whole number, not 'True'"),
    ("days = 2.5\n", "days must be a whole number"),
    ("look = inf\n", "look must be a whole number"),
    ("night_done = 1\n", "night_done must be true or false"),
    ("volume = true\n", "volume must be a number"),
    ("players = true\n", "players must be a whole number"),
    ("[countdowns]\nseer = 0\n", "countdowns seer=0: a card's countdown is at least 1 second; leave seer out"),
    ("players = " + "[" * 3000 + "\n", "table file"),
])
def test_table_file_values_that_do_not_fit_are_one_line(tmp_path, table, message):
    (tmp_path / "table.toml").write_text(table, encoding="utf-8")
    proc = play(tmp_path, "--table", str(tmp_path / "table.toml"))
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert nothing_saved(tmp_path)


def test_discussion_0_is_accepted(tmp_path):
    assert play(tmp_path, "--discussion", "0").returncode == 3  # played until the answers ran out


def test_a_large_seed_is_accepted(tmp_path):
    assert play(tmp_path, "--seed", str(2**128 - 1)).returncode == 3


@pytest.mark.parametrize("which", ["table", "answers"])
def test_dev_zero_and_non_utf8_files_are_one_line(tmp_path, which):
    (tmp_path / "bad.txt").write_bytes(b"done\n\xff\xfe\n")
    for path, message in (("/dev/zero", "larger than 1024 KiB"), (str(tmp_path / "bad.txt"), "line 2 is not UTF-8")):
        args = ["--table", path] if which == "table" else ["--answers", path]
        proc = play(tmp_path, *args)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
        assert nothing_saved(tmp_path)


@pytest.mark.parametrize("answers", ["done\npause\n", "done\np\n", "pause\n"])
def test_a_pause_nothing_is_left_to_end_stops_with_exit_3(tmp_path, answers):
    proc = play(tmp_path, answers=answers, game="pagan")
    assert proc.returncode == 3 and "paused" in proc.stderr, proc.stderr


def test_a_pause_line_lasts_until_the_next_line(tmp_path):
    proc = play(tmp_path, answers="done\npause\ndone\np\nresume\ndone\n", game="pagan")
    assert proc.returncode == 3, proc.stderr  # three answers used, then dry at the fourth question
    assert "no listener is left to answer" in proc.stderr


def test_a_plain_answers_file_for_bestia_magica_names_its_line(tmp_path):
    proc = narrator("play", "bestia-magica", "--names", "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana", "--seed", "3",
                    "--voice", "text", "--time-scale", "0", "--no-keyboard",
                    "--answers", str(_write(tmp_path / "a.txt", "done\nyes\n")), home=tmp_path / "home")
    assert proc.returncode == 2 and "line 1" in proc.stderr and "JSON Lines" in proc.stderr, proc.stderr


def test_a_json_answers_file_for_a_game_that_asks_questions_is_one_line(tmp_path):
    path = _write(tmp_path / "a.jsonl", '{"night": 1, "player": "Aki", "target": "Ben", "ability": false}\n')
    proc = narrator("play", "pagan", "--voice", "text", "--time-scale", "0", "--no-keyboard", "--answers", str(path),
                    home=tmp_path / "home")
    assert proc.returncode == 2 and "one answer per line" in proc.stderr, proc.stderr


def test_deeply_nested_json_answers_are_one_line(tmp_path):
    path = _write(tmp_path / "a.jsonl", "{" + '"a":' * 1 + "[" * 100000 + "\n")
    proc = narrator("play", "bestia-magica", "--names", "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana", "--voice", "text",
                    "--time-scale", "0", "--no-keyboard", "--answers", str(path), home=tmp_path / "home")
    assert proc.returncode == 2 and "line 1" in proc.stderr, proc.stderr


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path
