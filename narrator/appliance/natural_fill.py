"""The natural voice fills in by itself: the appliance renders it while no game is running.

A Raspberry Pi renders the natural voice (Kokoro) for hours, so with `voice = "ja-natural"`
the service starts `narrator voices render ja-natural` as a child at the lowest priority
(`chrt --idle`, `nice 19`, `ionice -c 3`: it only gets what nothing else wants) whenever the
table is between games, and stops it (SIGTERM to its process group, SIGKILL after a second)
the moment a game starts; it goes on after the game. A clip is written to a temporary file
and moved into place, so stopping mid-line loses that line only. Meanwhile the game speaks
through `narrator.sound.fill_in.FillInVoice`: each line natural when rendered, else Open
JTalk, so a game never waits for it. It renders the table's own player names (from the
table file) and the words said around names first (`voices render --names-of`): they are
what the next game needs, and otherwise every line that names a player is said with Open
JTalk until then. A table file changed after the render finished (new names) starts it
again, for the new names only. `narrator voices status` reads `STATE_FILE` to say
whether it runs. The table is told nothing: it is the log's and the status command's.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from narrator import home

if TYPE_CHECKING:  # fill_in is imported where a voice is checked: the service starts without an engine
    from narrator.sound.voice import Voice

STATE_FILE = "natural-render.json"
"""In the narrator's home: the background render's state, pid and when it last changed."""
LOG_FILE = "natural-render.log"
STOP_WITHIN = 1.0
"""Seconds a stopped render has to end before it is killed."""


def lowest_priority(command: list[str]) -> list[str]:
    """`command` run at idle CPU and I/O priority, with the tools that are installed."""
    prefix: list[str] = []
    if shutil.which("chrt"):
        prefix += ["chrt", "--idle", "0"]
    if shutil.which("ionice"):
        prefix += ["ionice", "-c", "3"]
    if shutil.which("nice"):
        prefix += ["nice", "-n", "19"]
    return prefix + command


def render_command(pack: str, engine: str, table: Path | None = None) -> list[str]:
    """`voices render` of the natural pack; with `table`, that table's names first."""
    names = ["--names-of", str(table)] if table is not None else []
    return lowest_priority([sys.executable, "-m", "narrator", "voices", "render", pack, "--engine", engine, *names])


class Child(Protocol):
    """What the render needs of its child process (a `subprocess.Popen`; the tests' fake)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def send_signal(self, sig: int) -> None: ...


Stamp = tuple[int, int]
"""A table file's mtime (ns) and size: when it differs, its names may have changed."""


def _stamp(path: Path | None) -> Stamp | None:
    """What tells that the table file changed (its names may have): its mtime and size."""
    if path is None:
        return None
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


def _spawn(command: list[str], log_path: Path) -> subprocess.Popen[bytes]:
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                process_group=0)


WAIT_FOR = 0.1
"""Seconds `pause` waits for the child to be gone before it lets the game go on."""


def _signal(process: Child, sig: int) -> None:
    try:
        os.killpg(process.pid, sig)  # the child and anything it started
    except (ProcessLookupError, PermissionError):
        process.send_signal(sig)


def _finish(process: Child, within: float) -> None:
    """Reap a stopped child; SIGKILL it if it is not gone `within` seconds."""
    try:
        process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        _signal(process, signal.SIGKILL)
        process.wait()


class BackgroundRender:
    """`resume()` between games, `pause()` before one; the child renders, this only starts and stops it."""

    def __init__(self, command: list[str], log: Callable[[str], None], spawn: Callable[[list[str], Path], Child] = _spawn,
                 folder: Path | None = None, clock: Callable[[], float] = time.time, table: Path | None = None):
        self.command, self.log, self.spawn, self.clock = command, log, spawn, clock
        self.table = table
        """The table file whose names the child renders first: changed after `finished`, it runs again."""
        self._table_seen: Stamp | None = None
        self.folder = folder or home.app_home()
        self.process: Child | None = None
        self.finished = False
        """The child ended with success: every line is rendered, nothing more to start."""
        self.failures = 0

    def resume(self) -> None:
        """Start (or go on) rendering, unless it is running, finished, or failed twice in a row."""
        self._reap()
        if self.finished and self.table is not None and _stamp(self.table) != self._table_seen:
            self.finished, self.failures = False, 0  # new names: the rest is on disk, only they render
        if self.process is not None or self.finished or self.failures >= 2:
            return
        self._table_seen = _stamp(self.table)
        self.process = self.spawn(self.command, self.folder / LOG_FILE)
        self._record("rendering")
        self.log(f"rendering the natural voice in the background (pid {self.process.pid}, lowest priority)")

    def pause(self) -> float:
        """Stop the child now (a game starts); returns how many seconds this call took.

        SIGTERM ends it at once (it has no handler), but a process that held the model takes a
        while to be torn down on a busy machine (measured: up to 0.75 s at load 20), so the
        game does not wait for that: after `WAIT_FOR` the rest of the wait (and SIGKILL when
        it outlives `STOP_WITHIN`) goes on beside the game, in a thread.
        """
        self._reap()
        if self.process is None:
            return 0.0
        started = time.monotonic()
        process, self.process = self.process, None
        _signal(process, signal.SIGTERM)
        try:
            process.wait(timeout=WAIT_FOR)
        except subprocess.TimeoutExpired:
            threading.Thread(target=_finish, args=(process, STOP_WITHIN - WAIT_FOR), daemon=True).start()
        took = time.monotonic() - started
        self._record("paused")
        self.log(f"natural voice render paused for the game ({took * 1000:.0f} ms)")
        return took

    def _reap(self) -> None:
        """Notice a child that ended by itself: done, or failed (see the log file)."""
        if self.process is None or self.process.poll() is None:
            return
        code, self.process = self.process.returncode, None
        if code == 0:
            self.finished = True
            self._record("done")
            self.log("the natural voice is rendered")
        else:
            self.failures += 1
            self._record("failed")
            self.log(f"the natural voice render stopped (exit {code}); see {self.folder / LOG_FILE}")

    def _record(self, state: str) -> None:
        pid = self.process.pid if self.process is not None else None
        data = {"state": state, "pid": pid, "since": self.clock(), "log": str(self.folder / LOG_FILE)}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            home.write_atomic(self.folder / STATE_FILE, json.dumps(data), mode=0o644)
        except OSError:  # a full card: the status command knows less
            pass


def read_state(folder: Path | None = None) -> dict[str, Any] | None:
    """What the service's background render last recorded, or None."""
    try:
        data = home.read_json((folder or home.app_home()) / STATE_FILE)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def for_voice(voice: Voice, log: Callable[[str], None], table: Path | None = None) -> BackgroundRender | None:
    """The background render of a natural voice being filled in (`FillInVoice`); None for any other.

    `table`: the table file, whose player names are rendered first.
    """
    from narrator.sound.fill_in import FillInVoice

    if not isinstance(voice, FillInVoice):
        return None
    log(f"lines not yet rendered in {voice.pack.name} are said with {voice.fallback.engine_name} meanwhile")
    return BackgroundRender(render_command(str(voice.pack.path), voice.natural.engine_name, table), log, table=table)
