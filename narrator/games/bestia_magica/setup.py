"""Bestia Magica: turn a table's settings into a checked, frozen config with the deal.

The deal (who holds which role and attribute) is fixed here, before a word is spoken:
entered (`[deal]` in the table file or `--deal "Aki=prophet:S,…"`, for tables that deal the
physical cards) or drawn with `random.Random(seed)` from the card list (`cards`, `roles` +
`attributes`, else the recommended set for the player count, P-BM-9). Every house rule the
published rules leave open (P-BM-1 … P-BM-10) is a named key whose default lives in
`definition.toml`, never in code.
"""

from __future__ import annotations

import random
import secrets
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from narrator.games.card_names import CardNames, translate
from narrator.errors import SetupError
from narrator.settings import (
    MAX_COUNTDOWN,
    MAX_DAYS,
    MAX_TIMER,
    Setting,
    TableSettings,
    check_options,
    declare,
    integer,
    parse_counts,
    parse_list,
    parse_seconds_list,
)

DEFINITION_FILE = Path(__file__).with_name("definition.toml")
MIN_PLAYERS, MAX_PLAYERS = 4, 20
ATTRIBUTES = ("S", "M", "A", "N")
NIGHT_STEPS = ("sleep", "guard", "reform", "curse", "murder", "attack", "curse_deaths", "anima", "results")
CHOICES = {
    "murderer_reads": ("H", "U"),
    "sole_effect": ("double_vote", "votes_for_double"),
    "mese_effect": ("hidden", "double_vote"),
    "anima_pool": ("all_dead", "tonight_dead"),
    "evil_count": ("none", "beasts"),
    "missing_answer": ("none", "wait"),
    "murderer_targets_guard": ("guard_dies", "murderer_dies"),
    "beast_split": ("distinct", "picks", "majority"),
}


@cache
def definition() -> dict[str, Any]:
    """Roles, timers, house-rule defaults and recommended sets (read once)."""
    with DEFINITION_FILE.open("rb") as f:
        return tomllib.load(f)


def _as_written(value: Any) -> str:
    """A definition.toml default as the docs write it: `60, 10`, `true`, `20`."""
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def _declared() -> tuple[Setting, ...]:
    """`[settings]` of definition.toml (a timer's default shown from `[defaults]`), then every house rule."""
    d = definition()
    shown = {k: _as_written(v) for k, v in {**d["defaults"], **d["house_rules"]}.items()}
    specs = {k: {"default": shown[k], **spec} if k in shown else spec for k, spec in d["settings"].items()}
    return declare({**specs, **{k: {"default": shown[k]} for k in d["house_rules"]}}, page="bestia-magica.md")


SETTINGS = _declared()
"""This game's own table-file keys: the deal, its timers and its house rules."""
NAMES = CardNames.from_table(definition().get("names", {}))
"""The names a table may type for its cards and roles, per language (`[names]` of definition.toml)."""


def option_keys() -> tuple[str, ...]:
    return tuple(s.key for s in SETTINGS)


@dataclass(frozen=True)
class Card:
    """One dealt card: the player holding it, its role and the attribute printed on it."""

    name: str
    role: str
    attribute: str


@dataclass(frozen=True)
class BMConfig:
    """A validated Bestia Magica table; the engine reads only this."""

    players: int
    names: tuple[str, ...]
    deal: tuple[Card, ...]
    seed: int
    timers: Mapping[str, int]
    warnings: tuple[int, ...]
    rules: Mapping[str, Any]
    """The house rules (P-BM-*), every key of `[house_rules]` in definition.toml."""

    def role_of(self, name: str) -> str:
        return next(c.role for c in self.deal if c.name == name)

    def in_play(self, role: str) -> bool:
        return any(c.role == role for c in self.deal)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players, "names": list(self.names),
            "deal": [[c.name, c.role, c.attribute] for c in self.deal], "seed": self.seed,
            "timers": dict(self.timers), "warnings": list(self.warnings),
            "rules": {k: list(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BMConfig:
        rules = dict(data["rules"])
        rules["night_order"] = tuple(rules["night_order"])
        return cls(
            players=data["players"], names=tuple(data["names"]),
            deal=tuple(Card(*c) for c in data["deal"]), seed=data["seed"],
            timers=dict(data["timers"]), warnings=tuple(data["warnings"]), rules=rules,
        )


def configure(settings: TableSettings) -> BMConfig:
    """Validate the table's options and deal the cards; refuse bad setups in one line."""
    src = settings.source
    options = translate(settings.options, SETTINGS, NAMES, settings.lang, src)
    check_options(options, SETTINGS, "bestia-magica", src)
    seed = settings.seed if settings.seed is not None else secrets.randbits(128)
    if "deal" in options:
        deal = _entered_deal(options["deal"], settings, src)
        if any(k in options for k in ("roles", "cards", "attributes")):
            raise SetupError(f"{src}: give either deal or roles/cards/attributes, not both (the deal names every card)")
        names = tuple(c.name for c in deal)
    else:
        players = settings.players or (len(settings.names) if settings.names else 8)
        names = settings.names or tuple(f"P{i}" for i in range(1, players + 1))
        cards = _card_list(options, players, src)
        random.Random(seed).shuffle(cards)
        deal = tuple(Card(n, r, a) for n, (r, a) in zip(names, cards))
    _check_deal(deal, src)
    defaults = definition()["defaults"]
    timers = {
        key: integer(options.get(key, defaults[key]), key, src, minimum=0 if key == "discussion" else 1,
                     maximum=MAX_TIMER if key == "discussion" else MAX_COUNTDOWN)
        for key in defaults if key != "warnings"
    }
    warnings = parse_seconds_list(options.get("warnings", defaults["warnings"]), "warnings", src)
    return BMConfig(
        players=len(deal), names=names, deal=deal, seed=seed, timers=timers, warnings=warnings,
        rules=_house_rules(options, src),
    )


def _entered_deal(value: Any, settings: TableSettings, src: str) -> tuple[Card, ...]:
    """`--deal "Aki=prophet:S,…"` or a `[deal]` table `Aki = "prophet:S"`, in seat order."""
    if isinstance(value, str):
        pairs = []
        for part in filter(None, (p.strip() for p in value.split(","))):
            name, sep, card = part.partition("=")
            if not sep:
                raise SetupError(f"{src}: deal entry '{part}' needs the form Name=role:attribute")
            pairs.append((name.strip(), card.strip()))
    elif isinstance(value, Mapping):
        pairs = [(str(k).strip(), str(v).strip()) for k, v in value.items()]
    else:
        raise SetupError(f"{src}: deal must be a table or \"Aki=prophet:S,…\"")
    seen = {n.casefold() for n, _ in pairs}
    if len(seen) != len(pairs):
        raise SetupError(f"{src}: the deal names a player twice; give each player one card")
    if settings.names and sorted(settings.names) != sorted(n for n, _ in pairs):
        raise SetupError(f"{src}: the deal's names differ from names; give the same players in both, or drop names")
    if settings.players is not None and settings.players != len(pairs) and not settings.names:
        raise SetupError(f"{src}: players is {settings.players} but the deal has {len(pairs)} cards")
    return tuple(Card(name, *_parse_card(card, f"deal.{name}", src)) for name, card in pairs)


def _parse_card(text: str, key: str, src: str) -> tuple[str, str]:
    """"prophet:S" → (role, attribute); a card without ":" takes its role's default attribute."""
    role, _, attribute = text.partition(":")
    role, attribute = role.strip(), attribute.strip().upper()
    roles = definition()["roles"]
    if role not in roles:
        raise SetupError(f"{src}: {key}: unknown role '{role}'; roles: {', '.join(roles)}")
    attribute = attribute or roles[role]["attribute"]
    if attribute not in ATTRIBUTES:
        raise SetupError(f"{src}: {key}: unknown attribute '{attribute}'; attributes: {', '.join(ATTRIBUTES)}")
    return role, attribute


def _card_list(options: Mapping[str, Any], players: int, src: str) -> list[tuple[str, str]]:
    """The cards to shuffle: `cards`, or `roles` (+ `attributes`), or the recommended set."""
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise SetupError(f"{src}: Bestia Magica is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if "cards" in options:
        if "roles" in options:
            raise SetupError(f"{src}: give either cards or roles, not both")
        cards = [_parse_card(c, "cards", src) for c in parse_list(options["cards"], "cards", src)]
    elif "roles" in options:
        counts = parse_counts(options["roles"], "roles", src)
        attributes = _attribute_table(options.get("attributes", {}), src)
        cards = []
        for role, count in counts.items():
            _parse_card(role, "roles", src)
            letters = attributes.get(role) or definition()["roles"][role]["attribute"]
            cards += [(role, letters[i % len(letters)]) for i in range(count)]
    else:
        if "attributes" in options:
            raise SetupError(f"{src}: attributes apply to roles; give roles too, or use cards = [\"role:attr\", …]")
        cards = [_parse_card(c, "recommended", src) for c in definition()["recommended"][str(players)]]
    if len(cards) != players:
        raise SetupError(f"{src}: {len(cards)} cards for {players} players; give exactly one card per player")
    return cards


def _attribute_table(value: Any, src: str) -> dict[str, str]:
    """`[attributes] townsperson = "SMN"`: the attributes of that role's cards, in order."""
    if isinstance(value, str):
        value = dict(p.split("=", 1) for p in value.split(",") if "=" in p)
    if not isinstance(value, Mapping):
        raise SetupError(f"{src}: attributes must be a table like townsperson = \"SMN\"")
    out = {}
    for role, letters in value.items():
        role = role.strip()
        letters = "".join(letters) if isinstance(letters, list) else str(letters).strip().upper()
        for letter in letters or "?":
            _parse_card(f"{role}:{letter}", f"attributes.{role}", src)
        out[role] = letters
    return out


def _check_deal(deal: tuple[Card, ...], src: str) -> None:
    roles = definition()["roles"]
    if not MIN_PLAYERS <= len(deal) <= MAX_PLAYERS:
        raise SetupError(f"{src}: Bestia Magica is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(deal)}")
    for card in deal:
        spec = roles[card.role]
        if spec.get("fixed") and card.attribute != spec["attribute"]:
            raise SetupError(
                f"{src}: {card.name}'s {card.role} has attribute {card.attribute}, but the rules fix it "
                f"to {spec['attribute']}; write {card.role}:{spec['attribute']}"
            )
    beasts = sum(1 for c in deal if roles[c.role]["count"] == "beasts")
    town = sum(1 for c in deal if roles[c.role]["count"] == "town")
    if beasts == 0:
        raise SetupError(f"{src}: no beast in the deal; add beast=1 (the game needs at least one)")
    if town <= beasts:
        raise SetupError(
            f"{src}: {town} town-team players against {beasts} beasts would end the game before it starts; "
            "add town roles"
        )


def _house_rules(options: Mapping[str, Any], src: str) -> dict[str, Any]:
    """Every [house_rules] key from definition.toml, overridden and type-checked."""
    rules: dict[str, Any] = {}
    for key, default in definition()["house_rules"].items():
        value = options.get(key, default)
        if isinstance(default, bool):
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                value = value.lower() in ("true", "yes", "1")
            if not isinstance(value, bool):
                raise SetupError(f"{src}: {key} must be true or false, not '{value}'")
        elif isinstance(default, int):
            value = integer(value, key, src, minimum=1, maximum=MAX_DAYS)
        elif key == "night_order":
            value = parse_list(value, key, src)
            if sorted(value) != sorted(NIGHT_STEPS):
                raise SetupError(f"{src}: night_order must name each of {', '.join(NIGHT_STEPS)} once")
        else:
            value = str(value)
            if key in CHOICES and value not in CHOICES[key]:
                raise SetupError(f"{src}: {key} must be one of {', '.join(CHOICES[key])}, not '{value}'")
        rules[key] = value
    return rules
