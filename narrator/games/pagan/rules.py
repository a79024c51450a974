"""Pagan: Fate of Roanoke as a pure turn guide: `advance(config, state, event)`.

Pagan needs no moderator; what two new players lack is someone who reads each turn's many
small steps in order and keeps count of what decides the game. So every step is one
question answered with `done`: the setup steps, then turn after turn (witch first) the
upkeep steps for the active side, then one question per action with the actions left.
An action's answer may instead report what it did (`innocent`, `witch`, `exonerated`,
`ritual`); the engine counts those and announces the winner and the turn.

Every step ends with an `Ask`, so the game is its list of answers: undo (the runner
replays the log without the cancelled answer) and resume need nothing game-specific.
No audio, files or clock here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Mapping

from narrator.cues import Answer, as_event, Ask, Cue, End, GameEvent, Say, TurnClock
from narrator.errors import AnswerError
from narrator.games.pagan.setup import PaganConfig, definition
from narrator.games.jsonable import Json, Record

DONE = ("done",)


@dataclass(frozen=True)
class PaganState:
    """Where the game stands. JSON-able, so the store can snapshot it."""

    step: str = "start"
    """start, setup, upkeep, action or over."""
    index: int = 0
    """The setup or upkeep step under way; in the action phase, the actions already taken."""
    turn: int = 0
    """Turns begun, counting each side's turn (the witch plays the odd ones)."""
    innocents: int = 0
    exonerated: int = 0
    winner: str | None = None
    ending: str | None = None

    def to_dict(self) -> Record:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PaganState:
        return cls(**data)

    @property
    def finished(self) -> bool:
        return self.step == "over"

    @property
    def side(self) -> str:
        sides = definition()["sides"]
        return sides[(self.turn - 1) % len(sides)]


def new_state() -> PaganState:
    return PaganState()


def upkeep_steps(side: str) -> list[str]:
    """The upkeep step ids for `side`, in order (the ally payment is the hunter's only)."""
    return [s["id"] for s in definition()["upkeep"] if side in s.get("sides", definition()["sides"])]


def actions_this_turn(state: PaganState) -> int:
    """3 pawns a turn, but the witch's first turn has only her 2 regular pawns."""
    actions = definition()["actions"]
    return actions["witch_first_turn"] if state.turn == 1 else actions["per_turn"]


def reports_for(side: str) -> tuple[str, ...]:
    """The outcomes the active side may report instead of `done` after an action."""
    return tuple(name for name, spec in definition()["reports"].items() if spec["side"] == side)


def help_lines(state: PaganState) -> tuple[str, ...]:
    """The reminder `help` speaks: the actions open to the active side right now."""
    table = definition()["help"]
    if state.step in ("start", "setup"):
        return tuple(table["setup"])
    if state.turn == 1:
        return tuple(table["witch_first_turn"])
    return tuple(table[state.side])


def advance(config: PaganConfig, state: PaganState, event: GameEvent | Mapping[str, Json]) -> tuple[PaganState, list[Cue]]:
    """Play one step: consume `event` and return the new state and the step's cues."""
    if state.finished:
        return state, []
    if state.step == "start":
        state = replace(state, step="setup", index=0)
        return state, [Say("pagan.setup.welcome")] + _prompt(state)
    event = as_event(event)
    if not isinstance(event, Answer):
        raise AnswerError(f"the game is waiting for an answer ({state.step}), not '{event.type}'")
    value = event.value
    if state.step == "action":
        return _action_answer(config, state, value)
    if value != "done":
        raise AnswerError(f"expected done, got '{value}'")
    if state.step == "setup":
        if state.index + 1 < len(definition()["setup"]):
            state = replace(state, index=state.index + 1)
            return state, _prompt(state)
        return _begin_turn(config, state)
    if state.index + 1 < len(upkeep_steps(state.side)):
        state = replace(state, index=state.index + 1)
        return state, _prompt(state)
    return _begin_actions(state)


def recap(config: PaganConfig, state: PaganState) -> list[Cue]:
    """Said on resume: where the game picks up; the active side's clock starts afresh."""
    if state.step in ("start", "setup"):
        return [Say("pagan.resume.recap_setup")]
    return [Say(f"pagan.resume.recap_{state.side}", {"turn": state.turn})] + _clock(config)


# --- steps ---------------------------------------------------------------------------------

def _prompt(state: PaganState) -> list[Cue]:
    """The question of the step `state` stands at."""
    help_ = help_lines(state)
    if state.step == "setup":
        return [Ask(f"pagan.setup.{definition()['setup'][state.index]}", DONE, help=help_)]
    if state.step == "upkeep":
        return [Ask(f"pagan.upkeep.{upkeep_steps(state.side)[state.index]}", DONE, help=help_)]
    total = actions_this_turn(state)
    params = {"left": total - state.index, "total": total}
    return [Ask(f"pagan.action.{state.side}", DONE + reports_for(state.side), params, help=help_)]


def _clock(config: PaganConfig) -> list[Cue]:
    if not config.turn_timer:
        return []
    return [TurnClock("turn", config.turn_timer, config.warnings, "timer.warning", "pagan.clock.time_up")]


def _begin_turn(config: PaganConfig, state: PaganState) -> tuple[PaganState, list[Cue]]:
    state = replace(state, step="upkeep", index=0, turn=state.turn + 1)
    cues: list[Cue] = [Say(f"pagan.turn.{state.side}", {"turn": state.turn})]
    return state, cues + _clock(config) + _prompt(state)


def _begin_actions(state: PaganState) -> tuple[PaganState, list[Cue]]:
    state = replace(state, step="action", index=0)
    cues: list[Cue] = [Say(f"pagan.action.begin_{state.side}", {"total": actions_this_turn(state)})]
    if state.turn == 1:
        cues.append(Say("pagan.action.witch_first_turn"))
    return state, cues + _prompt(state)


def _action_answer(config: PaganConfig, state: PaganState, value: object) -> tuple[PaganState, list[Cue]]:
    allowed = DONE + reports_for(state.side)
    if value not in allowed:
        raise AnswerError(f"'{value}' is not an answer on the {state.side}'s turn; answer {', '.join(allowed)}")
    cues: list[Cue] = []
    if value != "done":
        state, cues = _report(state, value)
        if state.finished:
            return state, cues
    state = replace(state, index=state.index + 1)
    if state.index < actions_this_turn(state):
        return state, cues + _prompt(state)
    state, more = _begin_turn(config, state)
    return state, cues + [Say("pagan.turn.end")] + more


def _report(state: PaganState, report: str) -> tuple[PaganState, list[Cue]]:
    """Count a reported outcome; at its threshold (or at once) the game is decided."""
    spec = definition()["reports"][report]
    if "count" not in spec:
        return _end(state, report, spec["winner"])
    count = getattr(state, spec["count"]) + 1
    state = replace(state, **{spec["count"]: count})
    if count >= spec["to_win"]:
        return _end(state, report, spec["winner"])
    return state, [Say(f"pagan.report.{report}", {"count": count, "to_win": spec["to_win"]})]


def _end(state: PaganState, ending: str, winner: str) -> tuple[PaganState, list[Cue]]:
    state = replace(state, step="over", winner=winner, ending=ending)
    outcome = {"ending": ending, "turn": state.turn, "innocents": state.innocents, "exonerated": state.exonerated}
    return state, [End(f"pagan.end.{ending}", winner, {"turn": state.turn}, outcome)]
