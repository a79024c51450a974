"""The CLI through click's CliRunner: whole games, table files, flags, errors, undo, resume."""

import json

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.table.saved_games import saved_games
from narrator.table.transcript import read_transcript

NAMES = "Aki,Ben,Chika,Dai,Emi"


def play(tmp_path, *args, answers=None, table=None):
    argv = ["play", "--voice", "text", "--time-scale", "0", "--no-keyboard",
            "--transcript", str(tmp_path / "t.jsonl")]
    if answers is not None:
        (tmp_path / "answers.txt").write_text(answers, encoding="utf-8")
        argv += ["--answers", str(tmp_path / "answers.txt")]
    if table is not None:
        (tmp_path / "table.toml").write_text(table, encoding="utf-8")
        argv += ["--table", str(tmp_path / "table.toml")]
    return CliRunner().invoke(main, argv + list(args), catch_exceptions=False)


def test_whole_game_with_names_ends_with_citizens(tmp_path):
    answers = "# a table\ndone\n\nChika\nno\nno\ndone\nAki, Ben\nyes\n"
    result = play(tmp_path, "--names", NAMES, answers=answers)
    assert result.exit_code == 0, result.output
    records = read_transcript(tmp_path / "t.jsonl")
    end = records[-1]
    assert end["kind"] == "end" and end["winner"] == "citizens" and end["lovers_lose"] is False
    assert end["day"] == 2 and end["night"] == 2
    answered = [r["value"] for r in records if r["kind"] == "answer"]
    assert answered == ["done", ["Chika"], "no", "no", "done", ["Aki", "Ben"], "yes"]
    ts = [r["t"] for r in records]
    assert ts == sorted(ts)
    for r in records:
        assert {"kind", "line", "text", "t", "night", "day"} <= set(r)
    assert [r["choices"] for r in records if r["kind"] == "ask"][0] == ["done"]
    assert "人狼が見つかりました" in result.output


def test_english_game_without_names(tmp_path):
    result = play(tmp_path, "--lang", "en", "--days", "1", answers="done\nno\nno\n")
    assert result.exit_code == 0
    assert "The traitors and werewolves win" in result.output
    assert read_transcript(tmp_path / "t.jsonl")[-1]["winner"] == "werewolves"


def test_table_file_sets_everything_and_flags_override(tmp_path):
    table = """
lang = "en"
names = ["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi"]
days = 2
countdown = 4
discussion = 90
warnings = [30]
night_order = ["lovers", "seer", "medium", "peddler", "phantom_mage"]
[roles]
citizen = 3
traitor = 2
werewolf = 1
[cards]
seer = 1
peddler = 1
phantom_mage = 1
strategist = 1
lovers = 2
[countdowns]
lovers = 3
"""
    result = play(tmp_path, "--countdown", "6", answers="done\nAki\nyes\nyes\n", table=table)
    assert result.exit_code == 0, result.output
    records = read_transcript(tmp_path / "t.jsonl")
    says = [r["line"] for r in records if r["kind"] == "say"]
    assert says.index("lovers.wake") < says.index("seer.wake")
    # each countdown's first tick says its length: lovers' own 3 s, and --countdown 6 beats the file's 4
    firsts = [int(r["text"]) for i, r in enumerate(records)
              if r["kind"] == "tick" and records[i - 1]["kind"] != "tick"]
    after_lovers = firsts[firsts.index(3) + 1] if 3 in firsts else None
    assert firsts[0] == 10  # looking at the dealt cards (the `look` default)
    assert 3 in firsts and after_lovers == 6 and 4 not in firsts
    timer = next(r for r in records if r["kind"] == "timer")
    assert timer["seconds"] == 90
    assert [r["seconds_left"] for r in records if r["line"] == "timer.warning"] == [30]
    assert records[-1]["lovers_lose"] is True


@pytest.mark.parametrize("table, args, message", [
    ("players = 5\n[cards]\nsear = 1\n", [], "unknown additional card 'sear'"),
    ("players = [5\n", [], "is not valid TOML"),
    ("players = 5\n", ["--roles", "citizen=1,werewolf=1"], "2 role cards for 5 players"),
    ("players = 5\nlang = 'fr'\n", [], "unknown language 'fr'"),
    ("players = 5\nmystery = 1\n", [], "unknown option 'mystery'"),
    (None, ["--cards", "seer=1,peddler=1,phantom_mage=1,lovers=1,strategist=1"], "lovers come in pairs"),
])
def test_bad_setups_exit_2_with_one_line_before_anything_is_said(tmp_path, table, args, message):
    result = play(tmp_path, *args, answers="done\n", table=table)
    assert result.exit_code == 2
    lines = [l for l in result.output.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert not (tmp_path / "t.jsonl").exists()


def test_missing_table_file_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["play", "--table", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2 and "table file" in result.output and "not found" in result.output


def test_unknown_game_is_refused(tmp_path):
    result = play(tmp_path, "chess")
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output


def test_garbled_scripted_answer_names_the_line_and_loses_nothing(tmp_path, narrator_home):
    result = play(tmp_path, "--names", NAMES, answers="done\nZed\n")
    assert result.exit_code == 2
    assert "line 2" in result.output and "'Zed'" in result.output and "Aki" in result.output
    # the game is saved at the question; fixing the file and resuming goes on from there
    (tmp_path / "fixed.txt").write_text("done\nAki\nyes\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", "--answers", str(tmp_path / "fixed.txt"), "--no-keyboard"])
    assert result.exit_code == 0, result.output
    records = read_transcript(tmp_path / "t.jsonl")
    assert [r["value"] for r in records if r["kind"] == "answer"] == ["done", ["Aki"], "yes"]
    assert records[-1]["winner"] == "citizens"


def test_running_out_of_answers_stops_cleanly_and_resume_finishes(tmp_path, narrator_home):
    result = play(tmp_path, answers="done\nno\n")
    assert result.exit_code == 3 and "narrator resume" in result.output
    [store] = saved_games(narrator_home)
    assert not store.meta["finished"]
    (tmp_path / "more.txt").write_text("done\nno\nno\ndone\nyes\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", "--answers", str(tmp_path / "more.txt"), "--no-keyboard"])
    assert result.exit_code == 0, result.output
    records = read_transcript(tmp_path / "t.jsonl")
    recap = [r for r in records if r["line"].startswith("resume.")]
    assert len(recap) == 1
    # the strategist question was open when the answers ran out: the file is the whole game's,
    # the two answers already used are skipped and the open question is asked again
    assert [r["value"] for r in records if r["kind"] == "answer"] == ["done", "no", "no", "done", "yes"]
    assert [r["line"] for r in records if r["kind"] == "ask"].count("strategist.question") == 2
    assert store.meta["finished"] and store.meta["outcome"]["winner"] == "citizens"


def test_undo_takes_back_the_last_answer(tmp_path):
    result = play(tmp_path, "--names", NAMES, answers="done\nAki\nundo\nBen\nno\nno\ndone\nDai\nyes\n")
    assert result.exit_code == 0, result.output
    records = read_transcript(tmp_path / "t.jsonl")
    assert [r["line"] for r in records if r["line"] == "control.undone"] == ["control.undone"]
    declared = [r["text"] for r in records if r["line"] == "nomination.declare_names"]
    assert declared[0].startswith("Akiさん") and declared[1].startswith("Benさん")
    medium = [r for r in records if r["line"] in ("medium.act_names",)]
    assert medium == []  # 5 players: no medium in play
    assert records[-1]["winner"] == "citizens" and records[-1]["day"] == 2


def test_resume_with_nothing_unfinished_says_so(narrator_home):
    result = CliRunner().invoke(main, ["resume"])
    assert result.exit_code == 1 and "no unfinished game" in result.output


def test_games_lists_saved_games(tmp_path, narrator_home):
    play(tmp_path, "--days", "1", answers="done\nyes\n")
    result = CliRunner().invoke(main, ["games"])
    assert "additional-werewolf" in result.output and "over (citizens won)" in result.output
    meta = json.loads(next((narrator_home / "games").iterdir()).joinpath("meta.json").read_text())
    assert meta["config"]["players"] == 5
