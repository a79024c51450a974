"""One table mode, chosen once when a sitting opens and handed down (issue 40, item 1).

The sitting builds a `TableMode` (narrator/settings.py) and hands it to the hub, the voice
pack and the scheduler as they are made; no room sets another room's mode flags afterwards,
and nothing in inputs/ reaches up into the sitting or the scheduler.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from narrator.settings import TableMode
from narrator.table.session import RunOptions, open_sitting

PACKAGE = Path(__file__).resolve().parent.parent / "narrator"

MODE_FLAGS = frozenset({
    "sequential_private", "private_asks_on_device", "rounds_during_timers", "confirm_heard", "confirmer",
    "table_claim", "table_to_come", "table_actions", "no_speaker",
    "pass_device", "keyboard_only", "button_only", "without_microphone",
})
"""The flags that say how the table plays: each set only by its owner (or from the mode)."""


def _room(path: Path, root: Path) -> str:
    return path.relative_to(root).parts[0].removesuffix(".py")


def _owner_rooms(root: Path) -> dict[str, set[str]]:
    """Which rooms define each flag (`self.flag =` or a dataclass field)."""
    owners: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) else []
            for target in targets:
                name = target.attr if isinstance(target, ast.Attribute) and isinstance(
                    target.value, ast.Name) and target.value.id == "self" else (
                    target.id if isinstance(target, ast.Name) else None)
                if name in MODE_FLAGS:
                    owners.setdefault(name, set()).add(_room(path, root))
    return owners


def foreign_flag_writes(root: Path) -> list[str]:
    """Every place a room sets a mode flag another room owns: `x.flag = …`, `x.flag[k] = …`
    or `replace(x, flag=…)` on an object not its own."""
    owners = _owner_rooms(root)
    found = []
    for path in sorted(root.rglob("*.py")):
        room = _room(path, root)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            written: list[str] = []
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for part in ast.walk(target):
                        if (isinstance(part, ast.Attribute) and part.attr in MODE_FLAGS
                                and not (isinstance(part.value, ast.Name) and part.value.id == "self")):
                            written.append(part.attr)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "replace":
                written = [k.arg for k in node.keywords if k.arg in MODE_FLAGS]
            for flag in written:
                if room not in owners.get(flag, set()):
                    found.append(f"{path.relative_to(root)}:{node.lineno} sets {flag}")
    return found


def reaches_up(root: Path) -> list[str]:
    """Modules in inputs/ that name the sitting or the scheduler in code (not in words)."""
    found = []
    for path in sorted((root / "inputs").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else (
                node.arg if isinstance(node, ast.arg) else None)
            if name in ("scheduler", "sitting"):
                found.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    return found


def test_no_room_sets_another_rooms_mode_flags():
    assert foreign_flag_writes(PACKAGE) == []


def test_inputs_never_reach_up_into_the_sitting_or_the_scheduler():
    assert reaches_up(PACKAGE) == []


def test_the_mode_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TableMode().keyboard = True  # type: ignore[misc]


@pytest.mark.parametrize("keyboard, phones, button, expected", [
    # keyboard alone: the device goes round, prompts name the keys
    (True, False, False, dict(pass_device=True, keyboard_only=True, button_only=False)),
    # phones: private answers on the phones, the host screen's button beside the keys
    (True, True, False, dict(pass_device=False, keyboard_only=False, button_only=False)),
    # the appliance without a keyboard: its button (GPIO or host screen) is named alone
    (False, True, True, dict(pass_device=False, keyboard_only=False, button_only=True)),
])
def test_a_sitting_chooses_the_mode_once_and_hands_it_down(narrator_home, keyboard, phones, button, expected):
    run = RunOptions(lang="ja", voice="text", time_scale=0, keyboard=keyboard, phones=phones,
                     listening={"listen": "off", "confirm": False})
    sitting = open_sitting(run, button=button)
    try:
        mode, hub, pack = sitting.mode, sitting.hub, sitting.scheduler.voice.pack
        assert (mode.keyboard, mode.phones, mode.button, mode.microphone, mode.lang) == (
            keyboard, phones, button, False, "ja")
        assert hub.mode is mode and hub.confirm_heard is False
        assert hub.sequential_private == hub.private_asks_on_device == mode.pass_device == expected["pass_device"]
        assert pack.pass_device == expected["pass_device"] and pack.without_microphone
        assert (pack.keyboard_only, pack.button_only) == (expected["keyboard_only"], expected["button_only"])
        assert sitting.scheduler.confirmer is not None  # every sitting asks back what must be
    finally:
        sitting.close()
