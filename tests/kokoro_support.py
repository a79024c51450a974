"""The real Kokoro engine for tests: a skip where it is not installed, a failure where setup
was asked for it (`scripts/setup --natural-voice` leaves a marker in .venv), as in CI."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from narrator.sound.engines import EngineUnavailable, load_tts

REQUESTED = Path(sys.prefix) / "natural-voice-requested"
"""Written by `scripts/setup --natural-voice`."""


def open_kokoro():
    try:
        return load_tts("kokoro")
    except EngineUnavailable as err:
        _missing(f"it does not load: {err}", str(err))


def kokoro_module():
    """The engine's package without loading its model (a class attribute to read): the same
    skip, or failure where setup was asked for the natural voice, as `open_kokoro`."""
    try:
        import narrator_kokoro
    except ImportError as err:
        _missing(f"it does not import: {err}", f"the natural voice is not installed ({err}): scripts/setup --natural-voice")
    return narrator_kokoro


def _missing(why: str, skip_reason: str) -> None:
    """A failure where setup was asked for the natural voice, else a skip."""
    if REQUESTED.is_file():
        pytest.fail(f"setup was asked for the natural voice ({REQUESTED}) but {why}")
    pytest.skip(skip_reason)
