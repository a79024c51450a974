"""A game file's model: frozen dataclasses, and the closed vocabulary a file may name.

The kernel's vocabulary is closed: every step kind, action, condition and win rule a file
may name is listed here and implemented once in `engine.py`. A file only chooses and orders
them, so replay, undo and rendering ahead stay exact. Reading and checking a file into these
classes is `parse.py`'s job, so the engine and the rules import the model without the parser.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping


ACTIONS = ("none", "partners", "look", "swap", "divine", "attack", "guard", "medium", "know", "human_hint")
"""What a night call does: nothing but wake and sleep; partners see each other; look at a
player's card or the centre (one-night seer); swap with a player and look (thief); divine
human or werewolf; attack; guard; learn whether yesterday's executed was a werewolf; know the
holders of another role, unseen by them (狂信者, 背徳者); be told one player who is human
(初日占い白通知)."""
CHOOSING = ("look", "swap", "divine", "attack", "guard")
"""The actions whose holder picks a player (privately, on a phone or the passed device)."""
WHEN = ("every", "first")
WHILE = ("in_play", "alive")
ABSENT = ("call", "skip")
"""A call for a role nobody holds (or only the centre or the dead): the same length as any
other (`call`, the default: the table never learns what is in play) or left out (`skip`)."""
VOTES = ("point", "name")
TIES = ("revote", "all", "none")
WINS = ("found", "peace", "eliminated", "parity", "survives", "days", "otherwise")
SEEN_AS = ("human", "werewolf")
CARDS = ("physical", "device")
FILE_KEYS = {"game", "roles", "deal", "steps", "day", "wins", "scenarios", "lines", "options"}
LANGS = ("ja", "en")
"""The languages a file's own `[lines.<lang>]` may be in (the bundled packs')."""
GAME_KEYS = {"name", "title", "players", "centre", "nights", "cards", "absent", "lines", "first_victim", "never_out"}
ROLE_KEYS = {"team", "seen_as", "aliases", "survives_attack", "dies_divined", "counts_as", "when_attacked",
             "when_executed", "dies_with", "curses_seer"}
WHEN_ATTACKED = ("dies", "takes_a_wolf")
"""A role attacked (and not guarded) dies, or dies taking a random living wolf of the pack (猫又)."""
WHEN_EXECUTED = ("dies", "takes_anyone")
"""A role executed dies, or dies taking a random living player with it (猫又)."""
STEP_KEYS = {"id", "kind", "role", "action", "when", "from_night", "every", "while", "seconds", "after", "absent",
             "not_self", "lone_look", "sees", "no_repeat", "if", "unless"}
DAY_KEYS = {"discussion", "warnings", "vote", "tie", "order"}
DAY_KINDS = ("deaths", "check", "discussion", "vote")
"""What a day does, in the file's `[day] order`: tell the night's deaths, check the win rules,
the discussion timer, the vote (with its tie rule: a revote among the tied …)."""
WIN_KEYS = {"kind", "team", "role", "winner", "days"}
SCENARIO_KEYS = {"name", "players", "seed", "deal", "cards", "answers", "lines", "winner", "options"}


@dataclass(frozen=True)
class Role:
    id: str
    team: str
    seen_as: str = "human"
    """What the seer and the medium learn: human or werewolf."""
    counts_as: str = "human"
    """Which side it counts on for parity (a madman is human there)."""
    survives_attack: bool = False
    dies_divined: bool = False
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The file's other words for it per language (the names other sets give it: 預言者 for 占い師)."""
    when_attacked: str = "dies"
    when_executed: str = "dies"
    dies_with: str = ""
    """A role whose last living holder's death takes this one too (背徳者 with the fox)."""
    curses_seer: bool = False
    """A seer who divines it dies that night (呪狼)."""
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Every name a table may give it per language: its `wolf.role.<id>` line as the packs say it
    (text and reading, the file's own lines beneath them: `spoken_names`), then its `aliases`."""


@dataclass(frozen=True)
class Step:
    """One night call, in the order of the file: who wakes, on which nights, what they do."""

    id: str
    role: str
    action: str = "none"
    when: str = "every"
    from_night: int = 1
    every: int = 1
    while_: str = "in_play"
    seconds: int = 10
    absent: str = ""
    not_self: bool = True
    lone_look: bool = False
    """A `partners` call with a centre: a holder alone (the others in the centre) may look at
    one centre card (one-night's published rule); the table's `lone_look` may turn it off."""
    sees: str = ""
    """A `know` call: the role whose holders it is shown (their pack, for a wolf)."""
    no_repeat: str = ""
    """A choosing call whose holder may not pick the same player two nights running (連続ガード
    禁止): `always`, or the name of the file's option that turns it on ("": never)."""
    if_: str = ""
    unless: str = ""
    """The file's option under which the call runs (`if`), or is left out (`unless`)."""

    def runs_on(self, night: int) -> bool:
        """The conditions of the file: first night only, from night N, every k nights."""
        if self.when == "first":
            return night == 1
        return night >= self.from_night and (night - self.from_night) % self.every == 0

    def enabled(self, options: tuple[str, ...]) -> bool:
        """Whether the table's house rules (`options` on) keep this call (`if`, `unless`)."""
        return (not self.if_ or self.if_ in options) and (not self.unless or self.unless not in options)

    def repeats_barred(self, options: tuple[str, ...]) -> bool:
        return self.no_repeat == "always" or (bool(self.no_repeat) and self.no_repeat in options)


@dataclass(frozen=True)
class Day:
    discussion: tuple[int, ...]
    """Seconds of discussion on day 1, 2 …; the last repeats (a list that shortens each day)."""
    warnings: tuple[int, ...] = (60, 10)
    vote: str = "name"
    tie: str = "revote"
    order: tuple[str, ...] = ("deaths", "check", "discussion", "vote", "check")
    """The day's steps (`DAY_KINDS`) in the order they run."""

    def seconds(self, day: int) -> int:
        return self.discussion[min(day, len(self.discussion)) - 1]


@dataclass(frozen=True)
class Win:
    kind: str
    winner: str = ""
    team: str = ""
    role: str = ""
    days: int = 0


@dataclass(frozen=True)
class GameFile:
    name: str
    path: str
    lines: str
    """Its welcome line is `wolf.welcome.<lines>`; a call's lines are `wolf.call.<step id>.*`."""
    players: tuple[int, int]
    centre: int
    nights: int
    """0: nights until a win; 1: one night, one day, then judged (one-night)."""
    cards: tuple[str, ...]
    absent: str
    roles: Mapping[str, Role]
    deal: Mapping[int, Mapping[str, int]]
    steps: tuple[Step, ...]
    day: Day
    wins: tuple[Win, ...]
    scenarios: tuple[Mapping[str, Any], ...] = ()
    options: Mapping[str, bool] = field(default_factory=dict)
    """The file's house rules, each on or off by default (`[options]`): a table turns them with `options`."""
    first_victim: str = ""
    """The team whose card a seat that is not a player holds, dead on the first night (初日犠牲者): "" none."""
    never_out: tuple[str, ...] = ()
    """Roles never dealt out of the players' hands (the centre, the first victim): 役欠けなし."""
    own_lines: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The file's own lines by language (`[lines.ja]`, `[lines.en]`), merged under the packs'."""
    lines_missing: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each language whose pack lacks a line the file needs: (entry, line id) of the first, so a
    table playing in it is refused at configure time (`lines.check_lines` sets it at load time)."""

    @property
    def teams(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.team for r in self.roles.values()))

    def role_aliases(self) -> dict[str, str]:
        """Every name a table may give a role (its id, its pack line's name and its `aliases`, in
        ja and en), folded by `fold`, to the role's id: sets name one role differently (占い師 = 預言者)."""
        return alias_table(self.roles)

    def role_id(self, name: str) -> str | None:
        """The role a table names (`seer`, `預言者`, `Bodyguard` …), or None."""
        return self.role_aliases().get(fold(name))


def fold(name: str) -> str:
    """A role's name as compared: case and width folded, spaces dropped (ｾｰｼﾞ, Seer)."""
    return unicodedata.normalize("NFKC", str(name)).casefold().replace(" ", "").replace("\u3000", "")


def alias_table(roles: Mapping[str, Role]) -> dict[str, str]:
    table: dict[str, str] = {}
    for role in roles.values():
        for name in role_names(role):
            table.setdefault(fold(name), role.id)
    return table


def role_names(role: Role) -> tuple[str, ...]:
    """A role's id and every name of it, Japanese first (its `names`, or its `aliases` alone
    before the packs are read)."""
    names = role.names or role.aliases or {}
    return tuple(dict.fromkeys((role.id, *names.get("ja", ()), *names.get("en", ()))))
