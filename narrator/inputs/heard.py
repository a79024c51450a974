"""What a listener heard, as the hub hands it to the scheduler: an answer or a command.

Its own module because both halves of the hub (`hub.py`, questions and commands, and
`private_answers.py`, rounds of private answers) hand it out.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Heard:
    """An answer to the open question, or a command (`done`, `repeat`, `pause`, `undo`)."""

    kind: str
    value: object
    source: str
    confirm: bool = False
    """Repeat the answer back and ask yes/no before it counts (a listener that can mishear)."""
