"""scripts/setup's lines on a machine with no Python yet (a fresh Debian: its first line says
Python is being installed). `line` prints through narrator/terminal/lines.py; with no Python
to run it, `line_read` reads narrator/terminal/lines.toml with awk. Before, that case printed
the key and its values (「setup: setup_installing packages=python3 … label=the app」).
Every key in both languages must read as lines.py words it."""

from __future__ import annotations

import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from narrator import terminal

REPO = Path(__file__).resolve().parent.parent
SETUP = (REPO / "scripts" / "setup").read_text(encoding="utf-8")
FUNCTIONS = "\n".join(re.search(rf"^{name}\(\) {{\n.*?^}}\n", SETUP, re.S | re.M).group() for name in ("line", "line_read"))
BASH = shutil.which("bash")


def setup_line(tmp_path: Path, locale: str, key: str, params: dict[str, str]) -> str:
    """`line KEY name=value…` as scripts/setup runs it, with only awk on the PATH (no Python)."""
    bin_dir = tmp_path / "bin"
    if not bin_dir.exists():
        bin_dir.mkdir()
        (bin_dir / "awk").symlink_to(shutil.which("awk"))
    script = f"ROOT={REPO}\n{FUNCTIONS}\nline \"$@\"\n"
    done = subprocess.run([BASH, "-c", script, "setup", key, *(f"{k}={v}" for k, v in params.items())],
                          env={"PATH": str(bin_dir), "LANG": locale}, capture_output=True, text=True,
                          timeout=30, check=True)
    return done.stdout.rstrip("\n")


def every_line():
    table = terminal.lines()
    return [(lang, key) for lang in terminal.LANGS for key in table[lang]]


@pytest.mark.parametrize("lang, key", every_line())
def test_with_no_python_every_line_reads_as_lines_py_words_it(tmp_path, lang, key):
    text = terminal.lines()[lang][key]
    params = {name: f"<{name} & /x\\1>" for _, name, _, _ in string.Formatter().parse(text) if name}
    locale = "ja_JP.UTF-8" if lang == "ja" else "C.UTF-8"
    assert setup_line(tmp_path, locale, key, params) == terminal.said_in(lang, key, **params)


def test_a_japanese_locale_reads_english_where_japanese_lacks_a_line(tmp_path, monkeypatch):
    table = terminal.lines()
    missing = [k for k in table["en"] if k not in table["ja"]]
    key = missing[0] if missing else "setup_installing"
    params = {name: "v" for _, name, _, _ in string.Formatter().parse(table["en"][key]) if name}
    expected = terminal.said_in("ja", key, **params)
    assert setup_line(tmp_path, "ja_JP.UTF-8", key, params) == expected


def test_a_key_the_file_lacks_is_printed_with_its_values(tmp_path):
    assert setup_line(tmp_path, "C.UTF-8", "no_such_line", {"a": "1"}) == "no_such_line a=1"


def test_the_first_line_on_a_fresh_debian_is_words_not_a_key(tmp_path):
    said = setup_line(tmp_path, "C.UTF-8", "setup_installing", {"packages": "python3 python3-venv", "label": "the app"})
    assert said == "installing python3 python3-venv (the app)"
