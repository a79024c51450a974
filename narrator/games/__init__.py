"""The games the narrator can run, each behind the same small contract.

A game supplies: `configure(settings) -> config` (validate the table), `new_state()`,
`advance(config, state, event) -> (state, cues)` (pure), `recap(config, state)` (what
to say on resume), and how its config and state round-trip through JSON for the store.
"""

from __future__ import annotations

from typing import Callable

from narrator.errors import SetupError
from narrator.games.contract import Game


def _additional_werewolf() -> Game:
    from narrator.games import additional_werewolf as aw

    return aw.GAME


def _bestia_magica() -> Game:
    from narrator.games import bestia_magica as bm

    return bm.GAME


def _pagan() -> Game:
    from narrator.games import pagan

    return pagan.GAME


_GAMES: dict[str, Callable[[], Game]] = {
    "additional-werewolf": _additional_werewolf,
    "bestia-magica": _bestia_magica,
    "pagan": _pagan,
}


def game_over_message(winner: str | None) -> str:
    """The log's last line of a game, in English grammar: "citizens win", "town wins", "witch wins".

    Team names (citizens, werewolves, beasts, demons) are plural; a side (town, witch, hunter) is one.
    """
    if not winner:
        return "game over"
    return f"game over: {winner} {'win' if winner.endswith('s') else 'wins'}"


def game_names() -> list[str]:
    return list(_GAMES)


def get_game(name: str) -> Game:
    """The game called `name`; an unknown name is one line listing the known ones."""
    if name not in _GAMES:
        raise SetupError(f"unknown game '{name}'; known games: {', '.join(_GAMES)}")
    return _GAMES[name]()
