"""Bestia Magica as a pure state machine: `advance(config, state, event)`, the narrator as GM.

One call plays one step. The night: everyone closes their eyes, the beasts choose by
gesture (and confirm once more, always, so nothing is learnt from the timing), everyone
writes a memo (a `Collect`), the night resolves (night.py) and the private results go out.
The morning announces deaths, revivals, the most suspected and the active attribute; the
day runs the discussion, the vote and perhaps the revote. A step ending in `Collect` waits
for an `answer` event whose value maps each player to their answer; any other step is
followed by a `continue`. No audio, files or clock here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from narrator.cues import Ask, Countdown, Cue, End, Event, GameEvent, Private, Say, Timer, answered
from narrator.games.bestia_magica import memo, vote
from narrator.games.bestia_magica.box import box_cues
from narrator.games.bestia_magica.night import resolve
from narrator.games.bestia_magica.reveal import reveal
from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState, new_state, rng, seat_players
from narrator.games.steps import run_step
from narrator.games.jsonable import Json


def advance(config: BMConfig, state: BMState, event: GameEvent | Mapping[str, Json]) -> tuple[BMState, list[Cue]]:
    """Play one step: consume `event` and return the new state and the step's cues."""
    return run_step(_STEPS, config, state, event, waiting_for="private answers")


def recap(config: BMConfig, state: BMState) -> list[Cue]:
    """A short line said on resume, so the table knows where the game picks up."""
    if state.night == 0:
        return [Say("bm.resume.start")]
    if state.night > state.day:
        return [Say("bm.resume.night", {"night": state.night})]
    if state.step == "night":  # the day is over; the next night turn begins
        return [Say("bm.resume.night", {"night": state.night + 1})]
    return [Say("bm.resume.day", {"day": state.day})]


# --- steps ---------------------------------------------------------------------------------

def _start(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    state = replace(state, players=seat_players(config))
    cues: list[Cue] = [Say("bm.setup.welcome", {"players": config.players}), *box_cues(config), Say("bm.setup.deal")]
    for card in config.deal:
        cues += [Private(card.name, f"bm.private.card.{card.role}", {"name": card.name}),
                 Private(card.name, f"bm.private.attr.{card.attribute}")]
    cues += [Countdown(config.timers["look"]), Say("bm.setup.begin")]
    return replace(state, step="night"), cues


def _night(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    night = state.night + 1
    cues: list[Cue] = []
    for p in state.players:  # FAQ 3/4: a reform takes effect from the next night, attribute kept
        if p.reform_pending:
            state = state.update(p.name, role="townsperson", reform_pending=False)
    state = replace(state, night=night, step="ask_memos", attribute=None, tie=())
    t = config.timers
    cues += [
        Say("bm.night.begin", {"night": night}),
        Say("bm.night.beasts_wake"), Countdown(t["beast_gesture"]),
        Say("bm.night.beasts_confirm"), Countdown(t["beast_confirm"]),
        Say("bm.night.beasts_sleep"),
        Say("bm.night.memo"), Timer("memo", t["memo"], _warnings(config, t["memo"])),
        memo.night_collect(config, state),
    ]
    return state, cues


def _memos(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    memos = memo.check_answers(memo.night_collect(config, state), answered(event))
    state, night = resolve(config, state, memos)
    m = night.morning
    order = [p.name for p in state.players]
    deaths = sorted(set(m.deaths), key=order.index)  # once each, even if revived and killed again
    state = replace(state, day=state.night, attribute=m.attribute, history=state.history + ({
        "night": state.night, "memos": memos, "roles": night.start_roles,
        "events": [e.record() for e in night.events],
    },))
    # Only the living hear from the night (a dead player called to the device would tell the
    # table his role), in seat order, so the order the device goes round gives away no role;
    # the results line first, so the table knows to read before the device goes round.
    privates = sorted((p for p in night.privates if state.player(p.to).alive), key=lambda p: order.index(p.to))
    cues: list[Cue] = [*night.events, Say("bm.night.results"), *privates, Countdown(config.timers["results"])]
    cues.append(Say("bm.morning.begin", {"day": state.day}))
    cues.append(Say("bm.morning.deaths", {"names": deaths}) if deaths else Say("bm.morning.no_deaths"))
    if m.revived:
        cues.append(Say("bm.morning.revived", {"names": m.revived}))
    if m.suspected:  # nobody suspected: say nothing, so the morning tells nothing of who wrote what
        cues.append(Say("bm.morning.suspected", {"names": m.suspected}))
    if vote.winner(config, state) is not None:  # the game ends here: no Sole/Mese for a day never played
        return _check_end(config, state, cues, then="discussion")
    if config.rules["announce_counts"]:
        cues.append(Say("bm.morning.counts", {"sole": m.counts["S"], "mese": m.counts["M"]}))
    cues.append(Say(f"bm.morning.attribute.{m.attribute or 'none'}"))
    cause = m.attribute or ("anima" if night.anima else "none")
    cues.append(Event("attribute", None, cause, day=state.day, data={"counts": m.counts}))
    return _check_end(config, state, cues, then="discussion")


def _discussion(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    seconds = config.timers["discussion"]
    if not seconds:  # 0: no clock, the table says when it is done (as the readback says)
        return replace(state, step="ask_discussed"), [Say("bm.day.discussion_open", {"day": state.day}),
                                                      Ask("setup.ready", ("done",))]
    cues: list[Cue] = [
        Say("bm.day.discussion", {"day": state.day, "seconds": seconds}),
        Timer("discussion", seconds, _warnings(config, seconds)),
        Say("bm.day.discussion_end"),
    ]
    return replace(state, step="vote"), cues


def _vote(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    cues: list[Cue] = [
        Say(f"bm.vote.attribute.{state.attribute or 'none'}"),
        Say("bm.vote.begin"), Timer("vote", config.timers["vote"]),
        memo.vote_collect(config, state, revote=False),
    ]
    return replace(state, step="ask_votes"), cues


def _votes(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    votes = vote.describe(memo.check_answers(memo.vote_collect(config, state, revote=False), answered(event)))
    scores = vote.weighted_tally(config, state, votes, state.attribute)
    leaders = vote.top(state, scores)
    state = _remember(state, "vote", votes)
    if not leaders:  # nobody voted before the vote's timer ended (house rule missing_answer),
        # or Mese hid every vote: no execution, and nothing said of whom it hid
        return replace(state, step="night"), [Say("bm.vote.none_counted" if votes else "bm.vote.nobody")]
    if len(leaders) == 1:
        return _execute(config, state, leaders[0], "vote", [])
    state = replace(state, tie=tuple(leaders))
    cues: list[Cue] = [Say("bm.vote.tie", {"names": leaders})]
    if not vote.voters(state, state.tie):
        return _random_execution(config, state, cues)
    cues += [Say("bm.revote.begin"), Timer("vote", config.timers["vote"]),
             memo.vote_collect(config, state, revote=True)]
    return replace(state, step="ask_revote"), cues


def _revotes(config: BMConfig, state: BMState, event: GameEvent) -> tuple[BMState, list[Cue]]:
    votes = vote.describe(memo.check_answers(memo.vote_collect(config, state, revote=True), answered(event)))
    leaders = vote.top(state, vote.weighted_tally(config, state, votes, None))  # rule 10: attributes off
    state = _remember(state, "revote", votes)
    if len(leaders) == 1:
        return _execute(config, state, leaders[0], "revote", [])
    state = replace(state, tie=tuple(leaders) or state.tie)  # no revotes at all: the tie stands,
    # and is named as it stands (「決選投票でも、{names}が同数でした」 with no names said nothing)
    return _random_execution(config, state, [Say("bm.revote.still_tied", {"names": list(state.tie)})])


def _random_execution(config: BMConfig, state: BMState, cues: list[Cue]) -> tuple[BMState, list[Cue]]:
    chosen = rng(config, "tie", state.day).choice(list(state.tie))
    return _execute(config, state, chosen, "random", cues + [Say("bm.revote.random")])


def _execute(config: BMConfig, state: BMState, name: str, cause: str, cues: list[Cue]) -> tuple[BMState, list[Cue]]:
    role = state.player(name).role
    state = state.update(name, alive=False)
    state = replace(state, tie=(), unreported=state.unreported + ((name, role),))
    state = replace(state, history=state.history + ({"day": state.day, "executed": name, "cause": cause},))
    line = "bm.vote.drawn" if cause == "random" else "bm.vote.executed"
    cues = cues + [Say(line, {"name": [name]}), Event("execution", name, cause, day=state.day)]
    return _check_end(config, state, cues, then="night")


def _check_end(config: BMConfig, state: BMState, cues: list[Cue], then: str) -> tuple[BMState, list[Cue]]:
    """P-BM-8: after the night's deaths and after each execution."""
    team = vote.winner(config, state)
    if team is None:
        return replace(state, step=then), cues
    names = vote.winners(config, state, team)
    reason, ending = vote.ending_lines(config, state, team)
    cues = cues + [
        Say("bm.end.over"),
        *([Say(reason)] if reason else []),
        End(ending, team, outcome={"winners": names}),
        Say("bm.end.winners", {"names": names}),
        *reveal(config, state),
    ]
    return replace(state, step="over", winner=team), cues


def _remember(state: BMState, kind: str, votes: dict[str, str]) -> BMState:
    return replace(state, history=state.history + ({"day": state.day, kind: votes},))


def _warnings(config: BMConfig, seconds: int) -> tuple[int, ...]:
    return tuple(w for w in config.warnings if w < seconds)


_STEPS = {
    "start": _start,
    "night": _night,
    "ask_memos": _memos,
    "discussion": _discussion,
    "vote": _vote,
    "ask_discussed": _vote,
    "ask_votes": _votes,
    "ask_revote": _revotes,
}

__all__ = ["advance", "recap", "new_state"]
