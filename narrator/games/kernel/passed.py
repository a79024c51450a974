"""The night when one device goes round the table (pass-the-device at a terminal, no phones).

Every living player takes the device once a night, in seat order, whatever card they hold:
a hand-over then tells the table nothing, where calling the seer's holder alone would. On
their turn a player sees only their own part of the night on the screen: a choice (the
seer's divination, the wolves' attack, the knight's guard), its private result, their
partners, the medium's result, or that nothing is theirs tonight. Nothing of it is said
aloud; the narrator says only that the device goes round, and when it has. Every holder of
a choosing role chooses; each wolf picks in turn, seeing the picks its pack made before it, and
the pack's victim is the one most picked (a tie: the first picked), as on the phones.

Effects are the calls' own (`calls.perform`) and are judged at morning as on the phones,
so the order of turns changes no result; a file whose night swaps or looks at cards (the
one-night thief and seer) depends on the file's order and is not offered this way
(`offered`).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.cues import Ask, Cue, GameEvent, Private, Say, answered
from narrator.errors import AnswerError
from narrator.games.kernel import calls, variants
from narrator.games.kernel.model import CHOOSING, GameFile, Step
from narrator.games.kernel.state import KConfig, KState

SpecConfig = tuple[GameFile, KConfig]
"""What every kernel step reads besides the state: the game file's rules and the table's setup
(`engine.advance` hands `(spec, config)` to each step, these and the engine's own)."""

ORDERED = ("swap", "look")
"""Actions whose result depends on the calls before them in the file's order."""


def offered(spec: GameFile) -> bool:
    """Whether the device may go round for this file: nights until a win, and no ordered action."""
    return spec.nights == 0 and not any(s.action in ORDERED for s in spec.steps)


def begin(spec: GameFile, config: KConfig, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    """The night's first cues: the round starts with the first living seat."""
    state = replace(state, call=0, turn=0, step="turn")
    return state, cues + [Say("wolf.pass_round")]


def living(config: KConfig, state: KState) -> list[str]:
    return [n for n in config.names if n not in state.dead]


def calls_of(spec: GameFile, config: KConfig, state: KState, player: str) -> list[Step]:
    """Tonight's calls, in the file's order, for the role this player holds."""
    return [s for s in calls.plan(spec, config, state) if player in calls.called(spec, config, state, s)]


def _turn(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """One player's part of the night from call `state.turn` on: up to their next choice.
    Every holder of a choosing role chooses (each seer divines, each knight guards); a wolf
    first sees the picks its pack made before it tonight, and at its first turn of a night
    the victim its pack chose the night before."""
    spec, config = sc
    player = living(config, state)[state.call]
    mine = calls_of(spec, config, state, player)
    cues: list[Cue] = []
    if state.turn == 0 and state.attacked and attacks(spec, config, state, player):
        cues.append(Private(player, "wolf.pack_attacked", {"name": state.attacked}))
    for i in range(state.turn, len(mine)):
        step = mine[i]
        if step.action in CHOOSING:
            choices = calls.choices_for(spec, config, state, step, player)
            if step.action == "attack" and state.picks:
                cues.append(Private(player, "wolf.pack_picks", {"names": list(state.picks)}))
            return replace(state, step="ask_turn", turn=i), cues + [Ask(calls.line(spec, step, "choose"), choices,
                                                                        player=player, silent=True)]
        if step.action == "partners":
            cues.append(calls.partners(config, calls.called(spec, config, state, step), player))
        elif step.action == "medium":
            cues.append(calls.medium(spec, config, state, player))
        elif step.action == "know":
            cues += variants.know(spec, config, state, step, [player])
        elif step.action == "human_hint":
            cues += variants.human_hint(spec, config, state, [player])
    if state.turn == 0 and not cues:
        cues.append(Private(player, "wolf.nothing_tonight"))
    return _next(spec, config, state, cues)


def attacks(spec: GameFile, config: KConfig, state: KState, player: str) -> bool:
    """Whether `player` holds a role whose pack attacks (a wolf)."""
    return any(s.action == "attack" and player in calls.called(spec, config, state, s) for s in spec.steps)


def _answer(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """The choice of the player holding the device, performed at once; its result to them alone
    (a wolf: the pack's victim so far, its picks counted)."""
    spec, config = sc
    player = living(config, state)[state.call]
    step = calls_of(spec, config, state, player)[state.turn]
    value = answered(event)
    target = value[0] if isinstance(value, list) and len(value) == 1 else value
    allowed = calls.choices_for(spec, config, state, step, player)
    if target not in allowed:
        raise AnswerError(calls.NOT_A_CHOICE)
    state, cues = calls.perform(spec, config, state, step, player, target)
    state = calls.remember(config, state, step, {player: target})
    if step.action == "attack":
        cues = [calls.pack_line(player, state.attack)]
    state, rest = _turn(sc, replace(state, turn=state.turn + 1), event)
    return state, cues + rest


def _next(spec: GameFile, config: KConfig, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    """The next living seat's turn, or the morning once the device has gone round."""
    if state.call + 1 < len(living(config, state)):
        return replace(state, step="turn", call=state.call + 1, turn=0), cues
    return replace(state, step="morning", call=0, turn=0), cues + [Say("wolf.round_over")]


STEPS = {"turn": _turn, "ask_turn": _answer}
