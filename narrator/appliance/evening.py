"""The evening's winners, said by the appliance after each game.

The appliance has no screen, so after each game it says one line of the table's history:
who won tonight's games (games begun today), most wins first, before it asks "play again?".
Only the winners the narrator knew are named (digital cards, Bestia Magica). They used to be
offered behind the question's `no` (「勝者を聞くときは…「いいえ」と言ってください」): the table had
to refuse a game to hear who won, and that `no` went on to the spoken setup. Now `no` is only
"change the settings"; a press replays.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, Protocol

from narrator import home
from narrator.cues import Ask
from narrator.table.history import records
from narrator.table.standings import evening_winners

if TYPE_CHECKING:
    from narrator.table.session import RunOptions

AGAIN = ("done", "replay", "no")
"""A press of the button, 「次」, or 「もう一回」 (the pack's `replay` words): play the same
settings again, reshuffled, at once; three presses or 「いいえ」: change the settings."""


class Host(Protocol):
    """What the question uses of the `Appliance` (serve.py imports this module, so it is named
    by what it does: tests/test_layout.py allows no import cycle)."""

    log: Callable[[str], None]

    @property
    def run_options(self) -> RunOptions: ...

    async def say(self, line: str, **params: object) -> None: ...

    async def ask(self, ask: Ask, timeout: float | None = None, default: str | None = None) -> object: ...


async def again(appliance: Host) -> bool:
    """'Play again?' after a game, tonight's winners said first (with the history on): True to
    replay the same settings at once (one press); False for the spoken setup."""
    if appliance.run_options.history:
        names = evening_winners(records(home.app_home(), appliance.log), time.strftime("%Y-%m-%d"))
        await appliance.say("appliance.winners" if names else "appliance.no_winners", names=names)
    return await appliance.ask(Ask("appliance.again", AGAIN)) != "no"
