"""What the table's history keeps of a finished game-file game (one-night, werewolf, tabula …).

With the cards on the device (`state.cards`) the narrator knows what each seat was dealt and
holds at the end (`wolf.role.<id>`, the pack's name of the role) and who won by their role's
team; with physical cards it knows only what the table answered. In a game of several nights
it knows who died (the table answers that too); in one night nobody dies.
"""

from __future__ import annotations

from narrator.games.contract import GameRecord, PlayerRecord
from narrator.games.kernel.model import GameFile
from narrator.games.kernel.state import KConfig, KState


def record(spec: GameFile, config: KConfig, state: KState) -> GameRecord:
    """The contract's `record`: each named seat, and the table's answers."""
    known = len(state.cards) >= len(config.names) > 0
    players: list[PlayerRecord] = []
    for seat, name in enumerate(config.names):
        role = state.cards[seat] if known else None
        dealt = state.first[seat] if known and len(state.first) > seat else role
        held = [f"wolf.role.{dealt}"] + ([f"wolf.role.{role}"] if role != dealt else []) if known else []
        players.append({"name": name, "role": f"wolf.role.{role}" if role else None, "held": held,
                        "won": spec.roles[role].team == state.winner if role and state.winner else None,
                        "survived": None if spec.nights == 1 else name not in state.dead})
    return {"players": players, "answers": {"executed": list(state.executed), "dead": list(state.dead),
                                            "rule": state.rule}}
