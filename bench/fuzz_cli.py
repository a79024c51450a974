"""The issue-13 fuzzing table: table files, answers lines and CLI flags against `narrator`.

    .venv/bin/python bench/fuzz_cli.py [EXAMPLES_PER_CATEGORY] [--source TREE]

`--source TREE` runs another checkout's `narrator` package (e.g. a worktree of main, to
compare before and after) with this checkout's generators. Prints, per category, how many
inputs were tried, accepted wrongly (an invalid value played, or a refused resume that
changed the saved game), gave a traceback (or more or less than one `error:` line), or
hung past the time bound (tests/fuzz_harness.py), with up to five examples of each failure.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests import fuzz_harness as fh


def main() -> None:
    args = sys.argv[1:]
    source = None
    if "--source" in args:
        i = args.index("--source")
        source = Path(args[i + 1]).resolve()
        del args[i:i + 2]
    examples = int(args[0]) if args else 60
    tallies = {name: fh.Tally() for name in ("table files", "answers lines", "CLI flags")}
    config = settings(max_examples=examples, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))

    @config
    @given(fh.table_files())
    def tables(case):
        data, valid = case
        tallies["table files"].add(fh.run_table(data, source), valid, repr(data[:120]))

    @config
    @given(fh.answers_files())
    def answers(case):
        game, data = case
        tallies["answers lines"].add(fh.run_answers(game, data, source), None, f"{game} {data[:120]!r}")

    @config
    @given(fh.cli_flags())
    def flags(case):
        command, chosen, valid = case
        tallies["CLI flags"].add(fh.run_flags(command, chosen, source), valid, f"{command} {chosen}")

    for run in (tables, answers, flags):
        run()
    print(f"source: {source or 'this checkout'}; {examples} examples per category; time bound {fh.TIME_BOUND:g} s")
    print("| input | tried | accepted wrongly | tracebacks | hangs |")
    print("|---|---|---|---|---|")
    for name, t in tallies.items():
        wrongly = "—" if name == "answers lines" else t.wrongly
        print(f"| {name} | {t.tried} | {wrongly} | {t.tracebacks} | {t.hangs} |")
    for name, t in tallies.items():
        for example in t.examples:
            print(f"  {name}: {example}")


if __name__ == "__main__":
    main()
