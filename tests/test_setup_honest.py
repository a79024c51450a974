"""Setup says "ready" only when every part it was asked for is installed (issue 39, item 7).

Each part (the apt packages, the venv and the app, the test extras, --natural-voice, --model,
the render) either succeeds and is recorded, or setup's last lines say "not ready" naming it
and the fix, the part is not recorded as installed (`parts=`; it is listed under `failed=`
instead, so its tests still fail rather than skip), apt's noise goes to a log whose path is
named, and the exit is non-zero. `scripts/test` then runs no test at all. Driven through the
real scripts with fake apt, pip and narrator commands (tests/setup_fakes.py): about a second
a case, no network, nothing on the machine touched.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.setup_fakes import APT_NOISE, Fakes, make_checkout, run_script
from tests.setup_parts import requested_parts

ARGS = ["--no-link", "--no-service"]

pytestmark = pytest.mark.slow  # real bash processes: one to three seconds a case


@pytest.fixture
def checkout(tmp_path):
    return make_checkout(tmp_path)


def setup(checkout, fakes, *args):
    return run_script(checkout, "setup", [*ARGS, *args], fakes)


def assert_not_ready(run, *words):
    """A non-zero exit whose last line says "not ready", names the part and the fix."""
    assert run.returncode != 0, run.stderr[-3000:]
    assert run.last_line.startswith("setup: not ready:"), run.stderr[-3000:]
    tail = "\n".join(line for line in run.stderr.splitlines() if line.startswith("setup: not ready:"))
    for word in words:
        assert word in tail, (word, tail)
    assert "fix:" in run.last_line
    assert "setup: ready" not in run.stderr


def parts(run):
    return set(run.state.get("parts", "").split())


def failed(run):
    return set(run.state.get("failed", "").split())


def test_everything_installs_ready_and_recorded(checkout):
    """The control: nothing fails, so setup is ready and records every part it was asked for."""
    run = setup(checkout, Fakes(missing=("chromium",)), "--test", "--natural-voice", "--model")
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.last_line.startswith("setup: ready: "), run.stderr[-3000:]
    assert parts(run) == {"app", "test", "natural", "model"}
    assert failed(run) == set()
    assert "chromium" in run.state["apt"].split()


def test_offline_apt_for_the_test_tools_is_not_ready_and_quiet(checkout):
    """The issue's case: `scripts/test` offline printed 307 apt `E:` lines, then `setup: ready`."""
    run = setup(checkout, Fakes(missing=("chromium", "git"), apt_fails=True), "--test")
    assert_not_ready(run, "chromium git", "scripts/setup --test")
    noise = [line for line in run.stderr.splitlines() if line.startswith("E:")]
    assert noise == []
    log = checkout / "setup.log"
    assert f"{log}" in run.stderr and log.read_text().count("E: Failed to fetch") == APT_NOISE
    assert "test" not in parts(run) and "test" in failed(run)
    assert "app" in parts(run)
    assert "chromium" not in run.state.get("apt", "")


def test_offline_apt_for_the_app_is_not_ready(checkout):
    """`scripts/play` on a fresh machine offline: espeak-ng cannot be installed."""
    run = setup(checkout, Fakes(missing=("espeak-ng",), apt_fails=True))
    assert_not_ready(run, "espeak-ng", "sudo apt-get install espeak-ng")
    assert "app" not in parts(run) and "app" in failed(run)


def test_offline_open_jtalk_is_not_ready(checkout):
    run = setup(checkout, Fakes(missing=("open-jtalk",), apt_fails=True))
    assert_not_ready(run, "Open JTalk", "open-jtalk")
    assert not [line for line in run.stderr.splitlines() if line.startswith("E:")]
    assert "app" not in parts(run)


def test_offline_pip_test_extras_is_not_ready(checkout):
    run = setup(checkout, Fakes(pip_fails=("[test]",)), "--test")
    assert_not_ready(run, "test extras", "scripts/setup --test")
    assert "test" not in parts(run) and "test" in failed(run)
    assert "pip.test" not in run.state
    assert "ERROR: Could not find" not in run.stderr  # pip's noise is in the log too
    assert "ERROR: Could not find" in (checkout / "setup.log").read_text()


def test_scripts_test_runs_no_test_when_the_test_part_failed(checkout):
    """Before: `setup: ready: narrator`, then `No module named pytest` (exit 1)."""
    run = run_script(checkout, "test", ["-q"], Fakes(pip_fails=("[test]",)))
    assert run.returncode != 0
    assert "No module named pytest" not in run.stderr + run.stdout
    assert run.last_line.startswith("setup: not ready:"), run.stderr[-3000:]


def test_offline_natural_voice_is_not_ready(checkout):
    run = setup(checkout, Fakes(pip_fails=("engines/kokoro",)), "--natural-voice")
    assert_not_ready(run, "natural Japanese voice", "scripts/setup --natural-voice")
    assert "natural" not in parts(run) and "natural" in failed(run)
    assert "pip.natural" not in run.state


def test_offline_model_is_not_ready(checkout):
    run = setup(checkout, Fakes(model_rc=1), "--model")
    assert run.returncode == 1
    assert_not_ready(run, "speech model", "models install ja")
    assert "model" not in parts(run) and "model" in failed(run)


def test_model_without_vosk_is_not_ready(checkout):
    """--model asked for, vosk does not load so the model is not installed: not a success."""
    run = setup(checkout, Fakes(unimportable=("vosk",)), "--model")
    assert_not_ready(run, "speech model")
    assert "model" not in parts(run)
    assert not [call for call in run.calls if call.startswith("narrator models install")]


def test_the_app_failing_to_install_is_not_ready_nor_recorded(checkout):
    run = setup(checkout, Fakes(pip_fails=("*",)), "--test")
    assert run.returncode == 1
    assert_not_ready(run, "narrator and its engines", "rerun scripts/setup")
    assert "app" not in parts(run) and "app" in failed(run)
    assert "test" not in parts(run)  # its steps never ran


def test_render_failing_is_not_ready(checkout):
    run = setup(checkout, Fakes(render_rc=1))
    assert_not_ready(run, "voice packs", "voices render")
    assert "app" in parts(run) and "render" in failed(run)


def test_a_part_that_installs_on_a_rerun_leaves_the_failed_list(checkout):
    first = setup(checkout, Fakes(pip_fails=("[test]",)), "--test")
    assert "test" in failed(first)
    again = setup(checkout, Fakes(), "--test")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "test" in parts(again) and failed(again) == set()


def test_a_failed_part_still_makes_its_tests_fail_rather_than_skip(checkout):
    """`failed=` counts as asked for: tests/setup_parts.py fails a test that needs it."""
    setup(checkout, Fakes(pip_fails=("[test]",)), "--test")
    assert "test" in requested_parts(checkout / ".venv/narrator-setup.state")


def test_a_fake_setup_links_the_command_in_its_own_folder_not_the_machines(checkout):
    """Setup as root links `narrator` into /usr/local/bin; the copy's runs must not: a CI run
    left /usr/local/bin/narrator pointing into a deleted pytest folder (`scripts/test` runs
    setup without --no-link)."""
    machine = Path("/usr/local/bin/narrator")
    before = os.readlink(machine) if machine.is_symlink() else None
    run = run_script(checkout, "test", ["-q"], Fakes(pip_fails=("[test]",)))
    assert run.returncode != 0
    after = os.readlink(machine) if machine.is_symlink() else None
    assert after == before
    assert (checkout.parent / "bin" / "narrator").is_symlink()
