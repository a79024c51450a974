"""Bestia Magica on a seat's phone: the player's own role and attribute, and who is alive.

The phone room asks these through the game contract (`PhonePlay`); a view for one player
looks up that player alone, so another player's role can never be in it.
"""

from __future__ import annotations

from narrator.games import seating
from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState
from narrator.games.bestia_magica.vote import winners
from narrator.games.contract import Record


def private_view(config: BMConfig, state: BMState, name: str) -> Record:
    """The player's own card (as the pack's private lines), alive or not, and, once the game
    is over, whether they won (a murderer reformed on the last night follows the house rule)."""
    if not getattr(state, "players", None) or name not in [p.name for p in state.players]:
        return {}
    player = state.player(name)
    view: Record = {
        "role": player.role, "attribute": player.attribute, "alive": player.alive,
        "lines": [(f"bm.private.card.{player.role}", {"name": name}), (f"bm.private.attr.{player.attribute}", {})],
    }
    if state.winner:
        view["won"] = name in winners(config, state, state.winner)
    return view


def alive(config: BMConfig, state: BMState | None) -> list[str]:
    """The players still in the game (every death is announced), every seat before the deal."""
    if state is not None and getattr(state, "players", None):
        return list(state.living_names())
    return seating.every_seat(config, state)
