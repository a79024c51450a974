"""Additional Werewolf: turn a table's settings into a checked, frozen game config.

Everything a table may change (cards, timers, night order, days) is validated here, before
the first word is spoken; the rules engine then trusts its config. Defaults and the
recommended setups come from `definition.toml`, not from constants in code.
"""

from __future__ import annotations

import math
import secrets
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from narrator.games.card_names import translate
from narrator.games.spoken_names import definition_names
from narrator.errors import Named, Refusal, worded
from narrator.games.jsonable import Record
from narrator.settings import TableSettings, check_options, declare, declared_values
from narrator.values.readers import (
    MAX_COUNTDOWN, MAX_DAYS, MAX_TIMER, boolean, integer, parse_counts, parse_list, parse_seconds_list,
)

DEFINITION_FILE = Path(__file__).with_name("definition.toml")
MIN_PLAYERS, MAX_PLAYERS = 4, 20


@cache
def definition() -> dict[str, Any]:
    """The game's cards, defaults and recommended setups (read once)."""
    with DEFINITION_FILE.open("rb") as f:
        return tomllib.load(f)


SETTINGS = declare(definition()["settings"], page_ja="ja/table-file.md#additional-werewolf")
"""This game's own table-file keys, declared once in `[settings]` of definition.toml."""
DEFAULTS = declared_values(SETTINGS)
"""Each setting's declared default (`value`): read by `configure`, and by the config's fields
that a game saved before the key existed leaves out."""


def label(card: str) -> str:
    """A card's label line in the packs: its name, as the narrator says it and as a table types it."""
    return f"label.{card}"


NAMES = definition_names(definition(), label)
"""The names a table may type for its cards and roles, per language: each card's name is its label
line in the voice packs (what the narrator says), then the other words `[names.VOCAB]` of
definition.toml gives it; a vocabulary's ids are those of the definition's table of its name."""


@dataclass(frozen=True)
class AWConfig:
    """A validated Additional Werewolf setup; the engine reads only this."""

    players: int
    names: tuple[str, ...]
    roles: Mapping[str, int]
    cards: Mapping[str, int]
    days: int
    countdown: int
    countdowns: Mapping[str, int]
    check_role: int
    discussion: int
    warnings: tuple[int, ...]
    night_order: tuple[str, ...]
    strategist: int
    """Seconds of the strategist's exchange; 0: wait until the table says done."""
    redeal: int
    """Seconds of the redeal; 0: wait until the table says done."""
    look: int
    point: int = DEFAULTS["point"]
    """Without names: seconds of quiet after 「せーの」 to count the fingers (0: none)."""
    digital_cards: bool = DEFAULTS["digital_cards"]
    """The app deals the cards to the phones and performs every look and swap (cards.py)."""
    seed: int = 0
    """Seeds the digital deal and redeals, so a replayed game deals the same cards."""
    wait_for_cards: bool = True
    """The deal waits for done after the card list (a step of its own). False only for games
    saved before that step existed: their logs replay as they were played (see `__init__`)."""

    def countdown_for(self, card: str) -> int:
        """A card's own countdown if the table set one, else the global one."""
        return self.countdowns.get(card, self.countdown)

    def in_play(self, card: str) -> bool:
        return self.cards.get(card, 0) > 0

    def to_dict(self) -> Record:
        return {
            "players": self.players, "names": list(self.names), "roles": dict(self.roles),
            "cards": dict(self.cards), "days": self.days, "countdown": self.countdown,
            "countdowns": dict(self.countdowns), "check_role": self.check_role,
            "discussion": self.discussion, "warnings": list(self.warnings),
            "night_order": list(self.night_order), "strategist": self.strategist,
            "redeal": self.redeal, "look": self.look, "point": self.point,
            "digital_cards": self.digital_cards, "seed": self.seed, "wait_for_cards": self.wait_for_cards,
        }


def recommended_setup(players: int) -> tuple[dict[str, int], dict[str, int]]:
    """Role and additional card counts recommended for `players` (digest P-AW-5)."""
    recommended = definition()["recommended"]
    if str(players) in recommended:
        entry = recommended[str(players)]
        return dict(entry["roles"]), dict(entry["cards"])
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise Refusal("aw_players_flag", least=MIN_PLAYERS, most=MAX_PLAYERS, players=players)
    large = recommended["large"]
    largest = max(int(k) for k in recommended if k.isdigit())
    roles, cards = recommended_setup(largest)
    werewolves = min(large["werewolves_max"], roles["werewolf"])
    citizens = math.ceil(players / 2)
    roles = {"citizen": citizens, "traitor": players - citizens - werewolves, "werewolf": werewolves}
    cards[large["extra_card"]] = cards.get(large["extra_card"], 0) + players - largest
    return roles, cards


def configure(settings: TableSettings) -> AWConfig:
    """Validate the table's options for Additional Werewolf; refuse bad setups in one line, in
    the table's language, with the cards by their names there."""
    with worded(settings.stated_lang, NAMES):
        return _configure(settings)


def _configure(settings: TableSettings) -> AWConfig:
    src = settings.source
    options = translate(settings.options, SETTINGS, NAMES, settings.lang, src)
    check_options(options, SETTINGS, "additional-werewolf", src)
    defaults = DEFAULTS
    players = settings.players or 5
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise Refusal("aw_players", source=src, least=MIN_PLAYERS, most=MAX_PLAYERS, players=players)
    rec_roles, rec_cards = recommended_setup(players)
    roles = parse_counts(options["roles"], "roles", src) if "roles" in options else rec_roles
    cards = parse_counts(options["cards"], "cards", src) if "cards" in options else rec_cards
    if (unknown := _unknown(roles, definition()["roles"])) is not None:
        raise Refusal("aw_unknown_role", source=src, name=unknown, known=_named("roles", definition()["roles"]))
    if (unknown := _unknown(cards, definition()["cards"])) is not None:
        raise Refusal("aw_unknown_card", source=src, name=unknown, known=_named("cards", definition()["cards"]))
    roles = {k: v for k, v in roles.items() if v}
    cards = {k: v for k, v in cards.items() if v}
    _check_counts(players, roles, cards, src)
    digital = boolean(options.get("digital_cards", defaults["digital_cards"]), "digital_cards", src)
    if cards.get("lovers", 0) > 2 and not digital:
        raise Refusal("aw_lovers_pairs", source=src, count=cards["lovers"], pairs=cards["lovers"] // 2,
                      card=Named("cards", "lovers"))

    def seconds(key: str, minimum: int = 1, maximum: int = MAX_COUNTDOWN) -> int:
        return integer(options.get(key, defaults[key]), key, src, minimum=minimum, maximum=maximum)

    countdowns = parse_counts(options.get("countdowns", {}), "countdowns", src, maximum=MAX_COUNTDOWN)
    _check_countdowns(countdowns, cards, src)
    night_order = parse_list(options.get("night_order", defaults["night_order"]), "night_order", src)
    _check_night_order(night_order, cards, src)
    if digital and not settings.names:
        raise Refusal("aw_digital_needs_names", source=src)
    return AWConfig(
        players=players,
        names=settings.names,
        roles=roles,
        cards=cards,
        days=seconds("days", maximum=MAX_DAYS),
        countdown=seconds("countdown"),
        countdowns=countdowns,
        check_role=seconds("check_role"),
        discussion=seconds("discussion", minimum=0, maximum=MAX_TIMER),
        warnings=parse_seconds_list(options.get("warnings", defaults["warnings"]), "warnings", src),
        night_order=night_order,
        strategist=seconds("strategist", minimum=0),
        redeal=seconds("redeal", minimum=0),
        look=seconds("look"),
        point=seconds("point", minimum=0),
        digital_cards=digital,
        seed=settings.seed if settings.seed is not None else secrets.randbits(128),
    )


def _unknown(counts: Mapping[str, int], known: Mapping[str, Any]) -> str | None:
    """The first name in `counts` that is not one of `known`, or None."""
    return next((name for name in counts if name not in known), None)


def _named(vocab: str, ids: Iterable[str]) -> list[Named]:
    return [Named(vocab, i) for i in ids]


def _check_counts(players: int, roles: Mapping[str, int], cards: Mapping[str, int], src: str) -> None:
    role_total, card_total = sum(roles.values()), sum(cards.values())
    if role_total != players:
        raise Refusal("aw_role_total", source=src, total=role_total, players=players)
    if card_total != players:
        raise Refusal("aw_card_total", source=src, total=card_total, players=players,
                      blank=Named("cards", "on_break"))
    teams = definition()["roles"]
    wolves = sum(n for r, n in roles.items() if teams[r]["team"] == "werewolves")
    citizens = players - wolves
    if citizens < wolves:
        raise Refusal("aw_too_many_wolves", source=src, citizens=citizens, wolves=wolves)
    if not any(roles.get(r, 0) for r, spec in teams.items() if spec.get("found_loses")):
        raise Refusal("aw_no_werewolf", source=src, werewolf=Named("roles", "werewolf"))
    if cards.get("lovers", 0) % 2:
        raise Refusal("aw_lovers_odd", source=src, count=cards["lovers"], card=Named("cards", "lovers"))


def _check_countdowns(countdowns: Mapping[str, int], cards: Mapping[str, int], src: str) -> None:
    """A card's own countdown must be one the night uses: a card with a night call, in play,
    at least 1 second (said in words that fit a flag and a table file alike)."""
    specs = definition()["cards"]
    if (unknown := _unknown(countdowns, specs)) is not None:
        raise Refusal("aw_unknown_countdown", source=src, name=unknown, known=_named("cards", specs))
    for card, value in countdowns.items():
        if not specs[card]["night"]:
            night_cards = [c for c, s in specs.items() if s["night"]]
            raise Refusal("aw_countdown_no_night", source=src, card=Named("cards", card), value=value,
                          known=[Named("cards", c) for c in night_cards])
        if not cards.get(card):
            raise Refusal("aw_countdown_not_in_play", source=src, card=Named("cards", card), value=value)
        if value < 1:
            raise Refusal("aw_countdown_zero", source=src, card=Named("cards", card), value=value)


def _check_night_order(order: tuple[str, ...], cards: Mapping[str, int], src: str) -> None:
    specs = definition()["cards"]
    for card in order:
        if card not in specs or not specs[card]["night"]:
            night_cards = [c for c, s in specs.items() if s["night"]]
            raise Refusal("aw_order_not_night", source=src, card=Named("cards", card),
                          known=[Named("cards", c) for c in night_cards])
    if len(set(order)) != len(order):
        raise Refusal("aw_order_twice", source=src, order=[Named("cards", c) for c in order])
    for card, count in cards.items():
        if count and specs[card]["night"] and card not in order:
            raise Refusal("aw_order_missing", source=src, card=Named("cards", card))
