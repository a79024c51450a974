"""Render workers end with their parent, however it ends, and never keep a caller's pipes open
(issue 39, item 2; `narrator.sound.worker_tether`).

Each test runs a real `narrator voices render` of the en pack (a copy, with an empty cache)
on two workers, waits until the workers are rendering, SIGKILLs the render, and then looks:
at the processes it had started (none may be alive), and at the pipe its output went to (the
reader must see end-of-file). Every process of the render runs in a session of its own,
which the test kills whatever happens, so a failing run leaves no orphans behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from narrator.sound.voicepack import REPO_VOICES
from tests.processes import started

REPO = Path(__file__).resolve().parent.parent
START_SECONDS = 120.0
"""Bound on the wait for the workers to be rendering (a busy 2-core machine is slow to start two Pythons)."""
GONE_SECONDS = 15.0
"""Bound on the wait for the workers (and the caller's pipe) after the kill: they go at once, or never."""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc: no psutil)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    """Running (a zombie, dead but not yet reaped by whoever adopted it, counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _wait(predicate, seconds: float) -> bool:
    """A bounded poll for a process to reach a state."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def _start_render(tmp_path: Path, **popen) -> tuple[subprocess.Popen, Path]:
    folder = tmp_path / "en"
    shutil.copytree(REPO_VOICES / "en", folder, ignore=shutil.ignore_patterns("cache"))
    (folder / "cache").mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    render = started([sys.executable, "-m", "narrator", "voices", "render", str(folder), "--jobs", "2"],
                              cwd=tmp_path, env=env, start_new_session=True, **popen)
    return render, folder / "cache"


def _rendering(render: subprocess.Popen, cache: Path) -> list[int]:
    """Wait until two workers run and clips are being made; the render's child processes."""
    def busy() -> bool:
        return len(_children(render.pid)) >= 2 and any(p.name.count(".") == 1 for p in cache.glob("*.wav"))

    assert _wait(busy, START_SECONDS), "the render never started its workers"
    assert render.poll() is None, "the render finished before it could be killed"
    return _children(render.pid)


def _kill_session(render: subprocess.Popen) -> None:
    try:
        os.killpg(render.pid, signal.SIGKILL)  # the render's session: its workers, orphaned or not
    except ProcessLookupError:
        pass
    render.wait(timeout=30)


def test_a_killed_render_leaves_no_worker_alive(tmp_path):
    render, cache = _start_render(tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers = _rendering(render, cache)
        render.kill()
        render.wait(timeout=30)
        _wait(lambda: not any(_alive(pid) for pid in workers), GONE_SECONDS)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        _kill_session(render)


def test_the_callers_pipe_ends_when_the_render_is_killed(tmp_path):
    render, cache = _start_render(tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ended = threading.Event()

    def drain() -> None:
        while render.stdout.read(4096):
            pass
        ended.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        _rendering(render, cache)
        render.kill()
        render.wait(timeout=30)
        assert ended.wait(GONE_SECONDS), "the render's output pipe stayed open after it was killed"
    finally:
        _kill_session(render)
        reader.join(timeout=30)
        render.stdout.close()


def _tethered(parent: str, no_prctl: bool = False) -> str:
    patch = "worker_tether.death_signal = lambda signum: False; " if no_prctl else ""
    return ("import os, sys, time; from narrator.sound import worker_tether; " + patch +
            f"worker_tether.tie_to_parent({parent}); time.sleep(60)")


def test_a_worker_whose_parent_is_already_gone_ends_at_once():
    """The race at start: a parent that died before the worker asked the kernel would never signal."""
    worker = started([sys.executable, "-c", _tethered("os.getppid() + 1_000_000")],
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert worker.wait(timeout=60) == 1  # not the minute's sleep: it ended at once
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(timeout=30)


@pytest.mark.parametrize("no_prctl", [False, True], ids=["prctl", "parent-watch"])
def test_a_tied_process_ends_when_its_parent_is_killed(no_prctl):
    """Both ways a worker learns its parent is gone: the kernel's signal, and (no prctl) the watch."""
    middle = ("import os, subprocess, sys, time; "
              f"w = subprocess.Popen([sys.executable, '-c', {_tethered('PARENT', no_prctl)!r}.replace('PARENT', str(os.getpid()))]); "
              "print(w.pid, flush=True); time.sleep(60)")
    parent = started([sys.executable, "-c", middle], env={**os.environ, "PYTHONPATH": str(REPO)},
                              stdout=subprocess.PIPE, start_new_session=True)
    try:
        worker = int(parent.stdout.readline())
        assert _alive(worker)
        # killed before or after the worker has tied itself: either way it must end (the check at start)
        parent.kill()
        parent.wait(timeout=30)
        assert _wait(lambda: not _alive(worker), GONE_SECONDS)
    finally:
        _kill_session(parent)
        parent.stdout.close()
