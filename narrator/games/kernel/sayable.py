"""Every line a game file can say with a config, listed from the config (`Game.sayable`), so
that render-ahead covers the branches its walk cannot reach in its budget: a deal that puts a
role in the centre (one-night), a revote tied again, the fox's win, every night and day.
"""

from __future__ import annotations

import itertools

from narrator.cues import Cue, Say
from narrator.games.kernel import engine
from narrator.games.kernel.calls import in_set
from narrator.games.kernel.model import CHOOSING, GameFile
from narrator.games.kernel.state import KConfig

FIXED = ("wolf.deal", "wolf.deal_device", "wolf.ready", "wolf.sleep", "wolf.no_death", "wolf.discussion_end",
         "wolf.point", "wolf.executed_any", "wolf.who_executed", "wolf.turn_executed", "wolf.nobody_executed",
         "wolf.turn_all", "wolf.vote", "wolf.no_execution", "wolf.recap_start", "wolf.lone_look", "wolf.undo_kept",
         "wolf.win.nobody", "wolf.first_victim_killed", "wolf.vote_call", "wolf.count_in", "wolf.reveal_all")


def sayable(spec: GameFile, config: KConfig) -> list[Cue]:
    names = list(config.names)
    days = range(1, config.players + 1)  # each day kills at least one player or ends in a tie
    cues: list[Cue] = [Say(f"wolf.welcome.{spec.lines}", {"players": config.players}), *engine.box(spec, config)]
    cues += [Say(line) for line in FIXED] + [Say("wolf.deal_centre", {"n": spec.centre})]
    cues += [Say(f"wolf.win.{w.winner}") for w in spec.wins]
    judged = [w.role for w in spec.wins if w.kind in ("found", "peace")]  # physical cards: asked of the table
    cues += [Say(line, {"cards": engine.card_line(r)}) for r in judged for line in ("wolf.executed_role", "wolf.role_among")]
    for step in spec.steps:
        if in_set(spec, config, step):
            parts = ("wake", "act", "choose") if step.action in CHOOSING else ("wake", "act")
            cues += [Say(engine.line(spec, step, part)) for part in parts]
    for day in days:
        cues += [Say("wolf.night", {"night": day}), Say("wolf.morning", {"day": day}),
                 Say("wolf.recap_night", {"night": day}), Say("wolf.recap_day", {"day": day}),
                 Say("wolf.discussion", {"day": day, "seconds": config.discussion_for(spec, day)})]
    groups = [[n] for n in names] + [list(p) for p in itertools.combinations(names, 2)]
    for group in groups:
        cues += [Say("wolf.executed", {"names": group}), Say("wolf.killed", {"names": group}),
                 Say("wolf.revote", {"names": group}), Say("wolf.taken", {"names": group})]
    if config.passed:  # the device goes round: the round is said, each hand-over calls a name
        cues += [Say("wolf.pass_round"), Say("wolf.round_over")] + [Say("private.call", {"name": n}) for n in names]
    if config.digital_cards:  # one night: the executed's cards; every game: the end's reveal
        cues += [Say("wolf.reveal", {"name": n, "cards": engine.card_line(r)}) for n in names for r in config.roles]
    return cues
