"""The app's home folder: saved games, user voice packs, models, the default table file.

`NARRATOR_HOME` overrides it (tests, several tables on one machine); otherwise it follows
the XDG data directory so a Pi's service user keeps its games in its own home.
"""

from __future__ import annotations

import os
from pathlib import Path


def app_home() -> Path:
    if os.environ.get("NARRATOR_HOME"):
        return Path(os.environ["NARRATOR_HOME"]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "narrator"
