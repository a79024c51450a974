"""The app's home folder: saved games, user voice packs, models, the default table file.

`NARRATOR_HOME` overrides it (tests, several tables on one machine); otherwise it follows
the XDG data directory so a Pi's service user keeps its games in its own home.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SOURCE_VOICES = Path(__file__).resolve().parents[1] / "voices"
"""The bundled voice packs in a source tree (a clone, an editable install): beside the package."""
INSTALLED_VOICES = Path(sys.prefix) / "share" / "narrator" / "voices"
"""The bundled voice packs of an install from a wheel: its data files (pyproject `data-files`)."""


def app_home() -> Path:
    if os.environ.get("NARRATOR_HOME"):
        return Path(os.environ["NARRATOR_HOME"]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "narrator"


def bundled_voices() -> Path:
    """Where the packs that come with the narrator are: beside the package in a source tree,
    else where a wheel installed them (`<prefix>/share/narrator/voices`). The user's own
    packs (`app_home() / "voices"`) are looked at before these."""
    return SOURCE_VOICES if SOURCE_VOICES.is_dir() else INSTALLED_VOICES
