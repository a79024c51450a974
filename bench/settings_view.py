"""What the host screen's countdown list costs: the view with and without `addable`.

The settings page's view (`/api/settings`, polled every 2 s by the host screen) now asks each
game's own `configure`, once per card of a counts row, whether that card may be added
(`settings_view.addable`: the countdown list offers only the night cards in play). Measured in
one run against the same view with `addable` switched off (the old view, which offered every
id it knew), for each bundled game on its recommended table.

    .venv/bin/python bench/settings_view.py [--runs 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.games import game_names
from narrator.phones import settings_view
from narrator.phones.table import page_packs


def median_ms(game: str, packs: dict, runs: int) -> float:
    table = {"game": game, "lang": "ja"}
    settings_view.build(table, packs, [])  # warm: definitions and lines read once
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        settings_view.build(table, packs, [])
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    packs = page_packs()
    real = settings_view.addable
    for game in game_names():
        settings_view.addable = real
        with_list = median_ms(game, packs, runs)
        settings_view.addable = lambda *args: []  # the old view: nothing asked of the game
        without = median_ms(game, packs, runs)
        print(f"{game:20s} view {with_list:5.2f} ms with the checked list, {without:5.2f} ms without "
              f"(+{with_list - without:.2f} ms, median of {runs})")
    settings_view.addable = real


if __name__ == "__main__":
    main()
