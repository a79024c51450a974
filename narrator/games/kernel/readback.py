"""A game file's setup read back in one breath before the spoken setup's はい / いいえ
(`Game.summary`), as Additional Werewolf's is: the card set, the night calls in play in their
order with their countdown, and the first day's discussion (until a side wins, or one night
and one vote for a one-night game). Only what the config and the file say; no clock."""

from __future__ import annotations

from narrator.cues import Cue, Say
from narrator.games.kernel import engine
from narrator.games.kernel.calls import in_set
from narrator.games.kernel.model import GameFile
from narrator.games.kernel.state import KConfig


def summary(spec: GameFile, config: KConfig) -> list[Cue]:
    cues: list[Cue] = [*engine.box(spec, config)]
    calls = [step for step in spec.steps if in_set(spec, config, step)]
    order = list(dict.fromkeys(step.role for step in calls))
    if order:
        cues.append(Say("wolf.readback_order", {"order": [[f"wolf.role.{r}", 0] for r in order]}))
    seconds = {config.countdown} if config.countdown else {step.seconds for step in calls}
    if len(seconds) == 1 and calls:  # calls of their own lengths are the file's, not the table's
        cues.append(Say("wolf.readback_countdown", {"countdown": seconds.pop()}))
    line = "wolf.readback_one_night" if spec.nights == 1 else "wolf.readback_discussion"
    cues.append(Say(line, {"discussion": config.discussion_for(spec, 1)}))
    return cues
