"""The README's commands on a clean Debian: a debootstrapped chroot and a fresh clone of this branch.

In the chroot, as a new user would: `scripts/play` (setup, then a whole game with `--voice
text --time-scale 0`), `narrator` in a new login shell, `scripts/play` again with the
network cut (`unshare -n`, no pip settings), then `scripts/test` on the tests that need
system pieces. `scripts/test` runs `scripts/setup --test`, so its own apt list is what is
checked: on a bare bookworm every one of those tests must pass, and since setup was asked
for the test tools, a missing piece fails them rather than skipping them
(tests/setup_parts.py). The time of each command is printed (`pytest -s`).

It needs root and a Debian mirror (CI has both; `.ci/run` → `scripts/setup --test` installs
debootstrap). It takes ten minutes or more: skip it locally with NARRATOR_SKIP_CHROOT=1. The
mirror is the one this machine's apt sources use.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from urllib.parse import urlsplit
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SUITE_DEFAULT = "bookworm"
ANSWERS = "done\nno\nno\ndone\nno\nno\ndone\nno\nno\n"  # the redeal waits for done
SYSTEM_TESTS = ["tests/test_phones_browser.py", "tests/test_vosk_recognition.py", "tests/test_service_unit.py",
                "tests/test_button_listener.py", "tests/test_engines_real.py", "tests/test_microphone.py"]
"""Tests that need apt packages or test extras that only `scripts/setup --test` installs."""

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


TIMES: list[tuple[str, float]] = []


def run(cmd, name: str | None = None, **kwargs):
    started = time.monotonic()
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if name:
        TIMES.append((name, time.monotonic() - started))
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def apt_list(flag: str) -> list[str]:
    """An apt list of scripts/setup, e.g. APT_TEST, read from the script itself."""
    found = re.search(rf"^{flag}=\(([^)]*)\)", (REPO / "scripts/setup").read_text(), re.M)
    assert found, f"{flag} not in scripts/setup"
    return found.group(1).split()


def reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)), timeout=10).close()
    except OSError:
        return False
    return True


def test_the_readme_commands_in_a_fresh_debian(tmp_path):
    mirror, suite = debian_mirror()
    if not reachable(mirror):  # scripts/test offline: this test alone needs the network
        (pytest.fail if os.environ.get("CI") else pytest.skip)(f"the Debian mirror {mirror} cannot be reached")
    root = tmp_path / "debian"
    run(["debootstrap", "--variant=minbase", suite, str(root), mirror], "debootstrap", timeout=900)
    # What a freshly installed machine has from its installer: name resolution, apt's and
    # pip's local settings (and the certificate bundle pip is told to use, if any).
    host_files = [Path("/etc/resolv.conf"), Path("/etc/pip.conf")]
    host_files += [p for p in Path("/etc/apt/apt.conf.d").glob("*") if p.is_file() and "Acquire::" in p.read_text()]
    for path in host_files:
        if path.is_file():
            shutil.copyfile(path, root / path.relative_to("/"))
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
           "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive", "NARRATOR_HOME": "/opt/home"}
    for key in ("PIP_DEFAULT_TIMEOUT", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "http_proxy", "https_proxy"):
        if key in os.environ:
            env[key] = os.environ[key]
    cert = os.environ.get("PIP_CERT")
    if cert and Path(cert).is_file():
        shutil.copyfile(cert, root / "etc/narrator-host-ca.pem")
        env["PIP_CERT"] = "/etc/narrator-host-ca.pem"
    offline = {k: v for k, v in env.items() if not k.startswith("PIP_")} | {"PIP_CONFIG_FILE": "/dev/null"}
    clone = root / "opt/narrator"
    run(["git", "clone", "--quiet", str(REPO), str(clone)])
    (root / "opt/answers.txt").write_text(ANSWERS)
    play = ["/opt/narrator/scripts/play", "--voice", "text", "--time-scale", "0", "--lang", "en",
            "--answers", "/opt/answers.txt", "--no-keyboard"]
    mounts = [root / "proc", root / "dev/shm"]  # Chromium needs shared memory; debootstrap made the rest of /dev
    run(["mount", "-t", "proc", "proc", str(root / "proc")])
    (root / "dev/shm").mkdir(exist_ok=True)
    run(["mount", "-t", "tmpfs", "shm", str(root / "dev/shm")])
    try:
        first = run(["chroot", str(root), *play], "scripts/play (first: setup + a game)", env=env, timeout=2400)
        assert "setup: the narrator command: /usr/local/bin/narrator -> /opt/narrator/.venv/bin/narrator" in first.stderr
        assert "setup: ready: narrator" in first.stderr and "game over: werewolves win" in first.stderr
        assert "The traitors and werewolves win." in first.stdout
        for pkg in ("libatomic1", "espeak-ng", "open-jtalk"):
            run(["chroot", str(root), "dpkg", "-s", pkg])
        # `narrator` as the README writes it, in a new login shell
        login = run(["chroot", str(root), "bash", "-lc", "narrator --version && narrator games"],
                    "narrator games (login shell)", env=env, timeout=120)
        assert "narrator, version" in login.stdout and "werewolves won" in login.stdout
        # set up once, play offline: nothing installed again, no network, no pip settings
        again = run(["unshare", "-n", "chroot", str(root), *play], "scripts/play (again, offline)",
                    env=offline, timeout=600)
        assert "setup: installing" not in again.stderr and "game over: werewolves win" in again.stderr
        # scripts/test: its own apt list (scripts/setup --test) on a bare bookworm, then the
        # tests that need those pieces; setup was asked for them, so a missing one fails
        tests = run(["chroot", str(root), "/opt/narrator/scripts/test", "-q", "-rs", "-p", "no:cacheprovider",
                     "-m", "not chroot", *SYSTEM_TESTS], "scripts/test (setup --test + system tests)",
                    env={**env, "HOME": "/root"}, timeout=3600)
        assert "skipped" not in tests.stdout, tests.stdout[-3000:]
        print(f"scripts/test in a fresh {suite}: {tests.stdout.strip().splitlines()[-1]}")
        for pkg in apt_list("APT_TEST"):
            run(["chroot", str(root), "dpkg", "-s", pkg])
        for tool in ("git", "debootstrap", "unshare", "chromium", "systemd-analyze"):
            run(["chroot", str(root), "sh", "-c", f"command -v {tool}"], env=env)
    finally:
        for mount in reversed(mounts):
            subprocess.run(["umount", "--lazy", str(mount)], capture_output=True, timeout=60)
        for name, seconds in TIMES:
            print(f"time in a fresh {suite}: {name}: {seconds:.0f} s")
    assert not any(os.path.ismount(m) for m in mounts)
    shutil.rmtree(root, ignore_errors=True)
