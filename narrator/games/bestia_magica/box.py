"""The role set of a Bestia Magica game, counted: said before the first night and printed by
`narrator play --dry-run`, so the table knows what is in play (never who holds what).

Each role is the voice-pack line `bm.card.<role>` said with its count (「魔獣2枚」), in the
order of `definition.toml`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from narrator.cues import Cue, Say
from narrator.games.bestia_magica.setup import BMConfig, definition


def role_set(config: BMConfig) -> list[list[Any]]:
    """`[line id, count]` for each role dealt, in the definition's order."""
    counts = Counter(card.role for card in config.deal)
    return [[f"bm.card.{role}", counts[role]] for role in definition()["roles"] if counts[role]]


def box_cues(config: BMConfig) -> list[Cue]:
    return [Say("bm.setup.box", {"roles": role_set(config)})]
