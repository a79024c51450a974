"""The phone page's handlers are typed by what they use of their page (narrator/phones/serving.py).

Why: a handler took `server: Any`, so a renamed attribute of `PhoneServer` or of the settings
page failed at the table, not in the quick loop; now each takes a Protocol (`Serving`, `Menu`,
`Door`, `Releasing`) and mypy checks the page against it wherever a handler is handed one. This
keeps `Any` from coming back into those modules' signatures (the count issue 40 measures:
`: Any` / `-> Any`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PHONES = Path(__file__).resolve().parents[1] / "narrator" / "phones"
NOT_YET = {"server.py", "channel.py", "streams.py", "answers.py"}
"""Typed in their own part of issue 40 (the phone tap's walk), not here."""


def any_annotations(source: str) -> list[str]:
    """Each parameter, return or variable annotated as plain `Any`, as `name:line`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for arg in [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]:
                if arg is not None and _is_any(arg.annotation):
                    found.append(f"{arg.arg}:{arg.lineno}")
            if _is_any(node.returns):
                found.append(f"{node.name} return:{node.lineno}")
        elif isinstance(node, ast.AnnAssign) and _is_any(node.annotation):
            found.append(f"{ast.unparse(node.target)}:{node.lineno}")
    return found


def _is_any(annotation: ast.expr | None) -> bool:
    return (isinstance(annotation, ast.Name) and annotation.id == "Any"
            or isinstance(annotation, ast.Attribute) and annotation.attr == "Any"
            or isinstance(annotation, ast.Constant) and annotation.value == "Any")


@pytest.mark.parametrize("module", sorted(p.name for p in PHONES.glob("*.py") if p.name not in NOT_YET))
def test_no_phone_module_of_this_part_annotates_anything_as_any(module):
    assert any_annotations((PHONES / module).read_text(encoding="utf-8")) == []


def test_the_check_finds_a_server_typed_any_in_every_place_it_can_hide():
    source = ("from typing import Any\nimport typing\n"
              "def f(server: Any, *a: Any, k: 'Any' = 1, **kw: typing.Any) -> Any: ...\n"
              "x: Any = 1\n"
              "def g(server: 'Serving', value: dict[str, Any]) -> object: ...\n")
    assert any_annotations(source) == ["server:3", "a:3", "k:3", "kw:3", "f return:3", "x:4"]
