"""The step dispatch every game's `advance` shares.

A game is a table of named steps; `advance` runs the one the state points at. Steps
named `ask_*` wait for an answer, so any other event there is a caller's bug reported
in one line rather than a silent misstep.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Callable, Mapping, Protocol, Self, TypeVar

from narrator.cues import Answer, as_event, Cue, GameEvent
from narrator.errors import AnswerError
from narrator.games.jsonable import Json, Record


class Stepped(Protocol):
    """A state `run_step` can dispatch on: the step it names, and whether the game is over."""

    @property
    def step(self) -> str: ...

    @property
    def finished(self) -> bool: ...


Cf = TypeVar("Cf")
"""What a game's step handlers read besides the state: its config (the kernel: its file and config)."""
St = TypeVar("St", bound=Stepped)
"""A game's own state."""

Step = Callable[[Cf, St, GameEvent], tuple[St, list[Cue]]]
"""One named step of a game: (config, state, event) -> (state, cues)."""


def run_step(steps: Mapping[str, Step[Cf, St]], config: Cf, state: St, event: GameEvent | Mapping[str, Json],
             waiting_for: str = "an answer") -> tuple[St, list[Cue]]:
    """Run the step `state.step` names; a finished game takes no more steps.

    `event` may come as its log record (a dict); the step handlers see it typed."""
    event = as_event(event)
    if state.finished:
        return state, []
    handler = steps.get(state.step)
    if handler is None:
        raise ValueError(f"unknown step {state.step!r}")
    if state.step.startswith("ask_") and not isinstance(event, Answer):
        raise AnswerError(f"the game is waiting for {waiting_for} ({state.step[4:]}), not '{event.type}'")
    return handler(config, state, event)


class SteppedState:
    """The JSON round trip and the end of a state kept as a frozen dataclass whose `step`
    names what `advance` plays next ("over" once the game has ended): a base for a new game's
    state, so that the store can snapshot it and `resume` read it back."""

    step: str

    @property
    def finished(self) -> bool:
        return self.step == "over"

    def to_dict(self) -> Record:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(**data)
