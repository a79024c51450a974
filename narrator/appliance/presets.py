"""Presets: a table's settings saved under a name (「金曜の6人卓」) and picked again later.

Why a module of its own: the host screen, the spoken setup and `check_table` all need the
same three answers — which keys a preset holds, whether a saved one is still playable, and
which edit of the table file makes it the current setup — and none of them should know the
table file's layout. Presets live in the table file itself, `[presets."金曜の6人卓"]`, so
there is one file to back up, and every save goes through `update_table` (the one door).

A preset holds what is *played* (the game, the players and their names, the game's own
options: cards, night order, countdowns, discussion …), never how the device runs (language,
voice, phones, the `[appliance]` section). The game's shipped recommended set for a player
count is a preset too: `RECOMMENDED`, the table with the game's own options unset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from narrator.errors import Refusal
from narrator.settings import COMMON_KEYS, DEVICE_SECTIONS, LISTEN_KEYS, SETTINGS

SECTION = "presets"
RECOMMENDED = ""
"""The name of the shipped recommended set (the page and the voice call it by their own words)."""
MAX_PRESETS = 30
NAME_MAX = 30
PLAYED_COMMON = tuple(s.key for s in SETTINGS if s.kind == "common")
"""The shared keys a preset keeps: what is played (game, players, names), not how it is run."""
RUN_ONLY = tuple(k for k in COMMON_KEYS if k not in PLAYED_COMMON) + LISTEN_KEYS + ("listening",)

Update = Callable[[Path, Mapping[str, Any]], dict[str, Any]]
"""`table.update_table`: the one door a save goes through (checked, atomic); returns the new table."""
Check = Callable[[Mapping[str, Any], str], object]
"""`table.check_table` for one setup and where it is (`check(table, where)`; what it returns is unused)."""


def played(table: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a table that a preset keeps: the game, players, names and the game's options."""
    return {k: v for k, v in table.items() if k not in RUN_ONLY and k not in DEVICE_SECTIONS and k != SECTION}


def saved(table: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The table file's presets by name (an empty dict when it has none)."""
    presets = table.get(SECTION, {})
    return dict(presets) if isinstance(presets, Mapping) else {}


def check_name(name: object) -> str:
    """A preset's name as typed, trimmed; one line naming the fix when it cannot be one."""
    if not isinstance(name, str) or not name.strip():
        raise Refusal("preset_no_name")
    name = name.strip()
    if len(name) > NAME_MAX:
        raise Refusal("preset_name_long", name=name, length=len(name), most=NAME_MAX)
    if any(ord(c) < 0x20 for c in name):
        raise Refusal("preset_name_lines")
    return name


def check_presets(table: Mapping[str, Any], source: str, check: Check) -> None:
    """Refuse a `[presets]` section that is not a table of playable setups. `check(table, where)`
    is `check_table` itself, so a preset passes exactly the checks `narrator play` makes."""
    presets = table.get(SECTION)
    if presets is None:
        return
    if not isinstance(presets, Mapping):
        raise Refusal("presets_form", source=source)
    if len(presets) > MAX_PRESETS:
        raise Refusal("presets_too_many", source=source, count=len(presets), most=MAX_PRESETS)
    base = {k: v for k, v in table.items() if k in RUN_ONLY}
    for name, preset in presets.items():
        where = f'{source}: preset "{name}"'
        check_name(name)
        if not isinstance(preset, Mapping):
            raise Refusal("preset_form", source=where)
        extra = sorted(k for k in preset if k in RUN_ONLY or k in DEVICE_SECTIONS or k == SECTION)
        if extra:
            raise Refusal("preset_run_key", source=where, option=extra[0])
        check({**base, **preset}, where)


def save(path: Path, table: Mapping[str, Any], name: object, update: Update) -> dict[str, Any]:
    """Save the current setup as preset `name` (replacing one of that name); returns the new table.
    `update` is `update_table`, so the save is checked and atomic like every other edit."""
    name = check_name(name)
    presets = saved(table)
    if name not in presets and len(presets) >= MAX_PRESETS:
        raise Refusal("presets_full", most=MAX_PRESETS)
    presets[name] = played(table)
    return update(path, {SECTION: presets})


def pick(path: Path, table: Mapping[str, Any], name: str, update: Update,
         game: str | None = None, players: int | None = None) -> dict[str, Any]:
    """Make preset `name` the current setup (`RECOMMENDED`: the game's recommended set for
    `players`); returns the new table. Keys the current setup sets and the preset does not are unset."""
    if name == RECOMMENDED:
        chosen = {"game": game or table.get("game"), "players": players or table.get("players")}
        chosen = {k: v for k, v in chosen.items() if v is not None}
    else:
        presets = saved(table)
        if name not in presets:
            raise Refusal("preset_unknown", name=name, known=list(presets)) if presets \
                else Refusal("preset_none", name=name)
        chosen = dict(presets[name])
    current = played(table)
    changes: dict[str, Any] = {k: None for k in current if k not in chosen}
    changes.update({k: v for k, v in chosen.items() if current.get(k) != v})
    return update(path, changes) if changes else dict(table)


def for_count(table: Mapping[str, Any], game: str, players: int) -> list[str]:
    """The presets a spoken setup offers for this game and count, by number: the recommended set
    first, then the saved ones that play this game with this many players (in the file's order)."""
    names = [RECOMMENDED]
    for name, preset in saved(table).items():
        count = preset.get("players", len(preset.get("names", ())) or None)
        if preset.get("game", table.get("game")) == game and count == players:
            names.append(name)
    return names
