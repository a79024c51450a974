"""A game's card names read from the voice packs' label lines (`narrator/games/spoken_names.py`),
and the packs read once per process while unchanged (`narrator/sound/pack_cache.py`): what
loading a game costs.

Medians of CPU time (not wall time: the numbers hold on a loaded machine), each in a fresh
interpreter: the first `get_game(name)` with its card names (Additional Werewolf and Bestia Magica
build them as their setup is imported; a game file as it is read and checked), the same followed
by the table's voice opening its pack (`load_pack`), a table's own game file loaded by its path
(`narrator play --game-file`), and a game file loaded again in the same process, as `narrator serve`
does between games (`files.from_text` uncached: the file parsed, checked and its names built).

With `--before REV` each is measured in this checkout and in REV's files (`git archive`), the
runs interleaved; REV defaults to the commit before the packs were kept (`pack_cache.py` added).
Run on demand, against any checkout:
`PYTHONPATH=$PWD .venv/bin/python bench/card_names.py [--runs 7] [--before [REV]]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FIRST = """
import time
start = time.process_time()
from narrator.games import get_game
get_game({name!r}).card_names
{voice}print((time.process_time() - start) * 1000)
"""
VOICE = "from narrator.sound.voicepack import load_pack\nload_pack('ja')\n"
OWN_FILE = """
import time
start = time.process_time()
from narrator.games import load_game_file
load_game_file({path!r}).card_names
from narrator.sound.voicepack import load_pack
load_pack('ja')
print((time.process_time() - start) * 1000)
"""
AGAIN = """
import statistics, time
from pathlib import Path
from narrator.games.kernel import files
path = files.shipped_files()["werewolf"]
text = path.read_text(encoding="utf-8")
files.from_text.__wrapped__(text, path, "werewolf").card_names
times = []
for _ in range(15):
    start = time.process_time()
    files.from_text.__wrapped__(text, path, "werewolf").card_names
    times.append((time.process_time() - start) * 1000)
print(statistics.median(times))
"""


def cases(own_file: Path) -> dict[str, str]:
    return {
        "first get_game(additional-werewolf)": FIRST.format(name="additional-werewolf", voice=""),
        "first get_game(additional-werewolf) + its voice opens": FIRST.format(name="additional-werewolf", voice=VOICE),
        "first get_game(bestia-magica)": FIRST.format(name="bestia-magica", voice=""),
        "first get_game(werewolf)": FIRST.format(name="werewolf", voice=""),
        "first get_game(werewolf) + its voice opens": FIRST.format(name="werewolf", voice=VOICE),
        "a table's own game file + its voice opens": OWN_FILE.format(path=str(own_file)),
        "werewolf loaded again, same process (median of 15)": AGAIN,
    }


def once(source: Path, script: str) -> float:
    """CPU ms printed by `script` in a fresh interpreter running `source`'s narrator."""
    env = {**os.environ, "PYTHONPATH": str(source), "NARRATOR_HOME": tempfile.mkdtemp()}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # both checkouts' modules compiled once, at the uncounted run
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True,
                          timeout=120, cwd=source)
    return float(done.stdout.split()[-1])


def exported(rev: str) -> Path:
    """REV's files in a temporary folder (its `voices/` included: the packs it shipped)."""
    folder = Path(tempfile.mkdtemp(prefix="narrator-before-"))
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=True, timeout=120)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True, timeout=120)
    return folder


def before_packs_kept() -> str:
    added = subprocess.run(["git", "-C", str(REPO), "log", "--diff-filter=A", "--format=%H", "--",
                            "narrator/sound/pack_cache.py"], capture_output=True, text=True, check=True, timeout=60)
    return added.stdout.split()[-1][:12] + "~"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", nargs="?", const="", default=None, metavar="REV",
                        help="also measure REV's files (default: the commit before the packs were kept)")
    args = parser.parse_args()
    sources = {"after": REPO}
    if args.before is not None:
        rev = args.before or before_packs_kept()
        print(f"before = {rev}, after = this checkout")
        sources = {"before": exported(rev), "after": REPO}
    own_file = Path(tempfile.mkdtemp()) / "my-werewolf.toml"
    own_file.write_text(_shipped("one-night").read_text("utf-8"), encoding="utf-8")
    print(f"{'':54}" + "".join(f"{label:>10}" for label in sources) + f"   (median CPU ms of {args.runs})")
    for name, script in cases(own_file).items():
        for source in sources.values():
            once(source, script)  # compiles the checkout's modules; not counted
        times: dict[str, list[float]] = {label: [] for label in sources}
        for _ in range(args.runs):  # interleaved: the machine's load falls on both alike
            for label, source in sources.items():
                times[label].append(once(source, script))
        print(f"{name:54}" + "".join(f"{statistics.median(times[label]):10.1f}" for label in sources))


def _shipped(name: str) -> Path:
    sys.path.insert(0, str(REPO))
    from narrator.games.kernel import files

    return files.shipped_files()[name]


if __name__ == "__main__":
    main()
