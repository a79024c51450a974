"""Additional Werewolf's rules as a pure state machine: `advance(config, state, event)`.

The physical cards stay on the table, so the narrator never knows who holds what: it
calls the night order, keeps the timers, asks what a GM would ask (who was nominated,
was a werewolf among them, does a nominee hold the strategist) and judges the end from
the answers. No audio, files or clock here; a whole game runs in a test in milliseconds.

Each call of `advance` plays one *step* and returns its cues. A step that ends with an
`Ask` waits for an `answer` event; any other step is followed by a `continue` event.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from narrator.cues import Ask, Continue, Countdown, CountIn, Cue, End, GameEvent, Say, Timer, answered
from narrator.errors import AnswerError
from narrator.games.additional_werewolf import cards as digital
from narrator.games.additional_werewolf.box import box_cues
from narrator.games.additional_werewolf.setup import AWConfig, definition
from narrator.games.additional_werewolf.state import AWState, NightCall, new_state, night_plan  # noqa: F401 (the game's names)
from narrator.games.steps import run_step
from narrator.games.jsonable import Json

YES_NO = ("yes", "no")
DONE = ("done",)


def advance(config: AWConfig, state: AWState, event: GameEvent | Mapping[str, Json]) -> tuple[AWState, list[Cue]]:
    """Play one step: consume `event` and return the new state and the step's cues."""
    return run_step(_STEPS, config, state, event)


def recap(config: AWConfig, state: AWState) -> list[Cue]:
    """A short line said on resume, so the table knows where the game picks up.

    At night everyone is told to lower their head again (some looked up when it stopped).
    The step played again is the one that made `state`: at `night_check` that is a swap
    call, which the holder may already have done, so they are told not to swap twice.
    """
    if state.night == 0:
        return [Say("resume.recap_start")]
    if state.night > state.day:
        if _made_by_check(config, state):  # the check again: heads up, not 「顔を伏せてください」 first
            return [Say("resume.recap_check", {"night": state.night})]
        cues: list[Cue] = [Say("resume.recap_night", {"night": state.night})]
        if state.step == "night_check" and not config.digital_cards:
            card = night_plan(config, state.night)[state.call_index].card
            cues.append(Say(f"{card}.resume_once"))
        return cues
    return [Say("resume.recap_day", {"day": state.day})]


def _made_by_check(config: AWConfig, state: AWState) -> bool:
    """Whether the step that made `state` was a role check: every swap call is followed by one."""
    index = state.call_index - 1
    plan = night_plan(config, state.night)
    return state.step in ("night_call", "night_end") and 0 <= index < len(plan) and bool(
        definition()["cards"][plan[index].card].get("swaps"))


# --- steps ---------------------------------------------------------------------------------

def _start(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    if config.digital_cards:
        cues: list[Cue] = [
            Say("setup.welcome", {"players": config.players, "days": config.days}),
            *box_cues(config),
            Say("setup.deal_digital"),
            Countdown(config.look),
            Ask("setup.ready", ("done",)),
        ]
        return replace(digital.deal(config, state), step="ask_ready"), cues
    if not config.wait_for_cards:  # a game saved before the wait: deal at once, as it was played
        return replace(state, step="ask_ready"), [
            Say("setup.welcome", {"players": config.players, "days": config.days}), *box_cues(config),
            Say("setup.deal"), Countdown(config.look), Say("setup.place"), Ask("setup.ready", ("done",))]
    # Taking 12 cards out of the box and shuffling them takes minutes: wait for done after the
    # card list (which `repeat` then says again, as the question's instruction), then deal.
    cues = [
        Say("setup.welcome", {"players": config.players, "days": config.days}),
        *box_cues(config),
        Ask("setup.ready", ("done",)),
    ]
    return replace(state, step="ask_boxed"), cues


def _boxed(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    """The cards are out: deal, look, place the role card face down (still before the night:
    a step of its own, so the night's ambience and context begin after it)."""
    return replace(state, step="dealt"), [Say("setup.deal"), Say("setup.place"), Countdown(config.look)]


def _ready(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    return _begin_night(config, state)


def _begin_night(config: AWConfig, state: AWState) -> tuple[AWState, list[Cue]]:
    night = state.night + 1
    cues: list[Cue] = [Say("night.begin", {"night": night})]
    step = "night_call" if night_plan(config, night) else "night_end"
    return replace(state, step=step, night=night, call_index=0), cues


def _night_call(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    plan = night_plan(config, state.night)
    call = plan[state.call_index]
    card = call.card
    cues: list[Cue] = []
    if call.copies > 1:
        cues.append(Say(f"{card}.wake_numbered", {"n": call.number}))
    else:
        cues.append(Say(f"{card}.wake"))
    if config.digital_cards:
        state, more, waiting = digital.night_call(config, state, card, call.number)
        if waiting:
            return replace(state, step=waiting), cues + more
        state, after = _finish_call(config, state)
        return state, cues + more + after
    nominees = list(_yesterdays_nominees(state)) if card == "medium" else []
    if len(nominees) == 1:
        cues.append(Say("medium.act_name", {"names": nominees}))
    elif nominees:
        cues.append(Say("medium.act_names", {"names": nominees}))
    else:
        cues.append(Say(f"{card}.act"))
    cues.append(Countdown(config.countdown_for(card)))
    state, after = _finish_call(config, state)
    return state, cues + after


def _finish_call(config: AWConfig, state: AWState) -> tuple[AWState, list[Cue]]:
    """Sleep; after a swap card the role check is a step of its own (P-AW-1), so a game
    resumed after the swap plays the check, not the swap, again. The swapper is not told to
    lower their face first: the check raises everyone's at once and ends with the one
    「顔を下ろしてください」 (said twice around the check, it was heard as a mistake)."""
    card = night_plan(config, state.night)[state.call_index].card
    if definition()["cards"][card].get("swaps"):
        return replace(state, step="night_check"), []
    return _next_call(config, state, [Say("night.sleep")])


def _night_check(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    """Everyone looks at their own role card and puts it back (「元に戻します」), then sleeps."""
    if config.digital_cards:
        cues: list[Cue] = [Say("night.check_phone"), Countdown(config.check_role)]
    else:
        cues = [Say("night.check_role"), Countdown(config.check_role), Say("night.put_back")]
    return _next_call(config, state, cues + [Say("night.sleep")])


def _next_call(config: AWConfig, state: AWState, cues: list[Cue]) -> tuple[AWState, list[Cue]]:
    index = state.call_index + 1
    step = "night_call" if index < len(night_plan(config, state.night)) else "night_end"
    return replace(state, step=step, call_index=index), cues


def _night_choice(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    """A night card holder answered on their phone (digital cards)."""
    call = night_plan(config, state.night)[state.call_index]
    player = digital.holders(config, state, call.card)[call.number - 1]
    state, cues, finished = digital.night_answer(config, state, player, answered(event))
    if not finished:
        return state, cues
    state, after = _finish_call(config, state)
    return state, cues + after


def _yesterdays_nominees(state: AWState) -> tuple[str, ...]:
    day = state.night - 1
    if 1 <= day <= len(state.nominations):
        return state.nominations[day - 1]
    return ()


def _night_end(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    day = state.night
    return replace(state, step="discussion", day=day, strategists_resolved=0), [Say("night.end", {"day": day})]


def _discussion(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    last = "_last" if state.day >= config.days else ""  # the last day says it is the last discussion
    if not config.discussion:  # 「納得がいくまで」: no clock, the table says when it is done
        params = {"day": state.day} if last else {"day": state.day, "days": config.days}
        cues: list[Cue] = [Say(f"day.discussion_open{last}", params), Ask("setup.ready", DONE)]
        return replace(state, step="ask_discussed"), cues
    params = {"day": state.day, "seconds": config.discussion} | ({} if last else {"days": config.days})
    cues = [
        Say(f"day.discussion{last}", params),
        Timer("discussion", config.discussion, tuple(w for w in config.warnings if w < config.discussion)),
        Say("day.discussion_end"),
    ]
    return replace(state, step="nomination"), cues


def _nomination(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    cues: list[Cue] = [Say("nomination.ready"), CountIn("nomination.count_in")]
    if config.names:
        cues.append(Ask("nomination.who", tuple(config.names), multiple=True))
        return replace(state, step="ask_nominated"), cues
    if config.point:  # fingers still up: let the table count them before anyone declares
        cues.append(Timer("point", config.point))
    cues += [Say("nomination.declare"), Ask("nomination.werewolf_found", YES_NO, ends_game=_ends(config, state, found=True))]
    return replace(state, step="ask_werewolf"), cues


def _nominated(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    names = _names_answer(config, answered(event))
    state = replace(state, nominations=state.nominations + (names,), step="ask_werewolf")
    if config.digital_cards:
        return _judge_nominees(config, state, names)
    cues: list[Cue] = [
        Say("nomination.declare_names", {"names": list(names)}),
        Ask("nomination.werewolf_found", YES_NO, ends_game=_ends(config, state, found=True)),
    ]
    return state, cues


def _werewolf_answer(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    if _yes(event):
        flip: list[Cue] = [Say("nomination.flip")]  # 「人狼です」と答えて、カードを表向きにして
        if config.in_play("lovers"):
            return replace(state, step="ask_lovers"), flip + [Ask("end.lovers_question", YES_NO, ends_game=YES_NO)]
        state, cues = _end(state, "citizens", lovers_lose=False)
        return state, flip + cues
    if config.in_play("strategist"):
        return replace(state, step="ask_strategist"), [Ask("strategist.question", YES_NO, ends_game=_ends(config, state))]
    return _after_nomination(config, state)


def _judge_nominees(config: AWConfig, state: AWState, names: tuple[str, ...]) -> tuple[AWState, list[Cue]]:
    """Digital cards: the narrator knows the nominees' role cards and judges them itself."""
    found = digital.werewolves_among(config, state, names)
    if found:
        losers = digital.losing_lovers(state, found)
        state, end = _end(replace(state, losing_lovers=losers), "citizens", lovers_lose=bool(losers))
        return state, [Say("nomination.found_digital", {"names": found})] + end
    cues: list[Cue] = [Say("nomination.none_digital", {"names": list(names)})]
    queue = digital.strategists_among(config, state, names)
    if queue:
        state, more = digital.strategist_begin(config, replace(state, strategist_queue=queue))
        return state, cues + more
    state, more = _after_nomination(config, state)
    return state, cues + more


def _strategist_choice(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    """One of a nominated strategist's private choices (digital cards)."""
    state, cues, finished = digital.strategist_answer(config, state, answered(event))
    if not finished:
        return state, cues
    if state.strategist_queue:
        state, more = digital.strategist_begin(config, state)
        return state, cues + more
    state, more = _after_nomination(config, state)
    return state, cues + more


def _lovers_answer(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    return _end(state, "citizens", lovers_lose=_yes(event))


def _strategist_answer(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    if not _yes(event):
        return _after_nomination(config, state)
    cues: list[Cue] = [Say("strategist.reveal"), Say("strategist.exchange")]
    if not config.strategist:  # hands are busy: wait until the three cards are handed back
        return replace(state, step="ask_exchanged"), cues + [Ask("setup.ready", DONE)]
    state, more = _exchanged(config, state, Continue())
    return state, cues + [Countdown(config.strategist)] + more


def _exchanged(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    """The three look at their new role card and place it again; then the next strategist."""
    last_day = state.day >= config.days
    cues: list[Cue] = [
        Say("strategist.check"),
        Countdown(config.check_role),
        Say("strategist.place"),
        Say("strategist.done_last" if last_day else "strategist.done"),
    ]
    resolved = state.strategists_resolved + 1
    state = replace(state, strategists_resolved=resolved)
    nominees = len(state.nominations[-1]) if config.names and state.nominations else config.cards["strategist"]
    if resolved < min(config.cards["strategist"], nominees):
        return replace(state, step="ask_strategist"), cues + [Ask("strategist.another", YES_NO, ends_game=_ends(config, state))]
    state, more = _after_nomination(config, state)
    return state, cues + more


def _ends(config: AWConfig, state: AWState, found: bool = False) -> tuple[str, ...]:
    """The answers that end the game (`Ask.ends_game`): 「人狼は見つかりましたか」's yes (unless the
    lovers are asked next), and a no on the last day (unless a strategist may still be asked)."""
    last = ("no",) if state.day >= config.days and not (found and config.in_play("strategist")) else ()
    return (("yes",) if found and not config.in_play("lovers") else ()) + last


def _after_nomination(config: AWConfig, state: AWState) -> tuple[AWState, list[Cue]]:
    """No werewolf today: the game ends after the last day, else the cards are redealt."""
    if state.day >= config.days:  # nobody knows who was a citizen after the swaps: all cards face up
        state, cues = _end(state, "werewolves", lovers_lose=False)
        reveal = [] if config.digital_cards else [Say("end.reveal_cards")]
        return state, [Say("end.no_werewolf", {"days": config.days}), *reveal] + cues
    if config.digital_cards:
        state = digital.redeal(config, state)
        return replace(state, step="redealt"), [Say("redeal.digital"), Countdown(config.look)]
    if config.redeal:  # the table's fixed time
        return replace(state, step="redealt"), [Say("redeal.collect"), Countdown(config.redeal), Say("redeal.look")]
    # collecting, shuffling and dealing up to 20 cards takes what it takes: wait for done
    return replace(state, step="ask_redealt"), [Say("redeal.collect"), Say("redeal.look"), Ask("setup.ready", DONE)]


def _redealt(config: AWConfig, state: AWState, event: GameEvent) -> tuple[AWState, list[Cue]]:
    return _begin_night(config, state)


def _end(state: AWState, winner: str, lovers_lose: bool) -> tuple[AWState, list[Cue]]:
    line = "end.citizens_win_lovers_lose" if lovers_lose else f"end.{winner}_win"
    cue = End(line, winner, outcome={"lovers_lose": lovers_lose})
    return replace(state, step="over", winner=winner, lovers_lose=lovers_lose), [cue]


def _yes(event: GameEvent) -> bool:
    value = answered(event)
    if value not in YES_NO:
        raise AnswerError(f"expected yes or no, got '{value}'")
    return value == "yes"


def _names_answer(config: AWConfig, value: object) -> tuple[str, ...]:
    names = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    unknown = [n for n in names if n not in config.names]
    if unknown or not names:
        raise AnswerError(f"unknown player '{unknown[0] if unknown else ''}'; players: {', '.join(config.names)}")
    return names


_STEPS = {
    "start": _start,
    "ask_ready": _ready,
    "ask_boxed": _boxed,
    "dealt": _ready,
    "night_call": _night_call,
    "night_check": _night_check,
    "night_end": _night_end,
    "discussion": _discussion,
    "ask_discussed": _nomination,
    "ask_exchanged": _exchanged,
    "redealt": _redealt,
    "ask_redealt": _redealt,
    "nomination": _nomination,
    "ask_nominated": _nominated,
    "ask_werewolf": _werewolf_answer,
    "ask_lovers": _lovers_answer,
    "ask_strategist": _strategist_answer,
    **{f"ask_{card}": _night_choice for card in ("seer", "medium", "peddler", "phantom_1", "phantom_2")},
    **{f"ask_strat_{part}": _strategist_choice for part in ("pick_1", "pick_2", "give_1", "give_2")},
}
