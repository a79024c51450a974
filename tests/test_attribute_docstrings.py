"""An attribute's docstring is the string right under its assignment (editors and readers
take it so). Two strings in a row mean one of them sits under the wrong attribute (issue 40,
item 4: two of `inputs/hub.py`'s did), and a string under no assignment says nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import narrator

ROOT = Path(narrator.__file__).parent


def _is_text(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def misplaced(source: str) -> list[int]:
    """Lines of strings that follow neither an assignment nor the start of their body."""
    found = []
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for before, statement in zip(body, body[1:]):
            if _is_text(statement) and not isinstance(before, (ast.Assign, ast.AnnAssign)):
                found.append(statement.lineno)
    return found


def test_every_attribute_docstring_sits_under_an_assignment():
    wrong = {str(path.relative_to(ROOT)): lines for path in sorted(ROOT.rglob("*.py"))
             if (lines := misplaced(path.read_text(encoding="utf-8")))}
    assert wrong == {}


def test_a_string_under_another_string_is_found():
    assert misplaced('class A:\n    def __init__(self):\n        self.a = 1\n        """a"""\n        """b"""\n') == [5]
    assert misplaced('class A:\n    def __init__(self):\n        self.a = 1\n        """a"""\n') == []
