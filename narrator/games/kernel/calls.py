"""A night call's parts, shared by the calls one by one (`engine`) and the device passed
round (`passed`): who is called tonight, whom a holder may pick, the call's round of private
choices, and the effects (look, swap, divine, attack, guard, the medium's result), each one
branch written once.

Every holder of a choosing role acts: each seer divines, each knight guards, each thief
swaps; the wolves' picks make one victim for the pack (`pack_choice`), which every wolf is
shown. A call sounds and lasts the same whoever holds its card, in a hand, in the centre or
dead: on the phones its round (`Collect.call`) is open for the call's countdown whether or
not anybody is asked in it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Mapping

from narrator.cues import Collect, Cue, Private, Request
from narrator.errors import AnswerError
from narrator.games import deal as dealing
from narrator.games.kernel import variants
from narrator.games.kernel.model import CHOOSING, GameFile, Step
from narrator.games.kernel.state import KConfig, KState

CENTRE = "centre"
NOBODY = "nobody"
NOT_A_CHOICE = "not a choice of this night call"
"""A night choice refused: it names neither the call, the holder nor the choices (a terminal or a
resume's error is read by the whole table, and each of them tells whose card it is)."""
CALL_PHASE = "call"
"""The phase of a night call's round (`Collect.phase`; a JSON Lines script keys it by night)."""


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
        if not step.runs_on(state.night) or not in_set(spec, config, step) or not step.enabled(config.options):
            continue
        if called(spec, config, state, step) or step.absent == "call":
            if step.while_ == "alive" and state.cards and not called(spec, config, state, step):
                continue
            calls.append(step)
    return calls


def holders(spec: GameFile, config: KConfig, state: KState, role: str) -> list[str]:
    """Who is called for `role`: on one night, those dealt it; later, the living who hold it.
    Physical cards: unknown, so every role in the set counts as held."""
    if not state.cards:
        return list(config.names) or ["?"]
    cards = state.first if spec.nights == 1 else state.cards
    return dealing.holders(config.names, cards, role, out=state.dead)


def in_set(spec: GameFile, config: KConfig, step: Step) -> bool:
    """Whether a call's role is in the table's set (the wolves' meeting and attack: any wolf of the
    pack, so a set whose only wolf is a 呪狼 or a 白狼 still wakes it)."""
    roles = variants.pack_roles(spec, step.role) if step.action in ("partners", "attack") else (step.role,)
    return any(config.roles.get(r) for r in roles)


def called(spec: GameFile, config: KConfig, state: KState, step: Step) -> list[str]:
    """Who wakes at this call: its role's holders, and at the wolves' meeting and attack every
    wolf of the pack (`variants.pack_roles`: a 白狼 too), in seat order."""
    if step.action not in ("partners", "attack"):
        return holders(spec, config, state, step.role)
    roles = variants.pack_roles(spec, step.role)
    if not state.cards:
        return holders(spec, config, state, step.role)
    cards = state.first if spec.nights == 1 else state.cards
    return [n for n, c in zip(config.names, cards) if c in roles and n not in state.dead]


def lone_look(spec: GameFile, config: KConfig, step: Step) -> bool:
    """Whether this meeting lets a lone holder look at one centre card (one-night's wolf)."""
    return step.action == "partners" and step.lone_look and config.lone_look and spec.centre > 0


def centre_choices(spec: GameFile) -> tuple[str, ...]:
    """A lone wolf's choice: one of the centre cards, by place (`centre1`, `centre2` …)."""
    return tuple(f"{CENTRE}{k}" for k in range(1, spec.centre + 1))


def choices_for(spec: GameFile, config: KConfig, state: KState, step: Step, player: str) -> tuple[str, ...]:
    """Whom a holder may pick: the living, not oneself (unless the file allows it), a wolf
    never its own pack; the one-night seer may look at the centre, the thief may keep his card."""
    if step.action == "partners":  # a lone wolf's look (`lone_look`)
        return centre_choices(spec)
    alive = [n for n in config.names if n not in state.dead]
    if step.not_self:
        alive = [n for n in alive if n != player]
    if step.action == "attack" and state.cards:  # never its own pack, whatever the seer sees (白狼)
        alive = [n for n in alive if not variants.in_pack(spec, step.role, role_of(config, state, n))]
    if step.repeats_barred(config.options):  # 連続ガード禁止: not last night's pick again
        alive = [n for n in alive if f"{step.id}:{player}:{n}" not in state.previous]
    extra = (CENTRE,) if step.action == "look" and spec.centre else (NOBODY,) if step.action == "swap" else ()
    return tuple(alive) + extra


def asked(spec: GameFile, config: KConfig, state: KState, step: Step) -> list[str]:
    """Who chooses in this call: every holder of a choosing role; at a meeting with
    `lone_look`, the one holder when alone (none when the pack has company, or is all in the centre)."""
    who = called(spec, config, state, step) if state.cards else []
    if step.action == "partners":
        return who if lone_look(spec, config, step) and len(who) == 1 else []
    return who if step.action in CHOOSING else []


def call_round(spec: GameFile, config: KConfig, state: KState, step: Step) -> Collect:
    """The call's round of private choices, one request per holder asked (none: the card is
    in the centre, dead, or in nobody's hand; the round is still open for the call's time)."""
    prompt = "wolf.lone_choose" if step.action == "partners" else line(spec, step, "choose")
    requests = tuple(Request(p, prompt, choices_for(spec, config, state, step, p))
                     for p in asked(spec, config, state, step))
    return Collect(CALL_PHASE, state.night, requests, closes_with_timer=True, seats=config.names, call=True)


def chosen(spec: GameFile, config: KConfig, state: KState, step: Step, value: object) -> dict[str, str]:
    """The round's answers as {holder: choice}, each checked against what that holder may pick.

    `value` is the round's `{player: {"target": name}}`; a plain name or a list of one (a
    game saved before each holder chose) is the first holder's choice."""
    who = asked(spec, config, state, step)
    if not isinstance(value, Mapping):
        value = {who[0]: {"target": value}} if who and value not in (None, [], "") else {}
    out: dict[str, str] = {}
    for player, answer in value.items():
        target = answer.get("target") if isinstance(answer, Mapping) else answer
        if isinstance(target, list) and len(target) == 1:
            target = target[0]
        if player not in who or target not in choices_for(spec, config, state, step, player):
            raise AnswerError(NOT_A_CHOICE)
        out[player] = target
    return {p: out[p] for p in who if p in out}


def act(spec: GameFile, config: KConfig, state: KState, step: Step, choices: dict[str, str]) -> tuple[KState, list[Cue]]:
    """Every holder's choice performed, in seat order; a holder the call's time ran out on is
    told so. The wolves' picks make the pack's one victim, shown to every wolf."""
    cues: list[Cue] = []
    who = asked(spec, config, state, step)
    if step.action == "attack":
        state = replace(state, picks=state.picks + tuple(choices[p] for p in who if p in choices))
        state = replace(state, attack=pack_choice(state.picks))
        state = remember(config, state, step, {p: t for p, t in choices.items()})
        return state, [pack_line(p, state.attack) for p in called(spec, config, state, step)]
    for player in who:
        if player in choices:
            state, shown = perform(spec, config, state, step, player, choices[player])
            cues += shown
        else:
            cues.append(Private(player, "wolf.too_late"))
    return remember(config, state, step, choices), cues


def remember(config: KConfig, state: KState, step: Step, choices: dict[str, str]) -> KState:
    """Tonight's picks of a call that may not repeat them tomorrow (連続ガード禁止)."""
    if not step.repeats_barred(config.options):
        return state
    return replace(state, tonight=state.tonight + tuple(f"{step.id}:{p}:{t}" for p, t in choices.items()))


def pack_choice(picks: tuple[str, ...]) -> str | None:
    """The pack's victim: the player most of its wolves picked; a tie goes to the one picked
    first (by the first seated wolf who picked one of them)."""
    if not picks:
        return None
    counts = Counter(picks)
    most = max(counts.values())
    return next(p for p in picks if counts[p] == most)


def pack_line(wolf: str, victim: str | None) -> Private:
    return Private(wolf, "wolf.pack_victim", {"name": victim}) if victim else Private(wolf, "wolf.pack_none")


def role_of(config: KConfig, state: KState, name: str) -> str:
    return state.cards[config.names.index(name)]


def perform(spec: GameFile, config: KConfig, state: KState, step: Step, player: str, target: str) -> tuple[KState, list[Cue]]:
    """The effects: look, swap, divine, guard, a lone wolf's look (each one branch, written
    once); the pack's attack is `act`'s (its wolves choose together)."""
    centre = variants.centre_cards(spec, config, state)
    if step.action == "partners":  # a lone wolf looks at one centre card
        k = int(target[len(CENTRE):])
        return state, [Private(player, "wolf.seen_centre_one", {"n": k, "cards": card_line(centre[k - 1])})]
    if step.action == "look" and target == CENTRE:
        return state, [Private(player, "wolf.seen_centre", {"cards": [[f"wolf.role.{c}", 1] for c in centre]})]
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
        state = replace(state, divined=state.divined + (target,), cursed=state.cursed + ((player,) if role.curses_seer else ()))
        return state, [Private(player, f"wolf.result.{role.seen_as}", {"name": target})]
    if step.action == "attack":  # one wolf's pick on the passed device: the pack's victim so far
        state = replace(state, picks=state.picks + (target,))
        return replace(state, attack=pack_choice(state.picks)), []
    return replace(state, guards=state.guards + (target,)), []  # guard


def partners(config: KConfig, who: list[str], player: str) -> Private:
    """A meeting's line for one holder: the others' names, or that they are alone."""
    return Private(player, "wolf.partners", {"names": [o for o in who if o != player]}) if len(who) > 1 \
        else Private(player, "wolf.alone")


def medium(spec: GameFile, config: KConfig, state: KState, player: str) -> Cue:
    if not state.executed:
        return Private(player, "wolf.result.nobody")
    name = state.executed[-1]
    return Private(player, f"wolf.result.{spec.roles[role_of(config, state, name)].seen_as}", {"name": name})
