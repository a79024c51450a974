"""What the words of Japanese tables' variants do, each once (their reading and refusals are
`parse_variants.py`'s): the pack (白狼 wakes and attacks with the wolves whatever the seer sees),
knowing another role's holders (狂信者, 背徳者), a human named on the first night (初日占い白通知),
deaths that take others (猫又, 呪狼, 背徳者 with the fox), the first victim's card and the cards
never dealt out of the hands (初日犠牲者, 役欠けなし).

Pure like the engine: randomness only from the config's seed, named by what it decides, so a
replay or a resume draws the same.
"""

from __future__ import annotations

import random

from narrator.cues import Cue, Private
from narrator.games.kernel.model import GameFile, Step
from narrator.games.kernel.state import KConfig, KState


def pack_roles(spec: GameFile, role: str) -> tuple[str, ...]:
    """The roles called with `role`: for a wolf, every role of its team that counts as a wolf
    (a 白狼 seen as human wakes and attacks with the pack); else the role alone."""
    own = spec.roles[role]
    if own.counts_as != "werewolf":
        return (role,)
    return tuple(r.id for r in spec.roles.values() if r.counts_as == "werewolf" and r.team == own.team)


def in_pack(spec: GameFile, role: str, other: str) -> bool:
    """Whether `other` is of `role`'s pack (an attack never picks its own)."""
    return other in pack_roles(spec, role) and spec.roles[role].counts_as == "werewolf"


def rng(config: KConfig, what: str, *at: object) -> random.Random:
    """A draw of its own for each thing decided at random, from the game's seed."""
    return random.Random(":".join(str(p) for p in (config.seed, what, *at)))


def living(config: KConfig, state: KState) -> list[str]:
    return [n for n in config.names if n not in state.dead]


def role_of(config: KConfig, state: KState, name: str) -> str:
    return state.cards[config.names.index(name)]


def know(spec: GameFile, config: KConfig, state: KState, step: Step, who: list[str]) -> list[Cue]:
    """A `know` call: each holder is shown who holds `sees` (its pack, for a wolf), unseen by them."""
    seen = pack_roles(spec, step.sees)
    names = [n for n in living(config, state) if role_of(config, state, n) in seen]
    cards = [[f"wolf.role.{step.sees}", 1]]
    return [Private(p, "wolf.known", {"cards": cards, "names": names}) if names else
            Private(p, "wolf.known_none", {"cards": cards}) for p in who]


def human_hint(spec: GameFile, config: KConfig, state: KState, who: list[str]) -> list[Cue]:
    """初日占い白通知: each holder is told one living player, not themselves, whom the seer sees as
    human (drawn from the seed)."""
    cues: list[Cue] = []
    for player in who:
        humans = [n for n in living(config, state) if n != player
                  and spec.roles[role_of(config, state, n)].seen_as == "human"]
        if humans:
            cues.append(Private(player, "wolf.result.human", {"name": rng(config, "hint", state.night, player).choice(humans)}))
    return cues


def deal(spec: GameFile, config: KConfig, pile: list[str]) -> tuple[str, ...]:
    """The shuffled pile dealt: the players' cards, then the first victim's (a card of its team),
    then the centre's, none of them a role `never_out`. With neither, the pile as shuffled."""
    if not config.first_victim and not config.never_out:
        return tuple(pile)
    rest = list(pile)
    victim = []
    if config.first_victim:
        k = next(i for i, r in enumerate(rest) if r not in config.never_out and spec.roles[r].team == config.first_victim)
        victim = [rest.pop(k)]
    centre: list[str] = []
    for _ in range(spec.centre):
        k = next(i for i in range(len(rest) - 1, -1, -1) if rest[i] not in config.never_out)
        centre.insert(0, rest.pop(k))
    return tuple(rest + victim + centre)


def centre_cards(spec: GameFile, config: KConfig, state: KState) -> tuple[str, ...]:
    return state.cards[len(config.names) + bool(config.first_victim):]


def taken(spec: GameFile, config: KConfig, state: KState, dead: tuple[str, ...], how: str,
          attacked: str | None = None) -> tuple[str, ...]:
    """The deaths that follow `dead` (in seat order, none twice): a 猫又 attacked takes a random
    living wolf of the pack, executed a random living player (`how`: "night" or "vote"); then
    whoever dies with a role whose last living holder is gone (背徳者 with the fox)."""
    gone = set(dead) | set(state.dead)
    more: list[str] = []
    for name in dead:
        role = spec.roles[role_of(config, state, name)]
        if how == "night" and name == attacked and role.when_attacked == "takes_a_wolf":
            pool = [n for n in config.names if n not in gone and spec.roles[role_of(config, state, n)].counts_as == "werewolf"]
        elif how == "vote" and role.when_executed == "takes_anyone":
            pool = [n for n in config.names if n not in gone]
        else:
            continue
        if pool:
            pick = rng(config, "takes", how, state.night, state.day, name).choice(pool)
            more.append(pick)
            gone.add(pick)
    while True:
        follow = [n for n in config.names if n not in gone and _follows(spec, config, state, n, gone)]
        if not follow:
            break
        more += follow
        gone |= set(follow)
    return tuple(n for n in config.names if n in more)


def _follows(spec: GameFile, config: KConfig, state: KState, name: str, gone: set[str]) -> bool:
    """Whether `name` dies with the role it is bound to: a player held it, and none who did lives."""
    target = spec.roles[role_of(config, state, name)].dies_with
    bound = [n for n in config.names if target and role_of(config, state, n) == target]
    return bool(bound) and all(n in gone for n in bound)
