"""Ctrl-C says "the game is saved; continue it with narrator resume" only where a game was playing."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.table import lock


def interrupted(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("command,target", [
    (["doctor"], "narrator.sound.doctor.run_checks"),
    (["voices", "render", "en"], "narrator.cli.voices.render_requests"),
    (["voices", "status", "en"], "narrator.cli.voices.render_requests"),
])
def test_a_command_without_a_game_just_stops(monkeypatch, command, target):
    monkeypatch.setattr(lock, "_game_held", False)
    monkeypatch.setattr(target, interrupted)
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 130
    assert "stopped" in result.output and "resume" not in result.output


def test_a_command_that_held_a_game_names_resume(monkeypatch, tmp_path):
    monkeypatch.setattr(lock, "_game_held", False)
    held = lock.GameLock(tmp_path)
    held.acquire("test")
    held.release()
    monkeypatch.setattr("narrator.sound.doctor.run_checks", interrupted)
    result = CliRunner().invoke(main, ["doctor"])
    assert result.exit_code == 130 and "the game is saved; continue it with" in result.output
