"""No dead code in `narrator/` (issue 40, item 4: `fresh_settings`, `option_keys`, `unset_key`
and `CHOICE_CARDS` were defined and used nowhere, so a reader took them for live paths).

A module-level function, class or constant of the package must be named somewhere besides its
own definition: the package, its data files, the tests, the benches, the scripts or the engines.
Decorated definitions (click commands, entry points, caches) and Protocols (an interface
written down) are live by being declared. Unused imports are ruff's (F401) job."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
READ_BESIDE = ("tests", "bench", "scripts", "engines")


def _is_protocol(node: ast.ClassDef) -> bool:
    return any(isinstance(base, ast.Name) and base.id == "Protocol" for base in node.bases)


def _defined(tree: ast.Module) -> list[tuple[int, str]]:
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not node.decorator_list and not (isinstance(node, ast.ClassDef) and _is_protocol(node)):
                names.append((node.lineno, node.name))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [(node.lineno, t.id) for t in targets if isinstance(t, ast.Name)]
    return [(line, name) for line, name in names if not name.startswith("__")]


def unused(repo: Path) -> list[str]:
    """`path:line name` of every module-level definition of `repo/narrator` named only once."""
    package = sorted((repo / "narrator").rglob("*.py"))
    beside = [p for d in READ_BESIDE for p in (repo / d).rglob("*") if p.is_file()
              and (p.suffix in (".py", ".toml", ".sh", ".md") or not p.suffix)]
    data = [*(repo / "narrator").rglob("*.toml"), *(repo / "narrator").rglob("*.js"), *repo.glob("pyproject.toml")]
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in [*package, *beside, *data])
    words = Counter(re.findall(r"\w+", text))
    found = []
    for path in package:
        for line, name in _defined(ast.parse(path.read_text(encoding="utf-8"))):
            if words[name] <= 1:
                found.append(f"{path.relative_to(repo)}:{line} {name}")
    return found


def test_every_module_level_definition_is_used_somewhere():
    assert unused(REPO) == []


def test_a_definition_named_nowhere_else_is_found(tmp_path):
    (tmp_path / "narrator").mkdir()
    (tmp_path / "narrator" / "a.py").write_text("USED = 1\nUNUSED = 2\n\ndef f():\n    return USED\n\n"
                                                "from typing import Protocol\n\nclass Shape(Protocol):\n    pass\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("from narrator.a import f\n")
    assert unused(tmp_path) == ["narrator/a.py:2 UNUSED"]
