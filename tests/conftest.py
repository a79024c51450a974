"""Shared fixtures: every test gets its own app home, so saved games never mix, and an English
locale (the terminal's own lines follow the locale: narrator/terminal/lines.py), whatever the machine's."""

import pytest


@pytest.fixture(autouse=True)
def narrator_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("NARRATOR_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch):
    """LANG=C.UTF-8 and no LC_ALL/LC_MESSAGES, and no table language left chosen by another test."""
    from narrator import terminal

    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    terminal.forget()
    yield
    terminal.forget()
