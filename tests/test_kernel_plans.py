"""What an author or a table reads about a shipped game file without playing it
(`narrator describe`): the night plan, the step graph, the file's own scenarios checked
(and a scenario that fails said so, naming why)."""

from __future__ import annotations

from dataclasses import replace

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


def test_the_werewolf_graph_goes_from_the_deal_through_each_call_and_the_day_back_to_the_night():
    assert plans.describe(spec_of("werewolf"), None, "graph") == [
        "flowchart TD",
        "  start([deal]) --> night1",
        "  night1{{night}}",
        '  night1 --> werewolves_meet["werewolf: partners (night 1)"]',
        '  werewolves_meet --> seer["seer: divine (from night 1)"]',
        '  seer --> medium["medium: medium (from night 2)"]',
        '  medium --> knight["knight: guard (from night 2)"]',
        '  knight --> werewolves["werewolf: attack (from night 2)"]',
        "  werewolves --> morning[morning]",
        '  morning --> day1["deaths"]',
        '  day1 --> day2["check"]',
        '  day2 --> win2_1(["eliminated: village"])',
        '  day2 --> win2_2(["parity: werewolves"])',
        '  day2 --> win2_3(["otherwise: village"])',
        '  day2 --> day3["discussion"]',
        '  day3 --> day4["vote (name, tie revote)"]',
        '  day4 --> day5["check"]',
        '  day5 --> win5_1(["eliminated: village"])',
        '  day5 --> win5_2(["parity: werewolves"])',
        '  day5 --> win5_3(["otherwise: village"])',
        "  day5 --> night1"]


def test_the_one_night_graph_ends_at_the_vote_with_its_win_rules():
    graph = plans.graph(spec_of("one-night"))
    assert graph[3:] == [
        '  night1 --> one_night_werewolves["werewolf: partners (from night 1)"]',
        '  one_night_werewolves --> one_night_seer["seer: look (from night 1)"]',
        '  one_night_seer --> thief["thief: swap (from night 1)"]',
        "  thief --> morning[morning]",
        '  morning --> day1["discussion"]',
        '  day1 --> day2["vote (point, tie all)"]',
        '  day2 --> win2_1(["found: tanner"])',
        '  day2 --> win2_2(["found: village"])',
        '  day2 --> win2_3(["peace: village"])',
        '  day2 --> win2_4(["otherwise: werewolves"])']  # no way back to the night: one night only


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
