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


PHONE_PORT = frozenset({
    "test_appliance_again", "test_appliance_buttons_e2e", "test_appliance_serve", "test_command_form",
    "test_game_switch", "test_history_appliance", "test_kept_game_file", "test_natural_fill",
    "test_prompts_name_present_inputs", "test_saved_game_cli", "test_spoken_setup",
})
"""Modules whose `narrator serve` (in process or not) opens the phone page on its default port,
8080 on this machine's address: two at once cannot both listen, and the second waits for a
press that never comes. One `xdist_group`, so `--dist loadgroup` runs them one after another."""


@pytest.hookimpl(tryfirst=True)  # before xdist names each test's group
def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.stem in PHONE_PORT:
            item.add_marker(pytest.mark.xdist_group("phone-port"))
