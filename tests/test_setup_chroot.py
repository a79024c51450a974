"""scripts/setup on a clean Debian: a debootstrapped chroot, a fresh clone of this branch,
the README's setup command, then a whole game with `--voice text --time-scale 0`.

It needs root and a Debian mirror (CI has both; `.ci/run` → `scripts/setup --test` installs
debootstrap). It takes a few minutes: skip it locally with NARRATOR_SKIP_CHROOT=1. The mirror
is the one this machine's apt sources use.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SUITE_DEFAULT = "bookworm"

pytestmark = [
    pytest.mark.chroot,
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("NARRATOR_SKIP_CHROOT") == "1", reason="NARRATOR_SKIP_CHROOT=1"),
    pytest.mark.skipif(os.geteuid() != 0, reason="debootstrap and chroot need root"),
    pytest.mark.skipif(shutil.which("debootstrap") is None, reason="debootstrap not installed (scripts/setup --test)"),
]


def debian_mirror() -> tuple[str, str]:
    """(mirror URI, suite) from this machine's apt sources: deb822 files first, then sources.list."""
    suite = SUITE_DEFAULT
    os_release = Path("/etc/os-release")
    if os_release.exists():
        found = re.search(r"^VERSION_CODENAME=(\w+)", os_release.read_text(), re.M)
        suite = found.group(1) if found else suite
    for path in sorted(Path("/etc/apt/sources.list.d").glob("*.sources")):
        for stanza in path.read_text().split("\n\n"):
            fields = dict(re.findall(r"^(\w[\w-]*):\s*(.+)$", stanza, re.M))
            if suite in fields.get("Suites", "").split() and "main" in fields.get("Components", "").split() \
                    and "security" not in fields.get("URIs", ""):
                return fields["URIs"].split()[0], suite
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*.list"))]:
        if path.exists():
            for line in path.read_text().splitlines():
                words = re.sub(r"\[[^]]*\]", "", line).split()
                if len(words) >= 3 and words[0] == "deb" and words[2] == suite:
                    return words[1], suite
    pytest.skip("no Debian mirror in this machine's apt sources")


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def test_setup_in_a_fresh_debian_ends_in_a_game(tmp_path):
    mirror, suite = debian_mirror()
    root = tmp_path / "debian"
    run(["debootstrap", "--variant=minbase", suite, str(root), mirror], timeout=900)
    # What a freshly installed machine has from its installer: name resolution, apt's and
    # pip's local settings (and the certificate bundle pip is told to use, if any).
    host_files = [Path("/etc/resolv.conf"), Path("/etc/pip.conf")]
    host_files += [p for p in Path("/etc/apt/apt.conf.d").glob("*") if p.is_file() and "Acquire::" in p.read_text()]
    for path in host_files:
        if path.is_file():
            shutil.copyfile(path, root / path.relative_to("/"))
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
           "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
    for key in ("PIP_DEFAULT_TIMEOUT", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "http_proxy", "https_proxy"):
        if key in os.environ:
            env[key] = os.environ[key]
    cert = os.environ.get("PIP_CERT")
    if cert and Path(cert).is_file():
        shutil.copyfile(cert, root / "etc/narrator-host-ca.pem")
        env["PIP_CERT"] = "/etc/narrator-host-ca.pem"
    clone = root / "opt/narrator"
    run(["git", "clone", "--quiet", str(REPO), str(clone)])
    proc = root / "proc"
    run(["mount", "-t", "proc", "proc", str(proc)])
    try:
        setup = run(["chroot", str(root), "/opt/narrator/scripts/setup"], env=env, timeout=1800)
        assert "setup: ready: .venv/bin/narrator" in setup.stderr
        again = run(["chroot", str(root), "/opt/narrator/scripts/setup"], env=env, timeout=600)
        assert "installing espeak-ng" not in again.stderr  # idempotent: nothing left to install
        (root / "opt/answers.txt").write_text("done\nno\nno\nno\nno\nno\nno\n")
        game = run(["chroot", str(root), "/opt/narrator/.venv/bin/narrator", "play", "--voice", "text",
                    "--time-scale", "0", "--lang", "en", "--answers", "/opt/answers.txt", "--no-keyboard"],
                   env={**env, "NARRATOR_HOME": "/opt/home"}, timeout=300)
        assert "game over: werewolves win" in game.stderr
        assert "The traitors and werewolves win." in game.stdout
    finally:
        subprocess.run(["umount", "--lazy", str(proc)], capture_output=True)
    assert not os.path.ismount(proc)
    shutil.rmtree(root, ignore_errors=True)
