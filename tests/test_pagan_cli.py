"""Pagan through the real CLI, as a subprocess: scripted answers in, transcript out."""

import json
import subprocess
import sys

import pytest

from narrator.table.transcript import read_transcript
from tests.pagan_script import ENDINGS, SETUP, turn

pytestmark = pytest.mark.slow


def narrator(home, *args, timeout=60):
    env = {"NARRATOR_HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def write_answers(path, answers):
    path.write_text("# pagan test script\n" + "\n".join(answers) + "\n", encoding="utf-8")
    return path


def play(tmp_path, narrator_home, answers, *extra, lang="en"):
    script = write_answers(tmp_path / "answers.txt", answers)
    transcript = tmp_path / "transcript.jsonl"
    result = narrator(narrator_home, "play", "pagan", "--lang", lang, "--voice", "text", "--time-scale", "0",
                      "--no-keyboard", "--answers", str(script), "--transcript", str(transcript), *extra)
    return result, transcript


@pytest.mark.parametrize("ending", sorted(ENDINGS))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_whole_game_through_each_ending(tmp_path, narrator_home, ending, lang):
    answers, winner, last_turn = ENDINGS[ending]
    result, transcript = play(tmp_path, narrator_home, answers, lang=lang)
    assert result.returncode == 0, result.stderr
    assert f"game over: {winner} win" in result.stderr
    records = read_transcript(transcript)
    end = records[-1]
    assert end["kind"] == "end" and end["line"] == f"pagan.end.{ending}" and end["winner"] == winner
    assert end["turn"] == last_turn and end["ending"] == ending
    assert str(last_turn) in end["text"]
    given = [r["value"] for r in records if r["kind"] == "answer"]
    assert given == answers  # every scripted answer was asked for, in order
    meta = json.loads(next((narrator_home / "games").iterdir()).joinpath("meta.json").read_text())
    assert meta["finished"] and meta["outcome"]["winner"] == winner


def test_transcript_orders_each_turns_upkeep_before_its_actions(tmp_path, narrator_home):
    result, transcript = play(tmp_path, narrator_home, ENDINGS["witch"][0])
    assert result.returncode == 0, result.stderr
    spoken = [r["line"] for r in read_transcript(transcript) if r["kind"] in ("say", "ask")]
    assert spoken[:5] == ["pagan.setup.welcome", "pagan.setup.shuffle_suspects", "pagan.setup.witch_identity",
                          "pagan.setup.draw", "pagan.setup.influence"]
    turns = []
    for line in spoken:
        if line in ("pagan.turn.witch", "pagan.turn.hunter"):
            turns.append([line])
        elif turns:
            turns[-1].append(line)
    assert [t[0] for t in turns] == ["pagan.turn.witch", "pagan.turn.hunter"] * 2
    for lines in turns:
        side = lines[0].rsplit(".", 1)[1]
        upkeep = [l.rsplit(".", 1)[1] for l in lines if l.startswith("pagan.upkeep.")]
        expected = ["return_pawns", "start_effects", "during_effects", "end_effects", "discard"]
        if side == "hunter":
            expected.insert(3, "ally_upkeep")
        assert upkeep == expected
        assert lines[len(expected) + 1] == f"pagan.action.begin_{side}"


def test_undo_in_the_answers_file_takes_back_a_report(tmp_path, narrator_home):
    answers = SETUP + turn("witch", first=True) + ["done"] * 6 + ["innocent", "undo", "done", "witch"]
    result, transcript = play(tmp_path, narrator_home, answers)
    assert result.returncode == 0, result.stderr
    records = read_transcript(transcript)
    assert records[-1]["winner"] == "hunter" and records[-1]["innocents"] == 0
    lines = [(r["kind"], r["line"], r.get("value")) for r in records]
    at = lines.index(("answer", "pagan.action.hunter", "undo"))
    assert lines[at + 1] == ("say", "control.undone", None)
    asked_again = records[at + 2]
    # the action that reported the innocent is asked again, with its count
    assert asked_again["kind"] == "ask" and asked_again["text"].startswith("Hunter, 3 of 3")
    actions = [r["text"][:14] for r in records if r["kind"] == "ask" and r["line"] == "pagan.action.hunter"]
    assert actions == ["Hunter, 3 of 3", "Hunter, 2 of 3", "Hunter, 3 of 3", "Hunter, 2 of 3"]
    events = [json.loads(l) for l in next((narrator_home / "games").iterdir()).joinpath("events.jsonl").read_text().splitlines()]
    assert {"type": "undo", "source": "script"} in events


def test_help_and_a_wrong_report_in_the_answers_file(tmp_path, narrator_home):
    answers = SETUP + ["done"] * 5 + ["h", "done", "done"] + turn("hunter", actions=["witch"])
    result, transcript = play(tmp_path, narrator_home, answers)
    assert result.returncode == 0, result.stderr
    records = read_transcript(transcript)
    helped = [r["line"] for r in records if r.get("help")]
    assert helped == ["pagan.help.witch_first_turn", "pagan.help.villager_visit"]
    # a report the active side cannot make stops a script with the file's line number
    bad = SETUP + ["done"] * 5 + ["innocent"]
    result, _ = play(tmp_path, narrator_home, bad)
    assert result.returncode != 0
    assert "line 11: 'innocent' does not answer 'pagan.action.witch'" in result.stderr


def test_resume_continues_an_interrupted_game_to_its_end(tmp_path, narrator_home):
    answers, winner, last_turn = ENDINGS["innocent"]
    cut = len(SETUP) + 7 + 6 + 1  # into the hunter's first action phase, after one innocent
    result, transcript = play(tmp_path, narrator_home, answers[:cut], "--turn-timer", "300")
    assert result.returncode != 0 and "no listener is left" in result.stderr
    full = write_answers(tmp_path / "full.txt", answers)
    result = narrator(narrator_home, "resume", "--answers", str(full), "--no-keyboard", "--time-scale", "0")
    assert result.returncode == 0, result.stderr
    records = read_transcript(transcript)
    recap = [r for r in records if r["line"] == "pagan.resume.recap_hunter"]
    assert len(recap) == 1 and "turn 2" in recap[0]["text"]
    after = records[records.index(recap[0]):]
    assert after[1]["kind"] == "turn_clock" and after[1]["seconds"] == 300  # the clock restarts
    # the interrupted step is played again from its start: the count it announced, then its question
    assert after[2]["line"] == "pagan.report.innocent" and ": 1 of 3" in after[2]["text"]
    assert after[3]["line"] == "pagan.action.hunter" and after[3]["text"].startswith("Hunter, 2 of 3")
    counts = [r["text"].split(":")[1][:7] for r in records if r["line"] == "pagan.report.innocent"]
    assert counts == [" 1 of 3", " 1 of 3", " 2 of 3"]  # the first innocent was not counted twice
    assert records[-1]["winner"] == winner and records[-1]["turn"] == last_turn and records[-1]["innocents"] == 3


def test_resume_after_a_help_line_skips_exactly_the_lines_used(tmp_path, narrator_home):
    answers, winner, last_turn = ENDINGS["witch"]
    answers = answers[:2] + ["help"] + answers[2:6] + ["repeat"] + answers[6:]
    result, transcript = play(tmp_path, narrator_home, answers[:10])
    assert result.returncode != 0
    full = write_answers(tmp_path / "full.txt", answers)
    result = narrator(narrator_home, "resume", "--answers", str(full), "--no-keyboard", "--time-scale", "0")
    assert result.returncode == 0, result.stderr
    records = read_transcript(transcript)
    assert [r["line"] for r in records if r.get("help")] == ["pagan.help.setup"]
    assert sum(1 for r in records if r.get("repeat")) == 1
    assert records[-1]["winner"] == winner and records[-1]["turn"] == last_turn
    assert [r["value"] for r in records if r["kind"] == "answer"] == ENDINGS["witch"][0]


def test_table_file_sets_the_turn_clock_and_a_flag_beats_it(tmp_path, narrator_home):
    table = tmp_path / "pagan.toml"
    table.write_text('game = "pagan"\nlang = "en"\nturn_timer = 240\nwarnings = [120, 30]\n', encoding="utf-8")
    script = write_answers(tmp_path / "a.txt", ENDINGS["witch"][0])
    transcript = tmp_path / "t.jsonl"
    result = narrator(narrator_home, "play", "--table", str(table), "--warnings", "60", "--voice", "text",
                      "--time-scale", "0", "--no-keyboard", "--answers", str(script), "--transcript", str(transcript))
    assert result.returncode == 0, result.stderr
    meta = json.loads(next((narrator_home / "games").iterdir()).joinpath("meta.json").read_text())
    assert meta["game"] == "pagan" and meta["config"] == {"turn_timer": 240, "warnings": [60]}
    clocks = [r for r in read_transcript(transcript) if r["kind"] == "turn_clock"]
    assert [c["seconds"] for c in clocks] == [240] * 4  # one per turn, turns 1-4
    table.write_text('game = "pagan"\nturn_timer = -1\n', encoding="utf-8")
    result = narrator(narrator_home, "play", "--table", str(table), "--voice", "text", "--no-keyboard")
    assert result.returncode == 2 and "error: table file" in result.stderr and "turn_timer must be at least 0" in result.stderr
