"""The role set of a Bestia Magica game, counted: said before the first night and printed by
`narrator play --dry-run`, so the table knows what is in play (never who holds what).

Each role is the voice-pack line `bm.card.<role>` said with its count (「魔獣2枚」), in the
order of `definition.toml`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from narrator.cues import Cue, Say
from narrator.games.bestia_magica.setup import BMConfig, definition


def role_set(config: BMConfig) -> list[list[Any]]:
    """`[line id, count]` for each role dealt, in the definition's order."""
    counts = Counter(card.role for card in config.deal)
    return [[f"bm.card.{role}", counts[role]] for role in definition()["roles"] if counts[role]]


def box_cues(config: BMConfig) -> list[Say]:
    return [Say("bm.setup.box", {"roles": role_set(config)})]


STEP_ACTORS = {"sleep": ("sleep_demon",), "guard": ("guard",), "reform": ("saint",), "curse": ("curse_caster",),
               "murder": ("murderer",), "attack": ("beast",), "curse_deaths": ("curse_caster",),
               "results": ("prophet", "undertaker")}
"""Whose night step each is (`night.py`): a step none of them plays is left out of the read-back;
a step without actors here (Anima's revival, the attribute's) is always read."""


def summary_cues(config: BMConfig) -> list[Cue]:
    """The setup read back in one breath before the spoken setup's はい / いいえ, as Additional
    Werewolf's is: the role set, the night (its memo's time, the beasts' gesture and the order
    the night's actions resolve in, `night_order`), and the day (discussion, vote)."""
    timers = config.timers
    order = [[f"bm.step.{step}", 0] for step in config.rules["night_order"]
             if any(config.in_play(role) for role in STEP_ACTORS.get(step, ())) or step not in STEP_ACTORS]
    discussion = (Say("bm.setup.readback_day", {"discussion": timers["discussion"], "vote": timers["vote"]})
                  if timers["discussion"] else Say("bm.setup.readback_day_open", {"vote": timers["vote"]}))
    return [Say("bm.setup.readback_roles", {"roles": role_set(config)}),
            Say("bm.setup.readback_night", {"memo": timers["memo"], "gesture": timers["beast_gesture"],
                                            "order": order}),
            discussion]


def plan_text(config: BMConfig) -> list[str]:
    """The night plan `narrator play --dry-run` prints, as a game file's: the night's timers
    and the order its actions resolve in (the steps of roles in play), then the day."""
    timers = config.timers
    order = [step for step in config.rules["night_order"]
             if any(config.in_play(role) for role in STEP_ACTORS.get(step, ())) or step not in STEP_ACTORS]
    discussion = f"{timers['discussion']} s" if timers["discussion"] else "open"
    return [f"night: beasts' gesture {timers['beast_gesture']} s, memo {timers['memo']} s, results {timers['results']} s; "
            f"resolved in order: {', '.join(order)}",
            f"day: discussion {discussion}, vote {timers['vote']} s"]
