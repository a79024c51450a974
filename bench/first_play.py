"""A newcomer's first `scripts/play` on a fresh Debian: time to the first spoken line.

One `debootstrap --variant=minbase` root (as tests/test_setup_chroot.py builds it, timed once),
then for every run a fresh copy of it, a fresh `git clone` of the source to try, and
`scripts/play` with the default voice (Japanese, Open JTalk) in the copy: setup (apt, the venv,
pip, rendering the pack) and the game's start. The first spoken line is the transcript's first
record (written when the first clip is handed to the null sink; `--audio null`, there is no
sound card) plus the sink's 0.2 s buffer, as bench/startup.py counts it. Then the game is
stopped. Sources alternate (before, after, before, after, ...) so a change in the machine's
load hits both; the load average is printed before and after every run.

Each output line of `scripts/play` is timestamped as it comes, which splits the time to the
first line into apt (to setup's 「creating the virtual environment」), venv (to setup's render, or
to the narrator's first word when setup renders nothing) and render (the rest: setup's
whole-pack render and the game's own, up to its first line); the render's share of the whole is
printed as a ratio.

Needs root, debootstrap and the Debian mirror of this machine's apt sources. `--source` names a
git repository (a path) with an optional `@commit`; give it twice (before, after).

`--narrator-part` measures only what comes after the venv is ready, on this machine, no root:
each source is cloned once, and each run empties its voice caches and does what that source's
`scripts/play` does after the venv: the whole-pack `narrator voices render` (unless its
`scripts/play` passes `--no-render` to setup), then `narrator play --audio null`, to the first
spoken line. `--whole-game SCALE` then plays one whole scripted game per source from an empty
cache at that time scale (`--game-start-only` leaves out setup's whole-pack render even where the
source's `scripts/play` has it: the game's own start alone, from an empty cache) (0.2: five times faster than a table, harder on the background render
than real time) and counts the lines the game had to wait for or synthesize on demand (the
narrator prints them at the end when there are any; goal 0).

Run: `.venv/bin/python bench/first_play.py --source /tmp/before@COMMIT --source . [--rounds 2]`
or   `.venv/bin/python bench/first_play.py --narrator-part --source .@COMMIT --source . --rounds 3 --whole-game 0.2`
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import re
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_setup_chroot import ANSWERS, debian_mirror  # noqa: E402  (the chroot test's own steps)

BUFFER = 0.2  # narrator.sound.outputs.BUFFER (read from the source tried would need its venv)


APT_DONE = "creating the virtual environment"
RENDER_STARTS = ("setup: rendering the voice packs", "rendering ", "ja (")
"""Setup's whole-pack render, or the game's own render, whichever comes first after the venv."""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def host_files() -> list[Path]:
    files = [Path("/etc/resolv.conf"), Path("/etc/pip.conf")]
    files += [p for p in Path("/etc/apt/apt.conf.d").glob("*") if p.is_file() and "Acquire::" in p.read_text()]
    return [p for p in files if p.is_file()]


def chroot_env(root: Path) -> dict[str, str]:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
           "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive", "NARRATOR_HOME": "/opt/home"}
    for key in ("PIP_DEFAULT_TIMEOUT", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "http_proxy", "https_proxy"):
        if key in os.environ:
            env[key] = os.environ[key]
    cert = os.environ.get("PIP_CERT")
    if cert and Path(cert).is_file():
        shutil.copyfile(cert, root / "etc/narrator-host-ca.pem")
        env["PIP_CERT"] = "/etc/narrator-host-ca.pem"
    return env


def once(base: Path, work: Path, source: str, timeout: float) -> dict:
    repo, _, commit = source.partition("@")
    root = work / "root"
    if root.exists():
        shutil.rmtree(root)
    subprocess.run(["cp", "-a", str(base), str(root)], check=True)
    for path in host_files():
        shutil.copyfile(path, root / path.relative_to("/"))
    env = chroot_env(root)
    clone = root / "opt/narrator"
    subprocess.run(["git", "clone", "--quiet", repo, str(clone)], check=True)
    if commit:
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", commit], check=True)
    head = subprocess.run(["git", "-C", str(clone), "log", "-1", "--format=%h"], capture_output=True, text=True).stdout.strip()
    (root / "opt/answers.txt").write_text(ANSWERS)
    transcript = root / "opt/t.jsonl"
    mounts = [root / "proc", root / "dev/shm"]
    subprocess.run(["mount", "-t", "proc", "proc", str(mounts[0])], check=True)
    mounts[1].mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "shm", str(mounts[1])], check=True)
    log = open(work / f"play-{head}-{int(time.time())}.log", "wb")
    load_before = load()
    began = time.monotonic()
    proc = subprocess.Popen(["chroot", str(root), "/opt/narrator/scripts/play", "--audio", "null", "--no-keyboard",
                             "--answers", "/opt/answers.txt", "--transcript", "/opt/t.jsonl"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, process_group=0)
    stamped: list[tuple[float, str]] = []
    reader = threading.Thread(target=_stamp, args=(proc, began, stamped, log), daemon=True)
    reader.start()
    try:
        while not (transcript.is_file() and transcript.stat().st_size > 0):
            if proc.poll() is not None:
                raise SystemExit(f"scripts/play ended early ({proc.returncode}); see {log.name}")
            if time.monotonic() - began > timeout:
                raise SystemExit(f"no spoken line in {timeout:.0f} s; see {log.name}")
            time.sleep(0.05)
        first = time.monotonic() - began + BUFFER
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
        reader.join(timeout=10)
        log.close()
        for mount in reversed(mounts):
            subprocess.run(["umount", "--lazy", str(mount)], capture_output=True)
    text = Path(log.name).read_text(errors="replace")
    rendered = [line for line in text.splitlines() if "render" in line.lower()][-3:]
    return {"source": source, "commit": head, "first_line_s": round(first, 1), **split(stamped, first),
            "load_before": load_before, "load_after": load(), "log": log.name, "render_lines": rendered}


def _stamp(proc: subprocess.Popen, began: float, out: list[tuple[float, str]], log) -> None:
    """Each output line with the seconds since the start at which it came (the split's marks)."""
    for raw in proc.stdout:
        out.append((time.monotonic() - began, raw.decode(errors="replace")))
        log.write(f"[{out[-1][0]:8.1f}] ".encode() + raw)


def split(stamped: list[tuple[float, str]], first: float) -> dict:
    """apt, venv and render seconds of the time to the first line, and the render's share of it."""
    apt = next((t for t, line in stamped if APT_DONE in line), 0.0)
    render_at = next((t for t, line in stamped if t >= apt and line.startswith(RENDER_STARTS)), first)
    return {"apt_s": round(apt, 1), "venv_s": round(render_at - apt, 1), "render_s": round(first - render_at, 1),
            "render_share": round((first - render_at) / first, 3) if first else None}


def clone_source(source: str, work: Path, index: int) -> Path:
    """A clone of `source` (REPO[@COMMIT]) at WORK/src-INDEX, with no voice cache."""
    repo, _, commit = source.partition("@")
    folder = work / f"src-{index}"
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(Path(repo).resolve()), str(folder)], check=True)
    if commit:
        subprocess.run(["git", "-C", str(folder), "checkout", "--quiet", commit], check=True)
    return folder


def renders_whole_pack(folder: Path) -> bool:
    """Whether that source's `scripts/play` lets setup render every pack before the game."""
    return "--no-render" not in (folder / "scripts/play").read_text()


def narrator_part(folder: Path, work: Path, timeout: float, pack_render: bool = True) -> dict:
    """From a ready venv and an empty voice cache to the first spoken line, as `scripts/play` does it."""
    for cache in folder.glob("voices/*/cache"):
        shutil.rmtree(cache)
    env = {**os.environ, "PYTHONPATH": str(folder), "NARRATOR_HOME": str(work / "home")}
    shutil.rmtree(work / "home", ignore_errors=True)
    (work / "answers.txt").write_text(ANSWERS)
    transcript = work / "t.jsonl"
    transcript.unlink(missing_ok=True)
    python = str(ROOT / ".venv/bin/python")
    load_before = load()
    began = time.monotonic()
    render = 0.0
    if pack_render and renders_whole_pack(folder):
        subprocess.run([python, "-m", "narrator", "voices", "render"], cwd=folder, env=env, check=True,
                       capture_output=True, timeout=timeout)
        render = time.monotonic() - began
    proc = subprocess.Popen([python, "-m", "narrator", "play", "--audio", "null", "--no-keyboard",
                             "--answers", str(work / "answers.txt"), "--transcript", str(transcript)],
                            cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            process_group=0)
    stamped: list[tuple[float, str]] = []
    log = open(work / f"play-{folder.name}-{int(time.time())}.log", "wb")
    reader = threading.Thread(target=_stamp, args=(proc, began, stamped, log), daemon=True)
    reader.start()
    try:
        while not (transcript.is_file() and transcript.stat().st_size > 0):
            if proc.poll() is not None:
                raise SystemExit(f"narrator play ended early ({proc.returncode}) in {folder}")
            if time.monotonic() - began > timeout:
                raise SystemExit(f"no spoken line in {timeout:.0f} s in {folder}")
            time.sleep(0.02)
        first = time.monotonic() - began + BUFFER
    finally:
        _stop(proc)
        reader.join(timeout=10)
        log.close()
    game_render = game_render_seconds(stamped)
    return {"first_line_s": round(first, 1), "whole_pack_render_s": round(render, 1),
            "game_render_s": round(game_render, 1), "render_share": round((render + game_render) / first, 3),
            "load_before": load_before, "load_after": load()}


def game_render_seconds(stamped: list[tuple[float, str]]) -> float:
    """The game's own render before its first line: from its progress line's start to its last."""
    marks = [t for t, line in stamped if line.startswith("rendering ")]
    return marks[-1] - marks[0] if len(marks) > 1 else 0.0


def whole_game(folder: Path, work: Path, scale: float, timeout: float) -> dict:
    """One whole scripted game from an empty cache: the lines it waited for or made on demand."""
    for cache in folder.glob("voices/*/cache"):
        shutil.rmtree(cache)
    env = {**os.environ, "PYTHONPATH": str(folder), "NARRATOR_HOME": str(work / "home")}
    shutil.rmtree(work / "home", ignore_errors=True)
    (work / "answers.txt").write_text(ANSWERS)
    began = time.monotonic()
    done = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "narrator", "play", "--audio", "null",
                           "--no-keyboard", "--answers", str(work / "answers.txt"), "--time-scale", str(scale)],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
    late = late_pattern(folder)
    found = late.search(done.stderr) if late else None
    return {"scale": scale, "game_s": round(time.monotonic() - began, 1), "exit": done.returncode,
            "waited_for": int(found["waited"]) if found else 0, "on_demand": int(found["made"]) if found else 0,
            "over": "game over" in done.stderr}


def late_pattern(folder: Path) -> re.Pattern | None:
    """The narrator's end-of-game line on late lines (`hint.render_late`, ja), as a pattern."""
    lines = tomllib.loads((folder / "voices/ja/lines/common.toml").read_text())
    line = lines.get("hint", {}).get("render_late")
    if line is None:
        return None  # that source renders everything before its first line
    text = line["text"] if isinstance(line, dict) else line
    return re.compile(re.escape(text).replace(r"\{waited\}", r"(?P<waited>\d+)").replace(r"\{made\}", r"(?P<made>\d+)"))


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


def main_narrator_part(args: argparse.Namespace) -> None:
    folders = {source: clone_source(source, args.work, i) for i, source in enumerate(args.source)}
    results = []
    for round_ in range(args.rounds):
        for source, folder in folders.items():
            result = {"source": source, "round": round_ + 1, **narrator_part(folder, args.work, args.timeout, not args.game_start_only)}
            results.append(result)
            print(json.dumps(result, ensure_ascii=False), flush=True)
    for source in args.source:
        mine = [r for r in results if r["source"] == source]
        print(f"{source}: venv ready -> first spoken line {[r['first_line_s'] for r in mine]} s, median "
              f"{statistics.median(r['first_line_s'] for r in mine):.1f} s; render share (whole pack + the game's own), median "
              f"{statistics.median(r['render_share'] for r in mine):.3f}", flush=True)
    if args.whole_game:
        for source, folder in folders.items():
            result = {"source": source, **whole_game(folder, args.work, args.whole_game, args.timeout)}
            print(json.dumps(result, ensure_ascii=False), flush=True)
    for folder in folders.values():
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", action="append", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path("/tmp/first-play"))
    parser.add_argument("--base", type=Path, default=None, help="a debootstrapped root to copy (default: WORK/base, made once)")
    parser.add_argument("--timeout", type=float, default=7200, help="seconds to the first line before giving up")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--narrator-part", action="store_true",
                        help="only venv-ready -> first spoken line, here, from an empty voice cache (no root)")
    parser.add_argument("--game-start-only", action="store_true",
                        help="with --narrator-part: leave out setup's whole-pack render (only the game's own start)")
    parser.add_argument("--whole-game", type=float, default=None, metavar="SCALE",
                        help="with --narrator-part: also one whole game per source at this time scale")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    if args.narrator_part:
        main_narrator_part(args)
        return
    base = args.base or args.work / "base"
    mirror, suite = debian_mirror()
    if not (base / "usr/bin/apt-get").exists():
        shutil.rmtree(base, ignore_errors=True)
        started = time.monotonic()
        subprocess.run(["debootstrap", "--variant=minbase", suite, str(base), mirror], check=True,
                       capture_output=True)
        print(f"debootstrap {suite} from {mirror}: {time.monotonic() - started:.0f} s (load {load()})", flush=True)
    results = []
    for round_ in range(args.rounds):
        for source in args.source:
            result = once(base, args.work, source, args.timeout)
            result["round"] = round_ + 1
            results.append(result)
            print(json.dumps(result, ensure_ascii=False), flush=True)
            if args.json:
                args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    for source in args.source:
        times = [r["first_line_s"] for r in results if r["source"] == source]
        print(f"{source}: first spoken line {times} s, median {statistics.median(times):.1f} s")
    shutil.rmtree(args.work / "root", ignore_errors=True)


if __name__ == "__main__":
    main()
