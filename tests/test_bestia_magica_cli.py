"""`narrator play bestia-magica` as a real subprocess: JSON Lines answers, transcript, errors, resume."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.table.transcript import read_transcript
from tests.bm_driver import answers_jsonl, configure, play

pytestmark = pytest.mark.slow
NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi,Gen,Hana"
BASE_FLAGS = ["--names", NAMES, "--seed", "7", "--voice", "text", "--time-scale", "0", "--lang", "en", "--no-keyboard"]


def narrator(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True,
                          env=env, timeout=120, cwd=Path(__file__).resolve().parent.parent)


@pytest.fixture
def game():
    """The engine's own run of the game the CLI will play, and its answers as JSON Lines."""
    config = configure(names=NAMES, seed=7)
    state, cues, rounds = play(config, seed=1)
    return config, state, rounds


def test_play_with_answers_and_transcript(tmp_path, narrator_home, game):
    config, state, rounds = game
    answers = tmp_path / "answers.jsonl"
    answers.write_text(answers_jsonl(rounds), encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    done = narrator(narrator_home, "play", "bestia-magica", *BASE_FLAGS, "--answers", str(answers),
                    "--transcript", str(transcript), "--transcript-private")
    assert done.returncode == 0, done.stderr
    assert f"game over: {state.winner} win" in done.stderr
    records = read_transcript(transcript)
    kinds = {r["kind"] for r in records}
    assert {"say", "tick", "timer", "answer", "event", "private", "end"} <= kinds
    end = [r for r in records if r["kind"] == "end"]
    assert len(end) == 1 and end[0]["winner"] == state.winner
    privates = [r for r in records if r["kind"] == "private"]
    assert {r["to"] for r in privates} == set(config.names)
    assert all(r["text"] and r["line"].startswith("bm.private.") for r in privates)
    events = [r for r in records if r["kind"] == "event"]
    assert {r["type"] for r in events} <= {"death", "revival", "reform", "execution", "curse", "protect", "sleep",
                                           "attribute"}
    for r in events:
        assert ("night" in r) or ("day" in r)
        if r["type"] in ("death", "execution"):
            assert r["player"] in config.names and r["cause"]
    executions = [r["player"] for r in events if r["type"] == "execution"]
    assert executions == [h["executed"] for h in state.history if "executed" in h]
    # the private answers went in as recorded, one round per Collect
    answered = [r for r in records if r["kind"] == "answer"]
    assert [a["value"] for a in answered] == [ans for _, ans in rounds]
    # nothing private was spoken
    spoken = {r["line"] for r in records if r["kind"] == "say"}
    assert not any(line.startswith(("bm.private.", "bm.memo.")) for line in spoken)


def test_invalid_record_is_an_error_naming_the_line(tmp_path, narrator_home, game):
    config, state, rounds = game
    text = answers_jsonl(rounds).splitlines()
    first_vote = next(i for i, line in enumerate(text) if '"day": 1' in line)
    record = json.loads(text[first_vote])
    record["vote"] = "Nobody"
    text[first_vote] = json.dumps(record)
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(text) + "\n", encoding="utf-8")
    done = narrator(narrator_home, "play", "bestia-magica", *BASE_FLAGS, "--answers", str(answers))
    assert done.returncode == 2
    assert f"line {first_vote + 1}: vote 'Nobody' is not allowed for {record['player']}" in done.stderr


def test_a_dead_player_voting_is_an_error_naming_the_line(tmp_path, narrator_home, game):
    config, state, rounds = game
    dead = next(e["player"] for h in state.history if "events" in h for e in h["events"] if e["type"] == "death")
    text = answers_jsonl(rounds).rstrip("\n").splitlines()
    text.append(json.dumps({"day": 1, "player": dead, "vote": "Aki"}))
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(text) + "\n", encoding="utf-8")
    done = narrator(narrator_home, "play", "bestia-magica", *BASE_FLAGS, "--answers", str(answers))
    assert done.returncode == 2
    assert f"line {len(text)}: {dead} may not answer the day 1" in done.stderr


def test_malformed_file_is_refused_before_the_game(tmp_path, narrator_home):
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"night": 1, "player": "Aki", "target": "Ben", "ability": true}\n{"night": 1}\n')
    done = narrator(narrator_home, "play", "bestia-magica", *BASE_FLAGS, "--answers", str(answers))
    assert done.returncode == 2 and "line 2" in done.stderr and "player" in done.stderr


def test_missing_answer_stops_the_game_and_resume_finishes_it(tmp_path, narrator_home, game):
    config, state, rounds = game
    full = answers_jsonl(rounds)
    night_one = "".join(line + "\n" for line in full.splitlines() if '"night": 1,' in line)
    partial = tmp_path / "partial.jsonl"
    partial.write_text(night_one, encoding="utf-8")
    transcript = tmp_path / "t.jsonl"
    done = narrator(narrator_home, "play", "bestia-magica", *BASE_FLAGS, "--answers", str(partial),
                    "--transcript", str(transcript))
    assert done.returncode == 2
    first_voter = rounds[1][0].requests[0].player
    assert f"no day 1 record for {first_voter}; add one" in done.stderr
    rest = tmp_path / "full.jsonl"
    rest.write_text(full, encoding="utf-8")
    resumed = narrator(narrator_home, "resume", "--answers", str(rest), "--no-keyboard")
    assert resumed.returncode == 0, resumed.stderr
    assert f"game over: {state.winner} win" in resumed.stderr
    records = read_transcript(transcript)
    assert [r["winner"] for r in records if r["kind"] == "end"] == [state.winner]
    # the first night was played once: its memos were not collected again on resume
    assert sum(1 for r in records if r["kind"] == "answer" and r["line"] == "collect.night" and r["number"] == 1) == 1
    listed = narrator(narrator_home, "games")
    assert "bestia-magica" in listed.stdout and f"over ({state.winner} won)" in listed.stdout


def test_players_flag_and_deal_flag(tmp_path, narrator_home):
    deal = "Aki=prophet:S,Ben=beast:M,Chika=townsperson:N,Dai=guard:S"
    config = configure(deal=deal, seed=3)
    state, cues, rounds = play(config, seed=5)
    answers = tmp_path / "a.jsonl"
    answers.write_text(answers_jsonl(rounds), encoding="utf-8")
    done = narrator(narrator_home, "play", "bestia-magica", "--deal", deal, "--seed", "3", "--voice", "text",
                    "--time-scale", "0", "--no-keyboard", "--answers", str(answers))
    assert done.returncode == 0, done.stderr
    assert f"game over: {state.winner} win" in done.stderr
    bad = narrator(narrator_home, "play", "bestia-magica", "--players", "3", "--voice", "text", "--no-keyboard")
    assert bad.returncode == 2 and "4 to 20 players" in bad.stderr
