"""A GM the table can follow, through the real `narrator` process: the cards printed without
playing (`play --dry-run`), `scripts/play pagan`, and one whole game killed in the middle of a
swap call and resumed, whose transcript shows the box (item 1), the waits for done (item 3)
and the night resumed without a second swap (item 7)."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.table.transcript import read_transcript
from tests.pagan_script import ENDINGS
from tests.processes import started

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[1]


def narrator(home, *args, **kwargs):
    env = {**os.environ, "NARRATOR_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    return started([sys.executable, "-m", "narrator", *args], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


# --- 1. the set, printed without playing -----------------------------------------------------

def test_dry_run_prints_the_set_and_saves_nothing(tmp_path):
    home = tmp_path / "home"
    out, err = narrator(home, "play", "--players", "8", "--dry-run").communicate(timeout=60)
    set_text, _, plan = out.strip().partition("\n")  # then the night plan (docs/cli.md, --dry-run)
    assert plan.startswith("night 1: seer 1 (10 s), seer 2 (10 s)")
    assert set_text == ("このゲームで使うカードを箱から出してください。役職カードは、市民4枚、裏切り者2枚、人狼2枚。"
                           "アディショナルカードは、占い師2枚、霊能者1枚、香具師1枚、幻影魔導師1枚、恋人2枚、策士1枚。"
                           # 2 seers: which of them is 1人目 (issue 26)
                           "同じカードが2枚以上あるときは、夜に1人目、2人目と順番に呼びます。"
                           "カードを配る人から時計回りに数えて、先に座っている方が1人目です。")
    assert "dry run" in err
    assert not (home / "games").exists() or not any((home / "games").iterdir())


def test_dry_run_prints_a_tables_own_set_and_bestia_magica_roles(tmp_path):
    table = tmp_path / "table.toml"
    table.write_text('lang = "en"\nplayers = 5\n[roles]\ncitizen = 3\ntraitor = 1\nwerewolf = 1\n'
                     '[cards]\nseer = 2\nphantom_mage = 2\non_break = 1\n', encoding="utf-8")
    proc = narrator(tmp_path / "home", "play", "--table", str(table), "--dry-run")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip().partition("\n")[0] == ("Take these cards out of the box. Role cards: 3 citizens, 1 traitor and 1 werewolf. "
                           "Additional cards: 2 seers, 2 phantom mages and 1 on-break card. When a card has more than "
                           "one copy, the night calls its holders one by one: counting clockwise from the dealer, "
                           "the holder sitting first is number 1.")
    proc = narrator(tmp_path / "home", "play", "bestia-magica", "--players", "5", "--dry-run")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip().partition("\n")[0] == "このゲームで使う役職カードは、町民2枚、魔獣1枚、預言者1枚、護衛1枚です。"


def test_dry_run_refuses_a_bad_set_in_one_line(tmp_path):
    proc = narrator(tmp_path / "home", "play", "--players", "8", "--cards", "seer=2,peddler=1,lovers=4,on_break=1",
                    "--dry-run")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and out == ""
    assert err.strip().count("\n") == 0 and "use lovers=2" in err


# --- 11. scripts/play pagan ----------------------------------------------------------------

def test_scripts_play_pagan_plays_pagan(tmp_path):
    """`scripts/play` itself, with its setup step stubbed (the real one takes minutes)."""
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "play", root / "scripts" / "play")
    (root / "scripts" / "setup").write_text("#!/usr/bin/env bash\nexit 0\n")
    (root / "scripts" / "setup").chmod(0o755)
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "narrator").write_text(f"#!/usr/bin/env bash\nexec {sys.executable} -m narrator \"$@\"\n")
    (root / ".venv" / "bin" / "narrator").chmod(0o755)
    answers, winner, _ = ENDINGS["witch"]
    (tmp_path / "answers.txt").write_text("\n".join(answers) + "\n", encoding="utf-8")
    env = {**os.environ, "NARRATOR_HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    result = subprocess.run([str(root / "scripts" / "play"), "pagan", "--lang", "en", "--voice", "text",
                             "--time-scale", "0", "--no-keyboard", "--answers", str(tmp_path / "answers.txt"),
                             "--transcript", str(tmp_path / "t.jsonl")],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    records = read_transcript(tmp_path / "t.jsonl")
    assert records[0]["line"] == "pagan.setup.welcome" and records[-1]["winner"] == winner
    assert f"game over: {winner} wins" in result.stderr  # one side: "wins"
    # with no game named, it is still Additional Werewolf
    plain = subprocess.run([str(root / "scripts" / "play"), "--voice", "text", "--dry-run"],
                           capture_output=True, text=True, timeout=120, env=env)
    assert plain.returncode == 0 and "市民3枚" in plain.stdout


# --- one whole game: items 1, 3 and 7 in its transcript ---------------------------------------

NAMES = "Aki,Ben,Chika,Dai,Emi"
ANSWERS = "done\nBen\nno\nyes\ndone\ndone\nDai\nno\nno\ndone\nEmi\nyes\n"
"""Day 1: Ben nominated, no werewolf, he holds the strategist: the exchange waits for done, then
the redeal does; day 2: Dai, no; redeal; day 3: Emi is a werewolf."""


def game_args(tmp_path, transcript):
    (tmp_path / "answers.txt").write_text(ANSWERS, encoding="utf-8")
    return ["play", "additional-werewolf", "--names", NAMES, "--voice", "text", "--time-scale", "0.05",
            "--discussion", "4", "--countdowns", "peddler=40", "--answers", str(tmp_path / "answers.txt"),
            "--transcript", str(transcript)]


def test_a_whole_game_cut_off_in_a_swap_call_shows_the_box_the_waits_and_the_resumed_night(tmp_path):
    home, transcript = tmp_path / "home", tmp_path / "t.jsonl"
    proc = narrator(home, *game_args(tmp_path, transcript))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # kill during the peddler's countdown on night 2
        records = read_transcript(transcript) if transcript.exists() else []
        acts = [k for k, r in enumerate(records) if r["line"] == "peddler.act" and r["night"] == 2]
        if acts and any(r["kind"] == "tick" for r in records[acts[0]:]):
            break
        time.sleep(0.005)
    else:
        proc.kill()
        pytest.fail("the game never reached the peddler's call on night 2")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    killed = read_transcript(transcript)
    assert killed[-1]["kind"] == "tick" and killed[-1]["night"] == 2  # cut off mid-swap

    proc = narrator(home, "resume", "--time-scale", "0")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    records = read_transcript(transcript)
    said = [r["line"] for r in records]

    # 1. the set, said and printed before the deal
    box = next(r for r in records if r["line"] == "setup.box_copies")  # 2 phantom mages: who is 1人目 (issue 26)
    assert said.index("setup.box_copies") < said.index("setup.deal")
    assert "役職カードは、市民3枚、裏切り者1枚、人狼1枚。" in box["text"]
    assert "アディショナルカードは、占い師1枚、香具師1枚、幻影魔導師2枚、策士1枚。" in box["text"]

    # 3. the exchange and the redeal wait for done: no countdown while hands are busy
    for start, end in (("strategist.exchange", "strategist.check"), ("redeal.collect", "night.begin")):
        k = said.index(start)
        span = records[k:said.index(end, k)]
        assert [r["kind"] for r in span if r["kind"] in ("tick", "ask", "answer")] == ["ask", "answer"]
        assert span[-1]["line"] == "setup.ready" and span[-1]["value"] == "done"
    assert said.count("redeal.collect") == 2 and "strategist.place" in said

    # 7. the night is announced again, the peddler is told not to swap twice, and the role check follows
    resumed = records[len(killed):]
    assert [r["line"] for r in resumed[:3]] == ["resume.recap_night", "peddler.resume_once", "peddler.wake"]
    assert "全員、顔を伏せてください" in resumed[0]["text"] and resumed[0]["night"] == 2
    night2 = [r["line"] for r in resumed if r["line"] != "tick"]
    # one 「顔を下ろしてください」 around the check: the swap call's own is left out (issue 37, item 8)
    assert night2[3:8] == ["peddler.act", "night.check_role", "night.put_back", "night.sleep",
                           "phantom_mage.wake_numbered"]
    assert night2.count("peddler.act") == 2  # once tonight as resumed, once on night 3
    assert records[-1]["kind"] == "end" and records[-1]["winner"] == "citizens"
    assert "game over: citizens win" in err
