"""One line of a voice pack, as loaded.

Why a module of its own: the pack loader (voicepack.py) and the line references it resolves
(line_refs.py) both hold lines, and the loader calls the resolver, so the line cannot live in
either without an import cycle (tests/test_layout.py counts type-only imports too).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One line of a pack: the words as written and, optionally, as read."""

    id: str
    text: str
    reading: str | None = None
    variants: tuple[tuple[str, str | None], ...] = ()
    """Other wordings as (text, reading), said in turn with the main one."""

    def wordings(self) -> list[tuple[str, str | None]]:
        return [(self.text, self.reading), *self.variants]
