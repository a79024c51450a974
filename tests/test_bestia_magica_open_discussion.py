"""`discussion = 0` in Bestia Magica is what its readback says and what it is in Additional
Werewolf: no clock, the table says when it is done (issue 40, item 4: the readback said
"until the table is done" while the day ran a 0-second timer and went straight to the vote)."""

from __future__ import annotations

import random

from narrator.cues import Ask, Collect, Say, Timer
from tests.bm_driver import RULES, configure, random_policy


def _first_day(config):
    """Play to the first day's end of discussion; return every cue, answering the rounds."""
    rng, state, event, played = random.Random(3), RULES.new_state(), {"type": "start"}, []
    for _ in range(200):
        state, cues = RULES.advance(config, state, event)
        played += cues
        if any(isinstance(c, Say) and c.line.startswith("bm.vote.attribute.") for c in cues):
            return played
        last = cues[-1] if cues else None
        if isinstance(last, Collect):
            event = {"type": "answer", "value": {r.player: random_policy(r, state, rng) for r in last.requests}}
        elif isinstance(last, Ask):
            assert last.line == "setup.ready" and last.choices == ("done",)
            event = {"type": "answer", "value": "done"}
        else:
            event = {"type": "continue"}
    raise AssertionError("the first vote never came")


def test_discussion_zero_waits_for_the_table_instead_of_a_zero_second_timer():
    cues = _first_day(configure(seed=4, discussion=0))
    assert not [c for c in cues if isinstance(c, Timer) and c.line == "discussion"]
    asks = [i for i, c in enumerate(cues) if isinstance(c, Ask)]
    opened = [i for i, c in enumerate(cues) if isinstance(c, Say) and c.line == "bm.day.discussion_open"]
    assert len(opened) == 1 and asks and asks[0] == opened[0] + 1


def test_a_timed_discussion_still_runs_its_timer_and_asks_nothing():
    cues = _first_day(configure(seed=4, discussion=60))
    assert [c.seconds for c in cues if isinstance(c, Timer) and c.line == "discussion"] == [60]
    assert not [c for c in cues if isinstance(c, Ask)]
