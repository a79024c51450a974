"""Tiny Stone's rules: pure, seeded, and small enough to read in one go."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from narrator.cues import Answer, Ask, Countdown, Cue, End, Say, as_event
from narrator.errors import AnswerError, SetupError
from narrator.games.steps import SteppedState, run_step


@dataclass(frozen=True)
class StoneConfig:
    names: tuple[str, ...]
    players: int
    seed: int
    look: int = 3

    def to_dict(self) -> dict[str, Any]:
        return {"names": list(self.names), "players": self.players, "seed": self.seed, "look": self.look}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StoneConfig:
        return cls(tuple(data["names"]), data["players"], data["seed"], data["look"])


@dataclass(frozen=True)
class StoneState(SteppedState):
    step: str = "start"
    night: int = 0
    black: str | None = None
    """Who holds the black stone (known to the game and that player's phone only)."""
    guess: str | None = None
    winner: str | None = None


def configure(settings: Any) -> StoneConfig:
    if settings.options:
        raise SetupError(f"{settings.source}: unknown option '{sorted(settings.options)[0]}' for tiny-stone")
    if not 2 <= len(settings.names) <= 6:
        raise SetupError(f"{settings.source}: tiny-stone is played by 2 to 6 named players; give --names")
    return StoneConfig(settings.names, len(settings.names), settings.seed or 0)


def advance(config: StoneConfig, state: StoneState, event: Any) -> tuple[StoneState, list[Cue]]:
    return run_step(_STEPS, config, state, as_event(event), waiting_for="the seeker's guess")


def recap(config: StoneConfig, state: StoneState) -> list[Cue]:
    return [Say("tiny.recap")]


def _start(config: StoneConfig, state: StoneState, event: Any) -> tuple[StoneState, list[Cue]]:
    black = random.Random(config.seed).choice(config.names[1:])  # never the seeker's own
    return replace(state, step="ask_guess", night=1, black=black), [
        Say("tiny.welcome"), Say("tiny.look"), Countdown(config.look),
        Ask("tiny.guess", config.names, {"seeker": config.names[0]}, player=config.names[0])]


def _guess(config: StoneConfig, state: StoneState, event: Answer) -> tuple[StoneState, list[Cue]]:
    if event.value not in private_choices(config, state, config.names[0], config.names):
        raise AnswerError(f"the seeker names another player, not '{event.value}'")
    winner = "seeker" if event.value == state.black else "stone"
    return replace(state, step="over", guess=event.value, winner=winner), [
        End(f"tiny.{winner}_wins", winner, {"name": state.black})]


_STEPS = {"start": _start, "ask_guess": _guess}


def private_view(config: StoneConfig, state: StoneState, name: str) -> dict[str, Any]:
    """A player's phone shows their own stone, nothing of anyone else's (as a line of the
    pack, which the page shows in its language)."""
    if state.black is None or name not in config.names:
        return {}
    stone = "black" if name == state.black else "white"
    return {"stone": stone, "lines": [(f"tiny.stone.{stone}", {})]}


def private_choices(config: StoneConfig, state: StoneState, name: str, choices: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c for c in choices if c != name)


def table_facts(config: StoneConfig, state: Any) -> dict[str, Any]:
    over = state is not None and state.finished
    return {"phase": "over" if over else "night", "night": getattr(state, "night", 0), "day": 0,
            "winner": getattr(state, "winner", None)}


def phones_required(config: StoneConfig) -> str:
    return "the stones are shown on the players' phones"
