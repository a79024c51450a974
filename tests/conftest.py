"""Shared fixtures: every test gets its own app home, so saved games never mix."""

import pytest


@pytest.fixture(autouse=True)
def narrator_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("NARRATOR_HOME", str(home))
    return home
