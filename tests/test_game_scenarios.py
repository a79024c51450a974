"""Every game's scenarios pass, played by the one runner the games share
(narrator/games/scenarios.py): Additional Werewolf's and Bestia Magica's `scenarios.toml`,
and each shipped game file's `[[scenarios]]`. A scenario that does not hold is reported, one
line naming what differed; `narrator games check` and `narrator play --dry-run` read the
seed games as they read a game file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from narrator.cli import main
from narrator.games import game_names, get_game, scenarios

ROOT = Path(__file__).resolve().parents[1]
SEED_GAMES = {"additional-werewolf": "additional_werewolf", "bestia-magica": "bestia_magica"}


def _described():
    return [name for name in game_names() if get_game(name).describe is not None]


@pytest.mark.parametrize("name", _described())
def test_every_scenario_of_every_game_passes(name):
    results = get_game(name).describe(None, "check")
    assert all(r.startswith("ok ") for r in results), "\n".join(results)


@pytest.mark.parametrize("name", sorted(SEED_GAMES))
def test_the_seed_games_pin_their_rulings_as_scenarios(name):
    results = get_game(name).describe(None, "check")
    assert len(results) >= 3 and name in _described()


def _rules(name):
    game = get_game(name)
    return scenarios.Rules(game.configure, game.new_state, game.advance)


def _check(name, **changed):
    (first, *_) = scenarios.load(ROOT / "narrator" / "games" / SEED_GAMES[name])
    return scenarios.check([{**first, **changed}], lambda s: scenarios.play(_rules(name), s))[0]


def test_a_scenario_that_does_not_hold_is_reported_with_what_differed():
    assert _check("bestia-magica").startswith("ok ")
    assert _check("bestia-magica", winner="beasts").endswith("winner town, expected beasts")
    assert _check("bestia-magica", lines=["bm.end.town", "bm.end.over"]).endswith("line bm.end.over not said in that order")
    assert "outcome winners" in _check("bestia-magica", outcome={"winners": ["Aki"]})
    assert _check("bestia-magica", events=[{"type": "death", "player": "Aki"}]).startswith("FAIL ")
    first = scenarios.load(ROOT / "narrator" / "games" / "bestia_magica")[0]
    assert "answers ran out" in _check("bestia-magica", answers=first["answers"][:3])
    assert "answer(s) left" in _check("bestia-magica", answers=[*first["answers"], "Aki"])
    assert _check("additional-werewolf", answers=["done", "maybe"]).startswith("FAIL ")


def test_games_check_reads_a_seed_game_by_name():
    done = subprocess.run([sys.executable, "-m", "narrator", "games", "check", "bestia-magica"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ok ") == len(scenarios.load(ROOT / "narrator" / "games" / "bestia_magica"))


@pytest.mark.parametrize("name, args, first", [
    ("additional-werewolf", ["--names", "Aki,Ben,Chika,Dai,Emi"], "night 1: seer (10 s)"),
    ("bestia-magica", ["--players", "8"], "night: beasts' gesture 10 s"),
])
def test_the_dry_run_prints_a_seed_games_night_plan(name, args, first):
    result = CliRunner().invoke(main, ["play", name, "--dry-run", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert first in result.output and "day: discussion" in result.output


def test_a_seed_game_has_no_step_graph_and_says_so_in_one_line():
    result = CliRunner().invoke(main, ["games", "graph", "additional-werewolf"])
    assert result.exit_code != 0 and "tells its plan and checks its scenarios only" in result.output
    assert "Traceback" not in result.output
