"""Shared fixtures: every test gets its own app home, so saved games never mix, and every
process a test started (`tests/processes.py: started`) ends with the test."""

import pytest

from tests.processes import reap_started


@pytest.fixture(autouse=True)
def narrator_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("NARRATOR_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def reap_children():
    """Kill and reap, with their children, the processes the test started and left running
    (an assertion failed before its own `wait`): none outlives its test to hold a port, a
    game's lock or a core for the rest of the run."""
    yield
    reap_started()
