"""A night call's parts, shared by the calls one by one (`engine`) and the device passed
round (`passed`): who is called tonight, whom a holder may pick, and the effects (look, swap,
divine, attack, guard, the medium's result), each one branch written once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from narrator.cues import Cue, Private
from narrator.games.kernel.model import GameFile, Step
from narrator.games.kernel.state import KConfig, KState

CENTRE = "centre"
NOBODY = "nobody"


def card_line(role: str, n: int = 1) -> list[list[Any]]:
    """A role said by its pack line (`wolf.role.<role>`: 「人狼」), for a `:counted` field."""
    return [[f"wolf.role.{role}", n]]


def line(spec: GameFile, step: Step, part: str) -> str:
    """A call's line: `wolf.call.<step id>.wake|act|choose`, shared by every file with that step."""
    return f"wolf.call.{step.id}.{part}"


def plan(spec: GameFile, config: KConfig, state: KState) -> list[Step]:
    """Tonight's calls in the file's order: its conditions, and the absent policy for a role
    that nobody holds (or only the centre or the dead)."""
    calls = []
    for step in spec.steps:
        if not step.runs_on(state.night) or not config.roles.get(step.role):
            continue
        if holders(spec, config, state, step.role) or step.absent == "call":
            if step.while_ == "alive" and state.cards and not holders(spec, config, state, step.role):
                continue
            calls.append(step)
    return calls


def holders(spec: GameFile, config: KConfig, state: KState, role: str) -> list[str]:
    """Who is called for `role`: on one night, those dealt it; later, the living who hold it.
    Physical cards: unknown, so every role in the set counts as held."""
    if not state.cards:
        return list(config.names) or ["?"]
    cards = state.first if spec.nights == 1 else state.cards
    return [n for n, c in zip(config.names, cards) if c == role and n not in state.dead]


def choices_for(spec: GameFile, config: KConfig, state: KState, step: Step, player: str) -> tuple[str, ...]:
    """Whom a holder may pick: the living, not oneself (unless the file allows it), a wolf
    never its own pack; the one-night seer may look at the centre, the thief may keep his card."""
    alive = [n for n in config.names if n not in state.dead]
    if step.not_self:
        alive = [n for n in alive if n != player]
    if step.action == "attack" and state.cards:
        alive = [n for n in alive if spec.roles[role_of(config, state, n)].seen_as != "werewolf"
                 or spec.roles[role_of(config, state, n)].team != spec.roles[step.role].team]
    extra = (CENTRE,) if step.action == "look" and spec.centre else (NOBODY,) if step.action == "swap" else ()
    return tuple(alive) + extra


def role_of(config: KConfig, state: KState, name: str) -> str:
    return state.cards[config.names.index(name)]


def perform(spec: GameFile, config: KConfig, state: KState, step: Step, player: str, target: str) -> tuple[KState, list[Cue]]:
    """The effects: look, swap, divine, attack, guard (each one branch, written once)."""
    n = len(config.names)
    if step.action == "look" and target == CENTRE:
        return state, [Private(player, "wolf.seen_centre", {"cards": [[f"wolf.role.{c}", 1] for c in state.cards[n:]]})]
    if step.action == "look":
        return state, [Private(player, "wolf.seen_card", {"name": target, "cards": card_line(role_of(config, state, target))})]
    if step.action == "swap":
        if target == NOBODY:
            return state, [Private(player, "wolf.kept_card", {"cards": card_line(role_of(config, state, player))})]
        cards = list(state.cards)
        i, j = config.names.index(player), config.names.index(target)
        cards[i], cards[j] = cards[j], cards[i]
        state = replace(state, cards=tuple(cards))
        return state, [Private(player, "wolf.new_card", {"cards": card_line(cards[i])})]
    if step.action == "divine":
        role = spec.roles[role_of(config, state, target)]
        state = replace(state, divined=state.divined + (target,))
        return state, [Private(player, f"wolf.result.{role.seen_as}", {"name": target})]
    if step.action == "attack":
        return replace(state, attack=target), []
    return replace(state, guard=target), []  # guard


def medium(spec: GameFile, config: KConfig, state: KState, player: str) -> Cue:
    if not state.executed:
        return Private(player, "wolf.result.nobody")
    name = state.executed[-1]
    return Private(player, f"wolf.result.{spec.roles[role_of(config, state, name)].seen_as}", {"name": name})
