"""The game contract: what every game hands the game loop (kept apart from the registry,
so that a game's package and the registry in `narrator/games/__init__.py` never import each other)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Game:
    """One game's rules engine and the functions the runner needs around it."""

    name: str
    configure: Callable[[Any], Any]
    config_from_dict: Callable[[dict[str, Any]], Any]
    new_state: Callable[[], Any]
    state_from_dict: Callable[[dict[str, Any]], Any]
    advance: Callable[[Any, Any, dict[str, Any]], tuple[Any, list]]
    recap: Callable[[Any, Any], list]
    box: Callable[[Any], list] | None = None
    """The cues that name the cards a table takes out of the box for `config` (None: no set to choose)."""
    sayable: Callable[[Any], list] | None = None
    """For a game whose private rounds have too many answers to play every branch (Bestia
    Magica): cues holding every line it can say with this config, listed from the config
    (what `narrator.sound.render_ahead` renders before play)."""
