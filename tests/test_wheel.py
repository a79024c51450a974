"""The narrator works installed from a wheel, not only from a source tree (issue 26, item 14).

A wheel is built from a clean copy (the tracked files only, as a fresh clone has them),
installed into a new environment away from the source tree, and plays whole games from it:
Pagan (its definition.toml is package data) and Additional Werewolf in Japanese (the voice
pack: the bundled packs are installed as data files, `narrator/home.py: bundled_voices`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import pagan_script

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]


def _clean_copy(dest: Path) -> Path:
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True, timeout=300).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    source = _clean_copy(tmp / "clone")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(tmp / "dist"), str(source)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    [wheel] = (tmp / "dist").glob("narrator-*.whl")
    env_dir = tmp / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    # --ignore-installed: without it pip first uninstalls the editable narrator of the venv
    # running the tests (it sees the same distribution installed), and every later test breaks
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--ignore-installed", "-q",
                           "--prefix", str(env_dir), str(wheel)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    # the dependencies (click, aiohttp …) from this environment's site-packages, as a plain path:
    # its .pth files (the editable narrator among them) are not read from there
    site = next((env_dir / "lib").glob("python3*/site-packages"))
    deps = next(p for p in map(Path, sys.path) if p.name == "site-packages" and (p / "click").is_dir())
    (site / "deps.pth").write_text(f"{deps}\n")
    shutil.rmtree(source)  # nothing of the source tree is left to lean on
    return wheel, env_dir


def _narrator(env_dir: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NARRATOR_HOME"] = str(home)
    return subprocess.run([str(env_dir / "bin" / "python"), "-m", "narrator", *args], capture_output=True,
                          text=True, env=env, cwd=home.parent, timeout=300)


def test_the_wheel_holds_the_packages_data_and_the_voice_packs(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "narrator", "voices"], capture_output=True,
                             text=True, check=True, timeout=300).stdout.split()
    for name in tracked:
        if name.startswith("voices/"):
            assert any(n.endswith(f".data/data/share/narrator/{name}") for n in names), name
        elif not name.endswith(".py") and "/__pycache__/" not in name:
            assert name in names, name


def test_a_game_plays_from_the_wheel(installed, tmp_path):
    _, env_dir = installed
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    found = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import narrator; print(narrator.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert Path(found.stdout.strip()).is_relative_to(env_dir), found  # the wheel's, not a source tree's
    games = _narrator(env_dir, home, "games")
    assert games.returncode == 0 and "pagan" in games.stdout, games.stderr
    (tmp_path / "pagan.txt").write_text("\n".join(pagan_script.game(["witch"])) + "\n")
    pagan = _narrator(env_dir, home, "play", "pagan", "--lang", "en", "--voice", "text", "--time-scale", "0",
                      "--no-keyboard", "--answers", str(tmp_path / "pagan.txt"))
    assert pagan.returncode == 0, pagan.stderr
    assert "game over" in pagan.stderr
    (tmp_path / "aw.txt").write_text("done\nno\nno\ndone\nno\nno\ndone\nyes\n")
    aw = _narrator(env_dir, home, "play", "--players", "5", "--lang", "ja", "--voice", "text", "--time-scale", "0",
                   "--no-keyboard", "--answers", str(tmp_path / "aw.txt"))
    assert aw.returncode == 0, aw.stderr
    assert "アディショナル人狼を始めます" in aw.stdout + aw.stderr


def test_installing_the_wheel_leaves_the_tests_own_narrator_installed(installed):
    """The wheel went to its own prefix; the venv that runs the tests still has its editable app."""
    found = subprocess.run([sys.executable, "-c", "import narrator, sys; sys.stdout.write(narrator.__file__)"],
                           capture_output=True, text=True, cwd="/", timeout=60)
    assert found.returncode == 0 and found.stdout == str(ROOT / "narrator" / "__init__.py"), found.stderr
