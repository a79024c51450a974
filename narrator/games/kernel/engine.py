"""The kernel's rules: one pure state machine that plays any game file (`model.GameFile`).

Each call of `advance` plays one step. The night is the file's calls in order (`plan`); a
call wakes a role, lets it act and puts it to sleep. With physical cards the narrator knows
no card: it keeps the time and asks the table what it must (who was executed, what the
cards say). With the cards on the device (phones, or passed round at the terminal) it deals
them, asks each choosing holder privately, performs every action and judges the end itself.
No audio, files or clock; randomness only from the config's seed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from narrator.cues import Answer, Ask, Countdown, CountIn, Cue, Event, GameEvent, Private, Say, Timer, answered
from narrator.errors import AnswerError
from narrator.games import deal as dealing
from narrator.games.kernel import judge, passed
from narrator.games.kernel import variants
from narrator.games.kernel.calls import (
    act, call_round, called, card_line, chosen, line, lone_look, medium, partners, plan,
)
from narrator.games.kernel.model import CHOOSING, GameFile
from narrator.games.kernel.passed import SpecConfig
from narrator.games.kernel.state import KConfig, KState
from narrator.games.steps import run_step
from narrator.games.jsonable import Json

YES_NO = ("yes", "no")
DONE = ("done",)


def advance(spec: GameFile, config: KConfig, state: KState, event: GameEvent | Mapping[str, Json]) -> tuple[KState, list[Cue]]:
    return run_step(_STEPS, (spec, config), state, event)


def recap(spec: GameFile, config: KConfig, state: KState) -> list[Cue]:
    """Said on resume: where the game picks up (at night, everyone closes their eyes again)."""
    if state.night == 0:
        return [Say("wolf.recap_start")]
    if state.night > state.day:
        return [Say("wolf.recap_night", {"night": state.night})]
    return [Say("wolf.recap_day", {"day": state.day})]


# --- steps: each takes ((spec, config), state, event) --------------------------------------

def _start(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    spec, config = sc
    cues: list[Cue] = [Say(f"wolf.welcome.{spec.lines}", {"players": config.players}), *box(spec, config)]
    if not config.digital_cards:
        deal = "wolf.deal_centre" if spec.centre else "wolf.deal"
        cues += [Say(deal, {"n": spec.centre}), Countdown(config.look)]
        return replace(state, step="ask_ready"), cues + [Ask("wolf.ready", DONE)]
    cards = deal_cards(spec, config)
    state = replace(state, step="ask_ready", cards=cards, first=cards)
    cues.append(Say("wolf.deal_device"))
    cues += [Private(name, "wolf.you_are", {"cards": card_line(role)}) for name, role in zip(config.names, cards)]
    return state, cues + [Countdown(config.look), Ask("wolf.ready", DONE)]


def box(spec: GameFile, config: KConfig) -> list[Say]:
    """The set to take out of the box (or dealt on the device), each role with its count."""
    cards = [[f"wolf.card.{r}", n] for r in spec.roles if (n := config.roles.get(r))]
    return [Say("wolf.box", {"cards": cards})]


def deal_cards(spec: GameFile, config: KConfig) -> tuple[str, ...]:
    """Each seat's card, then the centre's: a scenario's fixed deal, else shuffled by the seed."""
    if config.fixed:
        return config.fixed
    (cards,) = dealing.shuffled(f"{config.seed}:deal", dealing.pile(config.roles, spec.roles))
    return variants.deal(spec, config, cards)


def _ready(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    return _night(sc, state, event)


def _night(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    spec, config = sc
    state = replace(state, night=state.night + 1, call=0, attacked=state.attack, attack=None, picks=(), guards=(),
                    divined=(), cursed=(), previous=state.tonight, tonight=())
    if config.passed:  # one device goes round the table: every living player takes it in turn
        return passed.begin(spec, config, state, [Say("wolf.night", {"night": state.night})])
    return _after_call(sc, state, [Say("wolf.night", {"night": state.night})], first=True)


def _call(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """One call: it sounds and lasts the same whoever holds the card (in a hand, the centre or
    dead). With the cards on the device its holders' parts are shown on their screens as it
    begins (partners, the medium's result), and a choosing call's round of private choices
    runs beside its countdown (`calls.call_round`): every holder chooses on their own phone."""
    spec, config = sc
    step = plan(spec, config, state)[state.call]
    cues: list[Cue] = [Say(line(spec, step, "wake"))]
    who = called(spec, config, state, step)
    if config.digital_cards and step.action == "partners":
        cues += [partners(config, who, p) for p in who]
    if config.digital_cards and step.action == "medium":
        cues += [medium(spec, config, state, p) for p in who]
    if config.digital_cards and step.action == "know":
        cues += variants.know(spec, config, state, step, who)
    if config.digital_cards and step.action == "human_hint":
        cues += variants.human_hint(spec, config, state, who)
    choosing = step.action in CHOOSING or lone_look(spec, config, step)
    cues.append(Say(line(spec, step, "choose" if config.digital_cards and step.action in CHOOSING else "act")))
    if lone_look(spec, config, step):
        cues.append(Say("wolf.lone_look"))
    cues.append(Countdown(config.countdown or step.seconds))
    if config.digital_cards and choosing:
        return replace(state, step="ask_choice"), cues + [call_round(spec, config, state, step)]
    return _after_call(sc, state, cues)


def _choice(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """The call's private choices, each holder's performed at once; results to them alone."""
    spec, config = sc
    step = plan(spec, config, state)[state.call]
    state, cues = act(spec, config, state, step, chosen(spec, config, state, step, answered(event)))
    return _after_call(sc, state, cues)


def _after_call(sc: SpecConfig, state: KState, cues: list[Cue], first: bool = False) -> tuple[KState, list[Cue]]:
    spec, config = sc
    if not first:
        cues = cues + [Say("wolf.sleep")]
        state = replace(state, call=state.call + 1)
    step = "call" if state.call < len(plan(spec, config, state)) else "morning"
    return replace(state, step=step), cues


def _morning(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    spec, config = sc
    state = replace(state, day=state.night, step="day", phase=0, executed=())
    return _day(spec, config, state, [Say("wolf.morning", {"day": state.day})])


def _day(spec: GameFile, config: KConfig, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    """The day's steps in the file's order (`[day] order`) from `state.phase` on: the night's
    deaths, an end check, the discussion (a step of its own), the vote; then the night."""
    order = spec.day.order
    while state.phase < len(order):
        kind = order[state.phase]
        if kind == "discussion" and state.step != "discussion":
            return replace(state, step="discussion"), cues  # the timer starts on a step of its own
        state = replace(state, phase=state.phase + 1, step="day")
        if kind == "deaths":
            state, cues = _deaths(spec, config, state, cues)
        elif kind == "check":
            state, cues = _maybe_end(spec, config, state, cues, day_over="vote" in order[:state.phase])
            if state.finished:
                return state, cues
        elif kind == "discussion":
            cues = cues + _discussion_cues(spec, config, state)
        else:  # vote
            return _vote_asked(spec, config, state, cues)
    return replace(state, step="night"), cues


def _deaths(spec: GameFile, config: KConfig, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    dead = judge.night_deaths(spec, config, state)
    victim = config.first_victim and state.night == 1  # 初日犠牲者: the first night's victim, not a player
    if victim:
        cues = cues + [Say("wolf.first_victim_killed"), Event("death", None, "first_victim", night=1)]
    if dead:
        cues = cues + [Say("wolf.killed", {"names": list(dead)})]
        cues += [Event("death", name, "night", night=state.night) for name in dead]
    elif not victim:
        cues = cues + [Say("wolf.no_death")]
    return replace(state, dead=state.dead + dead), cues


def _discussion(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    spec, config = sc
    return _day(spec, config, state, [])


def _discussion_cues(spec: GameFile, config: KConfig, state: KState) -> list[Cue]:
    seconds = config.discussion_for(spec, state.day)
    return [Say("wolf.discussion", {"day": state.day, "seconds": seconds}),
            Timer("discussion", seconds, tuple(w for w in config.warnings if w < seconds)),
            Say("wolf.discussion_end")]


def _vote_asked(spec: GameFile, config: KConfig, state: KState, cues: list[Cue]) -> tuple[KState, list[Cue]]:
    if spec.day.vote == "point":
        cues = cues + [Say("wolf.point"), Ask("wolf.executed_any", YES_NO)]
        return replace(state, step="ask_executed_any"), cues
    alive = tuple(n for n in config.names if n not in state.dead)
    cues = cues + [Say("wolf.vote_call"), CountIn("wolf.count_in")]  # as Additional Werewolf's nomination
    return replace(state, step="ask_vote", tied=()), cues + [Ask("wolf.vote", alive, multiple=True)]


def _executed_any(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """Pointing: was anybody pointed at by two or more players? Nobody was: nobody is executed
    (the published one-night rule: with one finger each, nobody dies)."""
    spec, config = sc
    if _yes(event):
        if config.names:
            return replace(state, step="ask_who", tied=()), [Ask("wolf.who_executed", config.names, multiple=True,
                                                                 most=config.players // 2)]
        return judge.found_question(spec, config, state, 0)
    if config.digital_cards:
        return judge.one_night(spec, config, state, ())
    return judge.peace_question(spec, state, [Say("wolf.nobody_executed")])


def _who(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """Who was pointed at the most (several: all of them, the file's `tie`). Each executed
    player had two fingers or more, so at most half the table can be named."""
    spec, config = sc
    names = _names(config, answered(event), state.tied or config.names)
    if not state.tied and 2 * len(names) > config.players:  # the question refuses it live (`Ask.most`): a log's
        raise AnswerError(f"at most {config.players // 2} of {config.players} can have two fingers or more")
    if len(names) > 1 and spec.day.tie == "revote" and not state.tied:
        return replace(state, tied=names), [Say("wolf.revote", {"names": list(names)}),
                                            Ask("wolf.who_executed", names, multiple=True)]
    if len(names) > 1 and spec.day.tie != "all":
        names = ()  # a tie executes nobody
    state = replace(state, tied=())
    if config.digital_cards:
        return judge.one_night(spec, config, state, names)
    if not names:
        return judge.peace_question(spec, state, [Say("wolf.no_execution")])
    state, cues = judge.found_question(spec, config, replace(state, executed=names), 0)
    return state, [Say("wolf.executed", {"names": list(names)}), *cues]


def _found(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """Physical cards: was a holder of the `found` rule's role among the executed? Each
    `found` rule is asked in the file's order; none: the `otherwise` rule."""
    spec, config = sc
    if _yes(event):
        return judge.told(spec, state, "found", state.asked)
    return judge.found_question(spec, config, state, state.asked + 1)


def _peace(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    spec, _ = sc
    return judge.told(spec, state, "otherwise" if _yes(event) else "peace")


def _vote(sc: SpecConfig, state: KState, event: GameEvent) -> tuple[KState, list[Cue]]:
    """The most votes: one name is executed; a tie is voted again among the tied (the file's
    `tie`), and a tie that stays is nobody (or all of them, `tie = "all"`)."""
    spec, config = sc
    allowed = state.tied or tuple(n for n in config.names if n not in state.dead)
    names = _names(config, answered(event), allowed)
    if len(names) > 1 and spec.day.tie == "revote" and not state.tied:
        return replace(state, tied=names), [Say("wolf.revote", {"names": list(names)}), CountIn("wolf.count_in"),
                                            Ask("wolf.vote", names, multiple=True)]
    if len(names) > 1 and spec.day.tie != "all":
        state = replace(state, tied=(), executed=())
        return _day(spec, config, state, [Say("wolf.no_execution")])
    state = replace(state, tied=(), executed=names, dead=state.dead + names)
    cues: list[Cue] = [Say("wolf.executed", {"names": list(names)})]
    cues += [Event("death", name, "vote", day=state.day) for name in names]
    taken = variants.taken(spec, config, replace(state, dead=state.dead[:-len(names)]), names, "vote")
    if taken:  # a 猫又 takes somebody with it; a 背徳者 follows the fox
        state = replace(state, dead=state.dead + taken)
        cues += [Say("wolf.taken", {"names": list(taken)})]
        cues += [Event("death", name, "taken", day=state.day) for name in taken]
    return _day(spec, config, state, cues)


def _maybe_end(spec: GameFile, config: KConfig, state: KState, cues: list[Cue], day_over: bool = False) -> tuple[KState, list[Cue]]:
    winner = judge.multi_night(spec, config, state, day_over)
    if winner is None:
        return state, cues
    state, cues = judge.finish(state, cues, winner)
    return state, cues + judge.end_reveal(config, state)


def _yes(event: GameEvent) -> bool:
    if not isinstance(event, Answer) or event.value not in YES_NO:
        raise AnswerError(f"expected yes or no, got '{getattr(event, 'value', event)}'")
    return event.value == "yes"


def _names(config: KConfig, value: object, allowed: tuple[str, ...]) -> tuple[str, ...]:
    names = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if not names or any(n not in allowed for n in names):
        raise AnswerError(f"name players among {', '.join(allowed)}, not '{', '.join(map(str, names))}'")
    return tuple(dict.fromkeys(names))


_STEPS = {
    "start": _start, "ask_ready": _ready, "night": _night, "call": _call, "ask_choice": _choice,
    "morning": _morning, "discussion": _discussion, "ask_executed_any": _executed_any, "ask_who": _who,
    "ask_found": _found, "ask_peace": _peace, "ask_vote": _vote,
}
_STEPS.update(passed.STEPS)
