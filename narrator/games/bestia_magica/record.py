"""What the table's history keeps of a finished Bestia Magica game.

The narrator dealt every role and attribute, so it knows what each player held (the dealt
role, the role at the end when a reform changed it, the attribute), who won by the role
they counted as at the end check (`vote.winners`), and who was still alive.
"""

from __future__ import annotations

from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState
from narrator.games.bestia_magica.vote import winners
from narrator.games.contract import GameRecord, PlayerRecord


def record(config: BMConfig, state: BMState) -> GameRecord:
    """The contract's `record`: each seat in deal order, and who died when."""
    won = set(winners(config, state, state.winner)) if state.winner else set()
    players: list[PlayerRecord] = []
    for p in state.players:
        dealt = p.dealt_role or p.role
        held = [f"bm.label.{dealt}"] + ([f"bm.label.{p.role}"] if p.role != dealt else []) \
            + [f"bm.label.{p.attribute}"]
        players.append({"name": p.name, "role": f"bm.label.{dealt}", "held": held,
                        "won": p.name in won if state.winner else None, "survived": p.alive})
    return {"players": players, "answers": {"nights": state.night, "days": state.day}}
