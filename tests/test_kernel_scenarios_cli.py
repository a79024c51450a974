"""Issue 36's held-out-style scenarios, as a table meets them, through the real CLI: every one of
`bench/kernel_scenarios.py`'s scenarios (one-night, werewolf, tabula: the vote's published rule,
the lone wolf, physical cards' questions, one-night refused without phones, a call the same
whoever holds its card, nothing private in the shared transcript, fresh deals, resume from a
game file, tabula's own names …) must pass on this checkout. On 42764d7, before the issue, 4 of
36 passed (bench/README.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # 36 whole games through `python -m narrator`

ROOT = Path(__file__).resolve().parents[1]


def test_every_held_out_scenario_passes_through_the_cli():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "kernel_scenarios.py"), str(ROOT), "-j", "2"],
                          capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL ")]
    assert not failed, "\n".join(failed)
    total = next(line for line in done.stdout.splitlines() if line.startswith("all: "))
    passed, count = total.split()[1].split("/")
    assert passed == count and int(count) >= 36, total
