"""Fuzzing `narrator` as a real process: table files, answers lines and command-line flags.

Every run must end within `TIME_BOUND` seconds, with exit 0 (or 3 when the scripted answers
run out), or with exactly one `error:` line and exit 2 or 3, never a traceback. Values are
drawn from pools whose validity is known, so a run that should have been refused but played
is counted as "accepted wrongly". Used by tests/test_fuzz.py (a few examples, in the suite)
and by bench/fuzz_cli.py (many, printing the issue's table).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

TIME_BOUND = 30.0
REPO = Path(__file__).resolve().parent.parent
NAMES = "Aki,Ben,Chika,Dai,Emi"
SHORT_ANSWERS = "done\nno\nno\n"

# (valid, invalid) values per key; validity as docs/table-file.md states the bounds.
BOUNDED = {
    "countdown": (1, 600), "look": (1, 600), "strategist": (0, 600), "redeal": (0, 600),
    "check_role": (1, 600), "discussion": (0, 3600), "days": (1, 30),
}
NOT_WHOLE = [math.inf, -math.inf, math.nan, True, False, 2.5, 1e300, "abc", [1], {"a": 1}]


def _bounded(key: str) -> st.SearchStrategy:
    low, high = BOUNDED[key]
    valid = st.integers(low, min(high, 40)).map(lambda v: (v, True))
    invalid = st.one_of(st.integers(-10**12, low - 1), st.integers(high + 1, 10**12),
                        st.sampled_from(NOT_WHOLE)).map(lambda v: (v, False))
    return st.one_of(valid, invalid)


OTHER_KEYS: dict[str, st.SearchStrategy] = {
    "lang": st.one_of(st.sampled_from(["ja", "en"]).map(lambda v: (v, True)),
                      st.sampled_from(["fr", "", 1, True]).map(lambda v: (v, False))),
    "night_done": st.one_of(st.booleans().map(lambda v: (v, True)),
                            st.sampled_from([1, 0, 2.0, "maybe", [True]]).map(lambda v: (v, False))),
    "ambience": st.one_of(st.booleans().map(lambda v: (v, True)),
                          st.sampled_from([1, "x"]).map(lambda v: (v, False))),
    "volume": st.one_of(st.floats(0, 2).map(lambda v: (v, True)),
                        st.sampled_from([math.nan, math.inf, -1.0, 2.5, True, "loud"]).map(lambda v: (v, False))),
    "seed": st.one_of(st.integers(0, 2**128).map(lambda v: (v, True)),
                      st.sampled_from([-1, True, 1.5, "x"]).map(lambda v: (v, False))),
    "countdowns": st.one_of(st.integers(1, 30).map(lambda v: ({"seer": v}, True)),
                            st.sampled_from([0, -5, 601, 10**9, True, math.inf]).map(lambda v: ({"seer": v}, False)),
                            st.just(({"wizard": 5}, False))),
    "warnings": st.one_of(st.lists(st.integers(1, 120), min_size=1, max_size=3).map(lambda v: (v, True)),
                          st.sampled_from([[0], [-1], [True], [math.inf], [10**9]]).map(lambda v: (v, False))),
    "players": st.one_of(st.integers(4, 8).map(lambda v: (v, True)),
                         st.sampled_from([3, 21, 10**6, -1, True, 4.5]).map(lambda v: (v, False))),
}
TABLE_KEYS = {**{k: _bounded(k) for k in BOUNDED}, **OTHER_KEYS}


def toml_value(value: Any) -> str:
    """TOML for the pools' values (tomllib reads, nothing writes TOML in the standard library)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


GARBAGE_TABLES = st.sampled_from([
    b"\xff\xfe not utf-8 = 1\n", b"players = [" * 2000 + b"\n", b"countdown = \n", b"[roles\n",
    b"a = " + b"[" * 100000, b"\x00\x00\x00", b"players = 5\nplayers = 6\n", b"= = =\n",
])


@st.composite
def table_files(draw: Any) -> tuple[bytes, bool]:
    """(table file bytes, whether it should be accepted)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(GARBAGE_TABLES), False
    keys = draw(st.lists(st.sampled_from(sorted(TABLE_KEYS)), min_size=1, max_size=4, unique=True))
    lines, valid = ['game = "additional-werewolf"'], True
    for key in keys:
        value, ok = draw(TABLE_KEYS[key])
        lines.append(f"{key} = {toml_value(value)}")
        valid = valid and ok
    return ("\n".join(lines) + "\n").encode(), valid


ANSWER_WORDS = ["done", "yes", "no", "y", "n", "", "Aki", "Ben", "Aki,Ben", "1", "2", "99", "pause", "p",
                "resume", "repeat", "r", "help", "h", "undo", "u", "ok", "next", "はい", "{", "{}", "[]",
                '{"night": 1, "player": "Aki", "target": "Ben", "ability": false}', "#comment", "Zed",
                "a" * 5000, "[" * 5000, "\t", "Aki,,Ben", "0", "-1"]


@st.composite
def answers_files(draw: Any) -> tuple[str, bytes]:
    """(game, answers file bytes)."""
    game = draw(st.sampled_from(["additional-werewolf", "bestia-magica", "pagan"]))
    lines = draw(st.lists(st.one_of(st.sampled_from(ANSWER_WORDS), st.text(max_size=12)), max_size=12))
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        data += b"\n\xff\xfe\n"
    return game, data


FLAG_VALUES: dict[str, st.SearchStrategy] = {
    **{f"--{k.replace('_', '-')}": _bounded(k).map(lambda v: (toml_value(v[0]).strip('"'), v[1])) for k in BOUNDED},
    "--time-scale": st.one_of(st.sampled_from(["0", "0.0", "0e0"]).map(lambda v: (v, True)),
                              st.sampled_from(["inf", "-1", "nan", "11", "1e400", "abc", "true", ""])
                              .map(lambda v: (v, False))),
    "--port": st.one_of(st.integers(0, 65535).map(lambda v: (str(v), True)),
                        st.sampled_from(["99999", "-1", "abc", "1e3", "65536"]).map(lambda v: (v, False))),
    "--audio": st.one_of(st.sampled_from(["null", "auto"]).map(lambda v: (v, True)),
                         st.sampled_from(["bogus", "", "NULL"]).map(lambda v: (v, False))),
    "--voice": st.one_of(st.just(("text", True)),
                         st.sampled_from(["nonexistent", "", "../../etc"]).map(lambda v: (v, False))),
    "--transcript": st.one_of(st.just(("t.jsonl", True)),
                              st.sampled_from(["/", "/proc/nope/t.jsonl", "/dev/null/x"]).map(lambda v: (v, False))),
    "--volume": st.one_of(st.sampled_from(["0", "1", "2", "0.5"]).map(lambda v: (v, True)),
                          st.sampled_from(["nan", "inf", "-1", "3", "true"]).map(lambda v: (v, False))),
    "--seed": st.one_of(st.integers(0, 2**64).map(lambda v: (str(v), True)),
                        st.sampled_from(["-1", "1.5", "x", "true"]).map(lambda v: (v, False))),
    "--night-done": st.one_of(st.sampled_from(["true", "false"]).map(lambda v: (v, True)),
                              st.sampled_from(["maybe", "2"]).map(lambda v: (v, False))),
}
RESUME_FLAGS = ("--time-scale", "--port", "--audio", "--voice", "--transcript")


@st.composite
def cli_flags(draw: Any) -> tuple[str, list[tuple[str, str]], bool]:
    """(command: play or resume, [(flag, value)], whether it should be accepted)."""
    command = draw(st.sampled_from(["play", "resume"]))
    pool = sorted(RESUME_FLAGS if command == "resume" else FLAG_VALUES)
    flags = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True))
    chosen, valid = [], True
    for flag in flags:
        value, ok = draw(FLAG_VALUES[flag])
        chosen.append((flag, value))
        valid = valid and ok
    return command, chosen, valid


# --- running ---------------------------------------------------------------------------------

@dataclass
class Outcome:
    exit: int | None
    """None when the run was stopped at the time bound (a hang)."""
    stderr: str = ""
    saved_changed: bool = False
    """A refused resume changed meta.json (saved before checked)."""

    @property
    def hang(self) -> bool:
        return self.exit is None

    @property
    def traceback(self) -> bool:
        errors = [line for line in self.stderr.splitlines() if line.startswith("error:")]
        if "Traceback" in self.stderr or (self.exit is not None and self.exit not in (0, 2, 3)):
            return True
        return self.exit in (2, 3) and len(errors) != 1

    def wrongly_accepted(self, valid: bool) -> bool:
        return not self.hang and ((not valid and self.exit in (0, 3)) or self.saved_changed)


@dataclass
class Tally:
    tried: int = 0
    wrongly: int = 0
    tracebacks: int = 0
    hangs: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome, valid: bool | None, what: str) -> None:
        self.tried += 1
        bad = False
        if outcome.hang:
            self.hangs, bad = self.hangs + 1, True
        elif outcome.traceback:
            self.tracebacks, bad = self.tracebacks + 1, True
        elif valid is not None and outcome.wrongly_accepted(valid):
            self.wrongly, bad = self.wrongly + 1, True
        if bad and len(self.examples) < 5:
            self.examples.append(f"{what} -> exit {outcome.exit}: {outcome.stderr.strip()[-300:]}")


def narrator(args: list[str], folder: Path, source: Path | None = None) -> Outcome:
    """Run `python -m narrator ARGS` in `folder` with its own NARRATOR_HOME (from `source` if given)."""
    env = {**os.environ, "NARRATOR_HOME": str(folder / "home")}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    try:
        proc = subprocess.run([sys.executable, "-m", "narrator", *args], cwd=source or folder, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=TIME_BOUND)
    except subprocess.TimeoutExpired as err:
        return Outcome(None, (err.stderr or b"").decode("utf-8", "replace"))
    return Outcome(proc.returncode, proc.stderr.decode("utf-8", "replace"))


BASE = ["--voice", "text", "--time-scale", "0", "--no-keyboard"]


def run_table(data: bytes, source: Path | None = None) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "table.toml").write_bytes(data)
        (folder / "a.txt").write_text(SHORT_ANSWERS)
        return narrator(["play", "--table", str(folder / "table.toml"), *BASE, "--answers", str(folder / "a.txt")],
                        folder, source)


def run_answers(game: str, data: bytes, source: Path | None = None) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "a.txt").write_bytes(data)
        names = [] if game == "pagan" else ["--names", NAMES + ",Fumi,Gen,Hana" if game == "bestia-magica" else NAMES]
        return narrator(["play", game, *names, *BASE, "--seed", "7", "--answers", str(folder / "a.txt")],
                        folder, source)


def run_flags(command: str, flags: list[tuple[str, str]], source: Path | None = None) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "a.txt").write_text(SHORT_ANSWERS)
        args = [a for flag, value in flags for a in (flag, str(folder / value) if value == "t.jsonl" else value)]
        play = ["play", "additional-werewolf", "--names", NAMES, "--answers", str(folder / "a.txt")]
        if command == "play":
            return narrator(play + BASE + args, folder, source)  # the last of a repeated flag wins
        first = narrator(play + BASE, folder, source)
        if first.exit != 3:
            return first
        metas = list((folder / "home" / "games").glob("*/meta.json"))
        before = metas[0].read_bytes() if metas else b""
        outcome = narrator(["resume", "--no-keyboard", *args], folder, source)
        if outcome.exit not in (0, 3) and metas and metas[0].read_bytes() != before:
            outcome.saved_changed = True
        return outcome
