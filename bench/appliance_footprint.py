"""The appliance's footprint: CPU and memory of whole games, and the cost of waiting.

Run on demand: `.venv/bin/python bench/appliance_footprint.py [--runs 5]`. Every number is
measured on child processes running the service's own start command (`python -m narrator
serve --once`), with `os.wait4`'s resource usage (user + system CPU seconds, peak RSS):

1. a whole game, instant clock, text voice: the app's own cost, without sound;
2. a whole game, instant clock, the real espeak-ng voice: cold (every line synthesized as it
   comes, the naive way) against warm (every line already rendered, what the service does
   after `scripts/setup` or the first game);
3. a whole game in real time ×50 (`--time-scale 0.02`, the 3-minute discussion lasts 3.6 s):
   CPU per wall-clock second while the narrator mostly waits;
4. waiting for an answer at real time: CPU per second of the appliance holding a question
   open (from /proc/PID/schedstat, nanoseconds), against a naive 10 ms polling loop
   measured in the same run.

Medians of `--runs` runs; ratios are against the naive way measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-m", "narrator", "serve", "--once", "--no-keyboard", "--no-buttons", "--lang", "en"]
ANSWERS = "yes\ndone\nno\nno\nno\nno\nno\nno\n"  # start; ready; three days without a werewolf found
NAIVE_POLL = "import time\nanswered = False\nwhile not answered:\n    time.sleep(0.01)\n"


class GameFailed(Exception):
    """A benchmarked game stopped with an error (its last stderr lines are the message)."""


def measure(cmd: list[str], env: dict[str, str], stop_after: float | None = None) -> tuple[float, float, float]:
    """(CPU seconds, peak RSS MiB, wall seconds) of one child; killed after `stop_after` s."""
    start = time.monotonic()
    errors = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=errors)
    if stop_after is not None:
        time.sleep(stop_after)
        proc.send_signal(signal.SIGTERM)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if stop_after is None and status != 0:
        errors.seek(0)
        raise GameFailed(f"{' '.join(cmd)} failed with status {status}:\n{errors.read().decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall


def cpu_while_waiting(cmd: list[str], env: dict[str, str], seconds: float, settle: float = 20.0) -> float:
    """CPU seconds a running child uses in `seconds`, from `settle` s after its start (the
    greeting and the first question, said in text mode, last about 16 s)."""
    proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(settle)
        before = _cpu_ns(proc.pid)
        time.sleep(seconds)
        return (_cpu_ns(proc.pid) - before) / 1e9
    finally:
        proc.kill()
        proc.wait()


def _cpu_ns(pid: int) -> int:
    """Nanoseconds on a CPU of every thread of `pid` (the first field of schedstat)."""
    return sum(int((task / "schedstat").read_text().split()[0]) for task in Path(f"/proc/{pid}/task").iterdir())


def fresh_home(base: Path, name: str, with_pack: bool = False) -> dict[str, str]:
    """An app home of its own; `with_pack` copies the en pack in, so its clip cache starts empty."""
    home = base / name
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    if with_pack:
        shutil.copytree(REPO / "voices" / "en", home / "voices" / "en", ignore=shutil.ignore_patterns("cache"))
    answers = home / "answers.txt"
    answers.write_text(ANSWERS)
    return {**os.environ, "NARRATOR_HOME": str(home), "ANSWERS": str(answers)}


def game(env: dict[str, str], *flags: str) -> tuple[float, float, float]:
    return measure(SERVE + ["--answers", env["ANSWERS"], *flags], env)


def median(samples: list[tuple[float, ...]], i: int) -> float:
    return statistics.median(s[i] for s in samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wait", type=float, default=10.0, help="seconds of waiting to measure")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="narrator-bench-"))
    try:
        text, cold, warm, paced = [], [], [], []
        engine_failures: list[str] = []
        for run in range(args.runs):
            text.append(game(fresh_home(base, f"text{run}"), "--voice", "text", "--time-scale", "0"))
            for _attempt in range(3):  # see `engine_failures` below
                env = fresh_home(base, f"voice{run}", with_pack=True)
                try:
                    cold.append(game(env, "--voice", "en", "--time-scale", "0"))
                    break
                except GameFailed as err:
                    engine_failures.append(str(err).splitlines()[-1])
            shutil.rmtree(Path(env["NARRATOR_HOME"]) / "games")
            warm.append(game(env, "--voice", "en", "--time-scale", "0"))
        for run in range(max(1, args.runs // 2)):
            paced.append(game(fresh_home(base, f"paced{run}"), "--voice", "text", "--time-scale", "0.02"))

        # Waiting: CPU time the process spends in `wait` s once the first question is open,
        # read from /proc/PID/schedstat (nanoseconds on a CPU), so start-up does not count.
        waiting, naive, startup = [], [], []
        for run in range(max(1, args.runs // 2)):
            env = fresh_home(base, f"wait{run}")
            waiting.append(cpu_while_waiting(SERVE + ["--voice", "text"], env, args.wait))
            naive.append(cpu_while_waiting([sys.executable, "-c", NAIVE_POLL], dict(os.environ), args.wait))
            startup.append(measure(SERVE + ["--voice", "text"], env, stop_after=2.0))
    finally:
        shutil.rmtree(base, ignore_errors=True)

    print(f"machine: {os.cpu_count()} cores, {_cpu_model()}; Python {sys.version.split()[0]}; {args.runs} runs, medians")
    print("whole game (5 players, 3 days), instant clock:")
    for name, samples in (("text voice", text), ("espeak-ng, cold cache (naive: synthesize as it goes)", cold),
                          ("espeak-ng, warm cache (rendered ahead)", warm)):
        print(f"  {name:55s} CPU {median(samples, 0):6.3f} s   peak RSS {median(samples, 1):6.1f} MiB")
    if engine_failures:
        print(f"  cold games retried after an engine error: {len(engine_failures)} ({engine_failures[0]})")
    print(f"  cold / warm CPU ratio: {median(cold, 0) / median(warm, 0):.1f}x")
    cpu, wall = median(paced, 0), median(paced, 2)
    print(f"whole game at real time x50: wall {wall:.1f} s, CPU {cpu:.3f} s = {100 * cpu / wall:.1f}% of one core "
          f"(start-up included), peak RSS {median(paced, 1):.1f} MiB")
    per_second = statistics.median(waiting) / args.wait
    naive_per_second = statistics.median(naive) / args.wait
    print(f"waiting for an answer at real time: {1000 * per_second:.3f} ms CPU per second; "
          f"naive 10 ms polling: {1000 * naive_per_second:.3f} ms/s "
          f"(ratio naive/ours: {naive_per_second / per_second:.0f}x)" if per_second > 0 else
          f"waiting for an answer at real time: 0 ns of CPU in {args.wait:.0f} s; "
          f"naive 10 ms polling: {1000 * naive_per_second:.3f} ms/s")
    print(f"start-up + first question: CPU {median(startup, 0):.3f} s, peak RSS {median(startup, 1):.1f} MiB")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    main()
