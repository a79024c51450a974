"""Game files next to Additional Werewolf: the time to load and validate each shipped file,
and a whole game's CPU and peak RSS through `narrator play` (text voice, instant clock,
scripted answers; child processes measured with `os.wait4`).

Run on demand: `.venv/bin/python bench/game_files.py [--runs 3]`. The answers of each game are
found in-process first (tests/test_kernel_cli.py's simple table), so every run plays to its end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.appliance_footprint import measure  # noqa: E402
from narrator.games.kernel import files as kernel  # noqa: E402
from narrator.games.kernel.parse import read_game_file  # noqa: E402
from tests.test_kernel_cli import NAMES, _scripted, play_in_process  # noqa: E402



def aw_answers() -> str:
    """Additional Werewolf's 5-player default played to its end: `no` to every question, else done."""
    from narrator.games import get_game
    from narrator.settings import build_settings

    game = get_game("additional-werewolf")
    config = game.configure(build_settings({}, {"players": "5"}, "bench"))
    answers, _ = play_in_process(game, config, lambda config, state, ask: "no" if "no" in ask.choices else ask.choices[0])
    return "\n".join(answers) + "\n"


def load_times(runs: int = 50) -> dict[str, tuple[float, float]]:
    """(parse and validate, the same plus the lines checked in both packs and the `Game` built) in ms."""
    out = {}
    for name, path in kernel.shipped_files().items():
        start = time.perf_counter()
        for _ in range(runs):
            read_game_file(path)
        middle = time.perf_counter()
        text = path.read_text(encoding="utf-8")
        for _ in range(runs // 10):  # `from_text` uncached too: `load.__wrapped__` alone hit its cache
            kernel.from_text.__wrapped__(text, path, name)
        out[name] = ((middle - start) / runs * 1000, (time.perf_counter() - middle) / (runs // 10) * 1000)
    return out


def whole_games(runs: int) -> dict[str, tuple[float, float]]:
    folder = Path(tempfile.mkdtemp())
    env = {**os.environ, "NARRATOR_HOME": str(folder / "home"), "PYTHONPATH": str(REPO)}
    base = [sys.executable, "-m", "narrator", "play", "--voice", "text", "--time-scale", "0", "--no-keyboard",
            "--lang", "en", "--audio", "null"]
    games = {"additional-werewolf": (["additional-werewolf", "--players", "5"], aw_answers())}
    for name in ("one-night", "werewolf", "tabula"):
        answers, _ = _scripted(name, {})
        games[name] = ([name, "--names", NAMES[name], "--seed", "4"], "\n".join(answers) + "\n")
    out = {}
    for name, (args, answers) in games.items():
        script = folder / f"{name}.txt"
        script.write_text(answers, encoding="utf-8")
        results = [measure(base + args + ["--answers", str(script)], env) for _ in range(runs)]
        out[name] = (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    for name, (ms, full) in load_times().items():
        print(f"load+validate {name}: {ms:.2f} ms; with its lines checked in ja and en: {full:.0f} ms")
    for name, (cpu, rss) in whole_games(runs).items():
        print(f"whole game {name}: {cpu:.2f} s CPU, {rss:.0f} MiB peak RSS")


if __name__ == "__main__":
    main()
