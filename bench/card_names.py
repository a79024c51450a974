"""A game's card names read from the voice packs' label lines (`narrator/games/spoken_names.py`):
what it costs where names are built.

Two numbers, medians of CPU time: a fresh interpreter's first `get_game(name)` (Additional Werewolf and
Bestia Magica build their names as their setup is imported; a game file as it is read and
checked), and `read_game_file` of the shipped werewolf file in a warm process (its roles' names
from the packs, read once per process). Run on demand, against any checkout:
`PYTHONPATH=$PWD .venv/bin/python bench/card_names.py [--runs 7]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

FIRST = """
import time
start = time.process_time()
from narrator.games import get_game
get_game({name!r}).card_names
print((time.process_time() - start) * 1000)
"""


def first_game(name: str, runs: int) -> float:
    """Median CPU ms of a fresh interpreter's import of the registry and first `get_game(name)`
    (CPU time, not wall time: the numbers hold on a loaded machine)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "NARRATOR_HOME": tempfile.mkdtemp()}
    times = [float(subprocess.run([sys.executable, "-c", FIRST.format(name=name)], env=env, capture_output=True,
                                  text=True, check=True, timeout=120).stdout) for _ in range(runs)]
    return statistics.median(times)


def warm_parse(runs: int) -> float:
    """Median CPU ms of reading and checking the shipped werewolf file, the packs already read."""
    from narrator.games.kernel import files as kernel
    from narrator.games.kernel.parse import read_game_file

    path = kernel.shipped_files()["werewolf"]
    read_game_file(path)
    times = []
    for _ in range(runs * 5):
        start = time.process_time()
        read_game_file(path)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    for name in ("additional-werewolf", "bestia-magica", "werewolf"):
        print(f"first get_game({name}) in a fresh interpreter: {first_game(name, runs):.0f} ms CPU (median of {runs})")
    print(f"read_game_file(werewolf), warm: {warm_parse(runs):.2f} ms CPU (median of {runs * 5})")


if __name__ == "__main__":
    main()
