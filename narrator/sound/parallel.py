"""Rendering on every core: the clips a voice still lacks, made by a pool of worker processes.

One line is one engine run plus its processing (trim, normalize, resample: pure Python in
pydub), and neither shares anything with the next line, so a render of hundreds of lines
goes as many times faster as there are cores. Each worker opens the engine once (by its
entry-point name) and renders whole jobs; a job is written to a temporary file and moved
into place, so a clip is either complete or absent, and a pool stopped half-way (Ctrl-C)
leaves only finished clips. Every job runs `render_clip`, the same function a one-worker
render runs, so the clips are byte-identical whatever the number of workers. A worker ends
with the process that started it, however that ends, and holds none of its caller's pipes
(`narrator.sound.worker_tether`).

An engine whose library already spreads one render over several threads (Kokoro's
onnxruntime uses every core) says `uses_threads = True`; it renders in this process, one
line at a time, so the machine is never oversubscribed.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol

from narrator.sound.clips import process
from narrator.sound.engines import TTS_GROUP, TextToSpeech, VoiceSettings, load_tts
from narrator.sound.worker_tether import tie_to_parent


@dataclass(frozen=True)
class Job:
    """One clip to make: the engine's words, where the processed WAV goes, how it is trimmed."""

    words: str
    wav: Path
    onset: bool = False


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


class Jobs(Protocol):
    """The clips to render: a list, or a background render's feed (it counts its jobs, and
    hands them out in the order the game will need them)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Job]: ...


def workers_for(engine: TextToSpeech, jobs: int | None, todo: int) -> int:
    """How many processes render `todo` clips: one for a threaded engine or a render of a few clips,
    and one for an engine whose clips depend on what its process rendered before
    (`history_dependent`): workers with other histories would make other clips."""
    if getattr(engine, "uses_threads", False) or getattr(engine, "history_dependent", False) \
            or not _registered(engine):
        return 1
    wanted = default_jobs() if jobs is None else max(1, jobs)
    return max(1, min(wanted, todo))


def _registered(engine: TextToSpeech) -> bool:
    """A worker opens the engine by name: only an engine registered under its name can go there
    (a test's stand-in renders in this process)."""
    from importlib.metadata import entry_points

    found = [ep for ep in entry_points(group=TTS_GROUP) if ep.name == getattr(engine, "name", None)]
    try:
        return bool(found) and found[0].load() is type(engine)
    except Exception:
        return False


def render_clip(engine: TextToSpeech, job: Job, settings: VoiceSettings) -> None:
    """Synthesize `job.words` and write the processed clip to `job.wav` (atomically)."""
    raw = job.wav.with_suffix(".raw.wav")
    engine.render(job.words, raw, settings)
    tmp = job.wav.with_suffix(".part.wav")
    process(raw, tmp, onset=job.onset)
    tmp.replace(job.wav)
    raw.unlink(missing_ok=True)


_worker_engine: TextToSpeech | None = None


def _open_worker(engine_name: str, parent: int | None = None) -> None:
    """A worker's start: tied to `parent` (it ends with it, holding none of its pipes), then
    the engine opened once for all its jobs."""
    global _worker_engine
    if parent is not None:
        tie_to_parent(parent)
    _worker_engine = load_tts(engine_name)


def _work(job: Job, settings: VoiceSettings) -> Job:
    if _worker_engine is None:
        raise RuntimeError("a render worker ran a job before its engine was opened")
    render_clip(_worker_engine, job, settings)
    return job


def render_all(engine: TextToSpeech, todo: Jobs, settings: VoiceSettings, jobs: int | None = None,
               done: Callable[[Job], None] | None = None) -> int:
    """Render every job (with `workers_for` processes); `done` is called as each finishes.

    Returns how many were rendered. An engine failure in a worker is raised here, after the
    pool has been told to stop; clips finished before it are kept.
    """
    workers = workers_for(engine, jobs, len(todo))
    if workers == 1:
        for job in todo:
            render_clip(engine, job, settings)
            if done is not None:
                done(job)
        return len(todo)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                               initializer=_open_worker, initargs=(engine.name, os.getpid()))
    finished = 0
    try:
        pending: set[Future[Job]] = set()
        queue = iter(todo)
        for job in _take(queue, workers * 2):  # a short queue: Ctrl-C stops within a line or two
            pending.add(pool.submit(_work, job, settings))
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                job = future.result()
                finished += 1
                if done is not None:
                    done(job)
                for more in _take(queue, 1):
                    pending.add(pool.submit(_work, more, settings))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return finished


def _take(queue: Iterable[Job], n: int) -> list[Job]:
    out = []
    for job in queue:
        out.append(job)
        if len(out) == n:
            break
    return out
