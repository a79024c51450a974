"""Shared fixtures: every test gets its own app home, so saved games never mix, an English
locale (the terminal's own lines follow the locale: narrator/terminal/lines.py), whatever the
machine's, and every process a test started (`tests/processes.py: started`) ends with the test."""

import pytest

from tests.processes import held, reap_started


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
press that never comes."""


@pytest.fixture(autouse=True)
def one_at_a_time(request):
    """A test that needs a resource only one may hold (the phone page's default port, a chroot's
    mounts) holds its lock for its run: the other xdist worker, or another checkout's suite on
    this machine, waits its turn. (pytest-xdist's `xdist_group` would keep such tests on one
    worker, but only within one run, and with pytest 9 it does not group at all.)"""
    if request.node.path.stem in PHONE_PORT:
        name = "phone-port"
    elif request.node.get_closest_marker("chroot") is not None:
        name = "chroot"
    else:
        yield
        return
    with held(name):
        yield
