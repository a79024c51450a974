"""Bestia Magica's game state: players, pending curses and reforms, the night history.

Frozen and JSON-able (`to_dict`/`from_dict` round-trip exactly), so the store can
snapshot it after every step and `narrator resume` rebuilds the same game. No random
state is kept: every random choice is drawn from `random.Random` seeded by the config's
seed and the phase (see `rng`), so replaying the same events gives the same game.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace
from typing import Any, Iterable, TypedDict, Unpack

from narrator.games.bestia_magica.setup import BMConfig, definition
from narrator.games.jsonable import Record


@dataclass(frozen=True)
class Player:
    """One seat. `role` is the current role (a reformed player's is townsperson)."""

    name: str
    role: str
    attribute: str
    alive: bool = True
    dealt_role: str = ""
    reform_pending: bool = False
    """Reformed tonight by the saint; becomes a townsperson when the next night begins."""
    anima_used: bool = False


class PlayerChange(TypedDict, total=False):
    """What a step may change of a `Player` (`BMState.update`): never the name."""

    role: str
    attribute: str
    alive: bool
    dealt_role: str
    reform_pending: bool
    anima_used: bool


@dataclass(frozen=True)
class Curse:
    caster: str
    target: str
    night: int
    due: int
    """The night at whose dawn the curse kills (P-BM-6: night + curse_delay)."""


@dataclass(frozen=True)
class BMState:
    """Where the game stands. `step` names what the next `advance` call plays."""

    step: str = "start"
    night: int = 0
    day: int = 0
    players: tuple[Player, ...] = ()
    curses: tuple[Curse, ...] = ()
    last_protect: tuple[tuple[str, str], ...] = ()
    """(guard, target) protected last night, for the guard_repeat house rule."""
    unreported: tuple[tuple[str, str], ...] = ()
    """(player, role at death) who died since the undertaker's last report."""
    attribute: str | None = None
    """The attribute active for today's first vote: "S", "M" or None."""
    tie: tuple[str, ...] = ()
    history: tuple[dict[str, Any], ...] = ()
    """Every night's memos and every event, for the post-game reveal."""
    winner: str | None = None

    @property
    def finished(self) -> bool:
        return self.step == "over"

    def to_dict(self) -> Record:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BMState:
        data = dict(data)
        data["players"] = tuple(Player(**p) for p in data.get("players", ()))
        data["curses"] = tuple(Curse(**c) for c in data.get("curses", ()))
        data["last_protect"] = tuple(tuple(p) for p in data.get("last_protect", ()))
        data["unreported"] = tuple(tuple(p) for p in data.get("unreported", ()))
        data["tie"] = tuple(data.get("tie", ()))
        data["history"] = tuple(data.get("history", ()))
        return cls(**data)

    # --- queries ---------------------------------------------------------------------------

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def living_names(self) -> list[str]:
        return [p.name for p in self.players if p.alive]

    def dead_names(self) -> list[str]:
        return [p.name for p in self.players if not p.alive]

    def with_players(self, players: Iterable[Player]) -> BMState:
        return replace(self, players=tuple(players))

    def update(self, name: str, **changes: Unpack[PlayerChange]) -> BMState:
        return self.with_players(replace(p, **changes) if p.name == name else p for p in self.players)


def new_state() -> BMState:
    return BMState()


def seat_players(config: BMConfig) -> tuple[Player, ...]:
    return tuple(Player(c.name, c.role, c.attribute, dealt_role=c.role) for c in config.deal)


def role_spec(role: str) -> dict[str, Any]:
    return definition()["roles"][role]


def rng(config: BMConfig, purpose: str, number: int) -> random.Random:
    """A random source for one decision, fixed by the seed, the purpose and the night/day."""
    return random.Random(f"{config.seed}/{purpose}/{number}")
