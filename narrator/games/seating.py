"""What a werewolf-family game's table looks like from outside: its seats, its phase, where
the step stands. The defaults of the game contract (`contract.PhonePlay`, `Game.context`),
kept here so that the rooms outside `games/` never read a config's or a state's fields.

A game of this family has `config.names` (seat order, possibly empty) and `config.players`,
and a state that counts `night` and `day` and says `finished` and `winner`. The contract's
defaults take any game's config and state (`object`) and check for these with the
protocols below, so a game outside the family gets the plain answer, not an error.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from narrator.games.jsonable import Record


@runtime_checkable
class Seated(Protocol):
    """A config that says how many play (every game's with seats)."""

    @property
    def players(self) -> int: ...


@runtime_checkable
class Named(Protocol):
    """A config that names its players in seat order (empty when the table gave none)."""

    @property
    def names(self) -> tuple[str, ...]: ...


@runtime_checkable
class NightsAndDays(Protocol):
    """A state that counts the nights and days played."""

    @property
    def night(self) -> int: ...

    @property
    def day(self) -> int: ...


@runtime_checkable
class Ends(Protocol):
    """A state that says whether the game is over (every game's)."""

    @property
    def finished(self) -> bool: ...


@runtime_checkable
class Counted(NightsAndDays, Ends, Protocol):
    """A werewolf-family state: its nights and days, whether it is over and who won."""

    @property
    def winner(self) -> str | None: ...


def seats_of(config: object) -> tuple[str, ...]:
    """The seats a phone can claim: the table's names, else numbered seats from 1."""
    names = tuple(config.names or ()) if isinstance(config, Named) else ()
    if names or not isinstance(config, Seated):
        return names
    return tuple(str(n) for n in range(1, config.players + 1))


def names_of(config: Named) -> tuple[str, ...]:
    """The players' names in seat order (empty when the table gave none)."""
    return tuple(config.names)


def phase(state: object) -> str:
    """setup (before the first night), night, day or over; a night is open until its day starts."""
    finished = isinstance(state, Ends) and state.finished
    if not isinstance(state, NightsAndDays) or state.night == 0:
        return "over" if finished else "setup"
    if finished:
        return "over"
    return "night" if state.night > state.day else "day"


def night_and_day(state: NightsAndDays) -> Record:
    """The step's context for the transcript and the recap: which night and day it is."""
    return {"night": state.night, "day": state.day}


def night_and_day_facts(config: object, state: object) -> Record:
    """The public facts a phone shows (state None: before the first step)."""
    counted = state if isinstance(state, Counted) else None
    return {
        "phase": phase(state),
        "night": counted.night if counted else 0,
        "day": counted.day if counted else 0,
        "winner": counted.winner if counted else None,
    }


def every_seat(config: object, state: object) -> list[str]:
    """A game in which nobody leaves the table: every seat is in the game."""
    return list(seats_of(config))
