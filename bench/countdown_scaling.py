"""How a countdown's cost grows with its length (issue 13: `look 32000` took 25 s at time scale 0).

Plays the start of an Additional Werewolf game with `look = N` at time scale 0 (text voice,
scripted `done`), the bound on `look` lifted for the measurement, and prints the median
seconds per N and the cost per tick: a linear countdown keeps the per-tick cost flat.

    .venv/bin/python bench/countdown_scaling.py [N ...]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner


def run(n: int, folder: Path) -> float:
    from narrator.cli import main
    import narrator.games.additional_werewolf.setup as aw_setup

    aw_setup.MAX_COUNTDOWN = 10**6
    (folder / "a.txt").write_text("done\n", encoding="utf-8")
    os.environ["NARRATOR_HOME"] = str(folder / f"home-{n}-{time.monotonic_ns()}")
    began = time.perf_counter()
    CliRunner().invoke(main, ["play", "--players", "5", "--voice", "text", "--time-scale", "0", "--look", str(n),
                              "--answers", str(folder / "a.txt"), "--no-keyboard"])
    return time.perf_counter() - began


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 2000, 4000, 8000]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            times = [run(n, Path(tmp)) for _ in range(3)]
            median = statistics.median(times)
            print(f"look {n:6d}: median {median:6.2f} s over 3 runs, {1e6 * median / n:7.1f} µs per tick")


if __name__ == "__main__":
    main()
