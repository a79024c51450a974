"""What to take out of the box: the role cards and additional cards of this game, counted.

A table without a GM stumbles first on the set: the narrator says it before the deal (and
`narrator play --dry-run` prints it without playing). The cards are listed in the rule
text's order (definition.toml), each as the voice-pack line `card.<name>` said with its
count, so the words stay in the packs: 「市民4枚、裏切り者2枚、人狼2枚」.
"""

from __future__ import annotations

from typing import Any

from narrator.cues import Cue, Say
from narrator.games.additional_werewolf.setup import AWConfig, definition


def box_contents(config: AWConfig) -> tuple[list[list[Any]], list[list[Any]]]:
    """(role cards, additional cards) in play, each `[line id, count]` in the rule text's order."""
    spec = definition()
    roles = [[f"card.{name}", config.roles[name]] for name in spec["roles"] if config.roles.get(name)]
    cards = [[f"card.{name}", config.cards[name]] for name in spec["cards"] if config.cards.get(name)]
    return roles, cards


def box_cues(config: AWConfig) -> list[Say]:
    """The line that names the set: take these cards out (physical), or these are dealt (phones)."""
    roles, cards = box_contents(config)
    copies = any(n > 1 for card, n in config.cards.items() if card != "lovers" and definition()["cards"][card]["night"])
    # two 占い師 holders must know which of them 「1人目」 is: the list ends with the table's convention
    line = "setup.box_digital" if config.digital_cards else "setup.box_copies" if copies else "setup.box"
    return [Say(line, {"roles": roles, "cards": cards})]


def summary_cues(config: AWConfig) -> list[Cue]:
    """The setup read back in one breath before the spoken setup's はい / いいえ: the card set,
    the night order of the night cards in play with their countdowns, and the discussion."""
    roles, cards = box_contents(config)
    night = definition()["cards"]
    order = [c for c in config.night_order if config.cards.get(c) and night[c]["night"]]
    cues: list[Cue] = [Say("setup.readback_cards", {"roles": roles, "cards": cards})]
    if order:
        cues.append(Say("setup.readback_order", {"order": [[f"label.{c}", 0] for c in order],
                                                 "countdown": config.countdown}))
    special = [[f"countdown_of.{c}", config.countdowns[c]] for c in order if c in config.countdowns]
    if special:
        cues.append(Say("setup.readback_countdowns", {"special": special}))
    if config.discussion:
        cues.append(Say("setup.readback_discussion", {"discussion": config.discussion, "days": config.days}))
    else:
        cues.append(Say("setup.readback_discussion_open", {"days": config.days}))
    return cues
