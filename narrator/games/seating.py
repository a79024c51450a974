"""What a werewolf-family game's table looks like from outside: its seats, its phase, where
the step stands. The defaults of the game contract (`contract.PhonePlay`, `Game.context`),
kept here so that the rooms outside `games/` never read a config's or a state's fields.

A game of this family has `config.names` (seat order, possibly empty) and `config.players`,
and a state that counts `night` and `day` and says `finished` and `winner`.
"""

from __future__ import annotations

from typing import Any


def seats_of(config: Any) -> tuple[str, ...]:
    """The seats a phone can claim: the table's names, else numbered seats from 1."""
    names = tuple(getattr(config, "names", ()) or ())
    return names or tuple(str(n) for n in range(1, config.players + 1))


def names_of(config: Any) -> tuple[str, ...]:
    """The players' names in seat order (empty when the table gave none)."""
    return tuple(config.names)


def phase(state: Any) -> str:
    """setup (before the first night), night, day or over; a night is open until its day starts."""
    if state is None or getattr(state, "night", 0) == 0:
        return "over" if state is not None and state.finished else "setup"
    if state.finished:
        return "over"
    return "night" if state.night > state.day else "day"


def night_and_day(state: Any) -> dict[str, Any]:
    """The step's context for the transcript and the recap: which night and day it is."""
    return {"night": state.night, "day": state.day}


def night_and_day_facts(config: Any, state: Any) -> dict[str, Any]:
    """The public facts a phone shows (state None: before the first step)."""
    return {
        "phase": phase(state),
        "night": getattr(state, "night", 0),
        "day": getattr(state, "day", 0),
        "winner": getattr(state, "winner", None),
    }


def every_seat(config: Any, state: Any) -> list[str]:
    """A game in which nobody leaves the table: every seat is in the game."""
    return list(seats_of(config))
