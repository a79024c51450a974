"""The package's house rules (docs/architecture.md).

Imports run one way, down the floors: cli → appliance : phones → games : table → inputs : sound
→ the ground floor, and outside `games/` a game is reached only through the registry and the
contract. Those rules are import-linter contracts in pyproject.toml ([tool.importlinter]), run
here by `lint-imports`; lazy imports inside functions count. No import cycle (on grimp's graph),
and every folder says what it owns. Module size is guidance, not a rule: the before-stop review
(../shared/hooks/before-stop) prints the modules over 400 lines as a warning.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

import narrator

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "narrator"
GROUND_FLOOR = {"cues", "errors", "settings", "home"}


def contracts() -> list[dict]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_are_kept():
    """`lint-imports` over this tree's package (not an installed copy); its report on failure."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([Path(sys.executable).parent / "lint-imports", "pyproject.toml", "--no-cache"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    report = run.stdout[run.stdout.find("Contracts\n"):] + run.stderr
    assert run.returncode == 0, report


def test_all_of_games_but_the_registry_and_the_contract_is_behind_the_door():
    """A new game's folder (or shared module) joins the `one-door` contract's forbidden modules;
    what the other rooms need of a game belongs in `games/contract.py`."""
    (door,) = [c for c in contracts() if c["id"] == "one-door"]
    games = PACKAGE / "games"
    inside = {p.parent.name for p in games.glob("*/__init__.py")} | {p.stem for p in games.glob("*.py")}
    assert {f"narrator.games.{n}" for n in inside - {"__init__", "contract"}} == set(door["forbidden_modules"])


def test_no_import_cycle():
    assert Path(narrator.__file__).parent == PACKAGE  # grimp reads the package imported here
    graph = grimp.build_graph("narrator", cache_dir=None)
    cycles = sorted(" -> ".join([a, *graph.find_shortest_chain(importer=b, imported=a)])
                    for a in graph.modules for b in graph.find_modules_directly_imported_by(a)
                    if b != a and graph.chain_exists(importer=b, imported=a))
    assert cycles == [], "\n".join(cycles)


def test_root_holds_entry_points_and_at_most_four_shared_modules():
    loose = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert loose == GROUND_FLOOR and len(loose) <= 4


@pytest.mark.parametrize("init", sorted(PACKAGE.rglob("__init__.py")), ids=lambda p: str(p.parent.name))
def test_each_folder_says_what_it_owns(init):
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc) > 40, f"{init} needs a docstring saying what its folder owns"
