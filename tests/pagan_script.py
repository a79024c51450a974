"""Answer scripts for whole Pagan games, shared by the engine and CLI tests.

A script is the list of answers in the order the narrator asks: 4 setup steps, then per
turn the upkeep steps (5 for the witch, 6 for the hunter) and one answer per action
(2 on the witch's first turn, else 3), where an action may report an outcome.
"""

from __future__ import annotations

SETUP = ["done"] * 4
UPKEEP = {"witch": 5, "hunter": 6}


def turn(side: str, first: bool = False, actions: list[str] | None = None) -> list[str]:
    """The answers of one turn: its upkeep, then `actions` (all `done` by default)."""
    count = 2 if first else 3
    actions = actions if actions is not None else ["done"] * count
    assert len(actions) <= count
    return ["done"] * UPKEEP[side] + actions


def game(*hunter_turns: list[str], ritual: bool = False) -> list[str]:
    """Witch and hunter alternate from the witch's first turn; the hunter's turns take the
    given actions; with `ritual` the witch performs it on her next turn."""
    answers = SETUP + turn("witch", first=True)
    for i, actions in enumerate(hunter_turns):
        answers += turn("hunter", actions=actions)
        if i < len(hunter_turns) - 1 or ritual:
            answers += turn("witch", actions=["ritual"] if ritual and i == len(hunter_turns) - 1 else None)
    return answers


THREE_INNOCENTS = game(["innocent", "done", "done"], ["done", "innocent", "done"], ["innocent"])
"""The witch wins: the hunter eliminates an innocent on turns 2, 4 and 6 (the 3rd ends it)."""
EIGHT_EXONERATED = game(["exonerated"] * 3, ["exonerated"] * 3, ["exonerated", "done", "exonerated"])
"""The hunter wins: exonerations on turns 2, 4, 6; the 8th is turn 6's third action."""
TRUE_WITCH = game(["done", "done", "done"], ["done", "witch"])
"""The hunter wins: the true witch is eliminated on turn 4's second action."""
RITUAL = game(["done", "innocent", "done"], ["done", "done", "exonerated"], ritual=True)
"""The witch wins: she performs the ritual on turn 5, her third turn."""

ENDINGS = {
    "innocent": (THREE_INNOCENTS, "witch", 6),
    "exonerated": (EIGHT_EXONERATED, "hunter", 6),
    "witch": (TRUE_WITCH, "hunter", 4),
    "ritual": (RITUAL, "witch", 5),
}
"""ending → (answers, winner, turn it ends on)."""
