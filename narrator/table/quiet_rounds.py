"""A table that has gone quiet: the narrator stops and asks instead of playing on alone.

On the phones a private round (Bestia Magica's night memos and votes) closes when its timer
ends, with the answers given so far. If nobody is there to answer (the phones never joined,
the table went for dinner), a game would run on by itself: issue 37 heard 19 nights of
「時間内に投票がありませんでした」. After `rounds` such rounds in a row with no answer at all,
the narrator asks the table aloud (and on the host screen) whether to go on: はい goes on,
いいえ pauses the game: nothing runs, and 「一時停止しています…」 is asked until the table says
はい (an ordinary `pause` waits for a command, which the host screen has no button for). Any answer in a round starts the count again.

Only rounds that closed on their timer count (`Heard.source == "timer"`): passing one device
or an answers file answers every request, and a night call's round (`Collect.call`) may
rightly have nobody to ask. The question is a table control, not a game event: it is never
logged, so a resume simply starts counting again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from narrator.cues import Ask, Collect, Cue
from narrator.games.contract import DEFAULT_QUIET_ROUNDS
from narrator.inputs.heard import Heard

if TYPE_CHECKING:
    from narrator.table.scheduler import Scheduler

QUIET_ASK = "control.quiet"
"""「{rounds}回続けて…続けますか」: asked after `rounds` unanswered rounds in a row."""
PAUSED_ASK = "control.quiet_paused"
"""「一時停止しています。再開するなら「はい」と…」: asked after each いいえ, until はい."""


def unanswered(cues: list[Cue], heard: Heard | None) -> bool:
    """Whether the step just played ended in a private round its timer closed with no answer."""
    last = cues[-1] if cues else None
    return (isinstance(last, Collect) and not last.call and bool(last.requests) and heard is not None
            and heard.kind == "answer" and heard.source == "timer" and not heard.value)


class QuietWatch:
    """Counts the unanswered rounds in a row (the steps between them leave the count); `rounds`
    0 never asks."""

    def __init__(self, rounds: int = DEFAULT_QUIET_ROUNDS) -> None:
        self.rounds = rounds
        self.quiet = 0

    def heard(self, cues: list[Cue], heard: Heard | None) -> bool:
        """Take the step's end; True when the table should be asked now (the count restarts)."""
        if not cues or not isinstance(cues[-1], Collect):
            return False  # a step between rounds (the morning, the discussion) changes nothing
        self.quiet = self.quiet + 1 if unanswered(cues, heard) else 0
        if self.rounds and self.quiet >= self.rounds:
            self.quiet = 0
            return True
        return False


async def ask_table(scheduler: Scheduler, rounds: int, context: dict[str, Any]) -> None:
    """Ask whether to go on; after each いいえ ask whether to resume, until はい."""
    question = Ask(QUIET_ASK, ("yes", "no"), {"rounds": rounds})
    while True:
        heard = await scheduler.play([question], context)
        if heard is None or heard.value != "no":
            return
        question = Ask(PAUSED_ASK, ("yes", "no"))
