"""What the table's history keeps of a finished Additional Werewolf game.

With the physical cards the narrator never sees who holds what, so it keeps only what the
table answered (who was nominated each day, whether a werewolf was found among them) and
says nothing of who won; with digital cards it dealt the cards itself, so it keeps each
seat's role and additional card at the end and who won with them. Nobody leaves the table
in this game, so survival is not known either way (None).
"""

from __future__ import annotations

from narrator.games.additional_werewolf.setup import AWConfig, definition
from narrator.games.additional_werewolf.state import AWState
from narrator.games.contract import GameRecord, PlayerRecord


def won(state: AWState, seat: int, name: str) -> bool:
    """Whether the seat's role card at the end is on the winning team (P-AW-4: the lovers of
    a found werewolf lose)."""
    lover = name in state.losing_lovers if state.losing_lovers else (
        state.lovers_lose and any(name in pair for pair in state.lovers))  # saved before the pairs were kept
    return not lover and definition()["roles"][state.roles_of[seat]]["team"] == state.winner


def record(config: AWConfig, state: AWState) -> GameRecord:
    """The contract's `record`: each named seat, and the table's answers."""
    digital = bool(state.roles_of)
    players: list[PlayerRecord] = []
    for seat, name in enumerate(config.names):
        role = f"label.{state.roles_of[seat]}" if digital else None
        held = [f"label.{state.roles_of[seat]}", f"label.{state.extras_of[seat]}"] if digital else []
        players.append({"name": name, "role": role, "held": held,
                        "won": won(state, seat, name) if digital and state.winner else None, "survived": None})
    nominated = [list(names) for names in state.nominations]
    found = nominated[-1] if state.winner == "citizens" and nominated and not digital else None
    return {"players": players, "answers": {"nominated": nominated, "werewolf_found": state.winner == "citizens",
                                            "found_among": found}}
