"""The evening's winners, said by the appliance when the table asks after a game.

The appliance has no screen, so after each game it offers one line of the table's history:
who won tonight's games (games begun today), most wins first. Asked by answering `no` to
"play again?" (three presses of the button, or the word), so one button is enough; only
the winners the narrator knew are named (digital cards, Bestia Magica).
"""

from __future__ import annotations

import time
from typing import Any

from narrator import home
from narrator.cues import Ask
from narrator.table.history import records
from narrator.table.standings import evening_winners

AGAIN = ("done", "replay")
"""A press of the button, 「次」, or 「もう一回」 (the pack's `replay` words): play again."""


async def again(appliance: Any) -> None:
    """'Play again?' after a game; with the history on, `no` first says tonight's winners."""
    if not appliance.run_options.history:
        await appliance.ask(Ask("appliance.again", AGAIN))
        return
    await appliance.say("appliance.winners_offer")
    while await appliance.ask(Ask("appliance.again", (*AGAIN, "no"))) == "no":
        names = evening_winners(records(home.app_home(), appliance.log), time.strftime("%Y-%m-%d"))
        await appliance.say("appliance.winners" if names else "appliance.no_winners", names=names)
