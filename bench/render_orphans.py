"""Render workers and their parent (issue 39, items 2 and 8): orphans after killed renders,
and whether a pool render makes the clips a one-worker render makes.

1. `orphans`: `narrator voices render` of a copy of the en pack (empty cache) `--kills` times;
   each time it waits until the workers render, SIGKILLs the render and counts, `--after`
   seconds later, the processes the render had started that are still alive (workers and
   multiprocessing's resource tracker), and whether a pipe on the render's stdout reached
   end-of-file by then. Every render runs in a session of its own, killed afterwards, so the
   bench leaves nothing behind.
2. `clips`: the whole en pack rendered by `narrator voices render` with `--jobs 1` twice and
   with the default (one worker per core) once, each into an empty cache; counts the clips
   that differ between the two one-worker renders and between one worker and the pool, and
   gives each render's wall seconds (the cost of a fresh espeak-ng per line).

3. `engine` (this tree only): the pyttsx3 engine's own cost per line, without processing: the
   first `--lines` en lines rendered alternately by a fresh espeak-ng and by pyttsx3's loaded
   library (the engine without the command); medians in ms.

`--before REV` runs the same measurements on that commit too (exported with `git archive` to a
temporary folder and put first on the children's PYTHONPATH, engines included), so before and
after come from one run on one machine.

Run: `.venv/bin/python bench/render_orphans.py [orphans|clips|both|engine] [--kills 10] [--after 5] [--before REV] [--lines 200]`
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import _common  # noqa: F401  (puts the repository on sys.path)

REPO = Path(__file__).resolve().parent.parent
ENGINES = ["pyttsx3", "openjtalk", "vosk"]


def tree_env(tree: Path) -> dict:
    """The environment that makes a child run the code of `tree` (its engines too)."""
    path = [str(tree), *(str(tree / "engines" / e) for e in ENGINES)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


@contextlib.contextmanager
def exported(rev: str):
    """The files of commit `rev`, in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=True, timeout=120)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True, timeout=120)
        yield Path(tmp)


def pack_copy(tree: Path, into: Path) -> Path:
    folder = into / "en"
    shutil.copytree(tree / "voices" / "en", folder, ignore=shutil.ignore_patterns("cache"))
    (folder / "cache").mkdir()
    return folder


def children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def one_kill(tree: Path, after: float) -> dict:
    """One render killed while its workers render: what is alive `after` s later, did its pipe end."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = pack_copy(tree, Path(tmp))
        render = subprocess.Popen([sys.executable, "-m", "narrator", "voices", "render", str(folder)],
                                  cwd=tmp, env=tree_env(tree), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  start_new_session=True)
        ended = threading.Event()

        def drain() -> None:
            while render.stdout.read(4096):
                pass
            ended.set()

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if len(children(render.pid)) >= 2 and any(p.name.count(".") == 1 for p in (folder / "cache").glob("*.wav")):
                    break
                time.sleep(0.05)
            started = children(render.pid)
            render.kill()
            render.wait(timeout=30)
            time.sleep(after)
            return {"started": len(started), "alive_after": sum(alive(p) for p in started), "pipe_ended": ended.is_set()}
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(render.pid, signal.SIGKILL)
            reader.join(timeout=30)
            render.stdout.close()


def orphans(tree: Path, kills: int, after: float) -> dict:
    runs = [one_kill(tree, after) for _ in range(kills)]
    return {"kills": kills, "after_s": after, "processes_started": sum(r["started"] for r in runs),
            "orphans_alive": sum(r["alive_after"] for r in runs),
            "pipes_not_ended": sum(not r["pipe_ended"] for r in runs)}


def render_clips(tree: Path, jobs: int | None) -> dict[str, bytes]:
    """The clips `narrator voices render` makes of the whole en pack with `jobs` workers (None: the default)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = pack_copy(tree, Path(tmp))
        command = [sys.executable, "-m", "narrator", "voices", "render", str(folder), *(["--jobs", str(jobs)] if jobs else [])]
        subprocess.run(command, cwd=tmp, env=tree_env(tree), check=True, timeout=3600,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return {p.name: p.read_bytes() for p in (folder / "cache").glob("*.wav") if p.name.count(".") == 1}


def clips(tree: Path) -> dict:
    seconds = []

    def timed(jobs: int | None) -> dict[str, bytes]:
        started = time.monotonic()
        made = render_clips(tree, jobs)
        seconds.append(round(time.monotonic() - started, 1))
        return made

    one, again, pool = timed(1), timed(1), timed(None)
    return {"clips": len(one), "same_names": one.keys() == again.keys() == pool.keys(),
            "differ_one_vs_one": sum(one[n] != again.get(n) for n in one),
            "differ_one_vs_pool": sum(one[n] != pool.get(n) for n in one),
            "one_worker_s": seconds[:2], "pool_s": seconds[2]}


def engine_cost(lines: int) -> dict:
    """ms per line: a fresh espeak-ng run vs the library pyttsx3 keeps loaded (this tree)."""
    import statistics

    from narrator.cli.voices import render_requests
    from narrator.sound.engines import load_tts
    from narrator.sound.voice import EngineVoice
    from narrator.sound.voicepack import load_pack

    sys.path.insert(0, str(REPO / "engines" / "pyttsx3"))  # this tree's engine, not an installed one
    engine = load_tts("pyttsx3")
    command = engine._command
    with tempfile.TemporaryDirectory() as tmp:
        voice = EngineVoice(load_pack("en"), engine, cache_dir=Path(tmp))
        words = [job.words for _, job in voice.missing_jobs(render_requests(voice.pack))][:lines]
        fresh, loaded = [], []
        for i, text in enumerate(words):
            for way, into in ((command, fresh), (None, loaded)):
                engine._command = way
                started = time.perf_counter()
                engine.render(text, Path(tmp) / f"{i}.wav", voice.settings)
                into.append((time.perf_counter() - started) * 1000)
        engine._command = command
    return {"lines": len(words), "fresh_espeak_ng_ms_median": round(statistics.median(fresh), 1),
            "loaded_library_ms_median": round(statistics.median(loaded), 1)}


def measure(tree: Path, args) -> dict:
    out = {}
    if args.what in ("orphans", "both"):
        out["orphans"] = orphans(tree, args.kills, args.after)
        print("orphans", out["orphans"], flush=True)
    if args.what in ("clips", "both"):
        out["clips"] = clips(tree)
        print("clips", out["clips"], flush=True)
    return out


def main() -> None:
    from narrator.sound.parallel import default_jobs

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=["orphans", "clips", "both", "engine"], default="both")
    parser.add_argument("--lines", type=int, default=200, help="lines for `engine`")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--after", type=float, default=5.0, help="seconds after the kill to count what is alive")
    parser.add_argument("--before", default=None, help="a commit to measure too (the code before the fix)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    result = {"cores": default_jobs(), "load_before": os.getloadavg()}
    if args.what == "engine":
        result["engine"] = engine_cost(args.lines)
        print(json.dumps(result, indent=2))
        return
    if args.before:
        with exported(args.before) as old:
            result["before"] = {"rev": args.before, **measure(old, args)}
    result["after"] = {"rev": "working tree", **measure(REPO, args)}
    result["load_after"] = os.getloadavg()
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    sys.exit(main())
