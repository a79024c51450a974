"""Drive Bestia Magica's pure engine: answer each `Collect` with a policy, collect every cue.

`play(config, policy)` runs a game to the end; `policy(request, state, rng)` returns one
answer. `answers_jsonl(rounds)` writes the answers given as the JSON Lines a table would
pass with `--answers`, so the same game can be replayed through the real CLI.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from narrator.cues import Collect, Cue, Request
from narrator.games import get_game
from narrator.settings import build_settings

RULES = get_game("bestia-magica")


def configure(**options: Any):
    return RULES.configure(build_settings({}, options, "test"))


def random_policy(request: Request, state: Any, rng: random.Random) -> dict[str, Any]:
    answer: dict[str, Any] = {request.key: rng.choice(request.choices)}
    if request.ability:
        answer["ability"] = rng.random() < 0.3
    return answer


def play(config, policy: Callable[..., dict[str, Any]] = random_policy, seed: int = 0, max_steps: int = 2000,
         check: Callable[[Any, Any, list[Cue]], None] | None = None):
    """Play to the end. Returns (state, cues, rounds) where rounds = [(Collect, answers)]."""
    rng = random.Random(seed)
    state = RULES.new_state()
    event: dict[str, Any] = {"type": "start"}
    played: list[Cue] = []
    rounds: list[tuple[Collect, dict[str, Any]]] = []
    for _ in range(max_steps):
        before = state
        state, cues = RULES.advance(config, state, event)
        if check:
            check(before, state, cues)
        played += cues
        if state.finished:
            return state, played, rounds
        if cues and isinstance(cues[-1], Collect):
            collect = cues[-1]
            answers = {r.player: policy(r, state, rng) for r in collect.requests}
            rounds.append((collect, answers))
            event = {"type": "answer", "value": answers}
        else:
            event = {"type": "continue"}
    raise AssertionError("game did not end")


def answers_jsonl(rounds: list[tuple[Collect, dict[str, Any]]]) -> str:
    lines = []
    for collect, answers in rounds:
        for player, answer in answers.items():
            if collect.phase == "night":
                record = {"night": collect.number, "player": player, **answer}
            else:
                record = {"day": collect.number, "player": player, **answer}
                if collect.phase == "revote":
                    record["revote"] = True
            lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines) + "\n"
