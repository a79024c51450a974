"""A saved game keeps the game file it was started with (issue 36), through real `narrator`
processes: `narrator resume`, the appliance's resume and `narrator stats` rebuild the game from
that copy alone, so a game started with `--game-file` resumes once the file is gone, and a
changed file (the home's, or a shipped one in a later release) never changes a game already
begun. A copy missing or changed is one line naming the fix; a game saved before copies were
kept resumes by its name as before.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from narrator.games import load_game_file
from narrator.settings import build_settings
from tests.test_kernel_cli import _narrator, _simple_table, play_in_process

ROOT = Path(__file__).resolve().parents[1]
WEREWOLF = ROOT / "narrator/games/kernel/games/werewolf.toml"
NAMES = "Aki,Ben,Chika,Dai,Emi"
TEXT = ["--voice", "text", "--lang", "en", "--time-scale", "0", "--no-keyboard"]


def _house_file(path: Path, name: str, discussion: str = "[120]") -> Path:
    """The shipped werewolf file under another name, with another discussion (said on day 1)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = WEREWOLF.read_text(encoding="utf-8").replace('name = "werewolf"', f'name = "{name}"')
    path.write_text(text.replace("[300, 240, 180, 120]", discussion), encoding="utf-8")
    return path


def _answers(tmp_path: Path, rules) -> tuple[Path, Path, str]:
    """(the first answer only, the whole game's answers, the winner) of seed 4 at this table."""
    config = rules.configure(build_settings({}, {"names": NAMES, "seed": "4"}, "test"))
    answers, winner = play_in_process(rules, config, _simple_table)
    first, whole = tmp_path / "first.txt", tmp_path / "whole.txt"
    first.write_text(answers[0] + "\n", encoding="utf-8")
    whole.write_text("\n".join(answers) + "\n", encoding="utf-8")
    return first, whole, winner


def _stopped(tmp_path: Path, first: Path, *game: str) -> Path:
    """A game stopped at its first night call (the answers ran out): its folder."""
    stopped = _narrator(tmp_path, "play", *game, "--names", NAMES, "--seed", "4", "--answers", str(first), *TEXT)
    assert stopped.returncode == 3, stopped.stderr[-2000:]
    [folder] = (tmp_path / "home" / "games").iterdir()
    return folder


def _errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("error:")]


def test_a_game_file_game_resumes_and_counts_after_its_file_is_deleted(tmp_path):
    path = _house_file(tmp_path / "files" / "small-five.toml", "small-five")
    first, whole, winner = _answers(tmp_path, load_game_file(path))
    folder = _stopped(tmp_path, first, "--game-file", str(path))
    text = path.read_text(encoding="utf-8")
    path.unlink()
    resumed = _narrator(tmp_path, "resume", "--answers", str(whole), "--no-keyboard")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"resuming game {folder.name}" in resumed.stderr
    assert resumed.stderr.strip().splitlines()[-1].startswith(f"game over: {winner}")
    assert "Day 1: discuss for 2 minutes." in resumed.stdout + resumed.stderr
    stats = _narrator(tmp_path, "stats", "--json")
    assert stats.returncode == 0 and "skips" not in stats.stderr, stats.stderr
    [game] = json.loads(stats.stdout)["games"]
    assert (game["id"], game["game"]) == (folder.name, "small-five")
    assert (folder / "game-file.toml").read_text(encoding="utf-8") == text  # kept with the game, exactly


def test_a_changed_home_game_file_does_not_change_a_game_already_begun(tmp_path):
    path = _house_file(tmp_path / "home" / "game-files" / "house-wolf.toml", "house-wolf")
    first, whole, winner = _answers(tmp_path, load_game_file(path))
    _stopped(tmp_path, first, "house-wolf")
    _house_file(path, "house-wolf", "[60]")  # the table edits its file while the game waits
    resumed = _narrator(tmp_path, "resume", "--answers", str(whole), "--no-keyboard")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    said = resumed.stdout + resumed.stderr
    assert "Day 1: discuss for 2 minutes." in said and "discuss for 1 minute" not in said


def test_a_shipped_game_resumes_by_its_copy_when_a_later_release_changes_the_file(tmp_path):
    """The resume runs a copy of the package whose werewolf.toml has another discussion."""
    first, whole, winner = _answers(tmp_path, load_game_file(WEREWOLF))
    folder = _stopped(tmp_path, first, "werewolf")
    release = tmp_path / "release"
    shutil.copytree(ROOT / "narrator", release / "narrator", ignore=shutil.ignore_patterns("__pycache__"))
    (release / "voices").symlink_to(ROOT / "voices")
    changed = release / "narrator/games/kernel/games/werewolf.toml"
    changed.write_text(changed.read_text(encoding="utf-8").replace("[300, 240, 180, 120]", "[60]"), encoding="utf-8")
    env = {**os.environ, "NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(release)}
    resumed = subprocess.run([sys.executable, "-m", "narrator", "resume", "--answers", str(whole), "--no-keyboard"],
                             env=env, cwd=release, capture_output=True, text=True, timeout=300,
                             stdin=subprocess.DEVNULL)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    said = resumed.stdout + resumed.stderr
    assert "Day 1: discuss for 5 minutes." in said and "discuss for 1 minute" not in said
    assert resumed.stderr.strip().splitlines()[-1].startswith(f"game over: {winner}")
    assert (folder / "game-file.toml").read_bytes() == WEREWOLF.read_bytes()


def test_a_copy_changed_or_missing_is_one_line_naming_the_fix_and_listed_as_damaged(tmp_path):
    first, _, _ = _answers(tmp_path, load_game_file(WEREWOLF))
    folder = _stopped(tmp_path, first, "werewolf")
    copy = folder / "game-file.toml"
    copy.write_text(copy.read_text(encoding="utf-8").replace("[300, 240, 180, 120]", "[60]"), encoding="utf-8")
    changed = _narrator(tmp_path, "resume", "--no-keyboard")
    assert changed.returncode == 2 and "Traceback" not in changed.stderr
    assert _errors(changed) == [f"error: saved game {folder.name}: its game file {copy} was changed since the game "
                                f"was started; copy the game file it was started with there, or move {folder} away"]
    listed = _narrator(tmp_path, "games")
    assert f"{folder.name}  damaged: saved game {folder.name}: its game file" in listed.stdout
    copy.unlink()
    missing = _narrator(tmp_path, "resume", folder.name, "--no-keyboard")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert _errors(missing) == [f"error: saved game {folder.name}: its game file {copy} not found; copy the game "
                                f"file it was started with there, or move {folder} away"]


def test_a_game_saved_before_copies_were_kept_resumes_by_its_name(tmp_path):
    """What an older narrator left: no copy, no checksum in meta.json or in the log's setup."""
    first, whole, winner = _answers(tmp_path, load_game_file(WEREWOLF))
    folder = _stopped(tmp_path, first, "werewolf")
    (folder / "game-file.toml").unlink(missing_ok=True)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    meta.pop("game_file_sha256", None)
    (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    header, *events = (folder / "events.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    bound = json.loads(header)
    bound["setup"].pop("game_file_sha256", None)
    (folder / "events.jsonl").write_text(json.dumps(bound) + "\n" + "".join(events), encoding="utf-8")
    resumed = _narrator(tmp_path, "resume", "--answers", str(whole), "--no-keyboard")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert resumed.stderr.strip().splitlines()[-1].startswith(f"game over: {winner}")


def test_the_appliance_resumes_a_game_file_game_whose_file_is_gone(narrator_home, tmp_path):
    from narrator.appliance.serve import ServeOptions, serve
    from narrator.table.saved_games import saved_games
    from narrator.table.transcript import read_transcript

    path = _house_file(tmp_path / "files" / "small-five.toml", "small-five")
    first, whole, winner = _answers(tmp_path, load_game_file(path))
    folder = _stopped(tmp_path, first, "--game-file", str(path))
    path.unlink()
    script = tmp_path / "serve.txt"  # yes to "resume?", then the game's answers after the first
    script.write_text("yes\n" + "".join(whole.read_text(encoding="utf-8").splitlines(keepends=True)[1:]))
    transcript, log = tmp_path / "t.jsonl", []
    options = ServeOptions(once=True, keyboard=False, buttons=False,
                           overrides={"voice": "text", "lang": "en", "time_scale": "0", "answers": str(script),
                                      "transcript": str(transcript)})
    assert serve(options, log=log.append) == 1
    assert f"resuming game {folder.name}" in log, log
    [game] = saved_games(narrator_home)
    assert game.id == folder.name and game.meta["finished"] and game.meta["outcome"]["winner"] == winner
    assert "wolf.recap_night" in [r.get("line") for r in read_transcript(transcript)]
