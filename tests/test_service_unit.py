"""The systemd unit: generated, checked by `systemd-analyze verify`, enabled in a root tree."""

import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from narrator.appliance import unit
from narrator.cli import main
from tests.setup_parts import requested_parts

SERVICE_USER = "nobody"  # exists on every Debian; the unit only needs an unprivileged user


def spec(**changes):
    return unit.make_spec(user=SERVICE_USER, **changes)


def test_the_unit_runs_serve_as_the_user_restarts_on_failure_and_logs_to_the_journal():
    text = unit.render_unit(spec())
    lines = set(text.splitlines())
    assert f"ExecStart={sys.executable} -m narrator serve" in lines
    assert f"User={SERVICE_USER}" in lines
    assert {"Restart=on-failure", "StandardOutput=journal", "StandardError=journal",
            "WantedBy=multi-user.target", "NoNewPrivileges=yes"} <= lines
    groups = next(line for line in text.splitlines() if line.startswith("SupplementaryGroups="))
    assert "audio" in groups.split("=")[1].split()


def test_root_and_unknown_users_are_refused():
    with pytest.raises(unit.ServiceError, match="must not run as root"):
        unit.make_spec(user="root")
    with pytest.raises(unit.ServiceError, match="no user 'no-such-user-7'"):
        unit.make_spec(user="no-such-user-7")


def test_paths_with_spaces_are_quoted(tmp_path):
    text = unit.render_unit(spec(narrator_home=tmp_path / "my games"))
    assert f'Environment="NARRATOR_HOME={tmp_path}/my games"' in text


needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None and "test" not in requested_parts(),
                                   reason="systemd-analyze not installed (scripts/setup --test installs systemd)")
"""Runs (and fails) without systemd-analyze when scripts/setup was asked for the test tools."""


def verify(path):
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(path)], capture_output=True, text=True, timeout=60)


@needs_analyze
def test_systemd_analyze_accepts_the_generated_unit(tmp_path):
    path = tmp_path / unit.UNIT_NAME
    path.write_text(unit.render_unit(spec(narrator_home=tmp_path / "my games")))
    result = verify(path)
    assert result.returncode == 0, result.stderr
    problems = [line for line in result.stderr.splitlines() if "Special user nobody" not in line]
    assert problems == []


@needs_analyze
def test_systemd_analyze_catches_a_broken_unit(tmp_path):
    """The check above can fail: a unit whose command is not an executable is refused.

    (A bare `narrator` is no longer a sure failure: setup may link it into /usr/local/bin,
    and systemd resolves a bare command on its search path.)"""
    path = tmp_path / unit.UNIT_NAME
    path.write_text(unit.render_unit(spec(exec_start=(str(tmp_path / "no-such-narrator"), "serve"))))
    result = verify(path)
    assert result.returncode != 0


@pytest.mark.skipif(shutil.which("systemctl") is None and "test" not in requested_parts(),
                    reason="systemctl not installed (scripts/setup --test installs systemd)")
def test_install_status_uninstall_in_a_root_tree(tmp_path):
    runner = CliRunner()
    root = tmp_path / "image"
    result = runner.invoke(main, ["service", "install", "--user", SERVICE_USER, "--root", str(root)])
    assert result.exit_code == 0, result.output
    written = root / "etc/systemd/system" / unit.UNIT_NAME
    wants = root / "etc/systemd/system/multi-user.target.wants" / unit.UNIT_NAME
    assert written.read_text() == unit.render_unit(spec())
    assert wants.is_symlink() and str(wants.readlink()) == "/etc/systemd/system/narrator.service"
    status = runner.invoke(main, ["service", "status", "--root", str(root)])
    assert "enabled: enabled" in status.output
    result = runner.invoke(main, ["service", "uninstall", "--root", str(root)])
    assert result.exit_code == 0 and not written.exists() and not wants.exists()
    status = runner.invoke(main, ["service", "status", "--root", str(root)])
    assert "not installed" in status.output


def test_print_shows_the_unit_and_changes_nothing(tmp_path):
    result = CliRunner().invoke(main, ["service", "install", "--print", "--user", SERVICE_USER])
    assert result.exit_code == 0 and result.output == unit.render_unit(spec())
