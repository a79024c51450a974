"""A render worker ends with the process that started it, and never holds its caller's pipes.

A worker of `narrator.sound.parallel` is a separate Python process. If its parent ends
without shutting the pool down (SIGKILL, the OOM killer, a power-button script), nothing
tells it: it waited on its job queue for ever (issue 39: 18 orphans after 6 killed renders,
alive 30 s later). And it inherited its parent's stdin/stdout/stderr, so a caller reading
the render's output (a test, the appliance's log pipe) never saw end-of-file while an
orphan lived: the fresh-root test hung until its 40-minute timeout.

So `tie_to_parent` runs first in every worker:

- Linux asks the kernel to SIGKILL the worker when its parent dies (`prctl(PR_SET_PDEATHSIG)`),
  then checks that its parent is still the process that started it: a parent that died
  before the request was made would never signal (the race at start). The kernel sends it
  when the *thread* that started the worker ends, not only the process: `render_all` submits
  (and so starts the workers) on its caller's thread and shuts its pool down before it
  returns, so that thread outlives its workers; a pool kept beyond the call that made it
  would have to be made on a thread that lives as long.
- Where there is no such request (not Linux), a daemon thread looks at the parent id once a
  second and ends the worker when it changes (the parent is gone: the worker was adopted).
- The worker's fds 0, 1 and 2 are pointed at /dev/null: a worker reports through its result
  queue only, so the caller's pipes close when the caller does, whatever its workers do.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1
"""prctl option: the signal the kernel sends this process when its parent ends (linux/prctl.h)."""

WATCH_SECONDS = 1.0
"""How often the fallback (no prctl) looks whether the parent is still there."""


def tie_to_parent(parent: int) -> None:
    """Make this process (a worker started by `parent`) end when `parent` ends; free its stdio."""
    if not death_signal(signal.SIGKILL):
        _watch(parent)
    if os.getppid() != parent:  # the parent died before the kernel was asked: nobody would tell us
        os._exit(1)
    detach_stdio()


def death_signal(signum: int) -> bool:
    """Ask the kernel for `signum` when the parent dies; False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    """The fallback: a daemon thread ends the process once it has been adopted by another parent."""
    def look() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=look, name="parent-watch", daemon=True).start()


def detach_stdio() -> None:
    """Point fds 0, 1, 2 at /dev/null, so no caller's pipe stays open through this process."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in (0, 1, 2):
            os.dup2(null, fd)
    finally:
        if null > 2:
            os.close(null)
