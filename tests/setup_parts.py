"""Skip a test for a missing part only when `scripts/setup` was not asked to install it.

`scripts/setup` records in `.venv/narrator-setup.state` the parts it installed
(`parts=app test model`) and the parts it was asked for but could not install
(`failed=test`; it then said "not ready" and exited 1). A test that needs a missing piece of
either fails, naming the piece: setup was asked for it, so a skip would hide a broken setup.
Without the record (a venv made by hand) the test skips as before, with the reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

STATE = Path(sys.prefix) / "narrator-setup.state"


def requested_parts(state: Path | None = None) -> set[str]:
    """The parts scripts/setup was asked to install into this venv, installed or failed
    (empty when setup did not make it)."""
    path = state or STATE
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    parts: set[str] = set()
    for line in lines:
        key, _, value = line.partition("=")
        if key in ("parts", "failed"):
            parts |= set(value.split())
    return parts


def missing(part: str, reason: str, allow_module_level: bool = False):
    """Fail when setup was asked for `part`, else skip; `reason` names what is missing and the fix."""
    if part in requested_parts():
        pytest.fail(f"{reason} (scripts/setup was asked to install the '{part}' part; it is missing)", pytrace=False)
    pytest.skip(reason, allow_module_level=allow_module_level)


def require_import(module: str, part: str, reason: str):
    """`pytest.importorskip` that fails instead when setup was asked for `part`."""
    try:
        return __import__(module, fromlist=["_"])
    except (ImportError, OSError) as err:
        missing(part, f"{reason} ({err})", allow_module_level=True)
