"""`release host` without a terminal: the appliance's button held long, or the table saying it.

The terminal's `release host` (server.py) frees the host screen at once: whoever types at the
table's own terminal is the table. A button gesture or a heard phrase can be a slip or a
mishearing, so it is asked back aloud first (`phones.host_release_ask`), and only the table's
press or "yes" (a button, a microphone, the keyboard: never a phone) within `CONFIRM_SECONDS`
releases it. The release is then the terminal's: a new table code, said aloud. The same holds
at the menu, between games: the settings page (settings_page.py) answers the same words.
"""

from __future__ import annotations

from narrator.phones.serving import Releasing

WORD = "release_host"
"""The hub's word for it: the button's hold (inputs/button.py), the voice pack's phrase."""
CONFIRM_SECONDS = 15.0
"""Seconds the table has to answer the question."""


def _now(server: Releasing) -> float:
    """The game's page's clock (its gate's), or the settings page's own (`SettingsPage.now`)."""
    own = getattr(server, "now", None)
    return own() if callable(own) else server.gate.now()


def ask(server: Releasing) -> None:
    """The gesture or the phrase: ask the table to confirm, and hear its "yes" meanwhile."""
    server.release_until = _now(server) + CONFIRM_SECONDS
    server.announce("phones.host_release_ask", {"seconds": int(CONFIRM_SECONDS)})
    if server.hub is not None:  # (the table's word or press asked it: there is a hub)
        server.hub.hear_also(("yes",))


def confirm(server: Releasing) -> bool:
    """The table's press or "yes": True when a question was open (the words are spent)."""
    until, server.release_until = server.release_until, None
    if until is None:
        return False
    if server.hub is not None:
        server.hub.hear_also(())
    if until <= _now(server):
        return False  # too late: the press is an ordinary one
    server.release("host")  # a new table code, said aloud
    return True
