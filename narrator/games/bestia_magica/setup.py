"""Bestia Magica: turn a table's settings into a checked, frozen config with the deal.

The deal (who holds which role and attribute) is fixed here, before a word is spoken:
entered (`[deal]` in the table file or `--deal "Aki=prophet:S,…"`, for tables that deal the
physical cards) or drawn with `random.Random(seed)` from the card list (`cards`, `roles` +
`attributes`, else the recommended set for the player count, P-BM-9). Every house rule the
published rules leave open (P-BM-1 … P-BM-10) is a named key whose default lives in
`definition.toml`, never in code.
"""

from __future__ import annotations

import secrets
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Mapping

from narrator.games.card_names import translate
from narrator.games.spoken_names import definition_names
from narrator.games.deal import shuffled
from narrator.errors import Named, Refusal, worded
from narrator.games.jsonable import Record
from narrator.settings import Setting, TableSettings, check_options, declare
from narrator.values.readers import (
    MAX_COUNTDOWN, MAX_DAYS, MAX_TIMER, integer, parse_counts, parse_list, parse_seconds_list,
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


def _declared() -> tuple[Setting, ...]:
    """`[settings]` of definition.toml (a house rule's table there holds only its heading), each
    default the one `[defaults]` or `[house_rules]` gives, which `configure` reads too."""
    d = definition()
    values = {**d["defaults"], **d["house_rules"]}
    rules = {"page": "bestia-magica.md#house-rules",  # the page's second key table
             "page_ja": "ja/table-file.md#bestia-magica-house-rules"}
    specs = {k: {"value": values[k], **(rules if k in d["house_rules"] else {}), **spec} if k in values else spec
             for k, spec in d["settings"].items()}
    return declare({**specs, **{k: {"value": v} for k, v in d["house_rules"].items() if k not in specs}},
                   page="bestia-magica.md", page_ja="ja/table-file.md#bestia-magica")


SETTINGS = _declared()
"""This game's own table-file keys: the deal, its timers and its house rules."""


def label(card: str) -> str:
    """A card's label line in the packs: its name, as the narrator says it and as a table types it."""
    return f"bm.label.{card}"


NAMES = definition_names(definition(), label)
"""The names a table may type for its cards and roles, per language: each card's name is its label
line in the voice packs (what the narrator says), then the other words `[names.VOCAB]` of
definition.toml gives it; a vocabulary's ids are those of the definition's table of its name."""


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

    def to_dict(self) -> Record:
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
    """Validate the table's options and deal the cards; refuse bad setups in one line, in the
    table's language, with the roles by their names there."""
    with worded(settings.stated_lang, NAMES):
        return _configure(settings)


def _configure(settings: TableSettings) -> BMConfig:
    src = settings.source
    options = translate(settings.options, SETTINGS, NAMES, settings.lang, src)
    check_options(options, SETTINGS, "bestia-magica", src)
    seed = settings.seed if settings.seed is not None else secrets.randbits(128)
    if "deal" in options:
        deal = _entered_deal(options["deal"], settings, src)
        if any(k in options for k in ("roles", "cards", "attributes")):
            raise Refusal("bm_deal_and_cards", source=src)
        names = tuple(c.name for c in deal)
    else:
        players = settings.players or (len(settings.names) if settings.names else 8)
        names = settings.names or tuple(f"P{i}" for i in range(1, players + 1))
        cards = _card_list(options, players, src)
        (cards,) = shuffled(seed, cards)
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


def _entered_deal(value: object, settings: TableSettings, src: str) -> tuple[Card, ...]:
    """`--deal "Aki=prophet:S,…"` or a `[deal]` table `Aki = "prophet:S"`, in seat order."""
    if isinstance(value, str):
        pairs = []
        for part in filter(None, (p.strip() for p in value.split(","))):
            name, sep, card = part.partition("=")
            if not sep:
                raise Refusal("bm_deal_entry_form", source=src, part=part)
            pairs.append((name.strip(), card.strip()))
    elif isinstance(value, Mapping):
        pairs = [(str(k).strip(), str(v).strip()) for k, v in value.items()]
    else:
        raise Refusal("bm_deal_form", source=src)
    seen = {n.casefold() for n, _ in pairs}
    if len(seen) != len(pairs):
        raise Refusal("bm_deal_twice", source=src)
    if settings.names and sorted(settings.names) != sorted(n for n, _ in pairs):
        raise Refusal("bm_deal_names", source=src)
    if settings.players is not None and settings.players != len(pairs) and not settings.names:
        raise Refusal("bm_deal_players", source=src, players=settings.players, cards=len(pairs))
    return tuple(Card(name, *_parse_card(card, f"deal.{name}", src)) for name, card in pairs)


def _parse_card(text: str, key: str, src: str) -> tuple[str, str]:
    """"prophet:S" → (role, attribute); a card without ":" takes its role's default attribute."""
    role, _, attribute = text.partition(":")
    role, attribute = role.strip(), attribute.strip().upper()
    roles = definition()["roles"]
    if role not in roles:
        raise Refusal("bm_unknown_role", source=src, key=key, role=role, known=[Named("roles", r) for r in roles])
    attribute = attribute or roles[role]["attribute"]
    if attribute not in ATTRIBUTES:
        raise Refusal("bm_unknown_attribute", source=src, key=key, attribute=attribute,
                      known=[Named("attributes", a) for a in ATTRIBUTES])
    return role, attribute


def _card_list(options: Mapping[str, Any], players: int, src: str) -> list[tuple[str, str]]:
    """The cards to shuffle: `cards`, or `roles` (+ `attributes`), or the recommended set."""
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise Refusal("bm_players", source=src, least=MIN_PLAYERS, most=MAX_PLAYERS, players=players)
    if "cards" in options:
        if "roles" in options:
            raise Refusal("bm_cards_and_roles", source=src)
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
            raise Refusal("bm_attributes_alone", source=src)
        cards = [_parse_card(c, "recommended", src) for c in definition()["recommended"][str(players)]]
    if len(cards) != players:
        raise Refusal("bm_card_total", source=src, total=len(cards), players=players)
    return cards


def _attribute_table(value: object, src: str) -> dict[str, str]:
    """`[attributes] townsperson = "SMN"`: the attributes of that role's cards, in order."""
    if isinstance(value, str):
        value = dict(p.split("=", 1) for p in value.split(",") if "=" in p)
    if not isinstance(value, Mapping):
        raise Refusal("bm_attributes_form", source=src)
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
        raise Refusal("bm_players", source=src, least=MIN_PLAYERS, most=MAX_PLAYERS, players=len(deal))
    for card in deal:
        spec = roles[card.role]
        if spec.get("fixed") and card.attribute != spec["attribute"]:
            raise Refusal("bm_fixed_attribute", source=src, name=card.name, role=Named("roles", card.role),
                          attribute=Named("attributes", card.attribute), fixed=Named("attributes", spec["attribute"]),
                          role_id=card.role, fixed_id=spec["attribute"])
    beasts = sum(1 for c in deal if roles[c.role]["count"] == "beasts")
    town = sum(1 for c in deal if roles[c.role]["count"] == "town")
    if beasts == 0:
        raise Refusal("bm_no_beast", source=src, beast=Named("roles", "beast"))
    if town <= beasts:
        raise Refusal("bm_too_many_beasts", source=src, town=town, beasts=beasts)


def _house_rules(options: Mapping[str, Any], src: str) -> dict[str, Any]:
    """Every [house_rules] key from definition.toml, overridden and type-checked."""
    rules: dict[str, Any] = {}
    for key, default in definition()["house_rules"].items():
        value = options.get(key, default)
        if isinstance(default, bool):
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                value = value.lower() in ("true", "yes", "1")
            if not isinstance(value, bool):
                raise Refusal("not_boolean", source=src, key=key, value=value)
        elif isinstance(default, int):
            value = integer(value, key, src, minimum=1, maximum=MAX_DAYS)
        elif key == "night_order":
            value = parse_list(value, key, src)
            if sorted(value) != sorted(NIGHT_STEPS):
                raise Refusal("bm_night_order", source=src, steps=NIGHT_STEPS)
        else:
            value = str(value)
            if key in CHOICES and value not in CHOICES[key]:
                raise Refusal("not_a_choice", source=src, key=key, known=CHOICES[key], value=value)
        rules[key] = value
    return rules
