"""`narrator` as a real process: a whole game, and a game killed with SIGKILL mid-night
then resumed to the end with the same remaining transcript."""

import os
import signal
import subprocess
import sys
import time

import pytest

from narrator.table.transcript import read_transcript
from tests.processes import started

pytestmark = pytest.mark.slow  # the narrator as a subprocess, SIGKILL mid-game

NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi"
ANSWERS = "done\nBen,Dai\nno\nno\ndone\nEmi\nno\nno\ndone\nFumi\nyes\n"


def narrator(*args, home, **kwargs):
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    return started([sys.executable, "-m", "narrator", *args], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def play_args(tmp_path, transcript, scale):
    (tmp_path / "answers.txt").write_text(ANSWERS, encoding="utf-8")
    return ["play", "additional-werewolf", "--names", NAMES, "--voice", "text", "--time-scale", str(scale),
            "--answers", str(tmp_path / "answers.txt"), "--transcript", str(transcript)]


def without_time(records):
    return [{k: v for k, v in r.items() if k != "t"} for r in records]


def test_whole_game_as_a_subprocess(tmp_path):
    transcript = tmp_path / "t.jsonl"
    proc = narrator(*play_args(tmp_path, transcript, 0), home=tmp_path / "home")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    records = read_transcript(transcript)
    assert records[-1]["kind"] == "end" and records[-1]["winner"] == "citizens"
    assert "medium.act_names" in [r["line"] for r in records]
    assert "game over: citizens win" in err
    assert "霊能者の方、顔を上げてください。" in out


def test_sigkill_mid_night_then_resume_gives_the_same_remaining_transcript(tmp_path):
    reference_path = tmp_path / "reference.jsonl"
    proc = narrator(*play_args(tmp_path, reference_path, 0), home=tmp_path / "ref-home")
    proc.communicate(timeout=60)
    reference = without_time(read_transcript(reference_path))

    home, transcript = tmp_path / "home", tmp_path / "t.jsonl"
    proc = narrator(*play_args(tmp_path, transcript, 0.01), home=home)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if transcript.exists() and any(r["line"] == "peddler.wake" and r["night"] == 2
                                       for r in read_transcript(transcript)):
            break
        time.sleep(0.005)
    else:
        proc.kill()
        pytest.fail("the game never reached night 2")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    killed = without_time(read_transcript(transcript))
    assert killed[-1]["kind"] != "end"
    assert killed == reference[:len(killed)]

    proc = narrator("resume", home=home)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    records = read_transcript(transcript)
    resumed = without_time(records[len(killed):])
    assert resumed[0]["line"] == "resume.recap_night" and resumed[0]["night"] == 2
    # a swap call cut off is played again after telling its holder not to swap twice
    recap = 2 if resumed[1]["line"].endswith(".resume_once") else 1
    after = resumed[recap:]
    # the interrupted step is played again from its start, and from there on all is the same
    assert after == reference[len(reference) - len(after):]
    assert len(reference) - len(after) <= len(killed)
    assert after[0]["line"] in ("peddler.wake", "night.begin", "seer.wake", "medium.wake")
    # nothing answered before the kill was asked again
    asked_before = [r["line"] for r in killed if r["kind"] == "answer"]
    asked_after = [r["line"] for r in after if r["kind"] == "ask"]
    assert asked_before == ["setup.ready", "nomination.who", "nomination.werewolf_found", "strategist.question",
                            "setup.ready"]
    assert asked_after[0] == "nomination.who"
    # the game clock went on from where it was
    ts = [r["t"] for r in records]
    assert ts[len(killed)] >= ts[len(killed) - 1] - 15
