"""What resolving `{@line}` references costs where a pack is loaded (`narrator/sound/line_refs.py`).

Median CPU ms, in one warm process, of reading `ja` and `en` afresh (`read_pack`: every lines
file read, inheritance merged, references resolved), and of `merged_under` with a game file's
own lines (only those are resolved: the pack's are already), each against the same load with
resolution switched off (`resolved` returning the lines as read: the packs before references).
Then `load_pack` of a pack already read and unchanged (`pack_cache`: its files' stamps checked,
none read) against `read_pack`, what every `load_pack` did before packs were kept.
Run on demand: `PYTHONPATH=$PWD .venv/bin/python bench/pack_refs.py [--runs 31]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.sound import voicepack

OWN = {"wolf": {"role": {"bard": {"text": "吟遊詩人", "reading": "ぎんゆうしじん"}},
                "card": {"bard": {"text": "{@wolf.role.bard}{n}枚", "reading": "{@wolf.role.bard}{n}まい"}},
                "call": {"bard": {"wake": {"text": "{@wolf.role.bard}の人は、目を開けてください。",
                                           "reading": "{@wolf.role.bard}のひとは、めを、あけてください。"}}}}}


def cpu_ms(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        run()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=31)
    runs = parser.parse_args().runs
    resolved = voicepack.resolved
    ja = voicepack.load_pack("ja")
    cases: dict[str, Callable[[], object]] = {
        "read_pack('ja')": lambda: voicepack.read_pack("ja"),
        "read_pack('en')": lambda: voicepack.read_pack("en"),
        "merged_under(ja, a game file's 3 lines)": lambda: voicepack.merged_under(ja, OWN),
    }
    print(f"{'':44} {'resolved':>9} {'off':>9} {'ratio':>6}  (median CPU ms, {runs} runs)")
    for name, run in cases.items():
        on = cpu_ms(run, runs)
        voicepack.resolved = lambda lines, pack, where, ids=None: dict(lines)  # type: ignore[assignment]
        try:
            off = cpu_ms(run, runs)
        finally:
            voicepack.resolved = resolved
        print(f"{name:44} {on:9.2f} {off:9.2f} {on / off:6.2f}")
    print(f"\n{'':44} {'kept':>9} {'afresh':>9} {'ratio':>6}  (median CPU ms, {runs} runs)")
    for lang in ("ja", "en"):
        voicepack.load_pack(lang)
        kept = cpu_ms(partial(voicepack.load_pack, lang), runs)
        afresh = cpu_ms(partial(voicepack.read_pack, lang), runs)
        print(f"{f'load_pack({lang!r}) again, unchanged':44} {kept:9.3f} {afresh:9.2f} {afresh / kept:6.0f}")


if __name__ == "__main__":
    main()
