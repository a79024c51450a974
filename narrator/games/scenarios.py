"""A game's scenarios as data, and the dry-run plan: tooling every game shares, not an engine.

A scenario is a table and a game played through: its settings (as a table file's keys, the
deal among them), the answers in the order the game asks for them, and what must come out
(the winner, key line ids in order, key events). The rules kernel reads them from a game
file's `[[scenarios]]`; Additional Werewolf and Bestia Magica from `scenarios.toml` in their
folder. `narrator games check GAME` plays them through the game's own `advance`, the same
way for every game, so a ruling is pinned by data a rule writer reads, not by a test.

Answers in order: a question (`Ask`) takes the next one (a comma list when it takes several);
a private round (`Collect`) takes one for each player asked, in seat order, each either a
value for the request's key (an ability it offers not used) or a table of the whole answer
(`{ target = "Dai", ability = true }`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, Sequence

from narrator.errors import SetupError
from narrator.cues import Answer, Ask, Collect, Continue, Cue, End, Event, GameEvent, Private, Say, Start
from narrator.games.contract import C, GameState, S

if TYPE_CHECKING:
    from narrator.settings import TableSettings

MAX_STEPS = 2000
"""Steps a scenario may take: far more than any game's; a game that never ends fails, never hangs."""
FILE = "scenarios.toml"


@dataclass(frozen=True)
class Rules(Generic[C, S]):
    """What a scenario needs of a game: its table, its first state and its step."""

    configure: Callable[[TableSettings], C]
    new_state: Callable[[], S]
    advance: Callable[[C, S, GameEvent], tuple[S, list[Cue]]]


def load(folder: Path) -> list[dict[str, Any]]:
    """The `[[scenarios]]` of `<folder>/scenarios.toml` (none when the game has no file)."""
    path = Path(folder) / FILE
    if not path.is_file():
        return []
    with open(path, "rb") as f:
        return list(tomllib.load(f).get("scenarios", []))


def answer_for(cue: Ask | Collect, take: Callable[[str], object]) -> Answer:
    """The event that answers `cue` from answers given in order (`take(line)` the next one): a
    question takes one; a private round one for each player asked, in seat order (none when
    nobody is). The order of a scenario's answers and of a plain answers file with the phones."""
    if isinstance(cue, Collect):
        answers = {}
        for r in cue.requests:
            value = take(r.line)
            plain = {r.key: value, **({"ability": False} if r.ability else {})}  # a plain value: no ability used
            answers[r.player] = dict(value) if isinstance(value, Mapping) else plain
        return Answer(answers)
    value = take(cue.line)
    return Answer(value.split(",") if cue.multiple and isinstance(value, str) else value)


def said(cues: Sequence[Cue]) -> list[str]:
    """The line ids said, asked or shown, in order (a private round's requests too)."""
    out = [c.line for c in cues if isinstance(c, (Say, Ask, End, Private))]
    return out + [r.line for c in cues if isinstance(c, Collect) for r in c.requests]


def play(rules: Rules[C, S], scenario: Mapping[str, Any]) -> tuple[list[str], list[Event | End], S]:
    """Play one scenario: its settings, its answers in order; the line ids said, the events and
    the `End` cue, and the final state."""
    from narrator.settings import build_settings

    settings = {"seed": 0, **scenario.get("settings", {})}
    config = rules.configure(build_settings({}, settings, f"scenario '{scenario.get('name', '?')}'"))
    answers = list(scenario.get("answers", ()))

    def take(at: str) -> object:
        if not answers:
            raise ValueError(f"the answers ran out at '{at}'")
        return answers.pop(0)

    state, lines, events = rules.new_state(), list[str](), list[Event | End]()
    event: GameEvent = Start()
    for _ in range(MAX_STEPS):
        state, cues = rules.advance(config, state, event)
        lines += said(cues)
        events += [c for c in cues if isinstance(c, (Event, End))]
        if state.finished:
            if answers:
                raise ValueError(f"the game ended with {len(answers)} answer(s) left")
            return lines, events, state
        event = answer_for(cues[-1], take) if cues and isinstance(cues[-1], (Ask, Collect)) else Continue()
    raise ValueError(f"no end in {MAX_STEPS} steps (at step '{getattr(state, 'step', '?')}')")


def check(scenarios: Sequence[Mapping[str, Any]],
          play_one: Callable[[Mapping[str, Any]], tuple[list[str], list[Event | End], GameState]]) -> list[str]:
    """One line per scenario: `ok name` or what differed (`play_one` plays it: lines, events, end)."""
    out = []
    for i, scenario in enumerate(scenarios, 1):
        label = scenario.get("name", f"#{i}")
        try:
            lines, events, state = play_one(scenario)
        except Exception as err:
            out.append(f"FAIL {label}: {err}")
            continue
        why = differs(scenario, lines, events, state)
        out.append(f"FAIL {label}: {why}" if why else f"ok {label}")
    return out


def differs(scenario: Mapping[str, Any], lines: list[str], events: list[Event | End], state: GameState) -> str | None:
    """What a played scenario got wrong, or None: the winner, the lines, the end's outcome
    (`outcome`: keys the `End` cue's record must hold), then the events."""
    if state.winner != scenario["winner"]:
        return f"winner {state.winner}, expected {scenario['winner']}"
    if (line := missing(lines, list(scenario.get("lines", ())))) is not None:
        return f"line {line} not said in that order"
    outcome = next((c.outcome for c in reversed(events) if isinstance(c, End)), {})
    for key, value in dict(scenario.get("outcome", {})).items():
        if outcome.get(key) != value:
            return f"outcome {key} {outcome.get(key)!r}, expected {value!r}"
    wanted = [dict(e) for e in scenario.get("events", ())]
    keys = [(e.type, e.player, e.cause) for e in events if isinstance(e, Event)]
    for item in _unmatched(keys, wanted):
        return f"event {item} not in that order"
    return None


def missing(said: list[str], expected: list[str]) -> str | None:
    """The first expected line id not said after the ones before it (a subsequence check)."""
    position = 0
    for line_id in expected:
        try:
            position = said.index(line_id, position) + 1
        except ValueError:
            return line_id
    return None


def _unmatched(events: list[tuple[str, str | None, str | None]], wanted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    position = 0
    for item in wanted:
        key = (item.get("type"), item.get("player"), item.get("cause"))
        hit = next((i for i in range(position, len(events))
                    if all(w is None or w == e for w, e in zip(key, events[i]))), None)
        if hit is None:
            return [item]
        position = hit + 1
    return []


def describe(folder: Path, rules: Rules[C, S], plan: Callable[[C], list[str]], config: C | None, what: str) -> list[str]:
    """A seed game's text about itself, as a game file's: "plan" the night plan for `config`
    (`narrator play --dry-run`; None: the game's smallest table), "check" its scenarios."""
    if what == "unreviewed":  # a seed game's lines are its packs', reviewed with them (scripts/review-readings)
        return []
    if what == "check":
        return check(load(folder), lambda scenario: play(rules, scenario))
    if what == "plan":
        if config is None:
            from narrator.settings import build_settings

            config = rules.configure(build_settings({}, {"seed": 0}, "plan"))
        return plan(config)
    raise SetupError(f"`narrator games {what}` reads game files; {Path(folder).name.replace('_', '-')} "
                     "tells its plan and checks its scenarios only")


__all__ = ["Rules", "load", "play", "check", "describe", "answer_for", "missing", "said"]
