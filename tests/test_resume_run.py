"""How a game was run, kept across `narrator resume` (issue 36), through real `narrator`
processes: a game started without a keyboard resumes without one unless `--keyboard` asks; a
new game starts its `--transcript` file afresh, and a resume appends to it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from narrator.cli.play import resume_options
from narrator.table.transcript import read_transcript

ROOT = Path(__file__).resolve().parents[1]
NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi"
ANSWERS = ["done", "Ben,Dai", "no", "no", "done", "Emi", "no", "no", "done", "Fumi", "yes"]
"""A whole Additional Werewolf game of seed 7 (tests/test_process.py): the citizens win on day 3."""


def narrator(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "narrator", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def stopped(tmp_path: Path, *extra: str) -> Path:
    """A game started with --no-keyboard, stopped at `setup.ready` after 4 answers (the script
    ran dry): its folder."""
    script = tmp_path / "first.txt"
    script.write_text("\n".join(ANSWERS[:4]) + "\n", encoding="utf-8")
    done = narrator(tmp_path, "play", "additional-werewolf", "--names", NAMES, "--seed", "7", "--voice", "text",
                    "--lang", "en", "--time-scale", "0", "--no-keyboard", "--answers", str(script), *extra)
    assert done.returncode == 3, done.stderr[-2000:]
    assert "When you are ready, press the button or Enter." in done.stdout  # no keyboard: not "press Enter."
    [folder] = (tmp_path / "home" / "games").iterdir()
    return folder


def test_a_game_started_without_a_keyboard_resumes_without_one(tmp_path):
    """The prompt names the keys only when a keyboard listens (`keyboard_only` wordings)."""
    folder = stopped(tmp_path)
    resumed = narrator(tmp_path, "resume")
    assert resumed.returncode == 3, resumed.stderr[-2000:]
    assert "When you are ready, press the button or Enter." in resumed.stdout
    assert "press Enter." not in resumed.stdout
    assert resumed.stderr.strip().splitlines()[-1].endswith("(`--keyboard` if it was started without one)")
    assert json.loads((folder / "meta.json").read_text(encoding="utf-8"))["run"]["keyboard"] is False


def test_resume_keyboard_turns_it_on_and_keeps_it(tmp_path):
    folder = stopped(tmp_path)
    resumed = narrator(tmp_path, "resume", "--keyboard")
    assert resumed.returncode == 3, resumed.stderr[-2000:]  # stdin is empty: the keyboard retires at once
    assert "When you are ready, press Enter." in resumed.stdout
    assert json.loads((folder / "meta.json").read_text(encoding="utf-8"))["run"]["keyboard"] is True


def test_a_run_saved_without_the_keyboard_key_has_one_and_a_flag_beats_the_saved_one():
    saved = {"lang": "en", "voice": "text", "time_scale": 0, "audio": "null"}
    assert resume_options(saved, {}, keyboard=None).keyboard is True  # as every resume did before
    assert resume_options({**saved, "keyboard": False}, {}, keyboard=None).keyboard is False
    assert resume_options({**saved, "keyboard": False}, {}, keyboard=True).keyboard is True
    assert resume_options({**saved, "keyboard": True}, {}, keyboard=False).keyboard is False


def test_a_new_game_starts_its_transcript_afresh_and_a_resume_appends_to_it(tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"kind": "say", "line": "an.older.game"}\n', encoding="utf-8")
    stopped(tmp_path, "--transcript", str(transcript))
    first = read_transcript(transcript)
    assert first[0]["line"] == "setup.welcome" and "an.older.game" not in [r["line"] for r in first]
    whole = tmp_path / "whole.txt"
    whole.write_text("\n".join(ANSWERS) + "\n", encoding="utf-8")
    resumed = narrator(tmp_path, "resume", "--answers", str(whole))
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    records = read_transcript(transcript)
    assert records[:len(first)] == first and records[len(first)]["line"].startswith("resume.recap")
    assert records[-1]["kind"] == "end"
    again = narrator(tmp_path, "play", "additional-werewolf", "--names", NAMES, "--seed", "7", "--voice", "text",
                     "--lang", "en", "--time-scale", "0", "--no-keyboard", "--answers", str(whole),
                     "--transcript", str(transcript))
    assert again.returncode == 0, again.stderr[-2000:]
    lines = [r["line"] for r in read_transcript(transcript)]
    assert lines[0] == "setup.welcome" and lines.count("setup.welcome") == 1
    assert not any(line.startswith("resume.recap") for line in lines)
