"""The settings page's host screen, kept on the card: the same phone is the host screen after a
power cut, a crash or a restart of `narrator serve`, with no button hold and no table code.

Why: the settings page lived in memory only, so a resumed evening had no host screen, and the
phone that held it was locked out until the table held the button for 5 s (issue 37). What is
kept is what the page itself keeps (carry.py): the SHA-256 of the host's token, never the token,
and the public key the table confirmed with its press (so its saves still come sealed). A leaked
file gives no token. `release host` forgets it; a damaged file is set aside, said once, and the
table confirms a host screen again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from narrator import home
from narrator.phones.seats import read_kept
from narrator.phones.serving import Menu

FILE = "phones-host.json"
"""In the narrator's home, beside the table file."""


def load(path: Path | None, warn: Callable[[str], None] | None = None) -> tuple[str, str | None] | None:
    """(the host's token digest, its public key or None), or None when no host screen is kept."""
    saved = read_kept(path, dict, warn, "the table confirms a host screen again") or {}
    digest = saved.get("digest")
    if not isinstance(digest, str) or len(digest) != 64:
        return None
    key = saved.get("key")
    return digest, key if isinstance(key, str) else None


def save(path: Path | None, digest: str | None, key: str | None) -> bool:
    """Keep the host screen as it stands now (None: there is none, the file goes). False when
    the card refused (full, read-only): the host screen holds for this run all the same."""
    if path is None:
        return True
    try:
        if digest is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            home.write_atomic(path, json.dumps({"digest": digest, "key": key}))
    except OSError:
        return False
    return True


def restore(page: Menu, path: Path | None, warn: Callable[[str], None] | None = None) -> bool:
    """Give `page` (a SettingsPage) the kept host screen; True when there was one."""
    kept = load(path, warn)
    if kept is None:
        return False
    page.host_digest, key = kept
    if key is not None:
        page.keys.bind_host_digest(page.host_digest, key)
    return True
