"""What an author or a table reads about a game file without playing it: the night plan
(who wakes, in which order, on which nights, for how long), the step graph as Mermaid, and
the file's own scenarios checked (answers in, expected line ids and winner out).
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.cues import Ask, Collect, Continue, Cue, End, Event, GameEvent, Start
from narrator.games.kernel import engine
from narrator.games import scenarios
from narrator.games.scenarios import answer_for, said
from narrator.games.scenarios import missing as _missing  # noqa: F401 - tests read it here
from narrator.games.kernel.model import GameFile
from narrator.games.kernel.state import KConfig, KState

PLAN_NIGHTS = 4
"""Nights shown by the plan: enough for every `from_night` and `every` of the shipped files."""
MAX_STEPS = 500


DESCRIPTIONS = ("plan", "graph", "check", "unreviewed")
"""What `describe` can tell; anything else is a caller's mistake, never a quiet night plan."""


def describe(spec: GameFile, config: KConfig | None, what: str) -> list[str]:
    """`plan`, `graph`, `check` or `unreviewed` (line ids) as text lines (config None: the file's smallest table)."""
    if what == "graph":
        return graph(spec)
    if what == "check":
        return check(spec)
    if what == "unreviewed":
        from narrator.games.kernel.lines import unreviewed

        return unreviewed(spec)
    if what != "plan":
        raise ValueError(f"describe: unknown description {what!r}; one of {', '.join(DESCRIPTIONS)}")
    return night_plan(spec, config or sample_config(spec))


def sample_config(spec: GameFile, names: tuple[str, ...] = ()) -> KConfig:
    players = len(names) or spec.players[0]
    return KConfig(game=spec.name, names=names, players=players, seed=0, roles=dict(spec.deal[players]),
                   digital_cards=bool(names) and "device" in spec.cards, **house(spec, {}))


def house(spec: GameFile, turned: Mapping[str, bool]) -> dict[str, Any]:
    """The file's house rules with a scenario's `options` turned ({name: true/false}): the options
    on, the first victim's team and the roles never dealt out, as a config holds them."""
    chosen = {**(spec.options or {}), **turned}
    unknown = sorted(set(turned) - set(spec.options or {}))
    if unknown:
        raise ValueError(f"unknown option '{unknown[0]}' (the file's [options]: {', '.join(spec.options or {}) or '-'})")
    return {"options": tuple(n for n, on in chosen.items() if on), "first_victim": spec.first_victim,
            "never_out": spec.never_out}


def night_plan(spec: GameFile, config: KConfig) -> list[str]:
    out = []
    for night in range(1, (spec.nights or PLAN_NIGHTS) + 1):
        calls = engine.plan(spec, config, KState(night=night))
        words = [f"{s.role} ({s.action}, {config.countdown or s.seconds} s)" for s in calls]
        out.append(f"night {night}: " + (", ".join(words) if words else "nobody wakes"))
    out.append(f"day: {', '.join(spec.day.order)}; discussion {discussions(spec, config)}; vote by {spec.day.vote}, "
               f"tie: {spec.day.tie}")
    return out


def discussions(spec: GameFile, config: KConfig) -> str:
    """Every day's discussion up to the one that repeats ("300 s, 240 s, 180 s, then 120 s a
    day"): a table reads the fourth day's length as well as the first (one night: its one day)."""
    if spec.nights == 1:
        return f"{config.discussion_for(spec, 1)} s"
    seconds = [config.discussion_for(spec, d) for d in range(1, len(config.discussion or spec.day.discussion) + 1)]
    while len(seconds) > 1 and seconds[-2] == seconds[-1]:
        seconds.pop()
    return "".join(f"{s} s, " for s in seconds[:-1]) + ("then " if len(seconds) > 1 else "") + f"{seconds[-1]} s a day"


def graph(spec: GameFile) -> list[str]:
    """The step graph (flowchart TD): the deal, each call with its nights, the day, the end."""
    out = ["flowchart TD", "  start([deal]) --> night1"]
    previous = "night1"
    out.append("  night1{{night}}")
    for step in spec.steps:
        nights = "night 1" if step.when == "first" else f"from night {step.from_night}" + (
            f", every {step.every}" if step.every > 1 else "")
        out.append(f"  {previous} --> {step.id}[\"{step.role}: {step.action} ({nights})\"]")
        previous = step.id
    out.append(f"  {previous} --> morning[morning]")
    previous = "morning"
    for i, kind in enumerate(spec.day.order, 1):  # the day's steps in the file's order
        label = f"vote ({spec.day.vote}, tie {spec.day.tie})" if kind == "vote" else kind
        out.append(f"  {previous} --> day{i}[\"{label}\"]")
        previous = f"day{i}"
        if kind == "check" or (kind == "vote" and spec.nights == 1):
            out += [f"  day{i} --> win{i}_{j}([\"{win.kind}: {win.winner}\"])" for j, win in enumerate(spec.wins, 1)]
    if not spec.nights:
        out.append(f"  {previous} --> night1")
    return out


def play_scenario(spec: GameFile, scenario: Mapping[str, Any]) -> tuple[list[str], KState]:
    """Play one scenario: its deal, its answers in order; the line ids said or shown, and the end."""
    names = tuple(scenario["players"])
    deal = tuple(scenario.get("deal", ()))
    counts: dict[str, int] = {}
    for role in deal:
        counts[role] = counts.get(role, 0) + 1
    config = KConfig(game=spec.name, names=names, players=len(names), seed=int(scenario.get("seed", 0)),
                     roles=counts or dict(spec.deal[len(names)]), digital_cards=scenario.get("cards", "device") == "device",
                     fixed=deal, **house(spec, dict(scenario.get("options", {}))))
    answers = list(scenario["answers"])

    def take(at: str) -> object:
        if not answers:
            raise ValueError(f"the answers ran out at '{at}'")
        return answers.pop(0)

    state, lines = KState(), list[str]()
    event: GameEvent = Start()
    for _ in range(MAX_STEPS):
        state, cues = engine.advance(spec, config, state, event)
        lines += said(cues)
        if state.finished:
            break
        event = answer_for(cues[-1], take) if cues and isinstance(cues[-1], (Ask, Collect)) else Continue()
    return lines, state


def check(spec: GameFile) -> list[str]:
    """One line per scenario: `ok name` or what differed (the check every game's scenarios share)."""
    def play_one(scenario: Mapping[str, Any]) -> tuple[list[str], list[Event | End], KState]:
        lines, state = play_scenario(spec, scenario)
        return lines, [], state

    return scenarios.check(spec.scenarios, play_one)


__all__ = ["describe", "play_scenario", "check", "night_plan", "graph", "Cue"]
