"""The day's steps run in the order the game file gives them (`[day] order`: the night's
deaths, an end check, the discussion, the vote), and an order that contradicts itself is
refused at load time in one line naming the entry and the fix.
"""

from __future__ import annotations

import re
import tomllib

import pytest

from narrator.errors import SetupError
from narrator.games.kernel import files as kernel
from narrator.games.kernel import engine, plans
from narrator.games.kernel.parse import parse_game
from narrator.games.kernel.state import KConfig, KState
from narrator.cues import Ask, Collect, Continue, Start, Timer
from narrator.games.kernel.plans import answer_for
from tests.kernel_table import StepBudget

WEREWOLF = kernel.shipped_files()["werewolf"]
ORDER = 'order = ["deaths", "check", "discussion", "vote", "check"]'
PLAYERS = ["Aki", "Ben", "Chika", "Dai", "Emi"]
DEAL = ["werewolf", "seer", "knight", "villager", "villager"]


def _spec(order: str):
    text = WEREWOLF.read_text(encoding="utf-8")
    assert ORDER in text
    return parse_game(tomllib.loads(text.replace(ORDER, order)), "my-wolf.toml")


def _day_one(spec) -> list:
    """The cues of a game from the deal to the first question of day 1 (Aki the wolf)."""
    config = KConfig(game="werewolf", names=tuple(PLAYERS), players=5, seed=0,
                     roles={"werewolf": 1, "seer": 1, "knight": 1, "villager": 2}, digital_cards=True,
                     fixed=tuple(DEAL))
    state, event, said = KState(), Start(), []
    answers, budget = ["done", "Aki"], StepBudget()  # ready; the seer (Ben) divines
    while True:
        budget.tick()
        state, cues = engine.advance(spec, config, state, event)
        if state.day:
            said += cues
        if cues and isinstance(cues[-1], (Ask, Collect)):
            if state.day:
                return said
            event = answer_for(cues[-1], lambda line: answers.pop(0))
        else:
            event = Continue()


def test_the_shipped_order_says_the_deaths_then_discusses_then_votes():
    said = [getattr(c, "line", None) for c in _day_one(_spec(ORDER))]
    assert said == ["wolf.morning", "wolf.no_death", "wolf.discussion", "discussion", "wolf.discussion_end",
                    "wolf.vote_call", "wolf.count_in", "wolf.vote"]


def test_a_day_without_discussion_goes_straight_to_the_vote():
    cues = _day_one(_spec('order = ["deaths", "check", "vote", "check"]'))
    assert [getattr(c, "line", None) for c in cues] == ["wolf.morning", "wolf.no_death", "wolf.vote_call",
                                                        "wolf.count_in", "wolf.vote"]
    assert not [c for c in cues if isinstance(c, Timer)]


def test_the_check_runs_where_the_file_puts_it():
    """Parity at morning: checked there, the game ends; checked only after the vote, the day goes on."""
    scenario = {"players": PLAYERS[:3], "deal": ["werewolf", "seer", "villager"], "answers": ["done", "Chika", "Ben"]}
    data = tomllib.loads(WEREWOLF.read_text(encoding="utf-8").replace('players = [5, 15]', 'players = [3, 15]'))
    data["deal"]["3"] = {"werewolf": 1, "seer": 1, "villager": 1}
    data["deal"]["4"] = {"werewolf": 1, "seer": 1, "villager": 2}
    meet = next(s for s in data["steps"] if s["id"] == "werewolves_meet")
    meet["when"], meet["action"] = "every", "attack"  # the wolves attack from the first night
    data["steps"] = [s for s in data["steps"] if s["id"] != "werewolves"]  # not again from night 2
    early = parse_game(data, "w.toml")
    lines, state = plans.play_scenario(early, {**scenario, "answers": ["done", "Ben", "Chika"]})
    assert state.winner == "werewolves" and "wolf.discussion" not in lines  # one wolf, one human: parity at dawn
    data["day"]["order"] = ["deaths", "discussion", "vote", "check"]
    late = parse_game(data, "w.toml")
    lines, state = plans.play_scenario(late, {**scenario, "answers": ["done", "Ben", "Chika", "Aki"]})
    assert "wolf.discussion" in lines and state.winner == "village"  # the vote came first and hanged the wolf


@pytest.mark.parametrize("order,message", [
    ('order = ["deaths", "check", "dance", "vote", "check"]', "unknown day step 'dance'; use one of deaths, check, "
                                                              "discussion, vote"),
    ('order = ["deaths", "check", "vote", "discussion", "check"]', "'vote' before 'discussion'; move 'discussion' "
                                                                   "above 'vote'"),
    ('order = ["check", "deaths", "discussion", "vote", "check"]', "'check' before 'deaths': the night's deaths open "
                                                                   "the day; move 'deaths' first"),
    ('order = ["deaths", "discussion", "vote"]', "no 'check' after 'vote': the vote could never end the game"),
    ('order = ["deaths", "discussion", "check"]', "no 'vote': the game could never end by it; add 'vote'"),
    ('order = ["deaths", "vote", "vote", "check"]', "'vote' comes twice; keep one"),
    ('order = []', "must be a list of the day's steps"),
])
def test_an_order_that_contradicts_itself_is_refused_in_one_line(order, message):
    with pytest.raises(SetupError) as err:
        _spec(order)
    text = str(err.value)
    assert "\n" not in text and text.startswith("game file my-wolf.toml: [day] order: "), text
    assert message in text, text


def test_a_one_night_day_is_the_discussion_then_the_vote():
    text = kernel.shipped_files()["one-night"].read_text(encoding="utf-8")
    data = tomllib.loads(text)
    data["day"]["order"] = ["deaths", "discussion", "vote"]
    with pytest.raises(SetupError, match=re.escape("[day] order: a one-night day is the discussion, then the vote")):
        parse_game(data, "on.toml")


def test_the_graph_follows_the_order():
    out = "\n".join(plans.graph(_spec('order = ["deaths", "check", "vote", "check"]')))
    assert 'morning --> day1["deaths"]' in out and 'day2 --> day3["vote (name, tie revote)"]' in out
    assert "discussion" not in out
