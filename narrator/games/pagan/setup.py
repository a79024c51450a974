"""Pagan: Fate of Roanoke: turn a table's settings into a checked, frozen config.

Pagan is always two players (the witch and the hunter), so the only table choices are
the optional chess-clock turn timer and its spoken warnings. Anything else is refused
before a word is spoken; the steps themselves come from `definition.toml`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from narrator.errors import Refusal, worded
from narrator.games.jsonable import Record
from narrator.settings import TableSettings, check_options, declare, declared_values
from narrator.values.readers import MAX_TIMER, integer, parse_seconds_list

DEFINITION_FILE = Path(__file__).with_name("definition.toml")


@cache
def definition() -> dict[str, Any]:
    """The game's steps, action lists and endings (read once)."""
    with DEFINITION_FILE.open("rb") as f:
        return tomllib.load(f)


PLAYERS = 2
"""Pagan is always played by two: the witch and the hunter."""
SETTINGS = declare(definition()["settings"], page="pagan.md", page_ja="ja/table-file.md#pagan")
"""This game's own table-file keys, declared once in `[settings]` of definition.toml."""


@dataclass(frozen=True)
class PaganConfig:
    """A validated Pagan setup; the engine reads only this and the definition."""

    turn_timer: int
    """Seconds on the active side's clock each turn; 0 means no clock."""
    warnings: tuple[int, ...]
    """Seconds left at which the turn clock speaks (only those below `turn_timer`)."""

    @property
    def players(self) -> int:
        """Always the two sides, the witch and the hunter (`GameConfig.players`)."""
        return PLAYERS

    def to_dict(self) -> Record:
        return {"turn_timer": self.turn_timer, "warnings": list(self.warnings)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PaganConfig:
        return cls(turn_timer=int(data["turn_timer"]), warnings=tuple(data["warnings"]))


def configure(settings: TableSettings) -> PaganConfig:
    """Validate the table's options for Pagan; refuse bad setups in one line, in the table's language."""
    with worded(settings.stated_lang):
        return _configure(settings)


def _configure(settings: TableSettings) -> PaganConfig:
    src = settings.source
    options = dict(settings.options)
    check_options(options, SETTINGS, "pagan", src)
    if settings.players not in (None, PLAYERS):
        raise Refusal("pagan_players", source=src, players=settings.players)
    if settings.names:
        raise Refusal("pagan_names", source=src)
    defaults = declared_values(SETTINGS)
    turn_timer = integer(options.get("turn_timer", defaults["turn_timer"]), "turn_timer", src, minimum=0,
                         maximum=MAX_TIMER)
    warnings = parse_seconds_list(options.get("warnings", defaults["warnings"]), "warnings", src)
    return PaganConfig(turn_timer=turn_timer, warnings=tuple(w for w in warnings if w < turn_timer))
