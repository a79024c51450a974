"""Every role of the three shipped game files in a scenario: a deal and the answers in, the
line ids said (or shown to one player) and the winner out, played by the kernel in-process.

The deal lists each seat's card in seat order, then the centre's; answers are what the table
(or a holder, privately) answers, in the order asked.
"""

from __future__ import annotations

import pytest

from narrator.games.kernel import files as kernel
from narrator.games.kernel import plans
from narrator.games.kernel.parse import read_game_file
from tests.kernel_table import StepBudget

FOUR = ["Aki", "Ben", "Chika", "Dai"]
SIX = ["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi"]
EIGHT = ["Aki", "Ben", "Chika", "Dai", "Emi", "Fumi", "Gen", "Hana"]

SCENARIOS = {
    ("one-night", "werewolf"): dict(
        players=FOUR, deal=["werewolf", "seer", "thief", "villager", "werewolf", "villager"],
        answers=["done", "centre1", "centre", "nobody", "yes", "Dai"],  # the lone wolf looks at a centre card
        lines=["wolf.alone", "wolf.seen_centre_one", "wolf.seen_centre", "wolf.kept_card", "wolf.reveal",
               "wolf.win.werewolves"],
        winner="werewolves"),
    ("one-night", "seer"): dict(
        players=FOUR, deal=["werewolf", "seer", "thief", "villager", "werewolf", "villager"],
        answers=["done", "centre2", "Aki", "nobody", "yes", "Aki,Ben"],  # Aki and Ben tied: both executed
        lines=["wolf.call.one_night_seer.choose", "wolf.seen_card", "wolf.win.village"], winner="village"),
    ("one-night", "thief"): dict(  # the thief takes the werewolf: he is now the one to find
        players=FOUR, deal=["werewolf", "seer", "thief", "villager", "werewolf", "villager"],
        answers=["done", "centre1", "Dai", "Aki", "yes", "Aki"],
        lines=["wolf.call.thief.choose", "wolf.new_card", "wolf.reveal", "wolf.win.werewolves"], winner="werewolves"),
    ("one-night", "madman"): dict(  # both werewolves in the centre, still called; the madman hanged
        players=FOUR, deal=["madman", "seer", "thief", "villager", "werewolf", "werewolf"],
        answers=["done", "Dai", "nobody", "yes", "Aki"],
        lines=["wolf.call.one_night_werewolves.wake", "wolf.call.one_night_werewolves.act", "wolf.win.werewolves"],
        winner="werewolves"),
    ("one-night", "villager"): dict(  # nobody executed and no werewolf in a hand: the village wins
        players=FOUR, deal=["villager", "seer", "thief", "villager", "werewolf", "werewolf"],
        answers=["done", "centre", "nobody", "no"],
        lines=["wolf.nobody_executed", "wolf.win.village"], winner="village"),
    ("one-night", "physical"): dict(  # physical cards: the table tells what the cards say
        players=FOUR, cards="physical", answers=["done", "yes", "Ben", "yes"],
        lines=["wolf.deal_centre", "wolf.executed", "wolf.executed_role", "wolf.win.village"], winner="village"),
    ("one-night", "tanner"): dict(  # the tanner executed with a werewolf: its rule is first, it wins alone
        players=FOUR, deal=["tanner", "seer", "thief", "werewolf", "villager", "werewolf"],
        answers=["done", "centre1", "Aki", "nobody", "yes", "Aki,Dai"],
        lines=["wolf.seen_card", "wolf.executed", "wolf.reveal", "wolf.win.tanner"], winner="tanner"),
    ("one-night", "tanner, physical cards"): dict(  # asked about the tanner (no), then the werewolf (yes)
        players=FOUR, cards="physical", deal=["tanner", "seer", "thief", "werewolf", "villager", "werewolf"],
        answers=["done", "yes", "Dai", "no", "yes"],
        lines=["wolf.turn_executed", "wolf.executed_role", "wolf.executed_role", "wolf.win.village"],
        winner="village"),
    ("werewolf", "knight"): dict(
        players=SIX, deal=["werewolf", "seer", "knight", "medium", "madman", "villager"],
        answers=["done", "Chika", "Fumi", "Aki", "Ben", "Ben", "Aki"],
        lines=["wolf.result.human", "wolf.no_death", "wolf.executed", "wolf.result.werewolf",
               "wolf.call.knight.choose", "wolf.no_death", "wolf.win.village"], winner="village"),
    ("werewolf", "medium"): dict(
        players=SIX, deal=["werewolf", "seer", "knight", "medium", "madman", "villager"],
        answers=["done", "Chika", "Fumi", "Aki", "Ben", "Ben", "Aki"],
        lines=["wolf.call.medium.wake", "wolf.result.human", "wolf.call.knight.wake"], winner="village"),
    ("werewolf", "werewolf"): dict(  # parity: one wolf and one human left
        players=SIX[:5], deal=["werewolf", "seer", "knight", "villager", "villager"],
        answers=["done", "Chika", "Ben", "Dai", "Emi", "Dai"],
        lines=["wolf.call.seer.wake", "wolf.call.seer.choose", "wolf.killed", "wolf.win.werewolves"],
        winner="werewolves"),
    ("werewolf", "madman"): dict(  # the madman counts as human, and wins with the wolves
        players=SIX, deal=["werewolf", "seer", "knight", "medium", "madman", "villager"],
        answers=["done", "Aki", "Ben", "Dai", "Fumi", "Chika", "Dai"],
        lines=["wolf.result.werewolf", "wolf.executed", "wolf.killed", "wolf.win.werewolves"], winner="werewolves"),
    ("werewolf", "seer"): dict(
        players=SIX[:5], deal=["werewolf", "seer", "knight", "villager", "villager"],
        answers=["done", "Aki", "Aki"], lines=["wolf.call.seer.choose", "wolf.result.werewolf", "wolf.win.village"],
        winner="village"),
    ("werewolf", "villager"): dict(  # a tie, the revote among the tied, tied again: nobody dies
        players=SIX[:5], deal=["werewolf", "seer", "knight", "villager", "villager"],
        answers=["done", "Dai", "Dai,Emi", "Dai,Emi", "Emi", "Dai", "Emi", "Aki"],
        lines=["wolf.revote", "wolf.no_execution", "wolf.killed", "wolf.win.village"], winner="village"),
    ("tabula", "fox"): dict(  # attacked, the fox survives; alive at the end, it takes the win
        players=EIGHT, deal=["werewolf", "werewolf", "madman", "seer", "psychic", "hunter", "villager", "fox"],
        answers=["done", "Gen", "Aki", "Chika", "Dai", "Hana", "Ben"],
        lines=["wolf.result.human", "wolf.no_death", "wolf.win.fox"], winner="fox"),
    ("tabula", "fox divined"): dict(
        players=EIGHT, deal=["werewolf", "werewolf", "madman", "seer", "psychic", "hunter", "villager", "fox"],
        answers=["done", "Hana", "Aki", "Emi", "Dai", "Dai", "Ben"],
        lines=["wolf.killed", "wolf.win.village"], winner="village"),
    ("tabula", "mason"): dict(
        players=EIGHT + ["Iku"],
        deal=["werewolf", "werewolf", "madman", "seer", "psychic", "hunter", "villager", "mason", "mason"],
        answers=["done", "Aki", "Aki", "Ben", "Dai", "Gen", "Ben"],
        lines=["wolf.call.masons.wake", "wolf.partners", "wolf.killed", "wolf.win.village"], winner="village"),
}


@pytest.mark.parametrize("key", list(SCENARIOS), ids=lambda k: f"{k[0]}:{k[1]}")
def test_a_role_plays_as_its_scenario_says(key):
    spec = read_game_file(kernel.shipped_files()[key[0]])
    scenario = SCENARIOS[key]
    lines, state = plans.play_scenario(spec, scenario)
    assert state.winner == scenario["winner"], lines
    assert plans._missing(lines, scenario["lines"]) is None, lines


def own_scenarios() -> dict[str, list[dict]]:
    """Each shipped file's own `[[scenarios]]` (the villages carry theirs: `narrator games check`
    plays them, and `tests/test_game_files.py` requires each to pass)."""
    return {game: list(read_game_file(path).scenarios) for game, path in kernel.shipped_files().items()}


def test_every_shipped_role_has_a_scenario():
    """Every role of every shipped file is dealt in a scenario here or in the file's own, and
    every file has a scenario of either kind (the dealt cards: each seat's, then the centre's or
    the first victim's)."""
    covered = {(game, role) for (game, _), s in SCENARIOS.items() for role in s.get("deal", ())}
    covered |= {(game, role) for game, scenarios in own_scenarios().items() for s in scenarios
                for role in s.get("deal", ())}
    for game, path in kernel.shipped_files().items():
        roles = set(read_game_file(path).roles)
        assert {r for g, r in covered if g == game} == roles, game
        assert {r for g, r in SCENARIOS if g == game} & roles or own_scenarios()[game], game


def test_a_divined_fox_dies_and_a_private_result_never_reaches_the_table():
    spec = read_game_file(kernel.shipped_files()["tabula"])
    lines, state = plans.play_scenario(spec, SCENARIOS[("tabula", "fox divined")])
    assert "Hana" in state.dead and state.dead.index("Hana") == 0


@pytest.mark.parametrize("name", list(kernel.shipped_files()))
def test_render_ahead_covers_every_spoken_line_of_the_scenarios(name):
    """Nothing is synthesized during a game: the walk of render-ahead meets every line id the
    scenarios speak, here and the file's own (private lines are shown, never spoken)."""
    from narrator.games import get_game
    from narrator.settings import build_settings
    from narrator.sound.render_ahead import game_requests

    game = get_game(name)
    spec = read_game_file(kernel.shipped_files()[name])
    rendered = set()
    # a set with every scenario's roles: the most players the file takes (one-night's 4, werewolf's 8, tabula's 10)
    counts = {"one-night": ["4"], "werewolf": ["8"], "tabula": ["10"]}.get(
        name, [str(n) for n in range(spec.players[0], spec.players[1] + 1)])
    for players in counts:
        for flags in ({}, {"digital_cards": "true"}):
            if name != "one-night" and flags:
                continue
            config = game.configure(build_settings({}, {"game": name, "seed": 0, "players": players, **flags},
                                                   "defaults"))
            rendered |= {line for line, _ in game_requests(game, config)}
    pack_lines = set()
    scenarios = [s for (game_name, _), s in SCENARIOS.items() if game_name == name] + own_scenarios()[name]
    for scenario in scenarios:
        lines, _ = plans.play_scenario(spec, scenario)
        pack_lines |= set(lines)
    private = {"wolf.you_are", "wolf.partners", "wolf.alone", "wolf.seen_card", "wolf.seen_centre", "wolf.new_card",
               "wolf.kept_card", "wolf.result.human", "wolf.result.werewolf", "wolf.result.nobody",
               "wolf.seen_centre_one", "wolf.lone_choose", "wolf.pack_victim", "wolf.pack_none", "wolf.too_late",
               "wolf.known", "wolf.known_none"}
    assert pack_lines - private <= rendered


def test_a_state_round_trips_through_json_at_every_step():
    """The store snapshots each step and `resume` reads it back: the state is its JSON."""
    import json

    from narrator.cues import Ask, Collect, Continue, Start
    from narrator.games.kernel import engine
    from narrator.games.kernel.state import KConfig, KState

    spec = read_game_file(kernel.shipped_files()["tabula"])
    scenario = SCENARIOS[("tabula", "fox")]
    config = KConfig(game="tabula", names=tuple(scenario["players"]), players=8, seed=0,
                     roles={r: scenario["deal"].count(r) for r in scenario["deal"]}, digital_cards=True,
                     fixed=tuple(scenario["deal"]))
    assert KConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    state, event, answers, budget = KState(), Start(), list(scenario["answers"]), StepBudget()
    while not state.finished:
        budget.tick()
        state, cues = engine.advance(spec, config, state, event)
        assert KState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
        event = plans.answer_for(cues[-1], lambda line: answers.pop(0)) if cues and isinstance(cues[-1], (Ask, Collect)) \
            else Continue()
