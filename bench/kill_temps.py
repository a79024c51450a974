"""Temp files left by kills: SIGKILL a narrator mid-game again and again, count what is left.

Run on demand: `.venv/bin/python bench/kill_temps.py [--tree DIR] [--kills 60] [--seed 1]`.
`--tree` runs another checkout (the code before a change), so before and after are measured by
the same script. One home; a 5-player Additional Werewolf game on an instant clock is started,
then resumed over and over, each run SIGKILLed after a random 0.5-6 s (a kill can land
between a temp file's creation and its rename: `home.write_atomic`). At the end one
`narrator games` (a start) runs, and the `.<name>.<pid>.<hex>.tmp` files still in the home
and its game folders are counted: what a Pi's SD card would keep forever.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TEMP = re.compile(r"^\..+\.\d+\.[0-9a-f]{8}\.tmp$")
RUN = ["--voice", "text", "--lang", "en", "--time-scale", "0", "--no-keyboard"]
PLAY = ["play", "additional-werewolf", "--names", "Aki,Ben,Chika,Dai,Emi,Fumi", "--seed", "7"]
SCRIPT = ["done", "Ben,Dai", "no", "no", "done", "Emi", "no", "no", "done", "Fumi", "yes"]
"""A whole physical-cards game (tests/test_history_cli.py); a resume skips the lines already used."""


def temps(home: Path) -> list[Path]:
    return [p for p in home.rglob("*") if TEMP.match(p.name)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=REPO)
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tree = args.tree.resolve()
    base = Path(tempfile.mkdtemp(prefix="narrator-kills-"))
    home = base / "home"
    answers = base / "answers.txt"
    answers.write_text("\n".join(SCRIPT) + "\n")
    env = {**os.environ, "NARRATOR_HOME": str(home), "PYTHONPATH": str(tree)}
    killed, runs, fresh = 0, 0, True
    try:
        while killed < args.kills:
            command = PLAY if fresh else ["resume"]
            runs += 1
            proc = subprocess.Popen([sys.executable, "-m", "narrator", *command, *RUN, "--answers", str(answers)],
                                    env=env, cwd=tree, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            try:
                proc.wait(timeout=rng.uniform(0.5, 6.0))
            except subprocess.TimeoutExpired:
                proc.kill()
                killed += 1
            code = proc.wait(timeout=30)
            fresh = code in (0, 1, 2)  # over, or nothing to resume: a new game next
        left_before = len(temps(home))
        subprocess.run([sys.executable, "-m", "narrator", "games"], env=env, cwd=tree, capture_output=True,
                       timeout=60, stdin=subprocess.DEVNULL)
        print(f"tree {tree}: {killed} of {runs} runs SIGKILLed; temp files left: {left_before} before the "
              f"next start, {len(temps(home))} after it")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
