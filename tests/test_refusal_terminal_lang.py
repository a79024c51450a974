"""A refusal made before the table's language is known (a flag checked as the table is read)
reads in the terminal's language, as every other line the program prints does
(narrator/terminal/lines.py: the table's, else the home table file's, else the locale's).
Before, it fell back to English: `LANG=ja_JP.UTF-8 narrator play --roles seer` printed
"error: command line: roles entry 'seer' needs the form card=count"."""

import subprocess
import sys

import pytest

from narrator import terminal
from narrator.errors import Refusal
from narrator.games import get_game
from narrator.settings import build_settings


def refused(**flags) -> Refusal:
    with pytest.raises(Refusal) as caught:
        settings = build_settings({}, flags, "command line")
        get_game(settings.game).configure(settings)
    return caught.value


def test_a_refusal_without_a_table_language_reads_in_the_locales(monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    err = refused(roles="seer")
    assert err.lang is None  # refused before the table said its language
    assert str(err) == err.line("ja") and "「カード=枚数」" in str(err)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert str(err) == err.line("en") and "needs the form card=count" in str(err)


def test_the_tables_own_language_still_comes_first(monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    err = refused(roles="seer", lang="ja")  # the table says Japanese; the locale says nothing of it
    assert err.lang == "ja" and str(err) == err.line("ja") != err.line("en")
    terminal.choose("ja")  # the table chose Japanese: the terminal says its lines in it
    assert str(refused(roles="seer")) == refused(roles="seer").line("ja")


def test_narrator_play_prints_the_refusal_in_japanese_under_a_japanese_locale(tmp_path):
    env = {"LANG": "ja_JP.UTF-8", "PATH": "/usr/bin:/bin", "NARRATOR_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "narrator", "play", "--roles", "seer", "--voice", "text"],
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == "error: コマンドライン: 役職カードの「seer」は「カード=枚数」の形で書いてください"
