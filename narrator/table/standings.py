"""The standings: the history's records added up per player, and the evening's winners.

A win counts only where the narrator knew it (digital cards, Bestia Magica); with the
physical cards on the table it never learns who was on the winning side, so such a game
counts as played but not in the win rate (`decided`). The same holds for survival. What a
player held is a line id of the game's pack (`label.werewolf`), named in the table's language
by whoever shows it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from narrator.table.forget import player_key, shown_name

MOST_ROLES = 2
"""How many of a player's most held roles are shown."""


@dataclass
class Standing:
    """One player's line of the standings."""

    name: str
    games: int = 0
    wins: int = 0
    decided: int = 0
    """Games whose winners the narrator knew (the win rate's denominator)."""
    survived: int = 0
    survival_known: int = 0
    roles: Counter[str] = field(default_factory=Counter)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.decided if self.decided else None

    def most_held(self) -> list[tuple[str, int]]:
        return self.roles.most_common(MOST_ROLES)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "wins": self.wins, "decided": self.decided,
                "win_rate": None if self.win_rate is None else round(self.win_rate, 4),
                "roles": [{"role": role, "times": n} for role, n in self.most_held()],
                "survived": self.survived, "survival_known": self.survival_known}


def select(records: Iterable[dict[str, Any]], game: str | None = None, since: str | None = None,
           until: str | None = None, player: str | None = None) -> list[dict[str, Any]]:
    """The records of one game, from `since` to `until` (dates, both included), with `player`."""
    out = []
    for record in records:
        day = record["date"][:10]
        if game and record["game"] != game or since and day < since or until and day > until:
            continue
        if player and not any(player_key(p["name"]) == player_key(player) for p in record["players"]):
            continue
        out.append(record)
    return out


def standings(records: Iterable[dict[str, Any]], player: str | None = None) -> list[Standing]:
    """Each player's standing (only `player`'s when given), most wins first."""
    table: dict[str, Standing] = {}
    for record in records:
        for p in record["players"]:
            key = player_key(p["name"])
            if player and key != player_key(player):
                continue
            row = table.setdefault(key, Standing(shown_name(p["name"])))
            row.name = shown_name(p["name"])  # the latest spelling
            row.games += 1
            if p.get("won") is not None:
                row.decided += 1
                row.wins += bool(p["won"])
            if p.get("survived") is not None:
                row.survival_known += 1
                row.survived += bool(p["survived"])
            if p.get("role"):
                row.roles[p["role"]] += 1
    return sorted(table.values(), key=lambda r: (-r.wins, -(r.win_rate or 0), -r.games, player_key(r.name)))


def evening_winners(records: Iterable[dict[str, Any]], day: str) -> list[str]:
    """Who won games begun on `day` (a date), most wins first; empty when nobody is known to."""
    wins: Counter[str] = Counter()
    names: dict[str, str] = {}
    for record in records:
        if record["date"][:10] != day:
            continue
        for p in record["players"]:
            if p.get("won"):
                key = player_key(p["name"])
                wins[key] += 1
                names[key] = shown_name(p["name"])
    return [names[key] for key, _ in sorted(wins.items(), key=lambda kv: (-kv[1], kv[0]))]
