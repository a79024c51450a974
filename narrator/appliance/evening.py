"""The evening's winners, said by the appliance when the table asks after a game.

The appliance has no screen, so after each game it offers one line of the table's history:
who won tonight's games (games begun today), most wins first. Asked by answering `no` to
"play again?" (three presses of the button, or the word), so one button is enough; only
the winners the narrator knew are named (digital cards, Bestia Magica). The same `no` then
goes on to the spoken setup (a game's end offers to change the settings); a press replays.
"""

from __future__ import annotations

import time
from typing import Any

from narrator import home
from narrator.cues import Ask
from narrator.table.history import records
from narrator.table.standings import evening_winners

AGAIN = ("done", "replay", "no")
"""A press of the button, 「次」, or 「もう一回」 (the pack's `replay` words): play the same
settings again, reshuffled, at once; three presses or 「いいえ」: change the settings."""


async def again(appliance: Any) -> bool:
    """'Play again?' after a game: True to replay the same settings at once (one press); False
    for the spoken setup (and first, with the history on, tonight's winners)."""
    if appliance.run_options.history:
        await appliance.say("appliance.winners_offer")
    if await appliance.ask(Ask("appliance.again", AGAIN)) != "no":
        return True
    if appliance.run_options.history:
        names = evening_winners(records(home.app_home(), appliance.log), time.strftime("%Y-%m-%d"))
        await appliance.say("appliance.winners" if names else "appliance.no_winners", names=names)
    return False
