"""What printing scripts/setup's lines through narrator/terminal/lines.py costs (issue 37, item 9).

Each line setup prints is now a `python3 -I narrator/terminal/lines.py KEY …` run (so it is in
the table's language). This runs the same warm re-run of setup (everything already installed,
the fakes of tests/setup_fakes.py: the path a Pi takes at every `scripts/play`) against two
versions of scripts/setup (default: 4a825e6, before the lines were keys, and this checkout's)
and prints the median wall time of `--runs` runs each, and how many lines each printed.

    .venv/bin/python bench/setup_lines.py [--before REV] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.setup_fakes import REPO, Fakes, make_checkout, run_script

ARGS = ["--no-link", "--no-service", "--model"]


def measure(setup_text: str | None, runs: int, env: dict[str, str]) -> tuple[float, int]:
    times, printed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        checkout = make_checkout(Path(tmp), setup_text)
        run_script(checkout, "setup", ARGS, Fakes(extra_env=env))  # the first run installs (fakes)
        for _ in range(runs):
            start = time.perf_counter()
            run = run_script(checkout, "setup", ARGS, Fakes(extra_env=env))
            times.append(time.perf_counter() - start)
            assert run.returncode == 0, run.stderr[-2000:]
            printed = len(run.stderr.strip().splitlines())
    return statistics.median(times), printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="4a825e6")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    before = subprocess.run(["git", "show", f"{args.before}:scripts/setup"], cwd=REPO, check=True,
                            capture_output=True, text=True, timeout=30).stdout
    for label, text in ((f"before ({args.before})", before), ("after (this checkout)", None)):
        for lang in ("C.UTF-8", "ja_JP.UTF-8"):
            median, printed = measure(text, args.runs, {"LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""})
            print(f"{label:24} LANG={lang:12} median {median:.3f} s over {args.runs} runs, {printed} lines printed")


if __name__ == "__main__":
    main()
