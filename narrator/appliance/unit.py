"""The systemd unit that makes a Raspberry Pi a narrator: `narrator service install|status|uninstall`.

The unit runs `narrator serve` (this venv's Python, so no PATH games) as an unprivileged
user in the `audio` group (and `gpio` where it exists, for the buttons), starts it on boot,
restarts it whenever it fails, and leaves logging to the journal (`journalctl -u narrator`).
Resuming after a power cut is `narrator serve`'s job: the unit only has to start it again.
It sets `LimitNOFILE` itself (systemd's default is 1,024): the phone pages size their connection
caps from the open-file limit they find (`phones/guard.py`), and that limit is then the same on
every Pi whatever the distribution's default.

Installing writes `/etc/systemd/system/narrator.service` (root needed: the error says to
use sudo), then `systemctl daemon-reload` and `systemctl enable`. `--root DIR` installs into
an image or a test tree instead, as `systemctl --root` does.
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from narrator.errors import NarratorError
from narrator.phones.guard import WANTED_FILES

UNIT_NAME = "narrator.service"
SYSTEM_UNIT_DIR = Path("/etc/systemd/system")
WANTED_GROUPS = ("audio", "gpio")
"""Supplementary groups for the speaker and the buttons; only those that exist are named."""
REPO = Path(__file__).resolve().parents[2]


class ServiceError(NarratorError):
    """The service cannot be installed or managed here; the message says what to do."""


@dataclass(frozen=True)
class UnitSpec:
    """What the unit needs to know about this machine."""

    user: str
    exec_start: tuple[str, ...]
    working_dir: Path
    narrator_home: Path
    groups: tuple[str, ...]


def default_user() -> str:
    """The user who ran `sudo narrator …`, else the current user; root itself is refused."""
    user = os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
    return user


def make_spec(user: str | None = None, narrator_home: Path | None = None,
              exec_start: tuple[str, ...] | None = None) -> UnitSpec:
    user = user or default_user()
    if user == "root":
        raise ServiceError("the narrator service must not run as root; name a user with --user (e.g. --user pi)")
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise ServiceError(f"no user '{user}' on this machine; create it or name another with --user") from None
    groups = tuple(g for g in WANTED_GROUPS if _group_exists(g))
    home_dir = narrator_home or Path(entry.pw_dir) / ".local" / "share" / "narrator"
    return UnitSpec(
        user=user,
        exec_start=exec_start or (sys.executable, "-m", "narrator", "serve"),
        working_dir=REPO,
        narrator_home=home_dir,
        groups=groups,
    )


def render_unit(spec: UnitSpec) -> str:
    """The unit file's text."""
    groups = f"SupplementaryGroups={' '.join(spec.groups)}\n" if spec.groups else ""
    return (
        "# Written by `narrator service install`; remove with `narrator service uninstall`.\n"
        "[Unit]\n"
        "Description=narrator, the voice game master for the table\n"
        f"Documentation=file://{REPO / 'README.md'}\n"
        "After=sound.target network.target\n"
        "Wants=sound.target\n"
        "StartLimitIntervalSec=0\n"
        "\n"
        "[Service]\n"
        "Type=exec\n"
        f"User={spec.user}\n"
        f"{groups}"
        f"WorkingDirectory={_quote(str(spec.working_dir))}\n"
        f"Environment={_quote('NARRATOR_HOME=' + str(spec.narrator_home))}\n"
        "Environment=PYTHONUNBUFFERED=1\n"
        f"ExecStart={' '.join(_quote(part) for part in spec.exec_start)}\n"
        "Restart=on-failure\n"
        "RestartSec=5\n"
        "StandardInput=null\n"
        "StandardOutput=journal\n"
        "StandardError=journal\n"
        "SyslogIdentifier=narrator\n"
        f"LimitNOFILE={WANTED_FILES}\n"
        "NoNewPrivileges=yes\n"
        "PrivateTmp=yes\n"
        "\n"
        "[Install]\n"
        "WantedBy=multi-user.target\n"
    )


Runner = Callable[[list[str]], "subprocess.CompletedProcess[str]"]


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True)


def unit_dir(root: Path | None) -> Path:
    return (root / SYSTEM_UNIT_DIR.relative_to("/")) if root else SYSTEM_UNIT_DIR


def install(spec: UnitSpec, root: Path | None = None, enable: bool = True, start: bool = False,
            run: Runner = _run) -> list[str]:
    """Write the unit, then reload and enable it; returns what was done, one line each."""
    path = unit_dir(root) / UNIT_NAME
    text = render_unit(spec)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(UNIT_NAME + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except PermissionError:
        raise ServiceError(f"writing {path} needs root; run: sudo {sys.executable} -m narrator service install "
                           f"--user {spec.user}") from None
    done = [f"wrote {path} (runs `{' '.join(spec.exec_start)}` as {spec.user})"]
    if not enable:
        return done + [f"not enabled; enable it with: sudo systemctl enable {UNIT_NAME}"]
    systemctl = _systemctl(root)
    if root is None:
        done.append(_step(run, systemctl + ["daemon-reload"], "reloaded systemd",
                          "systemd is not running here; the unit is read at the next boot"))
    action = ["enable", "--now"] if start and root is None else ["enable"]
    done.append(_step(run, systemctl + action + [UNIT_NAME], f"enabled {UNIT_NAME}: it starts on every boot"
                      + (" and is running now" if "--now" in action else ""),
                      f"could not enable it; run by hand: sudo systemctl enable {UNIT_NAME}", strict=True))
    return done


def uninstall(root: Path | None = None, run: Runner = _run) -> list[str]:
    path = unit_dir(root) / UNIT_NAME
    if not path.exists():
        return [f"no {path}; nothing to remove"]
    systemctl = _systemctl(root)
    action = ["disable"] if root else ["disable", "--now"]
    done = [_step(run, systemctl + action + [UNIT_NAME], f"{'disabled' if root else 'stopped and disabled'} {UNIT_NAME}",
                  "systemd did not disable it (not running here?)")]
    try:
        path.unlink()
    except PermissionError:
        raise ServiceError(f"removing {path} needs root; run: sudo {sys.executable} -m narrator service uninstall") from None
    done.append(f"removed {path}")
    if root is None:
        done.append(_step(run, systemctl + ["daemon-reload"], "reloaded systemd", "systemd is not running here"))
    return done


def status(root: Path | None = None, run: Runner = _run) -> list[str]:
    """Whether the unit is installed, enabled and running, and its last log lines."""
    path = unit_dir(root) / UNIT_NAME
    lines = [f"unit file: {path}" + ("" if path.exists() else " (not installed: `sudo narrator service install`)")]
    if shutil.which("systemctl") is None:
        return lines + ["systemctl is not available here"]
    systemctl = _systemctl(root)
    enabled = run(systemctl + ["is-enabled", UNIT_NAME])
    lines.append(f"enabled: {(enabled.stdout or enabled.stderr).strip() or 'unknown'}")
    if root is None:
        active = run(systemctl + ["is-active", UNIT_NAME])
        lines.append(f"active: {(active.stdout or active.stderr).strip() or 'unknown'}")
        shown = run(systemctl + ["status", UNIT_NAME, "--no-pager", "--lines=10"])
        lines += [line for line in (shown.stdout or "").splitlines() if line.strip()]
    return lines


def _systemctl(root: Path | None) -> list[str]:
    if shutil.which("systemctl") is None:
        raise ServiceError("systemctl is not available: this system does not use systemd; "
                           "start `narrator serve` from your init system instead")
    return ["systemctl", f"--root={root}"] if root else ["systemctl"]


def _step(run: Runner, cmd: list[str], ok: str, failed: str, strict: bool = False) -> str:
    result = run(cmd)
    if result.returncode == 0:
        return ok
    detail = (result.stderr or result.stdout).strip().splitlines()
    message = f"{failed} ({detail[-1] if detail else 'status ' + str(result.returncode)})"
    if strict:
        raise ServiceError(message)
    return message


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def _quote(value: str) -> str:
    """Quote a value for a unit file line when it has spaces, quotes or backslashes."""
    if not any(c in value for c in ' "\'\\'):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
