"""Issue 13 through real `narrator` processes: a saved game survives damaged files, a second
narrator, bad resume flags and failing disks; every refusal is one line and exit 2 (or 3)."""

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time

import pytest

from narrator.table.transcript import read_transcript
from tests.clock_helpers import wait_until
from tests.processes import started

pytestmark = pytest.mark.slow  # real narrator processes, a second narrator, SIGKILL

NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi"
ANSWERS = ["done", "Ben,Dai", "no", "no", "done", "Emi", "no", "no", "done", "Fumi", "yes"]
"""A whole game (the one tests/test_process.py plays): the citizens win on day 3."""


def narrator(*args, home, timeout=60, preexec=None, check_one_line=True):
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    proc = subprocess.run([sys.executable, "-m", "narrator", *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=preexec)
    assert "Traceback" not in proc.stderr, proc.stderr
    if check_one_line and proc.returncode in (2, 3):
        assert len([line for line in proc.stderr.splitlines() if line.startswith("error:")]) == 1, proc.stderr
    return proc


def answers_file(tmp_path, answers, name="answers.txt"):
    path = tmp_path / name
    path.write_text("\n".join(answers) + "\n", encoding="utf-8")
    return path


def play(tmp_path, home, answers, *extra, transcript="t.jsonl"):
    return narrator("play", "additional-werewolf", "--names", NAMES, "--voice", "text", "--time-scale", "0",
                    "--no-keyboard", "--seed", "7", "--answers", str(answers_file(tmp_path, answers)),
                    "--transcript", str(tmp_path / transcript), *extra, home=home)


def stopped_game(tmp_path, answered=4):
    """A game saved at a question after `answered` answers (the script ran dry: exit 3)."""
    home = tmp_path / "home"
    proc = play(tmp_path, home, ANSWERS[:answered])
    assert proc.returncode == 3, proc.stderr
    [folder] = (home / "games").iterdir()
    return home, folder


def resume(home, tmp_path, *args, answers=ANSWERS):
    return narrator("resume", "--no-keyboard", "--answers", str(answers_file(tmp_path, answers, "all.txt")),
                    *args, home=home)


def answers_heard(transcript):
    return [(r["line"], r["value"]) for r in read_transcript(transcript) if r["kind"] == "answer"]


def winner(transcript):
    return read_transcript(transcript)[-1].get("winner")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("reference")
    proc = play(tmp_path, tmp_path / "home", ANSWERS)
    assert proc.returncode == 0, proc.stderr
    return answers_heard(tmp_path / "t.jsonl")


def test_a_torn_tail_is_cut_once_and_no_answer_is_used_twice(tmp_path, reference):
    """The issue's sequence: torn tail, resume, stop again, resume again: same game, citizens win."""
    home, folder = stopped_game(tmp_path, answered=2)
    with (folder / "events.jsonl").open("a") as f:
        f.write('{"type": "answer", "value": ["Be')
    first = resume(home, tmp_path, answers=ANSWERS[:5])
    assert first.returncode == 3, first.stderr
    assert first.stderr.count("torn by a stop mid-write") == 1
    second = resume(home, tmp_path)
    assert second.returncode == 0, second.stderr
    assert "torn by a stop" not in second.stderr
    assert answers_heard(tmp_path / "t.jsonl") == reference
    assert winner(tmp_path / "t.jsonl") == "citizens"
    assert all(json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines())


def test_undo_after_a_torn_tail_goes_back_one_answer_only(tmp_path):
    """An undo after a cut tail asks exactly what it asks without the tear (not a day earlier)."""
    asked = {}
    for torn in (False, True):
        here = tmp_path / str(torn)
        here.mkdir()
        home, folder = stopped_game(here, answered=4)
        if torn:
            with (folder / "events.jsonl").open("a") as f:
                f.write('{"type": "cont')
        proc = resume(home, here, answers=ANSWERS[:4] + ["undo"])
        assert proc.returncode == 3, proc.stderr
        asked[torn] = [(r["line"], r["day"], r["night"]) for r in read_transcript(here / "t.jsonl")
                       if r["kind"] == "ask"][-1]
    assert asked[True] == asked[False]


def test_a_damaged_middle_line_is_named_and_cut_log_resumes_before_it(tmp_path, reference):
    home, folder = stopped_game(tmp_path, answered=4)
    lines = (folder / "events.jsonl").read_text().splitlines()
    answer_lines = [i for i, line in enumerate(lines) if '"answer"' in line]
    broken = answer_lines[2] + 1  # the third answer's line, 1-based
    lines[broken - 1] = lines[broken - 1][:15]
    (folder / "events.jsonl").write_text("\n".join(lines) + "\n")
    refused = resume(home, tmp_path)
    assert refused.returncode == 2
    assert f"events.jsonl line {broken} is damaged" in refused.stderr and "--cut-log" in refused.stderr
    cut = resume(home, tmp_path, "--cut-log")
    assert cut.returncode == 0, cut.stderr
    assert winner(tmp_path / "t.jsonl") == "citizens"
    assert list(folder.glob("events.jsonl.cut-*"))


@pytest.mark.parametrize("damage", ["empty", "half", "not utf-8", "list", "missing"])
def test_a_damaged_snapshot_is_rebuilt_from_the_log_and_said_once(tmp_path, reference, damage):
    home, folder = stopped_game(tmp_path, answered=4)
    path = folder / "snapshot.json"
    content = {"empty": b"", "half": path.read_bytes()[:40], "not utf-8": b"\xff\xfe{", "list": b"[]",
               "missing": None}[damage]
    path.unlink() if content is None else path.write_bytes(content)
    proc = resume(home, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("rebuilt from its log") == 1
    assert answers_heard(tmp_path / "t.jsonl") == reference


def test_an_empty_log_beside_a_snapshot_is_refused_not_restarted(tmp_path):
    home, folder = stopped_game(tmp_path)
    snapshot = (folder / "snapshot.json").read_bytes()
    (folder / "events.jsonl").write_bytes(b"")
    proc = resume(home, tmp_path)
    assert proc.returncode == 2 and "holds no events" in proc.stderr
    assert (folder / "snapshot.json").read_bytes() == snapshot
    assert "setup.welcome" not in [r["line"] for r in read_transcript(tmp_path / "t.jsonl")][5:]


def test_a_pagan_log_is_never_replayed_into_a_werewolf_game(tmp_path):
    home, folder = stopped_game(tmp_path)
    pagan = narrator("play", "pagan", "--voice", "text", "--time-scale", "0", "--no-keyboard",
                     "--answers", str(answers_file(tmp_path, ["done"] * 3, "p.txt")), home=home)
    assert pagan.returncode == 3
    [pagan_folder] = [f for f in (home / "games").iterdir() if f != folder]
    (folder / "events.jsonl").write_bytes((pagan_folder / "events.jsonl").read_bytes())
    proc = resume(home, tmp_path, folder.name)
    assert proc.returncode == 2 and f"log of pagan game {pagan_folder.name}" in proc.stderr


def test_a_damaged_meta_is_listed_and_skipped_by_games_resume_and_serve(tmp_path):
    home = tmp_path / "home"
    assert play(tmp_path, home, ANSWERS).returncode == 0
    [old] = (home / "games").iterdir()
    log = old / "events.jsonl"  # a log from before issue 25, with no copy of the setup to rebuild from
    first, *rest = log.read_text().splitlines(keepends=True)
    log.write_text(json.dumps({k: v for k, v in json.loads(first).items() if k != "setup"}) + "\n" + "".join(rest))
    (old / "meta.json").write_bytes(b"")
    listed = narrator("games", home=home)
    assert listed.returncode == 0
    assert f"{old.name}  damaged: saved game {old.name}: " in listed.stdout and "meta.json" in listed.stdout
    # a later game id: ids are named by the wall clock's second, so the next game waits for the next one
    wait_until(lambda: time.strftime("%Y%m%d-%H%M%S") > old.name[:15], "a later game id", timeout=10)
    assert play(tmp_path, home, ANSWERS[:3], transcript="t2.jsonl").returncode == 3
    [unfinished] = [f for f in (home / "games").iterdir() if f != old]
    proc = resume(home, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"resuming game {unfinished.name}" in proc.stderr and "skipping a damaged game" in proc.stderr
    served = narrator("serve", "--once", "--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "en",
                      "--time-scale", "0", "--answers", str(answers_file(tmp_path, ["yes", "done", "yes"], "s.txt")),
                      "--transcript", str(tmp_path / "serve.jsonl"), home=home)
    assert served.returncode == 0, served.stderr
    spoken = [r["line"] for r in read_transcript(tmp_path / "serve.jsonl")]
    assert spoken[0] == "appliance.greeting" and "appliance.offer" in spoken
    assert "skipping a damaged game" in served.stderr


def test_a_second_narrator_is_refused_with_one_line_naming_the_first(tmp_path):
    home, folder = stopped_game(tmp_path)
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    first = started([sys.executable, "-m", "narrator", "resume", "--no-keyboard", "--time-scale", "0.05",
                              "--answers", str(answers_file(tmp_path, ANSWERS, "all.txt"))],
                             env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while f"pid {first.pid}" not in (folder / "lock").read_text():
            assert time.monotonic() < deadline and first.poll() is None, "the first resume never took the game"
            time.sleep(0.05)
        events = (folder / "events.jsonl").read_bytes()
        second = resume(home, tmp_path)
        assert second.returncode == 2
        assert f"pid {first.pid} (narrator resume)" in second.stderr
        served = narrator("serve", "--once", "--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "en",
                          "--time-scale", "0", "--answers", str(answers_file(tmp_path, ["yes", "done"], "s.txt")),
                          home=home)
        assert f"skipping game {folder.name}: another narrator is playing it (pid {first.pid}" in served.stderr
        assert "appliance.resume_question" not in served.stdout
        assert (folder / "events.jsonl").read_bytes()[:len(events)] == events
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    after_kill = resume(home, tmp_path, folder.name)  # the kernel dropped the dead narrator's lock
    assert after_kill.returncode == 0, after_kill.stderr


@pytest.mark.parametrize("flag,value", [("--voice", "nonexistent"), ("--transcript", "/"), ("--time-scale", "inf"),
                                        ("--time-scale", "-1"), ("--time-scale", "nan"), ("--audio", "bogus"),
                                        ("--port", "99999")])
def test_resume_flags_are_checked_before_anything_is_saved(tmp_path, flag, value):
    home, folder = stopped_game(tmp_path)
    meta = (folder / "meta.json").read_bytes()
    proc = resume(home, tmp_path, flag, value)
    assert proc.returncode == 2, proc.stderr
    assert (folder / "meta.json").read_bytes() == meta
    plain = resume(home, tmp_path)
    assert plain.returncode == 0, plain.stderr


def test_an_unwritable_home_and_a_bad_transcript_are_one_line_and_save_nothing(tmp_path):
    (tmp_path / "not-a-folder").write_text("")
    proc = play(tmp_path, tmp_path / "not-a-folder" / "home", ANSWERS)
    assert proc.returncode == 2 and "cannot create a saved game" in proc.stderr
    home = tmp_path / "home"
    proc = play(tmp_path, home, ANSWERS, transcript="/")
    assert proc.returncode == 2 and "transcript" in proc.stderr
    assert not (home / "games").exists() or not list((home / "games").iterdir())


def _file_size_limit(limit):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG, like a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_mid_game_is_one_line_and_resume_finishes_the_same_game(tmp_path, reference):
    home = tmp_path / "home"
    proc = narrator("play", "additional-werewolf", "--names", NAMES, "--voice", "text", "--time-scale", "0",
                    "--no-keyboard", "--seed", "7", "--answers", str(answers_file(tmp_path, ANSWERS)),
                    "--transcript", str(tmp_path / "t.jsonl"), home=home, preexec=_file_size_limit(4000))
    assert proc.returncode == 2, proc.stderr
    assert "File too large" in proc.stderr and "what was saved is kept" in proc.stderr
    again = resume(home, tmp_path)
    assert again.returncode == 0, again.stderr
    assert winner(tmp_path / "t.jsonl") == "citizens"


def test_the_game_folder_and_the_transcript_are_private_and_resume_fixes_old_modes(tmp_path):
    home, folder = stopped_game(tmp_path)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {0o600}
    assert stat.S_IMODE((tmp_path / "t.jsonl").stat().st_mode) == 0o600
    for path in [*folder.iterdir(), tmp_path / "t.jsonl"]:
        os.chmod(path, 0o644)
    os.chmod(folder, 0o755)
    assert resume(home, tmp_path).returncode == 0
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {0o600}
    assert stat.S_IMODE((tmp_path / "t.jsonl").stat().st_mode) == 0o600


def test_an_unknown_voice_pack_exits_2(tmp_path):
    proc = play(tmp_path, tmp_path / "home", ANSWERS, "--voice", "nonexistent")
    assert proc.returncode == 2 and "no voice pack 'nonexistent'" in proc.stderr
