"""Pass-the-device through the real CLI on a pseudo-terminal: each player's screen, then cleared."""

import os
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from narrator.table.transcript import read_transcript

pty = pytest.importorskip("pty")
pytestmark = pytest.mark.slow
DEAL = "Aki=prophet:S,Ben=beast:M,Chika=townsperson:N,Dai=guard:S"
CHOICES_LINE = re.compile(r"^\s+(\d+)=\w+(, \d+=\w+)*\s*$")


def test_a_whole_game_passing_the_device(tmp_path, narrator_home):
    transcript = tmp_path / "t.jsonl"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real narrator on a terminal
        os.environ["NARRATOR_HOME"] = str(narrator_home)
        os.chdir(Path(__file__).resolve().parent.parent)
        os.execv(sys.executable, [sys.executable, "-m", "narrator", "play", "bestia-magica", "--deal", DEAL,
                                  "--seed", "3", "--voice", "text", "--time-scale", "0", "--lang", "en",
                                  "--transcript", str(transcript), "--transcript-private"])
    output, pending, typed = b"", b"", []
    typed_u = False
    deadline = time.monotonic() + 300  # generous: a loaded machine runs the child slowly
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        output += data
        pending += data
        lines = pending.decode("utf-8", "ignore").rstrip("\r\n").splitlines()
        last = lines[-1] if lines else ""
        reply = None
        if "Press Enter" in last:
            reply = ""
        elif CHOICES_LINE.match(last):
            is_memo = any("memo" in line for line in lines[-4:])
            seat = CHOICES_LINE.match(last).group(1)  # numbers are seats: the first one shown
            reply = f"{seat} n" if is_memo else seat
            if not typed_u:  # `u` on the first memo screen: the same player chooses again
                typed_u, reply = True, "u"
        if reply is not None:
            typed.append(reply)
            os.write(fd, (reply + "\n").encode())
            pending = b""
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:  # still waiting for input at the deadline: end it, and fail below
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    text = output.decode("utf-8", "ignore")
    assert os.waitstatus_to_exitcode(status) == 0, text[-2000:]
    assert "game over:" in text
    # every hand-over is called aloud by name, and each private screen is wiped before the next
    screens = text.split("\x1b[2J\x1b[3J\x1b[H")
    for screen in screens:
        assert len(set(re.findall(r"==== (\w+) ====", screen))) <= 1
    assert "Aki, you are the prophet." in text and "Prophecy: Ben is a beast." in text
    records = read_transcript(transcript)
    calls = [r for r in records if r["kind"] == "say" and r["line"] == "private.call"]
    privates = [r for r in records if r["kind"] == "private"]
    assert len(calls) >= 4 + 4 + len({(r["night"], r["to"]) for r in privates if r["night"] > 0})
    assert [r["winner"] for r in records if r["kind"] == "end"]
    # `u` took back nothing of anyone else: the game never went back to the welcome
    assert [r["line"] for r in records if r["kind"] == "say"].count("bm.setup.welcome") == 1
    assert "Your choice:" in text  # every choice shown before its screen is cleared
    assert any(r["kind"] == "answer" and r["line"] == "collect.night" and r["source"] == "device" for r in records)
