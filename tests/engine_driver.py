"""Drive a game's pure engine with scripted answers, collecting its cues (no I/O)."""

from __future__ import annotations

from typing import Any, Iterable

from narrator.cues import Ask, Cue
from narrator.games import get_game
from narrator.settings import build_settings


def configure(game: str = "additional-werewolf", **options: Any):
    rules = get_game(game)
    return rules, rules.configure(build_settings({}, options, "test"))


def run_game(rules, config, answers: Iterable[Any], max_steps: int = 10_000) -> tuple[Any, list[Cue]]:
    """Play to the end; each Ask is answered by the next item of `answers`."""
    answers = iter(answers)
    state = rules.new_state()
    event: dict[str, Any] = {"type": "start"}
    played: list[Cue] = []
    for _ in range(max_steps):
        state, cues = rules.advance(config, state, event)
        played += cues
        if state.finished:
            return state, played
        if cues and isinstance(cues[-1], Ask):
            event = {"type": "answer", "value": next(answers)}
        else:
            event = {"type": "continue"}
    raise AssertionError("game did not end")


def lines(cues: list[Cue]) -> list[str]:
    return [c.line for c in cues if hasattr(c, "line")]
