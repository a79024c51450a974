"""The rooms that hand a game around are typed (issue 40, "typed seams, checked"): no `Any`
annotation in the command line (`narrator/cli/`), the appliance (`narrator/appliance/`) or the
games (`narrator/games/`), and none at all in the game contract, so mypy sees every call across
them. A parameter names what it needs (a class, a `Protocol`, `Game[C, S]`), and what comes
from outside (a TOML value, a JSON body) is `object`, checked with `isinstance`.

Counted as issue 40 counts them (`: Any`, `-> Any`). `games/card_names.py` is left to the change
that gathers a game's card names in one place, which reshapes it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "narrator"
ROOMS = ("cli", "appliance", "games")
RESHAPED_ELSEWHERE = {"games/card_names.py"}
ANNOTATION = re.compile(r": Any\b|-> Any\b")


def _modules() -> list[Path]:
    return [path for room in ROOMS for path in sorted((PACKAGE / room).rglob("*.py"))
            if path.relative_to(PACKAGE).as_posix() not in RESHAPED_ELSEWHERE]


def test_no_any_annotation_in_the_command_line_the_appliance_or_the_games():
    found = [f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}" for path in _modules()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if ANNOTATION.search(line)]
    assert found == [], "\n".join(found)


def test_the_game_contract_names_no_any():
    tree = ast.parse((PACKAGE / "games" / "contract.py").read_text(encoding="utf-8"))
    named = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Name) and node.id == "Any"
             or isinstance(node, ast.alias) and node.name.endswith("Any")
             or isinstance(node, ast.Attribute) and node.attr == "Any"]
    assert named == [], f"Any in games/contract.py at lines {named}"
