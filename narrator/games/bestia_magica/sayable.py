"""Every line Bestia Magica can say with one config, listed from the deal (for rendering ahead).

The private rounds have too many answers to play every branch, but what is said is known
from the deal: the turn numbers (at most one night and one day per player: a game lasts no
longer in any table we have seen, and a later turn is synthesized when it comes), each
player's name where a name is announced, every pair of names on a table of at most
`PAIRS_UP_TO` players (every group on a table of at most `ALL_GROUPS_UP_TO`), each team's winners (with any reformed players), and the reveal of
every card and every action the dealt roles can take. Cues only: no audio here.
"""

from __future__ import annotations

import itertools
from typing import Any

from narrator.cues import Countdown, Cue, End, Say, Timer
from narrator.games.bestia_magica.setup import BMConfig, definition

PAIRS_UP_TO = 8
"""Every pair of names (two dead, two tied, …) is rendered for tables of at most this many."""
ALL_GROUPS_UP_TO = 5
"""Every group of names (three tied, …) is rendered for tables of at most this many."""
NAME_LISTS = ("bm.morning.deaths", "bm.morning.suspected", "bm.vote.tie",
              "bm.revote.still_tied")
SINGLE_NAMES = ("bm.vote.executed", "bm.vote.drawn", "bm.reveal.executed")
FIXED = (
    "bm.setup.deal", "bm.setup.begin", "bm.night.beasts_wake", "bm.night.beasts_confirm",
    "bm.night.beasts_sleep", "bm.night.memo", "bm.night.results", "bm.morning.no_deaths",
    "bm.morning.attribute.S", "bm.morning.attribute.M", "bm.morning.attribute.none",
    "bm.day.discussion_end", "bm.vote.begin", "bm.vote.attribute.S", "bm.vote.attribute.M",
    "bm.vote.attribute.none", "bm.vote.nobody", "bm.vote.none_counted", "bm.revote.begin", "bm.revote.random", "bm.end.over",
    "bm.reveal.begin", "bm.reveal.no_death", "bm.reveal.end", "bm.resume.start",
)


def sayable(config: BMConfig) -> list[Cue]:
    names = list(config.names)
    cues: list[Cue] = [Say("bm.setup.welcome", {"players": config.players}), *(Say(line) for line in FIXED)]
    cues += _timers(config)
    for n in range(1, len(names) + 1):
        cues += [Say("bm.night.begin", {"night": n}), Say("bm.morning.begin", {"day": n}),
                 Say("bm.day.discussion", {"day": n, "seconds": config.timers["discussion"]}),
                 Say("bm.reveal.night", {"night": n}), Say("bm.reveal.vote", {"day": n}),
                 Say("bm.resume.night", {"night": n}), Say("bm.resume.day", {"day": n})]
    largest = len(names) if len(names) <= ALL_GROUPS_UP_TO else 2 if len(names) <= PAIRS_UP_TO else 1
    groups = [list(g) for size in range(1, largest + 1) for g in itertools.combinations(names, size)]
    cues += [Say(line, {"names": g}) for line in NAME_LISTS for g in groups]
    cues += [Say(line, {"name": [n]}) for line in SINGLE_NAMES for n in names]
    if any(c.attribute == "A" for c in config.deal):
        cues += [Say("bm.morning.revived", {"names": [n]}) for n in names]
        cues += [Say("bm.reveal.revival", {"name": [n]}) for n in names]
    if config.rules["announce_counts"]:
        cues += [Say("bm.morning.counts", {"sole": s, "mese": m})
                 for s in range(len(names) + 1) for m in range(len(names) + 1 - s)]
    return cues + _endings(config) + _reveal(config)


def _timers(config: BMConfig) -> list[Cue]:
    t = config.timers
    cues: list[Cue] = [Countdown(t[key]) for key in ("look", "beast_gesture", "beast_confirm", "results")]
    for key in ("memo", "discussion", "vote"):
        cues.append(Timer(key, t[key], tuple(w for w in config.warnings if w < t[key])))
    return cues


def _endings(config: BMConfig) -> list[Cue]:
    """Each team's ending and winners; a reformed murderer or curse caster may be on either side."""
    roles = definition()["roles"]
    reformable = [c.name for c in config.deal if roles[c.role].get("reformable")]
    cues: list[Cue] = [End("bm.end.town", "town"), End("bm.end.beasts", "beasts"),
                       Say("bm.end.reason.town"), Say("bm.end.reason.beasts")]
    dealt = {c.role for c in config.deal}
    angel = "dead" if "angel" in dealt else "absent"
    demons = [r for r in ("demon", "sleep_demon") if r in dealt]
    for who in ([*demons, "both"] if len(demons) == 2 else demons):
        cues.append(End(f"bm.end.demons.{who}.{angel}", "demons"))
    for size in range(len(reformable) + 1):
        for reformed in itertools.combinations(reformable, size):
            for team in ("town", "beasts", "demons"):
                winners = [c.name for c in config.deal
                           if (team == "town" and c.name in reformed) or
                           (c.name not in reformed and roles[c.role]["team"] == team)]
                if winners:
                    cues.append(Say("bm.end.winners", {"names": winners}))
            cues += [Say("bm.reveal.reformed", {"name": [n]}) for n in reformed]
    return cues


def _reveal(config: BMConfig) -> list[Cue]:
    """Every card, every action a dealt role can take on every other player, every death."""
    roles = definition()["roles"]
    names = list(config.names)
    dealt = {c.role for c in config.deal}
    cues: list[Cue] = []
    for card in config.deal:
        cues += [Say(f"bm.reveal.role.{card.role}", {"name": [card.name]}), Say(f"bm.reveal.attr.{card.attribute}")]
        action = roles[card.role]["action"]
        if action == "attack":  # a beast never attacks a beast
            targets = [t for t in names if config.role_of(t) != "beast"]
        elif action == "protect" and config.rules["guard_self"]:
            targets = names
        else:
            targets = [t for t in names if t != card.name]
        if action != "suspect":
            cues += [Say(f"bm.reveal.act.{action}", {"name": [card.name], "target": [t]}) for t in targets]
    causes: dict[str, Any] = {"attack": [n for n in names if config.role_of(n) != "beast"]}
    if "murderer" in dealt:
        causes["kill"] = names
        causes["guard"] = [c.name for c in config.deal if c.role == "murderer"]
    if "curse_caster" in dealt:
        causes["curse"] = names
    for cause, who in causes.items():
        cues += [Say(f"bm.reveal.death.{cause}", {"name": [n]}) for n in who]
    return cues
