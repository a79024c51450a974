"""Start-up: from launching `narrator play` to the first sample, and the peak RSS.

`narrator play --lang ja --audio null` (Open JTalk where installed) is launched as a
process. The transcript's first record appears when the first clip is handed to the
clocked null sink, scheduled for the earliest moment it can be heard: now plus the sink's
0.2 s output buffer (`narrator.sound.outputs.BUFFER`). So: first sample = record appears + BUFFER. Peak RSS is the process's VmHWM read from /proc
a few seconds into the game. Two cases: the pack's cache already rendered (`narrator
voices render ja` was run), and a cold pack (a copy without a cache: every line the game
can say is rendered before the first word).

Run: `.venv/bin/python bench/startup.py` (Linux).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NARRATOR = ROOT / ".venv" / "bin" / "narrator"
RUNS = 3
sys.path.insert(0, str(ROOT))
from narrator.sound.outputs import BUFFER  # noqa: E402


def once(voice: str) -> tuple[float, float]:
    tmp = Path(tempfile.mkdtemp())
    (tmp / "answers.txt").write_text("done\n")
    env = {**os.environ, "NARRATOR_HOME": str(tmp / "home")}
    cmd = [str(NARRATOR), "play", "--lang", "ja", "--voice", voice, "--audio", "null", "--no-keyboard",
           "--answers", str(tmp / "answers.txt"), "--transcript", str(tmp / "t.jsonl")]
    began = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    transcript = tmp / "t.jsonl"
    while not (transcript.is_file() and transcript.stat().st_size > 0):
        if proc.poll() is not None:
            raise SystemExit(f"narrator play ended early ({proc.returncode})")
        time.sleep(0.001)
    first = time.monotonic() - began + BUFFER
    time.sleep(3)
    status = Path(f"/proc/{proc.pid}/status").read_text()
    rss_mb = int(next(l for l in status.splitlines() if l.startswith("VmHWM")).split()[1]) / 1024
    proc.terminate()
    proc.wait()
    shutil.rmtree(tmp, ignore_errors=True)
    return first, rss_mb


def main() -> None:
    subprocess.run([str(NARRATOR), "voices", "render", "ja"], check=True, capture_output=True)
    print(f"{'case':22} {'first sample (median)':>22} {'peak RSS':>10}")
    for case in ("rendered", "cold"):
        results = []
        for _ in range(RUNS):
            voice = "ja"
            if case == "cold":
                cold = Path(tempfile.mkdtemp()) / "ja"
                shutil.copytree(ROOT / "voices" / "ja", cold, ignore=shutil.ignore_patterns("cache"))
                voice = str(cold)
            results.append(once(voice))
        firsts, rss = zip(*results)
        print(f"{case:22} {statistics.median(firsts):19.2f} s {max(rss):7.1f} MB")


if __name__ == "__main__":
    sys.exit(main())
