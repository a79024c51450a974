"""The package's house rules, read from the source with `ast` (docs/architecture.md).

Imports run one way, down: cli → appliance/phones → games/table → inputs/sound → the
ground floor. No import cycle, no module over 400 lines, and every folder says what it owns.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "narrator"
GROUND_FLOOR = {"cues", "errors", "settings", "home"}
RANK = {"ground": 0, "sound": 1, "inputs": 1, "games": 2, "table": 2, "phones": 3, "appliance": 3, "cli": 4,
        "__main__": 5}
MAX_LINES = 400


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, modules: set[str], root: Path = PACKAGE) -> set[str]:
    """The project's modules that `path` imports, at any depth in the file (lazy imports count)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = {f"{target}.{a.name}" for a in node.names} & modules  # `from pkg import module`
            found.update(submodules)
            if len(submodules) < len(node.names):  # it also takes names from `target` itself
                found.add(target)
    return {m for m in found if m in modules and m != name}


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(p, root) for p in paths}
    return {module_name(p, root): imports_of(p, modules, root) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path [a, b, …, a], or None (depth-first search, three colours)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def room(module: str) -> str:
    """The room (top-level folder) a module lives in; the ground-floor modules share one."""
    parts = module.split(".")
    if len(parts) == 1:
        return "package"
    return "ground" if parts[1] in GROUND_FLOOR else parts[1]


def test_cycle_finder_finds_a_cycle_and_accepts_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_graph_reads_relative_lazy_and_from_package_imports(tmp_path):
    pkg = tmp_path / "narrator"
    (pkg / "room").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "room" / "__init__.py").write_text("")
    (pkg / "room" / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "room" / "b.py").write_text("from narrator.room import a\n")
    graph = import_graph(pkg)
    assert graph["narrator.room.a"] == {"narrator.room.b"}
    assert graph["narrator.room.b"] == {"narrator.room.a"}
    assert find_cycle(graph) is not None


def test_no_import_cycle():
    assert find_cycle(import_graph()) is None


def test_imports_run_one_way_down():
    upward = []
    for module, targets in import_graph().items():
        if room(module) == "package":
            continue
        for target in targets:
            if room(target) == "package":
                continue
            if RANK[room(target)] > RANK[room(module)]:
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_ground_floor_imports_no_room():
    for module, targets in import_graph().items():
        if room(module) == "ground":
            assert {room(t) for t in targets} <= {"ground", "package"}, module


def test_root_holds_entry_points_and_at_most_four_shared_modules():
    loose = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert loose == GROUND_FLOOR and len(loose) <= 4


def test_every_room_is_ranked():
    rooms = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert rooms <= set(RANK), rooms - set(RANK)


@pytest.mark.parametrize("init", sorted(PACKAGE.rglob("__init__.py")), ids=lambda p: str(p.parent.name))
def test_each_folder_says_what_it_owns(init):
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc) > 40, f"{init} needs a docstring saying what its folder owns"


def test_no_module_over_400_lines():
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
