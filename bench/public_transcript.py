"""Issue 36's measures of game files a table can trust, run on demand:

- night records of the shared transcript that differ between two deals of the same game
  (goal 0): every shipped game file, on the phones and on one device passed round, over
  `PAIRS` pairs of seeds, played whole through the real scheduler (tests/public_transcript.py);
- the deals of 20 games of werewolf configured with no seed (goal: 20 different).

    .venv/bin/python bench/public_transcript.py [PAIRS]

It runs on an older checkout too (copy this file and tests/public_transcript.py there), which is
how the "before" figures in bench/README.md were taken.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narrator.games import get_game
from narrator.games.kernel import engine, files
from narrator.games.kernel.parse import read_game_file
from narrator.settings import build_settings
from tests import public_transcript as pt


def differing(pairs: int) -> None:
    folder = Path(tempfile.mkdtemp())
    for name, modes in pt.MODES.items():
        for mode in modes:
            counts = []
            for seed in range(1, pairs + 1):
                one = pt.play(name, seed, mode, folder / f"{name}-{mode}-{seed}")
                other = pt.play(name, seed + 100, mode, folder / f"{name}-{mode}-{seed + 100}")
                counts.append(pt.differing(one, other, 1 if mode == "passed" else None))
            print(f"{name:10} {mode:7} night records differing per pair of deals: median {statistics.median(counts)}, "
                  f"max {max(counts)}, pairs with any {sum(c > 0 for c in counts)}/{pairs}")


def unseeded_deals(games: int = 20) -> None:
    game = get_game("werewolf")
    spec = read_game_file(files.shipped_files()["werewolf"])
    deals = set()
    for _ in range(games):
        config = game.configure(build_settings({}, {"game": "werewolf", "names": pt.NAMES["werewolf"]}, "bench"))
        deals.add(engine.deal_cards(spec, config))
    print(f"werewolf, {games} games with no seed: {len(deals)} different deals")


if __name__ == "__main__":
    differing(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
    unseeded_deals()
