"""Rendering on every core, and the natural voice filling in between games: what they cost.

1. `packs`: the `ja` (Open JTalk) and `en` (pyttsx3) packs rendered whole (everything `narrator
   voices render` renders) from an empty temporary cache, with 1 worker and with the default
   (one per core), one after the other in this run; prints wall seconds, the ratio, and the
   load average before and after (the machine may be shared).
2. `natural`: the background render of ja-natural as the appliance runs it (`narrator voices
   render` as a child, into a temporary copy of the pack): `--seconds` uninterrupted, counting
   the clips it finished (lines per idle hour = clips / seconds x 3600, its start-up and the
   model's load included), then stopped and started `--stops` times `--stop-every` apart as
   game starts do: `pause()`'s time is the delay it adds to a game's first line, and the
   time until the child is gone is printed beside it. `--priority normal` drops chrt/ionice/
   nice: on a machine others keep busy the lowest priority gets next to nothing (the point),
   which measures nothing. `--names N` gives the child a table file of N players
   (`--names-of`, as the service does): the table's names and the words around names render
   first; a timeline of the cache (pieces, line clips) every `--sample` seconds shows when.

Run: `.venv/bin/python bench/parallel_render.py packs [--packs ja,en] [--jobs N] [--limit N] [--rounds R]`
     `.venv/bin/python bench/parallel_render.py natural [--seconds 300] [--stops 5] [--priority normal]`
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the repository on sys.path)

from narrator.sound.parallel import default_jobs
from narrator.sound.voice import EngineVoice, open_engine
from narrator.sound.voicepack import REPO_VOICES, load_pack


def render_requests(pack):
    from narrator.cli.voices import render_requests as requests

    return requests(pack)


def pack_render(name: str, jobs: int, limit: int | None = None) -> tuple[float, int]:
    """Seconds to render pack `name` (its first `limit` lines) from an empty cache with `jobs` workers; clips made."""
    pack = load_pack(name)
    with tempfile.TemporaryDirectory() as tmp:
        voice = EngineVoice(pack, open_engine(pack), cache_dir=Path(tmp))
        requests = render_requests(pack)[:limit]
        started = time.monotonic()
        voice.prepare(requests, jobs=jobs, load=False)  # as `narrator voices render` does
        return time.monotonic() - started, len(list(Path(tmp).glob("*.wav")))


def packs(args) -> dict:
    out = {"cores": default_jobs(), "load_before": os.getloadavg()}
    workers = args.jobs or default_jobs()
    for name in args.packs.split(","):
        ones, manys, clips = [], [], set()
        for _ in range(args.rounds):  # alternated, so a change in the machine's load hits both
            one, made = pack_render(name, 1, args.limit)
            many, made_many = pack_render(name, workers, args.limit)
            ones.append(one)
            manys.append(many)
            clips |= {made, made_many}
            print(name, "1 worker", round(one, 1), "s;", workers, "workers", round(many, 1), "s; load",
                  os.getloadavg(), flush=True)
        lines = len(render_requests(load_pack(name)))
        one, many = statistics.median(ones), statistics.median(manys)
        out[name] = {"pack_lines": lines, "lines_rendered": min(lines, args.limit or lines), "clips": sorted(clips),
                     "one_worker_s": [round(x, 1) for x in ones], "default_s": [round(x, 1) for x in manys],
                     "workers": workers, "speedup_of_medians": round(one / many, 2),
                     "whole_pack_one_worker_s_extrapolated": round(one * lines / min(lines, args.limit or lines)),
                     "whole_pack_default_s_extrapolated": round(many * lines / min(lines, args.limit or lines))}
    out["load_after"] = os.getloadavg()
    return out


NAMES = ["ハナコ", "タロウ", "サクラ", "ケンジ", "ユイ", "ダイチ", "ミオ", "ソウタ"]


def cache_counts(cache: Path, at: float) -> dict:
    """What the child has finished by `at`: pieces (names, words around names) and whole clips."""
    done = [p.name for p in cache.glob("*.wav") if not p.name.endswith((".raw.wav", ".part.wav"))]
    pieces = sum(1 for n in done if n.startswith("piece-"))
    return {"s": round(at), "pieces": pieces, "line_clips": len(done) - pieces, "clips": len(done)}


def natural(args) -> dict:
    from narrator.appliance.natural_fill import BackgroundRender, render_command

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "ja-natural"
        shutil.copytree(REPO_VOICES / "ja-natural", folder, ignore=shutil.ignore_patterns("cache"), symlinks=False)
        (folder / "cache").mkdir()
        log = []
        table = None
        if args.names:
            table = Path(tmp) / "table.toml"
            table.write_text("names = [" + ", ".join(f'"{n}"' for n in NAMES[:args.names]) + "]\n", encoding="utf-8")
        command = render_command(str(folder), "kokoro", table)
        if args.priority == "normal":  # what an idle machine gives the lowest priority anyway
            command = command[command.index(sys.executable):]
        render = BackgroundRender(command, log.append, folder=Path(tmp) / "home")
        stops: list[float] = []
        gone: list[float] = []
        started = time.monotonic()
        render.resume()
        timeline = []
        while time.monotonic() - started < args.seconds:  # the rate: one uninterrupted stretch
            time.sleep(min(args.sample, max(args.seconds - (time.monotonic() - started), 0)))
            timeline.append(cache_counts(folder / "cache", time.monotonic() - started))
            print("t", timeline[-1], "load", os.getloadavg(), flush=True)
        elapsed = time.monotonic() - started
        clips = cache_counts(folder / "cache", elapsed)["clips"]
        for _ in range(args.stops):  # then game starts: stop (what the game waits for), then start again
            process = render.process
            at = time.monotonic()
            stops.append(render.pause())
            process.wait()
            gone.append(time.monotonic() - at)  # until the child is gone (beside the game)
            render.resume()
            time.sleep(args.stop_every)
        render.pause()
        pack = load_pack(str(folder))
        lines = len(render_requests(pack))
        per_hour = clips / elapsed * 3600
        return {"priority": args.priority, "names": args.names, "timeline": timeline,
                "load_before": load_before, "seconds": round(elapsed), "clips": clips, "clips_per_idle_hour": round(per_hour),
                "pack_lines": lines, "whole_pack_hours_at_this_rate": round(lines / per_hour, 2) if per_hour else None,
                "stop_ms": [round(s * 1000, 1) for s in stops], "longest_stop_ms": round(max(stops) * 1000, 1) if stops else None,
                "median_stop_ms": round(statistics.median(stops) * 1000, 1) if stops else None,
                "child_gone_ms": [round(g * 1000, 1) for g in gone],
                "load_after": os.getloadavg(), "log_tail": (Path(tmp) / "home" / "natural-render.log").read_text()[-600:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["packs", "natural"])
    parser.add_argument("--packs", default="ja,en")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--limit", type=int, default=None, help="render only the first N lines of each pack")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--stops", type=int, default=5)
    parser.add_argument("--stop-every", type=float, default=25.0)
    parser.add_argument("--priority", choices=["lowest", "normal"], default="lowest",
                        help="normal: the child without chrt/ionice/nice (on a shared machine the lowest gets ~nothing)")
    parser.add_argument("--names", type=int, default=0, help="a table of N players: their names first")
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between looks at the cache")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    result = packs(args) if args.what == "packs" else natural(args)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    sys.exit(main())
