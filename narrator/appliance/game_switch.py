"""A switch of the table's game sets the old game's own setup aside, and brings it back.

Why: the table file holds one game's own options (cards, countdowns, night order, discussion …)
at its top level, and another game refuses them (ワンナイト人狼 has no `cards`, ベスティアマギカ
no `countdown`). Without this, a switch from the host screen, the service's spoken menu or
`narrator config set game` was refused for every table that had been set up, and only
`narrator config edit` over SSH got out. So a switch moves the old game's own keys into
`[kept."<game>"]`, and switching back brings them back, unless the change sets them itself or
they no longer fit (a set of cards for another count): then they stay kept and the game plays
its recommended set. `update_table` tries the plans in order; each is an ordinary checked edit.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.errors import Refusal
from narrator.settings import COMMON_KEYS, DEFAULT_GAME, DEVICE_SECTIONS, LISTEN_KEYS

SECTION = "kept"
NOT_OPTIONS = frozenset(COMMON_KEYS) | frozenset(LISTEN_KEYS) | {"listening"} | frozenset(DEVICE_SECTIONS) | {SECTION}
"""Top-level keys that are not a game's own options: they stay whatever the game."""


def plans(table: Mapping[str, Any], changes: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The edits to try for `changes`, best first: with the old game's options set aside and
    the new game's kept ones back; then, if some came back, without them (they may not fit).
    One plan, `changes` itself, when the change switches no game."""
    old, new = str(table.get("game", DEFAULT_GAME)), changes.get("game")
    if new is None or str(new) == old:
        return [dict(changes)]
    kept = {game: dict(setup) for game, setup in kept_setups(table).items()}
    aside = {key: value for key, value in table.items() if key not in NOT_OPTIONS}
    if aside:
        kept[old] = aside
    else:
        kept.pop(old, None)
    back = {key: value for key, value in kept.pop(str(new), {}).items() if not _touched(key, changes)}
    moves: dict[str, Any] = {key: None for key in aside}  # a key the change sets: its value wins
    first = {**moves, **back, **_kept_entry(table, kept), **changes}
    if not back:
        return [first]
    return [first, {**moves, **_kept_entry(table, {**kept, str(new): back}), **changes}]


def kept_setups(table: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The `[kept]` section as {game: its options}; empty when the file has none."""
    kept = table.get(SECTION)
    return dict(kept) if isinstance(kept, Mapping) else {}


def check_kept(table: Mapping[str, Any], source: str) -> None:
    """Refuse a `[kept]` section (hand-edited) that is not a table of tables, one per game."""
    kept = table.get(SECTION)
    if kept is None:
        return
    if not isinstance(kept, Mapping) or not all(isinstance(setup, Mapping) for setup in kept.values()):
        raise Refusal("kept_form", source=source)


def _touched(key: str, changes: Mapping[str, Any]) -> bool:
    """Whether the change itself sets `key` (whole, or one entry of it: `cards.占い師`)."""
    return any(dotted == key or dotted.startswith(key + ".") for dotted in changes)


def _kept_entry(table: Mapping[str, Any], kept: Mapping[str, Any]) -> dict[str, Any]:
    """The change to `[kept]`: its new content, or its removal when nothing is kept any more."""
    if kept:
        return {SECTION: {game: dict(setup) for game, setup in kept.items()}}
    return {SECTION: None} if SECTION in table else {}
