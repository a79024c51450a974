"""The rest of a game's lines, rendered on the pool while the game plays, ahead of it.

A first game on a fresh machine used to wait for every line before its first word (minutes
on a Pi). Now a game starts once its opening is rendered (`render_ahead.opening_requests`)
and the rest is rendered here, on a thread that feeds `parallel.render_all` (every core)
in the game's order, so each line is ready before the game comes to it. Should the game
come to a line still queued (a table faster than the render), that line jumps the queue
and the game waits for it: the pool renders it, never the game's own process, so one clip
is never written by two processes at once, and nothing is synthesized on demand.

The queue is handed to `render_all` as a sized iterable that it pulls lazily (one job per
finished one), which is how a later line can move to the front. `stop` ends the feed; the
pool finishes the few jobs it holds, and a stopped render keeps only whole clips.
"""

from __future__ import annotations

import threading
from collections import deque
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from narrator.sound import parallel
from narrator.sound.voice import EngineVoice


class _Feed:
    """The jobs in the game's order, a line the game waits for first; sized for `render_all`."""

    def __init__(self, jobs: list[parallel.Job]):
        self.jobs = {job.wav: job for job in jobs}
        self.order: deque[Path] = deque(self.jobs)
        self.urgent: deque[Path] = deque()
        self.taken: set[Path] = set()
        self.stopped = False
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.jobs)

    def __iter__(self) -> Iterator[parallel.Job]:
        while True:
            with self.lock:
                wav = self._next()
                if wav is None:
                    return
                self.taken.add(wav)
            yield self.jobs[wav]

    def _next(self) -> Path | None:
        if self.stopped:
            return None
        for queue in (self.urgent, self.order):
            while queue:
                wav = queue.popleft()
                if wav not in self.taken:
                    return wav
        return None

    def hurry(self, wav: Path) -> None:
        with self.lock:
            if wav not in self.taken:
                self.urgent.append(wav)


class BackgroundRender:
    """Renders `requests`' missing clips on the pool, in order, on a thread of its own."""

    def __init__(self, voice: EngineVoice, requests: Sequence[tuple[str, Mapping[str, Any]]], jobs: int | None = None):
        self.voice = voice
        todo = list({job.wav: job for _, job in voice.missing_jobs(requests)}.values())
        self.feed = _Feed(todo)
        self.ready = {job.wav: threading.Event() for job in todo}
        self.rendered = 0
        self.waited = 0
        """Lines the game came to before they were rendered (it waited for them)."""
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(jobs,), name="background-render", daemon=True)

    @property
    def total(self) -> int:
        return len(self.ready)

    def start(self) -> "BackgroundRender":
        if self.ready:
            self._thread.start()
        return self

    def _run(self, jobs: int | None) -> None:
        def done(job: parallel.Job) -> None:
            self.rendered += 1  # not `voice.synthesized`: that counts what the game's voice ran itself
            self.ready[job.wav].set()

        try:
            parallel.render_all(self.voice.engine, self.feed, self.voice.settings, jobs, done)
        except BaseException as err:
            self.error = err
        finally:
            self.feed.stopped = True
            for event in self.ready.values():
                event.set()  # nobody waits for a clip this render will not make

    def wait_for(self, wav: Path) -> bool:
        """The game needs `wav` now: hurry it and wait until it is rendered. False if this
        render does not make it (not one of its lines, or the render stopped first)."""
        event = self.ready.get(wav)
        if event is None or not self._thread.is_alive() and not event.is_set():
            return False
        if not event.is_set():
            self.waited += 1
            self.feed.hurry(wav)
            event.wait()
        return wav.is_file()

    def stop(self, timeout: float | None = 10.0) -> None:
        """End the feed and wait for the pool to finish what it holds (whole clips only)."""
        self.feed.stopped = True
        if self._thread.is_alive():
            self._thread.join(timeout)
