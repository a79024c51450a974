"""The Japanese quick start's examples work when typed in the order the page gives them
(issue 37, item 11): a host copies them one after another on a fresh home, so a setting one
example saves must not make the next example refused.

tests/test_docs.py checks that each command and flag exists; this runs them, in sequence, on
one fresh narrator home: every `narrator config …` as written, every `narrator play …` with
`--dry-run` added (the setup is checked exactly as a game would check it; nothing is played).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.test_docs import code_of, invocations

REPO = Path(__file__).resolve().parent.parent
QUICK_START = REPO / "docs" / "ja" / "README.md"


def quick_start_commands(text: str) -> list[list[str]]:
    """The `narrator config` and `narrator play` examples of sections 2 and 3, in page order
    (section 1 installs; the later sections need played games or a network)."""
    part = text[text.index("## 2."):text.index("## 4.")]
    found = []
    for line in code_of(part):
        for program, words in invocations(line):
            if program == "narrator" and words and words[0] in ("config", "play"):
                found.append([w.strip('"') for w in _words(line, words)])
    return found


def _words(line: str, words: list[str]) -> list[str]:
    """The words as the shell would split them (the names are one quoted argument)."""
    import shlex
    start = line.index("narrator " + " ".join(words[:1]))
    rest = line[start:].split(" #")[0]
    return shlex.split(rest)[1:]


def run(words: list[str], home: Path) -> subprocess.CompletedProcess:
    if words[0] == "play":
        words = [*words, "--dry-run"]
    env = {**os.environ, "NARRATOR_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "narrator", *words], capture_output=True, text=True,
                          env=env, timeout=60, cwd=home)


def test_the_quick_start_examples_run_in_order_on_a_fresh_home(narrator_home):
    narrator_home.mkdir(parents=True)
    commands = quick_start_commands(QUICK_START.read_text(encoding="utf-8"))
    names = [c for c in commands if "--names" in c]
    assert any(c[:3] == ["config", "set", "players"] for c in commands) and names  # the pair the issue names
    assert ["config", "unset", "players"] in commands  # the way out is named on the page
    for words in commands:
        result = run(words, narrator_home)
        assert result.returncode == 0, f"narrator {' '.join(words)}: {result.stderr or result.stdout}"


def test_the_sequence_check_catches_a_saved_count_left_before_names(narrator_home):
    """The check itself: the old page's order (count saved, then five names) is refused."""
    narrator_home.mkdir(parents=True)
    assert run(["config", "set", "players", "6"], narrator_home).returncode == 0
    refused = run(["play", "--names", "あき,べん,ちか,だい,えみ"], narrator_home)
    assert refused.returncode != 0 and "人数が6人なのに名前が5人分" in refused.stderr + refused.stdout
