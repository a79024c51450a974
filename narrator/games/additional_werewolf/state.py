"""Where an Additional Werewolf game stands (`AWState`) and the calls of each night.

Kept apart from the steps (`rules.py`) so the state, which the store snapshots and the
phones read, is one short module of its own.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from narrator.games.additional_werewolf.setup import AWConfig, definition
from narrator.games.jsonable import Record


@dataclass(frozen=True)
class AWState:
    """Where the game stands. JSON-able, so the store can snapshot it."""

    step: str = "start"
    night: int = 0
    day: int = 0
    call_index: int = 0
    nominations: tuple[tuple[str, ...], ...] = ()
    """Names nominated on each day so far (empty when names are not configured)."""
    strategists_resolved: int = 0
    winner: str | None = None
    lovers_lose: bool = False
    losing_lovers: tuple[str, ...] = ()
    """Digital cards: the lovers who lose (the pair holding the found werewolf)."""
    # Digital cards only (cards.py); empty when the physical cards are on the table.
    roles_of: tuple[str, ...] = ()
    """Each seat's role card now, in the order of the config's names."""
    extras_of: tuple[str, ...] = ()
    """Each seat's additional card now."""
    memos: tuple[dict[str, Any], ...] = ()
    """What each player has learned privately: {"player", "kind", …facts}."""
    lovers: tuple[tuple[str, str], ...] = ()
    """The pairs of lovers who saw each other on the last night."""
    picks: tuple[str, ...] = ()
    """Choices made so far in a multi-part private action (phantom mage, strategist)."""
    strategist_queue: tuple[str, ...] = ()
    """Nominated strategists still to make their exchange, in seat order."""

    def to_dict(self) -> Record:
        data = asdict(self)
        if not data["losing_lovers"]:  # a field newer than some saved games: their snapshots read back the same
            del data["losing_lovers"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AWState:
        data = dict(data)
        data["nominations"] = tuple(tuple(n) for n in data.get("nominations", ()))
        for key in ("roles_of", "extras_of", "picks", "strategist_queue", "losing_lovers"):
            data[key] = tuple(data.get(key, ()))
        data["memos"] = tuple(dict(m) for m in data.get("memos", ()))
        data["lovers"] = tuple(tuple(p) for p in data.get("lovers", ()))
        return cls(**data)

    @property
    def finished(self) -> bool:
        return self.step == "over"


@dataclass(frozen=True)
class NightCall:
    """One wake-up at night: a card, and which copy of it (1-based) when there are several."""

    card: str
    number: int
    copies: int


def night_plan(config: AWConfig, night: int) -> list[NightCall]:
    """The calls of one night in the table's order: skipped cards, copies one by one."""
    specs = definition()["cards"]
    plan: list[Any] = []
    for card in config.night_order:
        count = config.cards.get(card, 0)
        spec = specs[card]
        if not count or night < spec.get("from_night", 1):
            continue
        calls = count // 2 if spec.get("pair") else count
        plan.extend(NightCall(card, n, calls) for n in range(1, calls + 1))
    return plan


def new_state() -> AWState:
    return AWState()


def plan_text(config: AWConfig) -> list[str]:
    """The night plan `narrator play --dry-run` prints, as a game file's: who wakes on each
    night and for how long, then the day (a table checks its order and countdowns unplayed)."""
    out = []
    for night in range(1, config.days + 1):
        calls = [f"{c.card}{f' {c.number}' if c.copies > 1 else ''} ({config.countdown_for(c.card)} s)"
                 for c in night_plan(config, night)]
        out.append(f"night {night}: " + (", ".join(calls) if calls else "nobody wakes"))
    discussion = f"{config.discussion} s" if config.discussion else "until the table is done"
    out.append(f"day: discussion {discussion}, then the nomination; {config.days} days")
    return out
