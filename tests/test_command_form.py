"""Every command a message names works as written: `narrator` only when that name runs this
installation (scripts/setup links it onto the PATH), else the full path; Ctrl-C stops at once.
"""

from __future__ import annotations

import os
import pty
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.inputs.voice import checks
from narrator.sound import doctor
from narrator.sound.outputs import NullSink
from narrator.table.clock import ScaledClock
from tests.clock_helpers import wait_for_record, wait_until
from tests.processes import started

pytestmark = pytest.mark.slow  # real narrator processes, Ctrl-C by a signal

VENV_NARRATOR = Path(sys.executable).with_name("narrator")


def env_with_path(path: str, home: Path) -> dict[str, str]:
    return {**os.environ, "PATH": path, "NARRATOR_HOME": str(home)}


def test_the_bare_name_only_when_it_runs_this_installation(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert doctor.command_name() == str(VENV_NARRATOR)
    (tmp_path / "narrator").symlink_to(VENV_NARRATOR)  # what scripts/setup makes
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    assert doctor.command_name() == "narrator"
    other = tmp_path / "other"
    other.mkdir()
    (other / "narrator").write_text("#!/bin/sh\n")  # some other program of that name first
    (other / "narrator").chmod(0o755)
    monkeypatch.setenv("PATH", f"{other}:{tmp_path}:/usr/bin:/bin")
    assert doctor.command_name() == str(VENV_NARRATOR)


def test_setup_command_is_this_checkouts_script():
    command = doctor.setup_command("--model")
    script = Path(command.split()[0])
    assert script.is_absolute() and os.access(script, os.X_OK) and command.endswith(" --model")


def test_doctor_fix_lines_run_as_written(tmp_path):
    """Each fix that names narrator or setup starts with a path that exists (no PATH here)."""
    result = subprocess.run([str(VENV_NARRATOR), "doctor"], capture_output=True, text=True,
                            env=env_with_path("/usr/bin:/bin", tmp_path / "home"), timeout=120)
    fixes = [line.split("fix: ", 1)[1] for line in result.stdout.splitlines() if "fix: " in line]
    commands = [c for fix in fixes for c in (re.findall(r"`([^`]+)`", fix) or [fix])]
    named = [shlex.split(c)[0] for c in commands if "narrator" in c or "setup" in c]
    assert named, result.stdout  # no model is installed in a fresh home: its fix names narrator
    assert all(os.access(word, os.X_OK) for word in named), named


def test_vosk_that_cannot_find_libatomic_is_fixed_by_apt_not_a_reinstall(monkeypatch):
    error = "libatomic.so.1: cannot open shared object file: No such file or directory"
    assert checks.vosk_fix(error) == "sudo apt-get install libatomic1"
    assert checks.vosk_fix("No module named 'vosk'") == doctor.setup_command()

    import builtins

    real_import = builtins.__import__

    def fail_vosk(name, *args, **kwargs):
        if name == "vosk":
            raise OSError(error)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(checks, "stt_engine_names", lambda: ["vosk"], raising=False)
    monkeypatch.setattr("narrator.sound.engines.stt_engine_names", lambda: ["vosk"])
    monkeypatch.setattr(builtins, "__import__", fail_vosk)
    [finding] = checks.check_engine()
    assert not finding.ok and finding.fix == "sudo apt-get install libatomic1"


def test_hush_leaves_nothing_for_close_to_drain():
    """Ctrl-C: a live output drops the rest of a long line instead of playing it out."""
    sink = NullSink(ScaledClock())
    handle = sink.start(bytes(2 * 16000 * 30), 0.0)  # 30 s of (silent) speech
    wait_until(lambda: sink.onset(handle) is not None, "the line has begun", timeout=10)
    sink.hush()
    sink.close()
    assert sink.rendered < 16000 * 5  # stopped within the first seconds, not after 30


@pytest.mark.parametrize("command", [["play"], ["serve", "--no-buttons", "--keyboard"]])
def test_ctrl_c_stops_with_the_resume_command_that_works(tmp_path, command):
    master, slave = pty.openpty()
    env = env_with_path("/usr/bin:/bin", tmp_path / "home")
    transcript = tmp_path / "transcript.jsonl"  # only to see when the first line is handed to the sink
    game = started([str(VENV_NARRATOR), *command, "--lang", "en", "--audio", "null",
                             "--transcript", str(transcript)], stdin=slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    # into the first lines (serve greets, then asks: no game yet): audio is queued on the sink
    wait_for_record(transcript, lambda r: r["kind"] == "say", "the first line is said", alive=lambda: game.poll() is None)
    os.killpg(game.pid, signal.SIGINT)
    _, err = game.communicate(timeout=60)
    os.close(master)
    os.close(slave)
    assert game.returncode == 130, err
    resume = re.search(r"continue it with `(.+) resume`", err.decode())
    if command[0] == "serve":  # stopped at the greeting: no game is running yet, so none to resume (issue 27)
        assert resume is None and b"stopped" in err, err
        return
    assert resume and os.access(resume.group(1), os.X_OK), err  # the full path: narrator is not on PATH here
