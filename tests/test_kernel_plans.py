"""What an author or a table reads about a shipped game file without playing it
(`narrator describe`): the night plan, the step graph, the file's own scenarios checked
(and a scenario that fails said so, naming why)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from narrator.games.kernel import files as kernel
from narrator.games.kernel import engine, plans
from narrator.games.kernel.parse import read_game_file
from narrator.games.kernel.state import KConfig


def spec_of(game: str):
    return read_game_file(kernel.shipped_files()[game])


def test_the_werewolf_plan_wakes_each_role_on_its_nights_for_its_seconds():
    spec = spec_of("werewolf")
    assert plans.describe(spec, None, "plan") == [
        "night 1: werewolf (partners, 10 s), seer (divine, 15 s)",
        "night 2: seer (divine, 15 s), knight (guard, 15 s), werewolf (attack, 20 s)",
        "night 3: seer (divine, 15 s), knight (guard, 15 s), werewolf (attack, 20 s)",
        "night 4: seer (divine, 15 s), knight (guard, 15 s), werewolf (attack, 20 s)",
        "day: deaths, check, discussion, vote, check; discussion 300 s, 240 s, 180 s, then 120 s a day; vote by name, "
        "tie: revote"]


def test_the_plan_of_a_table_with_a_medium_and_a_countdown_setting():
    spec = spec_of("werewolf")
    config = KConfig(game="werewolf", names=(), players=8, seed=0, roles=dict(spec.deal[8]), digital_cards=False,
                     countdown=12, discussion=(200, 100))
    plan = plans.describe(spec, config, "plan")
    assert plan[1] == "night 2: seer (divine, 12 s), medium (medium, 12 s), knight (guard, 12 s), werewolf (attack, 12 s)"
    assert plan[-1].startswith("day: deaths, check, discussion, vote, check; discussion 200 s, then 100 s a day;")


def test_the_plan_shows_every_days_discussion_up_to_the_one_that_repeats():
    """werewolf's discussion shortens for four days; tabula's for three; a list whose last
    lengths are alike repeats from the first of them."""
    assert plans.describe(spec_of("tabula"), None, "plan")[-1].startswith(
        "day: deaths, check, discussion, vote, check; discussion 300 s, 240 s, then 180 s a day;")
    spec = spec_of("werewolf")
    config = replace(plans.sample_config(spec), discussion=(300, 180, 180))
    assert "discussion 300 s, then 180 s a day;" in plans.night_plan(spec, config)[-1]
    assert "discussion 240 s a day;" in plans.night_plan(spec, replace(config, discussion=(240,)))[-1]


def test_the_one_night_plan_has_its_one_night_and_its_vote_by_pointing():
    spec = spec_of("one-night")
    assert plans.describe(spec, None, "plan") == [
        "night 1: werewolf (partners, 10 s), seer (look, 15 s), thief (swap, 15 s)",
        "day: discussion, vote; discussion 180 s; vote by point, tie: all"]
    config = plans.sample_config(spec)
    assert (config.players, config.names, config.digital_cards, config.roles) == (3, (), False, dict(spec.deal[3]))
    named = plans.sample_config(spec, ("Aki", "Ben", "Chika", "Dai"))
    assert (named.players, named.digital_cards, named.roles) == (4, True, dict(spec.deal[4]))


def edges(graph: list[str]) -> list[tuple[str, str, str]]:
    """(from, to, label) of each edge of a flowchart, in order."""
    out = []
    for line in graph:
        m = re.match(r'  (\w+) --> (\w+)(?:\[\"?(.*?)\"?\]|\(\[\"(.*?)\"\]\))?$', line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3) or m.group(4) or ""))
    return out


@pytest.mark.parametrize("game", sorted(kernel.shipped_files()))
def test_the_graph_goes_from_the_deal_through_each_call_of_the_file_and_its_day(game):
    """Read from the file itself (its steps, day and wins), so a role added to a shipped file
    needs no edit here: its scenarios are the only pinned rulings (issue 40, item 2)."""
    spec = spec_of(game)
    graph = plans.graph(spec)
    assert graph[:3] == ["flowchart TD", "  start([deal]) --> night1", "  night1{{night}}"]
    walk = edges(graph)
    calls = walk[:len(spec.steps)]
    assert [(a, b) for a, b, _ in calls] == list(zip(["night1", *(s.id for s in spec.steps)], [s.id for s in spec.steps]))
    for (_, _, label), step in zip(calls, spec.steps):
        nights = "night 1" if step.when == "first" else f"from night {step.from_night}"
        assert label.startswith(f"{step.role}: {step.action} ({nights}"), label
    rest = walk[len(spec.steps):]
    assert rest[0][1] == "morning"
    day = [label for _, to, label in rest if to.startswith("day")]
    assert [d.split(" (")[0] for d in day] == list(spec.day.order)
    judged = [i for i, kind in enumerate(spec.day.order, 1) if kind == "check" or (kind == "vote" and spec.nights == 1)]
    for i in judged:
        assert [label for a, to, label in rest if a == f"day{i}" and to.startswith("win")] == [
            f"{w.kind}: {w.winner}" for w in spec.wins]
    assert (walk[-1][1] == "night1") == (not spec.nights)  # a game of one night never goes back


def test_an_every_k_nights_step_says_so_in_the_graph():
    spec = spec_of("werewolf")
    steps = tuple(replace(s, every=2) if s.id == "knight" else s for s in spec.steps)
    graph = plans.graph(replace(spec, steps=steps))
    assert '  medium --> knight["knight: guard (from night 2, every 2)"]' in graph


def test_the_shipped_scenarios_check_ok_and_the_unreviewed_lines_are_none():
    for game in ("one-night", "werewolf", "tabula"):
        spec = spec_of(game)
        assert plans.describe(spec, None, "check") == [f"ok {s['name']}" for s in spec.scenarios]
        assert plans.describe(spec, None, "unreviewed") == []


SCENARIO = {"players": ["Aki", "Ben", "Chika", "Dai", "Emi"], "deal": ["werewolf", "seer", "knight", "villager",
                                                                      "villager"]}


def test_a_scenario_that_fails_is_reported_with_why():
    spec = spec_of("werewolf")
    wrong = [
        {**SCENARIO, "name": "wrong winner", "answers": ["done", "Aki", "Aki"], "winner": "werewolves"},
        {**SCENARIO, "name": "wrong order", "answers": ["done", "Aki", "Aki"], "winner": "village",
         "lines": ["wolf.executed", "wolf.no_death"]},
        {**SCENARIO, "answers": ["done", "Aki"], "winner": "village"},
        {**SCENARIO, "name": "a bad answer", "answers": ["done", "Ben"], "winner": "village"},
        {**SCENARIO, "name": "right", "answers": ["done", "Aki", "Aki"], "winner": "village",
         "lines": ["wolf.welcome.werewolf", "wolf.no_death", "wolf.executed", "wolf.win.village"]},
        {**SCENARIO, "name": "twice", "answers": ["done", "Aki", "Aki"], "winner": "village",
         "lines": ["wolf.sleep", "wolf.sleep", "wolf.sleep"]},
    ]
    assert plans.check(replace(spec, scenarios=tuple(wrong))) == [
        "FAIL wrong winner: winner village, expected werewolves",
        "FAIL wrong order: line wolf.no_death not said in that order",
        "FAIL #3: the answers ran out at 'wolf.vote'",
        "FAIL a bad answer: not a choice of this night call",
        "ok right", "FAIL twice: line wolf.sleep not said in that order"]


def test_a_scenario_plays_its_seed_its_cards_and_a_vote_of_several_names():
    spec = spec_of("one-night")
    physical = {"players": ["Aki", "Ben", "Chika", "Dai"], "cards": "physical",
                "answers": ["done", "yes", "Aki,Ben", "no"]}
    lines, state = plans.play_scenario(spec, physical)
    assert state.executed == ("Aki", "Ben") and state.winner == "werewolves"
    assert "wolf.you_are" not in lines and "wolf.deal_centre" in lines
    for seed in (None, 4, 7):  # no deal given: the seed's shuffle (none given: seed 0), the seer and thief answer
        config = replace(plans.sample_config(spec, ("Aki", "Ben", "Chika")), seed=seed or 0)
        cards = engine.deal_cards(spec, config)
        lone = cards[:3].count("werewolf") == 1  # a lone wolf looks at a centre card first
        answers = ["done"] + ["centre1"] * lone + ["centre"] * ("seer" in cards[:3]) + ["nobody"] * (
            "thief" in cards[:3]) + ["no"]
        scenario = {"players": ["Aki", "Ben", "Chika"], "answers": answers} | ({"seed": seed} if seed else {})
        _, state = plans.play_scenario(spec, scenario)
        assert state.first == cards


def test_a_night_that_wakes_nobody_says_so_in_the_plan():
    spec = spec_of("werewolf")
    later = replace(spec, steps=tuple(s for s in spec.steps if s.from_night > 1))
    assert plans.night_plan(later, plans.sample_config(later))[:2] == [
        "night 1: nobody wakes", "night 2: knight (guard, 15 s), werewolf (attack, 20 s)"]


def test_an_unknown_description_is_refused_not_answered_with_the_night_plan():
    """Issue 40, item 4: `describe` fell back to the night plan on any word it did not know."""
    import pytest

    with pytest.raises(ValueError, match="unknown description 'graf'; one of plan, graph, check, unreviewed"):
        plans.describe(spec_of("werewolf"), None, "graf")
