"""Bounded child processes for tests: whatever a test's assertion does, the process it started
and every process that one started are killed and reaped on the way out.

Why: a test that fails (or times out) between `Popen` and its `wait` left a narrator running,
holding its port, its game lock and a core, for the rest of the run; on a 2-core CI machine
that is the difference between a run in budget and one past it. `tests/test_subprocesses.py`
checks that every test's `subprocess.run` has a timeout and every `Popen` is reaped here.
`held` is the lock a test takes for a resource only one test on the machine may hold.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

GRACE = 10.0
"""Seconds a killed process has to be reaped before the test fails for it."""

_started: list[subprocess.Popen] = []
"""The processes `started` during the running test; conftest's `reap_children` ends them."""


def descendants(pid: int) -> list[int]:
    """Every living process below `pid`, children first (Linux: /proc/<pid>/task/*/children)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                found.append(int(child))
                found.extend(descendants(int(child)))
    return found


def running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie has ended: only its parent's wait is left)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def kill_tree(proc: subprocess.Popen, grace: float = GRACE) -> None:
    """Kill `proc`, its process group when it leads one, and all its descendants; reap `proc`,
    and wait (at most `grace`) until the descendants, which another parent reaps, have ended.

    The descendants are listed before `proc` dies (after, they belong to init and are lost)."""
    below: list[int] = []
    if proc.poll() is None:
        below = descendants(proc.pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if os.getpgid(proc.pid) == proc.pid:  # started with start_new_session / process_group=0
                os.killpg(proc.pid, signal.SIGKILL)
        for pid in [proc.pid, *below]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    proc.wait(timeout=grace)
    deadline = time.monotonic() + grace
    while any(running(pid) for pid in below) and time.monotonic() < deadline:
        time.sleep(0.01)  # a bounded poll: SIGKILL is delivered, the exit follows in a moment
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def started(args: Any, **popen: Any) -> subprocess.Popen:
    """`subprocess.Popen(args, **popen)`, ended with its children when the test ends (pass or fail):
    a test that waits for it bounds that wait (`wait(timeout=)`, `communicate(timeout=)`)."""
    proc = subprocess.Popen(args, **popen)
    _started.append(proc)
    return proc


def reap_started() -> list[str]:
    """End every process `started` since the last call; the commands of those still running."""
    running = [str(p.args) for p in _started if p.poll() is None]
    while _started:
        kill_tree(_started.pop())
    return running


@contextlib.contextmanager
def reaped(proc: subprocess.Popen, grace: float = GRACE) -> Iterator[subprocess.Popen]:
    """`with reaped(subprocess.Popen(...)) as proc:` the process (and its children) is gone
    when the block ends, however it ends; a process that already ended is only reaped."""
    try:
        yield proc
    finally:
        kill_tree(proc, grace)


LOCK_WAIT = 1800.0
"""Seconds a test waits for a shared resource before it fails naming the holder's lock file."""


@contextlib.contextmanager
def held(name: str, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold the machine-wide lock `name` (a file in the temp folder) for the block: one test at a
    time, across xdist workers and across checkouts. Waiting is a bounded poll."""
    path = Path(tempfile.gettempdir()) / f"narrator-tests-{name}.lock"
    with open(path, "a") as lock:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{path} was held for {wait:.0f} s: is a test run stuck?") from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
