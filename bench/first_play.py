"""A newcomer's first `scripts/play` on a fresh Debian: time to the first spoken line.

One `debootstrap --variant=minbase` root (as tests/test_setup_chroot.py builds it, timed once),
then for every run a fresh copy of it, a fresh `git clone` of the source to try, and
`scripts/play` with the default voice (Japanese, Open JTalk) in the copy: setup (apt, the venv,
pip, rendering the pack) and the game's start. The first spoken line is the transcript's first
record (written when the first clip is handed to the null sink; `--audio null`, there is no
sound card) plus the sink's 0.2 s buffer, as bench/startup.py counts it. Then the game is
stopped. Sources alternate (before, after, before, after, ...) so a change in the machine's
load hits both; the load average is printed before and after every run.

Needs root, debootstrap and the Debian mirror of this machine's apt sources. `--source` names a
git repository (a path) with an optional `@commit`; give it twice (before, after).

Run: `.venv/bin/python bench/first_play.py --source /tmp/before@COMMIT --source . [--rounds 2]`
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_setup_chroot import ANSWERS, debian_mirror  # noqa: E402  (the chroot test's own steps)

BUFFER = 0.2  # narrator.sound.outputs.BUFFER (read from the source tried would need its venv)


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
                            env=env, stdout=log, stderr=subprocess.STDOUT, process_group=0)
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
        log.close()
        for mount in reversed(mounts):
            subprocess.run(["umount", "--lazy", str(mount)], capture_output=True)
    text = Path(log.name).read_text(errors="replace")
    rendered = [line for line in text.splitlines() if "render" in line.lower()][-3:]
    return {"source": source, "commit": head, "first_line_s": round(first, 1), "load_before": load_before,
            "load_after": load(), "log": log.name, "render_lines": rendered}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", action="append", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path("/tmp/first-play"))
    parser.add_argument("--base", type=Path, default=None, help="a debootstrapped root to copy (default: WORK/base, made once)")
    parser.add_argument("--timeout", type=float, default=7200, help="seconds to the first line before giving up")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
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
