"""A kernel game's config (the table's choices, checked) and state (where the game stands).

Both are frozen and round-trip through JSON, so the store snapshots a step and `resume`
plays it again exactly; the state holds the cards only when they are on the device.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any

from narrator.games.steps import SteppedState
from narrator.games.jsonable import Record

if TYPE_CHECKING:  # the model is the file's; a config only reads its days' seconds
    from narrator.games.kernel.model import GameFile


@dataclass(frozen=True)
class KConfig:
    game: str
    names: tuple[str, ...]
    players: int
    seed: int
    roles: dict[str, int]
    """The set: each role's cards, the centre's included."""
    digital_cards: bool
    """The cards are dealt to the phones; False: physical cards."""
    look: int = 5
    countdown: int = 0
    """Seconds of every night call (0: each step's own `seconds`)."""
    discussion: tuple[int, ...] = ()
    """Seconds of discussion per day, the last repeating (empty: the file's)."""
    warnings: tuple[int, ...] = (60, 10)
    fixed: tuple[str, ...] = ()
    """A scenario's deal (seats, then the centre); empty: shuffled by the seed."""
    lone_look: bool = True
    """Whether a lone wolf may look at one centre card where the file's meeting allows it
    (`Step.lone_look`, one-night's published rule); the table's key `lone_look`."""
    options: tuple[str, ...] = ()
    """The file's house rules (`[options]`) on at this table."""
    first_victim: str = ""
    """The team whose card the first night's victim holds (not a player); "" none."""
    never_out: tuple[str, ...] = ()
    """Roles never dealt to the centre or the first victim."""
    passed: bool = False
    """The cards on one device passed round at the terminal (no phones): each night every
    living player takes it in turn (`passed.py`)."""

    def discussion_for(self, spec: GameFile, day: int) -> int:
        if self.discussion:
            return self.discussion[min(day, len(self.discussion)) - 1]
        return spec.day.seconds(day)

    def to_dict(self) -> Record:
        return {**asdict(self), "names": list(self.names), "discussion": list(self.discussion),
                "warnings": list(self.warnings), "fixed": list(self.fixed), "options": list(self.options),
                "never_out": list(self.never_out)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KConfig:
        data = dict(data)
        for key in ("names", "discussion", "warnings", "fixed", "options", "never_out"):
            data[key] = tuple(data.get(key, ()))
        data["roles"] = {str(k): int(v) for k, v in data["roles"].items()}
        return cls(**data)


@dataclass(frozen=True)
class KState(SteppedState):
    step: str = "start"
    night: int = 0
    day: int = 0
    call: int = 0
    """Tonight's call under way (an index into `engine.plan`; passing the device: the seat's
    turn, an index into the living)."""
    phase: int = 0
    """Today's step under way (an index into the file's `[day] order`)."""
    turn: int = 0
    """Passing the device: the call of the player's own calls tonight under way."""
    cards: tuple[str, ...] = ()
    """Each seat's card now, then the centre's (device only)."""
    first: tuple[str, ...] = ()
    """The cards as dealt: whom a one-night call wakes."""
    dead: tuple[str, ...] = ()
    attack: str | None = None
    """Tonight's victim: the pack's choice (`calls.pack_choice` of `picks`)."""
    picks: tuple[str, ...] = ()
    """Tonight's picks of the pack, in the order its wolves made them (seat order)."""
    attacked: str | None = None
    """Last night's victim chosen by the pack (each wolf learns it; passing the device, at
    their next turn)."""
    guards: tuple[str, ...] = ()
    """Tonight's guarded players (one per knight)."""
    cursed: tuple[str, ...] = ()
    """Tonight's seers who divined a role that curses them (呪狼): they die at morning."""
    tonight: tuple[str, ...] = ()
    previous: tuple[str, ...] = ()
    """The choices of calls that may not repeat (連続ガード禁止), tonight's and last night's, each
    "step:holder:target"."""
    divined: tuple[str, ...] = ()
    executed: tuple[str, ...] = ()
    """Today's executed (yesterday's, at night: the medium's subject)."""
    tied: tuple[str, ...] = ()
    """The tied players of a revote under way."""
    asked: int = 0
    """One night with physical cards: which `found` rule's question is open (the file's order)."""
    winner: str | None = None
    rule: str | None = None
    """The win rule that ended the game (`found`, `parity` …)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KState:
        data = dict(data)
        guard = data.pop("guard", None)  # a game saved when one knight guarded: `guard`, a name
        if guard and not data.get("guards"):
            data["guards"] = [guard]
        tuples = {f.name for f in fields(cls) if str(f.type).startswith("tuple")}
        values: dict[str, Any] = {k: tuple(v) if k in tuples else v for k, v in data.items()}
        return cls(**values)
