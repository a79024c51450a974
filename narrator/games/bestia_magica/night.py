"""The night's resolution, in the order of the `night_order` house rule (P-BM-7).

Every memo is written at the same time, then resolved step by step: sleep, guard, reform
and curse placement, the murderer, the beasts' attack, curse deaths, Anima, results. A
player who is asleep or already dead when their step comes does nothing (so with the
default order the saint's reform still lands on the night the murderer kills the saint,
FAQ 3, and a beast the murderer killed does not attack, FAQ 8). Pure: the state goes in,
a new state, the silent `Event`s, the `Private` results and the morning's facts come out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Callable

from narrator.cues import Event, Private
from narrator.games.bestia_magica.setup import BMConfig
from narrator.games.bestia_magica.state import BMState, Curse, rng, role_spec


@dataclass
class Morning:
    """What the morning announces (and the reveal replays)."""

    deaths: list[str] = field(default_factory=list)
    revived: list[str] = field(default_factory=list)
    suspected: list[str] = field(default_factory=list)
    attribute: str | None = None
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Night:
    """The working state of one night's resolution."""

    config: BMConfig
    state: BMState
    memos: dict[str, dict[str, Any]]
    number: int
    start_roles: dict[str, str]
    asleep: set[str] = field(default_factory=set)
    protected: set[str] = field(default_factory=set)
    guards: set[str] = field(default_factory=set)
    """Guards who protected someone tonight (awake and alive at the guard step)."""
    events: list[Event] = field(default_factory=list)
    privates: list[Private] = field(default_factory=list)
    morning: Morning = field(default_factory=Morning)
    anima: bool = False

    # --- helpers -----------------------------------------------------------------------------

    def actors(self, role: str, needs_memo: bool = True) -> list[str]:
        """Players of `role` (at the night's start) who are alive and awake now, seat order;
        a player whose memo is missing (the timer closed the round) does nothing."""
        return [
            p.name for p in self.state.players
            if self.start_roles.get(p.name) == role and p.alive and p.name not in self.asleep
            and (p.name in self.memos or not needs_memo)
        ]

    def target(self, name: str) -> str:
        return self.memos[name]["target"]

    def event(self, type_: str, player: str | None, cause: str) -> None:
        self.events.append(Event(type_, player, cause, night=self.number))

    def kill(self, name: str, cause: str) -> None:
        if not self.state.player(name).alive:
            return
        role = self.state.player(name).role
        self.state = self.state.update(name, alive=False)
        self.state = replace(self.state, unreported=self.state.unreported + ((name, role),))
        self.morning.deaths.append(name)
        self.event("death", name, cause)


def resolve(config: BMConfig, state: BMState, memos: dict[str, dict[str, Any]]) -> tuple[BMState, Night]:
    """Resolve night `state.night` from every living player's memo."""
    start_roles = {p.name: p.role for p in state.players if p.alive}
    night = Night(config, state, memos, state.night, start_roles)
    for step in config.rules["night_order"]:
        STEPS[step](night)
    night.morning.suspected = _most_suspected(night)
    night.morning.attribute, night.morning.counts = _attribute(night)
    return night.state, night


# --- the steps (P-BM-7) ----------------------------------------------------------------------

def _sleep(night: Night) -> None:
    demons = night.actors("sleep_demon")
    for demon in demons:  # every sleep demon acts at once: one asleep does not stop another
        target = night.target(demon)
        night.asleep.add(target)
        night.event("sleep", target, "sleep_demon")


def _guard(night: Night) -> None:
    protects = []
    for guard in night.actors("guard"):
        target = night.target(guard)
        night.protected.add(target)
        night.guards.add(guard)
        protects.append((guard, target))
        night.event("protect", target, "guard")
    night.state = replace(night.state, last_protect=tuple(protects))


def _reform(night: Night) -> None:
    for saint in night.actors("saint"):
        target = night.target(saint)
        player = night.state.player(target)
        if not player.alive or not role_spec(player.role).get("reformable"):
            continue
        night.state = night.state.update(target, reform_pending=True)
        night.event("reform", target, "saint")
        night.privates.append(Private(target, "bm.private.reformed"))
        if night.config.rules["curse_void_on_reform"]:
            _void_curses(night, partial(_cast_by, target))


def _curse(night: Night) -> None:
    for caster in night.actors("curse_caster"):
        target = night.target(caster)
        if night.state.player(caster).reform_pending and night.config.rules["curse_void_on_reform"]:
            night.event("curse", target, "void")
            continue
        due = night.number + night.config.rules["curse_delay"]
        night.state = replace(night.state, curses=night.state.curses + (Curse(caster, target, night.number, due),))
        night.event("curse", target, "curse_caster")


def _murder(night: Night) -> None:
    for murderer in night.actors("murderer"):
        target = night.target(murderer)
        meets_guard = target in night.guards and night.config.rules["murderer_targets_guard"] == "murderer_dies"
        if target in night.protected or meets_guard:
            night.kill(murderer, "guard")  # FAQ 1: the murderer meets the guard and dies
        else:
            night.kill(target, "kill")


def _attack(night: Night) -> None:
    beasts = night.actors("beast")
    if night.config.rules["sleep_blocks_all_beasts"] and any(
        night.start_roles.get(n) == "beast" for n in night.asleep
    ):
        return
    picks = [night.target(b) for b in beasts]
    if not picks:
        return
    target = _beast_target(night, picks)
    if target in night.protected:
        night.event("protect", target, "blocked")
        return
    night.kill(target, "attack")


def _curse_deaths(night: Night) -> None:
    rules = night.config.rules
    if rules["curse_void_on_caster_death"]:
        _void_curses(night, lambda c: not night.state.player(c.caster).alive)
    due = [c for c in night.state.curses if c.due <= night.number]
    night.state = replace(night.state, curses=tuple(c for c in night.state.curses if c.due > night.number))
    for curse in due:
        if rules["guard_blocks_curse"] and curse.target in night.protected:
            night.event("protect", curse.target, "blocked")
            continue
        night.kill(curse.target, "curse")


def _anima(night: Night) -> None:
    """FAQ 7: once per Anima card; simultaneous uses revive one player and use up all."""
    users = [
        p.name for p in night.state.players
        if p.alive and p.attribute == "A" and not p.anima_used and p.name in night.memos
        and night.memos[p.name].get("ability")
        and not (night.config.rules["sleep_voids_attribute"] and p.name in night.asleep)
    ]
    if night.config.rules["anima_pool"] == "tonight_dead":
        pool = [n for n in night.morning.deaths if not night.state.player(n).alive]
    else:
        pool = night.state.dead_names()
    if not users or not pool:
        return  # P-BM-4: nobody to revive, the use is not consumed
    chosen = rng(night.config, "anima", night.number).choice(pool)
    for user in users:
        night.state = night.state.update(user, anima_used=True)
    night.state = night.state.update(chosen, alive=True)
    night.state = replace(night.state, unreported=tuple(u for u in night.state.unreported if u[0] != chosen))
    night.morning.revived.append(chosen)
    night.anima = True
    night.event("revival", chosen, "anima")


def _results(night: Night) -> None:
    """Prophet and undertaker results; every other living player gets an empty private."""
    told = {p.to for p in night.privates}  # e.g. a reformed player already has a line
    for prophet in night.actors("prophet"):
        target = night.target(prophet)
        read = _reading(night.config, night.start_roles.get(target) or night.state.player(target).role)
        night.privates.append(Private(prophet, f"bm.private.prophet.{read}", {"target": [target]}))
        told.add(prophet)
    undertakers = night.actors("undertaker", needs_memo=False)
    for undertaker in undertakers:
        for name, role in night.state.unreported:
            read = _reading(night.config, role)
            night.privates.append(Private(undertaker, f"bm.private.undertaker.{read}", {"target": [name]}))
        if not night.state.unreported:
            night.privates.append(Private(undertaker, "bm.private.undertaker.none"))
        told.add(undertaker)
    if undertakers:
        night.state = replace(night.state, unreported=())
    for player in night.state.living():
        if player.name not in told:
            line = "bm.private.no_result" if player.name in night.asleep and night.start_roles.get(
                player.name) in ("prophet", "undertaker") else "bm.private.nothing"
            night.privates.append(Private(player.name, line))


STEPS: dict[str, Callable[[Night], None]] = {
    "sleep": _sleep, "guard": _guard, "reform": _reform, "curse": _curse, "murder": _murder,
    "attack": _attack, "curse_deaths": _curse_deaths, "anima": _anima, "results": _results,
}


# --- helpers -----------------------------------------------------------------------------------

def _reading(config: BMConfig, role: str) -> str:
    if role == "murderer":
        return config.rules["murderer_reads"]
    return role_spec(role)["reads"]


def _beast_target(night: Night, picks: list[str]) -> str:
    """One attack target from the beasts' memos (rule text: the GM draws at random when they
    would not agree); house rule `beast_split`: draw among the distinct targets, among the
    beasts' picks (a target picked twice is twice as likely), or take the most picked."""
    distinct = sorted(set(picks), key=picks.index)
    if len(distinct) == 1:
        return distinct[0]
    draw = rng(night.config, "beasts", night.number)
    split = night.config.rules["beast_split"]
    if split == "picks":
        return draw.choice(picks)
    if split == "majority":
        most = max(picks.count(t) for t in distinct)
        return draw.choice([t for t in distinct if picks.count(t) == most])
    return draw.choice(distinct)


def _cast_by(caster: str, curse: Curse) -> bool:
    return curse.caster == caster


def _void_curses(night: Night, which: Callable[[Curse], bool]) -> None:
    for curse in night.state.curses:
        if which(curse):
            night.event("curse", curse.target, "void")
    night.state = replace(night.state, curses=tuple(c for c in night.state.curses if not which(c)))


def _most_suspected(night: Night) -> list[str]:
    """P-BM-5: the most-suspected players (names only), from the memos that suspect."""
    suspecting = {"suspect"} | ({"attack"} if night.config.rules["beasts_suspect"] else set())
    votes = Counter(
        memo["target"] for name, memo in night.memos.items()
        if role_spec(night.start_roles[name])["action"] in suspecting and name not in night.asleep
    )
    if not votes:
        return []
    top = max(votes.values())
    order = [p.name for p in night.state.players]
    return sorted((n for n, v in votes.items() if v == top), key=order.index)


def _attribute(night: Night) -> tuple[str | None, dict[str, int]]:
    """P-BM-3: the side with more yes answers is active, unless 1 yes, a tie, or Anima."""
    counts = {"S": 0, "M": 0}
    for name, memo in night.memos.items():
        attr = night.state.player(name).attribute
        if attr in counts and memo.get("ability"):
            if night.config.rules["sleep_voids_attribute"] and name in night.asleep:
                continue
            counts[attr] += 1
    if night.anima or counts["S"] == counts["M"]:
        return None, counts
    side = "S" if counts["S"] > counts["M"] else "M"
    if counts[side] < night.config.rules["attribute_min_yes"]:
        return None, counts
    return side, counts
