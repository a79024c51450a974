"""Every process a test starts is bounded and reaped (issue 40): each `subprocess.run`-like call
in tests/ has a timeout, each `Popen` goes through `tests/processes.py: started` (ended with its
children when the test ends, by conftest's `reap_children`), and that reaping ends a child's
own children too."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import processes

TESTS = Path(__file__).resolve().parent
RUN_LIKE = {"run", "check_output", "check_call", "call"}


def _subprocess_calls():
    """Each `subprocess.X(...)` call in tests/ but those handed straight to `reaped(...)`."""
    for path in sorted(TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_reaped = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and getattr(node.func, "attr", getattr(node.func, "id", "")) == "reaped" for arg in node.args}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and id(node) not in in_reaped
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"):
                yield f"{path.relative_to(TESTS)}:{node.lineno}", node


def test_every_subprocess_run_in_the_tests_has_a_timeout():
    unbounded = [where for where, call in _subprocess_calls() if call.func.attr in RUN_LIKE
                 and not {"timeout", None} & {k.arg for k in call.keywords}]
    assert unbounded == [], "add timeout= to each"


def test_every_popen_in_the_tests_is_started_to_be_reaped():
    own = [where for where, call in _subprocess_calls()
           if call.func.attr == "Popen" and not where.startswith("processes.py")]
    assert own == [], "use tests.processes.started (or reaped) instead of subprocess.Popen"


_alive = processes.running


GRANDPARENT = ("import subprocess, sys, time; "
               "g = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)']); "
               "print(g.pid, flush=True); time.sleep(120)")


def _left_running() -> tuple[subprocess.Popen, int]:
    """A test's child that started its own child and was left running (an assertion failed)."""
    child = processes.started([sys.executable, "-c", GRANDPARENT], stdout=subprocess.PIPE, text=True)
    return child, int(child.stdout.readline())


def test_a_process_left_running_is_killed_with_its_children_when_the_test_ends():
    child, grandchild = _left_running()
    assert _alive(child.pid) and _alive(grandchild)
    assert processes.reap_started() == [str(child.args)]
    assert child.returncode is not None and not _alive(grandchild)


def test_without_the_descendants_a_childs_child_outlives_the_test(monkeypatch):
    """The protection off (only the process itself killed): its child is left behind, adopted."""
    monkeypatch.setattr(processes, "descendants", lambda pid: [])
    child, grandchild = _left_running()
    try:
        processes.reap_started()
        assert child.returncode is not None and _alive(grandchild)  # reaped: nothing waited on it
    finally:
        os.kill(grandchild, 9)


@pytest.mark.parametrize("ended", [True, False])
def test_reaped_ends_a_block_with_the_process_gone(ended):
    with processes.reaped(subprocess.Popen([sys.executable, "-c", "pass" if ended else "import time; time.sleep(120)"])) as proc:
        if ended:
            proc.wait(timeout=60)
    assert proc.returncode is not None


def test_a_held_resource_waits_for_its_holder_and_fails_naming_the_lock_when_it_stays_held():
    holder = processes.started([sys.executable, "-c", "import fcntl, sys, tempfile, time; "
                                "f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); print(1, flush=True); "
                                "time.sleep(120)", str(Path(processes.tempfile.gettempdir()) / "narrator-tests-probe.lock")],
                               stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "1"
    with pytest.raises(TimeoutError, match="narrator-tests-probe.lock"):
        with processes.held("probe", wait=0.3):
            pass
    processes.kill_tree(holder)
    with processes.held("probe", wait=30):  # free again: taken at once
        pass
