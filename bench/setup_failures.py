"""What `scripts/setup` ends with when a part it was asked for fails (issue 39, item 7).

Runs the same failures against two versions of scripts/setup (default: the one at
900e1de, before the fix, and this checkout's) and prints, per case: the exit status, the last
line, the number of apt `E:` lines that reached the terminal, the number of terminal lines,
and whether the part is recorded as installed (`parts=` in .venv/narrator-setup.state).
The failures are the fakes of tests/setup_fakes.py (apt-get printing 300 `E:` lines and
exiting 100, pip failing as it does offline, `narrator models install` failing), not a real
network cut: the point is what setup does with a failure, which those decide.

    .venv/bin/python bench/setup_failures.py [--before REV]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.setup_fakes import REPO, Fakes, make_checkout, run_script

CASES = {
    "offline apt (--test: chromium, git)": (["--test"], Fakes(missing=("chromium", "git"), apt_fails=True), "test"),
    "offline pip test extras (--test)": (["--test"], Fakes(pip_fails=("[test]",)), "test"),
    "offline --natural-voice": (["--natural-voice"], Fakes(pip_fails=("engines/kokoro",)), "natural"),
    "offline --model": (["--model"], Fakes(model_rc=1), "model"),
}


def measure(setup_text: str | None) -> dict[str, tuple[int, str, int, int, bool]]:
    results = {}
    for name, (args, fakes, part) in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            checkout = make_checkout(Path(tmp), setup_text)
            run = run_script(checkout, "setup", ["--no-link", "--no-service", *args], fakes)
            lines = run.stderr.strip().splitlines()
            noise = sum(line.startswith("E:") for line in lines)
            recorded = part in run.state.get("parts", "").split()
            last = run.last_line.replace(str(checkout), "…")
            results[name] = (run.returncode, last, noise, len(lines), recorded)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="900e1de", help="the git revision of the old scripts/setup")
    options = parser.parse_args()
    old = subprocess.run(["git", "show", f"{options.before}:scripts/setup"], cwd=REPO, capture_output=True,
                         text=True, check=True, timeout=30).stdout
    for label, text in ((f"before ({options.before})", old), ("after (this checkout)", None)):
        print(f"## {label}")
        print("| case | exit | E: lines | lines | part recorded | last line |")
        print("|---|---|---|---|---|---|")
        for name, (code, last, noise, count, recorded) in measure(text).items():
            print(f"| {name} | {code} | {noise} | {count} | {'yes' if recorded else 'no'} | `{last}` |")
        print()


if __name__ == "__main__":
    main()
