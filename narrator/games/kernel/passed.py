"""The night when one device goes round the table (pass-the-device at a terminal, no phones).

Every living player takes the device once a night, in seat order, whatever card they hold:
a hand-over then tells the table nothing, where calling the seer's holder alone would. On
their turn a player sees only their own part of the night on the screen: a choice (the
seer's divination, the wolves' attack, the knight's guard), its private result, their
partners, the medium's result, or that nothing is theirs tonight. Nothing of it is said
aloud; the narrator says only that the device goes round, and when it has. The first
seated living wolf chooses for the pack, as on the phones.

Effects are the calls' own (`calls.perform`) and are judged at morning as on the phones,
so the order of turns changes no result; a file whose night swaps or looks at cards (the
one-night thief and seer) depends on the file's order and is not offered this way
(`offered`).
"""

from __future__ import annotations

from dataclasses import replace

from narrator.cues import Ask, Cue, GameEvent, Private, Say
from narrator.errors import AnswerError
from narrator.games.kernel import calls
from narrator.games.kernel.model import CHOOSING, GameFile, Step
from narrator.games.kernel.state import KConfig, KState

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
    return [s for s in calls.plan(spec, config, state) if player in calls.holders(spec, config, state, s.role)]


def _turn(sc: tuple, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """One player's part of the night from call `state.turn` on: up to their next choice."""
    spec, config = sc
    player = living(config, state)[state.call]
    mine = calls_of(spec, config, state, player)
    cues: list[Cue] = []
    for i in range(state.turn, len(mine)):
        step = mine[i]
        if step.action in CHOOSING and calls.holders(spec, config, state, step.role)[0] == player:
            choices = calls.choices_for(spec, config, state, step, player)
            return replace(state, step="ask_turn", turn=i), cues + [Ask(calls.line(spec, step, "choose"), choices,
                                                                        player=player)]
        if step.action == "partners":
            who = calls.holders(spec, config, state, step.role)
            cues.append(Private(player, "wolf.partners", {"names": [o for o in who if o != player]}) if len(who) > 1
                        else Private(player, "wolf.alone"))
        elif step.action == "medium":
            cues.append(calls.medium(spec, config, state, player))
    if state.turn == 0 and not cues:
        cues.append(Private(player, "wolf.nothing_tonight"))
    return _next(spec, config, state, cues)


def _answer(sc: tuple, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """The choice of the player holding the device, performed at once; its result to them alone."""
    spec, config = sc
    player = living(config, state)[state.call]
    step = calls_of(spec, config, state, player)[state.turn]
    target = event.value[0] if isinstance(event.value, list) and len(event.value) == 1 else event.value
    allowed = calls.choices_for(spec, config, state, step, player)
    if target not in allowed:
        raise AnswerError(f"{step.id} picks one of {', '.join(allowed)}, not '{target}'")
    state, cues = calls.perform(spec, config, state, step, player, target)
    state, rest = _turn(sc, replace(state, turn=state.turn + 1), event)
    return state, cues + rest


def _next(spec: GameFile, config: KConfig, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    """The next living seat's turn, or the morning once the device has gone round."""
    if state.call + 1 < len(living(config, state)):
        return replace(state, step="turn", call=state.call + 1, turn=0), cues
    return replace(state, step="morning", call=0, turn=0), cues + [Say("wolf.round_over")]


STEPS = {"turn": _turn, "ask_turn": _answer}
