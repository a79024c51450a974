"""Run a random sample of mutmut 2 mutants (bench/mutation-store.sh with SAMPLE=N).

A whole mutation run costs one test-suite run per surviving mutant; on a loaded machine that
is hours. A uniform random sample of the mutants, each tested exactly as `mutmut run` tests
it, estimates the kill rate with a stated margin. Run with mutmut's own Python, in the work
tree: registers every mutant of PATHS in mutmut's cache, tests SAMPLE of them (seeded), and
prints killed / survived / timed out, the survivors' diffs, and a 95 % interval.

    python mutation_sample.py PATHS SAMPLE SEED RUNNER
"""

from __future__ import annotations

import math
import random
import sqlite3
import subprocess
import sys


def main() -> None:
    paths, sample, seed, runner = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    from mutmut import add_mutations_by_file
    from mutmut.cache import update_line_numbers

    for path in paths:
        update_line_numbers(path)
        add_mutations_by_file({}, path, [], None)
    db = sqlite3.connect(".mutmut-cache")
    ids = [row[0] for row in db.execute("select id from Mutant order by id")]
    chosen = sorted(random.Random(seed).sample(ids, min(sample, len(ids))))
    print(f"{len(ids)} mutants in {', '.join(paths)}; testing {len(chosen)} chosen at random (seed {seed})", flush=True)
    for n, mutant in enumerate(chosen, 1):
        subprocess.run([sys.executable, "-m", "mutmut", "run", str(mutant), "--runner", runner,
                        "--paths-to-mutate", ",".join(paths), "--tests-dir", "tests",
                        "--test-time-multiplier", "4"],  # a loaded machine must not pass for a hang
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        status = db.execute("select status from Mutant where id = ?", (mutant,)).fetchone()[0]
        print(f"  [{n}/{len(chosen)}] mutant {mutant}: {status}", flush=True)
    statuses = dict(db.execute("select id, status from Mutant").fetchall())
    tested = [statuses[m] for m in chosen if statuses[m] != "untested"]
    killed = sum(s == "ok_killed" for s in tested)
    timeouts = sum(s == "bad_timeout" for s in tested)
    rate = killed / len(tested) if tested else 0.0
    margin = 1.96 * math.sqrt(rate * (1 - rate) / len(tested)) if tested else 0.0
    print(f"killed {killed} of {len(tested)} sampled ({100 * rate:.0f} % ± {100 * margin:.0f} %, 95 %), "
          f"{timeouts} more timed out; of {len(ids)} mutants")
    for mutant in chosen:
        if statuses[mutant] not in ("ok_killed", "bad_timeout", "untested"):
            print(f"--- survivor {mutant} ({statuses[mutant]})", flush=True)
            subprocess.run([sys.executable, "-m", "mutmut", "show", str(mutant)])


if __name__ == "__main__":
    main()
