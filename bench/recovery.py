"""Damaged files and lying storage against the service's own start command, counted.

Run on demand: `.venv/bin/python bench/recovery.py [--tree DIR] [--mutations 30]`. `--tree`
runs another checkout (the code before a change, say), so before and after are measured by
the same script. Every case is a fresh `NARRATOR_HOME` and one `python -m narrator serve
--once` with a script of answers (text voice, instant clock):

- **phones files**: an unfinished game with phones (made by `narrator play` whose answers run
  dry), then `phones.json` or `phones-private.json` damaged (emptied, cut in half, not UTF-8,
  nested too deeply, random byte mutations); the service must resume and finish the game;
- **table file**: the default table file, damaged the same ways; the service must play a game;
- **lying storage**: `meta.json` lost, cut, the log shorter than its snapshot, the log empty,
  a game folder left half-created; the game must resume without a terminal (or, for the
  half-created one, the folder must be gone and a new game played);
- **home files** (issue 39): `history-forgotten.json` damaged (garbage, a list, a symlink to
  `/dev/zero`, a FIFO, over 16 MiB): `narrator stats` must answer, once and every time after;
  `stats forget` with a finished game's snapshot, log line or meta damaged: one line, and the
  unfinished game noted; a finished game whose `meta.json` is damaged: it must stay over and
  counted; a huge `[appliance]` number (400 and 5,000 digits): `serve` must play and `config
  show` give one line; the games listed after the clock jumped back: `resume` must take the
  game made last.

A case *crash-loops* when `serve` exits with a status other than 0 or prints a traceback (the
systemd unit would restart it, and the table would hear the greeting again).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
NAMES = "Aki,Ben,Chika,Dai,Emi"
PLAY = ["play", "--voice", "text", "--lang", "en", "--time-scale", "0", "--no-keyboard", "--names", NAMES,
        "--phones", "--host", "127.0.0.1", "--port", "0", "--seed", "3"]
RESUME_ANSWERS = "yes\n" + NAMES + "\nyes\n" + "no\n" * 10
"""Resume it (at the nomination: everyone is nominated), then no to the rest."""
PHONES_TABLE = 'lang = "en"\nphones = true\nhost = "127.0.0.1"\nport = 0\n'
SERVE = ["serve", "--once", "--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "en",
         "--time-scale", "0"]


def _capped() -> None:
    """At most 1 GiB of heap per narrator process: an unbounded read (a link to /dev/zero, on the
    code before the fix) fails fast instead of taking the shared machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (2**30, 2**30))


def narrator(tree: Path, home: Path, *args: str, timeout: float = 25) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(home), "PYTHONPATH": str(tree)}
    try:
        return subprocess.run([sys.executable, "-m", "narrator", *args], env=env, cwd=tree, text=True,
                              capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL, preexec_fn=_capped)
    except subprocess.TimeoutExpired as err:
        return subprocess.CompletedProcess(err.cmd, -9, "", f"timed out after {timeout} s")


def crashed(result: subprocess.CompletedProcess) -> bool:
    return result.returncode != 0 or "Traceback" in result.stderr


def damages(data: bytes, rng: random.Random, mutations: int) -> list[tuple[str, bytes]]:
    cases = [("empty", b""), ("half", data[: len(data) // 2]), ("not utf-8", b"\xff\xfe" + data[2:]),
             ("nested", b"[" * 100000), ("a list", b"[]"), ("null", b"null")]
    for n in range(mutations):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        cases.append((f"mutation {n}", bytes(mutated)))
        cases.append((f"cut {n}", data[: rng.randrange(len(data))]))
    return cases


def unfinished_phone_game(tree: Path, base: Path) -> Path:
    """A home holding one unfinished game with phones (seats and private lines saved)."""
    home = base / "phones-base"
    answers = base / "first.txt"
    answers.write_text("done\n")
    env = {**os.environ, "NARRATOR_HOME": str(home), "PYTHONPATH": str(tree)}
    # With phones the game waits for them once the script runs dry: stop it once both answers are in.
    proc = subprocess.Popen([sys.executable, "-m", "narrator", *PLAY, "--answers", str(answers)], env=env,
                            cwd=tree, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        logs = list((home / "games").glob("*/events.jsonl"))
        if logs and logs[0].read_text().count('"answer"') >= 1:
            break
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    (home / "table.toml").write_text(PHONES_TABLE)
    private = game_folder(home) / "phones-private.json"
    if not private.exists():  # this early in the night no private line was shown yet
        private.write_text(json.dumps([{"to": "Aki", "line": "card.seer", "text": {"en": "Seer"},
                                        "when": [1, 0]}]))
    return home


def game_folder(home: Path) -> Path:
    return next((home / "games").iterdir())


def serve_answers(base: Path, lines: str) -> str:
    path = base / "serve-answers.txt"
    path.write_text(lines)
    return str(path)


def phones_cases(tree: Path, base: Path, rng: random.Random, mutations: int) -> tuple[int, int]:
    origin = unfinished_phone_game(tree, base)
    answers = serve_answers(base, RESUME_ANSWERS)
    total = loops = 0
    for name in ("phones.json", "phones-private.json"):
        data = (game_folder(origin) / name).read_bytes()
        for label, damaged in damages(data, rng, mutations):
            home = base / "case"
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(origin, home)
            (game_folder(home) / name).write_bytes(damaged)
            result = narrator(tree, home, *SERVE, "--answers", answers)
            total += 1
            if crashed(result):
                loops += 1
                print(f"  {name} {label}: exit {result.returncode}: {result.stderr.strip().splitlines()[-1:]}")
    return total, loops


def table_cases(tree: Path, base: Path, rng: random.Random, mutations: int) -> tuple[int, int]:
    home = base / "table"
    narrator(tree, home, "config", "path")
    narrator(tree, home, "config", "show")
    data = (home / "table.toml").read_bytes()
    answers = serve_answers(base, "yes\ndone\nyes\n" + "no\n" * 10)
    total = loops = 0
    for label, damaged in damages(data, rng, mutations):
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir()
        (home / "table.toml").write_bytes(damaged)
        result = narrator(tree, home, *SERVE, "--answers", answers)
        total += 1
        shown = narrator(tree, home, "config", "show")
        if crashed(result) or "Traceback" in shown.stderr:
            loops += 1
            print(f"  table.toml {label}: serve exit {result.returncode}, config show "
                  f"{'traceback' if 'Traceback' in shown.stderr else shown.returncode}")
    return total, loops


def lying_cases(tree: Path, base: Path) -> tuple[int, int]:
    origin = unfinished_phone_game(tree, base)
    answers = serve_answers(base, RESUME_ANSWERS)
    total = recovered = 0

    def cut_log(folder: Path, keep: int) -> None:
        log = folder / "events.jsonl"
        log.write_text("".join(log.read_text().splitlines(keepends=True)[:keep]))

    cases = {
        "meta.json lost": lambda f: (f / "meta.json").unlink(),
        "meta.json cut": lambda f: (f / "meta.json").write_bytes((f / "meta.json").read_bytes()[:40]),
        "log shorter than snapshot": lambda f: cut_log(f, 3),
        "log empty": lambda f: (f / "events.jsonl").write_bytes(b""),
    }
    for label, damage in cases.items():
        home = base / "case"
        shutil.rmtree(home, ignore_errors=True)
        shutil.copytree(origin, home)
        folder = game_folder(home)
        damage(folder)
        # an empty log has lost even the start: the game is played again from its welcome, same deal
        again = serve_answers(base, "yes\ndone\n" + RESUME_ANSWERS[4:]) if label == "log empty" else answers
        result = narrator(tree, home, *SERVE, "--answers", again)
        meta = folder / "meta.json"
        finished = meta.exists() and _finished(meta)
        total += 1
        recovered += finished and not crashed(result)
        print(f"  {label}: {'recovered' if finished and not crashed(result) else 'not recovered'} "
              f"(exit {result.returncode})")
    home = base / "half"
    shutil.rmtree(home, ignore_errors=True)
    (home / "games" / "20260101-000000-abcdef").mkdir(parents=True)
    result = narrator(tree, home, *SERVE, "--answers", serve_answers(base, "yes\ndone\nyes\n"))
    listed = narrator(tree, home, "games")
    total += 1
    clean = not crashed(result) and "damaged" not in listed.stdout + listed.stderr
    recovered += clean
    print(f"  half-created game: {'cleaned up' if clean else 'listed as damaged'}")
    return total, recovered


def evening(tree: Path, base: Path) -> Path:
    """A home with one finished game (first) and one unfinished game (second)."""
    home = base / "evening"
    names = "Aki,Ben,Chika,Dai,Emi,Fumi"
    run = ["play", "additional-werewolf", "--names", names, "--seed", "7", "--voice", "text", "--time-scale", "0",
           "--no-keyboard", "--answers"]
    script = ["done", "Ben,Dai", "no", "no", "done", "Emi", "no", "no", "done", "Fumi", "yes"]
    narrator(tree, home, *run, serve_answers(base, "\n".join(script) + "\n"), timeout=60)
    narrator(tree, home, *run, serve_answers(base, "\n".join(script[:3]) + "\n"), timeout=60)
    return home


def home_cases(tree: Path, base: Path) -> tuple[int, int]:
    origin = evening(tree, base)
    finished, unfinished = sorted((origin / "games").iterdir())
    total = held = 0

    def copy() -> Path:
        home = base / "case"
        shutil.rmtree(home, ignore_errors=True)
        shutil.copytree(origin, home, symlinks=True)
        return home

    def note(damage: Callable[[Path], None]) -> bool:
        home = copy()
        damage(home / "history-forgotten.json")
        first, again = narrator(tree, home, "stats", "--json"), narrator(tree, home, "stats", "--json")
        return not crashed(first) and not crashed(again) and finished.name in first.stdout

    def huge(path: Path) -> None:
        with path.open("wb") as f:
            f.truncate(16 * 2**20 + 1)

    def forget(damage: Callable[[Path], None], scrubbed: bool = True) -> bool:
        """One line, the unfinished game noted, and the finished game rewritten without the name
        (or, where its log is damaged, the line saying the name may still be in it)."""
        home = copy()
        damage(home / "games" / finished.name)
        done = narrator(tree, home, "stats", "forget", "Ben")
        note_file = home / "history-forgotten.json"
        log = (home / "games" / finished.name / "events.jsonl").read_text(encoding="utf-8", errors="replace")
        told = '"Ben"' not in log if scrubbed else "could not be rewritten" in done.stderr
        return not crashed(done) and note_file.exists() and unfinished.name in note_file.read_text() and told

    def damage_log(folder: Path) -> None:
        lines = (folder / "events.jsonl").read_bytes().splitlines(keepends=True)
        (folder / "events.jsonl").write_bytes(b"".join(lines[:3]) + b"{ damaged\n" + b"".join(lines[3:]))

    def meta_kept() -> bool:
        home = copy()
        shutil.rmtree(home / "games" / unfinished.name)
        (home / "games" / finished.name / "meta.json").write_bytes(b'{"id": ')
        listed = narrator(tree, home, "games")
        resumed = narrator(tree, home, "resume", "--no-keyboard", "--voice", "text", "--time-scale", "0")
        stats = narrator(tree, home, "stats", "--json")
        return (f"{finished.name}  additional-werewolf  over" in listed.stdout and "no unfinished game" in resumed.stderr
                and not crashed(stats) and finished.name in stats.stdout)

    def appliance_number(digits: int) -> bool:
        home = base / "case"
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir()
        (home / "table.toml").write_text(f"[appliance]\nresume_timeout = 1{'0' * digits}\n")
        shown = narrator(tree, home, "config", "show")
        served = narrator(tree, home, *SERVE, "--answers", serve_answers(base, "yes\ndone\nyes\n" + "no\n" * 10))
        return "Traceback" not in shown.stderr and not crashed(served)

    def clock_back() -> bool:
        home = copy()
        shutil.rmtree(home / "games" / unfinished.name)
        again = narrator(tree, home, "play", "pagan", "--voice", "text", "--time-scale", "0", "--no-keyboard",
                         "--answers", serve_answers(base, "done\n"))
        [new] = [f for f in (home / "games").iterdir() if f.name != finished.name]
        old_id = "29991231-235959-abcdef"  # a game begun before the clock jumped back: its id sorts last
        (home / "games" / finished.name).rename(home / "games" / old_id)
        meta = json.loads((home / "games" / old_id / "meta.json").read_text())
        meta.update(id=old_id, finished=False)
        (home / "games" / old_id / "meta.json").write_text(json.dumps(meta))
        log = (home / "games" / old_id / "events.jsonl")
        first, *rest = log.read_text().splitlines(keepends=True)
        log.write_text(json.dumps(dict(json.loads(first), id=old_id)) + "\n" + "".join(rest))
        (home / "games" / old_id / "snapshot.json").unlink()
        listed = narrator(tree, home, "games").stdout.splitlines()
        return again.returncode == 3 and listed[-1].startswith(new.name)

    cases: dict[str, Callable[[], bool]] = {
        "note garbage": lambda: note(lambda p: p.write_bytes(b"{ not json")),
        "note a list": lambda: note(lambda p: p.write_text("[1, 2]")),
        "note -> /dev/zero": lambda: note(lambda p: p.symlink_to("/dev/zero")),
        "note a FIFO": lambda: note(lambda p: os.mkfifo(p)),
        "note over 16 MiB": lambda: note(huge),
        "forget, snapshot damaged": lambda: forget(lambda f: (f / "snapshot.json").write_bytes(b'{"state": ')),
        "forget, log line damaged": lambda: forget(damage_log, scrubbed=False),
        "forget, meta damaged": lambda: forget(lambda f: (f / "meta.json").write_bytes(b'{"id": ')),
        "finished game, meta damaged": meta_kept,
        "[appliance] 400 digits": lambda: appliance_number(400),
        "[appliance] 5000 digits": lambda: appliance_number(5000),
        "clock jumped back": clock_back,
    }
    for label, case in cases.items():
        total += 1
        ok = case()
        held += ok
        print(f"  {label}: {'held' if ok else 'NOT held'}")
    return total, held


def _finished(meta: Path) -> bool:
    try:
        return bool(json.loads(meta.read_text()).get("finished"))
    except ValueError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=REPO)
    parser.add_argument("--mutations", type=int, default=27)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--only", choices=["phones", "table", "lying", "home"], help="run one group of cases")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="narrator-recovery-"))
    runs = lambda group: args.only in (None, group)  # noqa: E731
    try:
        tree = args.tree.resolve()
        print(f"tree {tree}")
        if runs("phones"):
            total, loops = phones_cases(tree, base, random.Random(args.seed), args.mutations)
            print(f"phones files: {loops} of {total} damage cases crash-loop serve")
        if runs("table"):
            total, loops = table_cases(tree, base, random.Random(args.seed), args.mutations)
            print(f"table file: {loops} of {total} damage cases crash serve or `config show`")
        if runs("lying"):
            total, recovered = lying_cases(tree, base)
            print(f"lying storage: {recovered} of {total} cases recovered without a terminal")
        if runs("home"):
            total, held = home_cases(tree, base)
            print(f"home files: {held} of {total} cases held")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
