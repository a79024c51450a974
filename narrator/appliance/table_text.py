"""The table file's text, changed key by key with tomlkit: everything not changed stays as written.

A host's table file carries comments, blank lines and values written over several lines
(`names = [` … `]`); a change of one key must leave all of that as it was, so the text is
parsed into tomlkit's document (which keeps the layout) and only the key's value is replaced,
added to its section, or removed. A key is `KEY` or `SECTION.KEY`; the second part may be a
card typed in the table's language (`countdowns.占い師`): when the section already holds an
entry for that card under another spelling (`seer`), that entry is the one changed, so a
card is never written twice. Checking the result is the caller's (`table.save_checked`).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Mapping, MutableMapping

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import InlineTable, Table

from narrator.errors import Refusal, SetupError
from narrator.games import get_game
from narrator.settings import DEFAULT_GAME, build_settings

Document = tomlkit.TOMLDocument


def parse(text: str, path: Path) -> Document:
    """The table file's text as a tomlkit document; bad TOML is one line naming the fix."""
    try:
        return tomlkit.parse(text)
    except (TOMLKitError, RecursionError, ValueError) as err:
        raise Refusal("table_text_not_toml", path=path, problem=err) from None


def apply(document: Document, dotted: str, value: object, changes: Mapping[str, Any]) -> None:
    """Set `dotted` to `value` (None: remove it) in the document, in place."""
    section, key = split(dotted)
    if section is None:
        if value is None:
            _remove(document, key, dotted)
        else:
            _put(document, key, value)
        return
    holder = document.get(section)
    if holder is None:
        if value is None:
            raise _not_set(dotted)
        played = played_counts(document, section)
        document[section] = tomlkit.table()
        holder = document[section]
        holder.update(played)
    elif isinstance(holder, str) and "=" in holder:  # `cards = "seer=1,…"`: one entry of it changes
        document[section] = holder = inline(_pairs(holder))
    elif not isinstance(holder, (Table, InlineTable)):
        raise Refusal("table_not_a_section", section=section, dotted=dotted)
    key = _entry_for(document, section, key, holder, changes)
    if value is None:
        _remove(holder, key, dotted)
    else:
        holder[key] = inline(value) if isinstance(value, dict) else value


def played_counts(document: Document, section: str) -> dict[str, int]:
    """The counts the table plays for `section` while the file leaves it unset: the game's
    recommended cards for the count. `config set cards.占い師 2` edits the set the host sees
    and hears read back, so the change is seeded with it, not with an empty set."""
    try:
        settings = build_settings(tomllib.loads(document.as_string()), {}, "table file")
        game = get_game(settings.game)
        if not any(s.key == section and s.names_at == "keys" for s in game.settings):
            return {}
        value = game.configure(settings).to_dict().get(section)
    except Exception:
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, int)} if isinstance(value, Mapping) else {}


def split(dotted: str) -> tuple[str | None, str]:
    """`KEY` or `SECTION.KEY` (`-` read as `_` in an ASCII part); anything else is one line."""
    parts = [p.strip() for p in dotted.split(".")]
    if len(parts) > 2 or not all(parts) or not re.fullmatch(r"[A-Za-z0-9_-]+", parts[0]) \
            or any(c in p for p in parts for c in "\"'[]=#\n"):
        raise Refusal("table_bad_key", dotted=dotted)
    parts = [p.replace("-", "_") if p.isascii() else p for p in parts]
    return (parts[0], parts[1]) if len(parts) == 2 else (None, parts[0])


def inline(value: Mapping[str, Any]) -> InlineTable:
    """A table written on one line, `{ seer = 1, "占い師" = 2 }`."""
    table = tomlkit.inline_table()
    table.update({k: inline(v) if isinstance(v, Mapping) else v for k, v in value.items()})
    return table


def format_value(value: object) -> str:
    """A value as TOML writes it (strings quoted, lists and tables inline), for a confirmation."""
    try:
        return (inline(value) if isinstance(value, dict) else tomlkit.item(value)).as_string()
    except (TOMLKitError, TypeError, ValueError):
        raise Refusal("table_bad_value", kind=type(value).__name__) from None


def _put(document: Document, key: str, value: object) -> None:
    """A top-level key: replaced where it is, unless it changes between a table and a value
    (then removed and added again, where tomlkit keeps the file valid TOML)."""
    old = document.get(key)
    if old is not None and isinstance(old, Table) != isinstance(value, dict):
        del document[key]
    document[key] = value


def _remove(holder: MutableMapping[str, object], key: str, dotted: str) -> None:
    if key not in holder:
        raise _not_set(dotted)
    del holder[key]


def stated_lang(document: Document) -> str | None:
    """The language the table file states (`lang = "ja"`), the one its refusals are worded in."""
    lang = document.get("lang")
    return str(lang) if isinstance(lang, str) else None


def _not_set(dotted: str) -> SetupError:
    return Refusal("table_not_set", dotted=dotted)


def parse_value(raw: str) -> object:
    """A command-line value as TOML (17, 1.5, true, ["a", "b"]), else as a plain string (checked
    with the whole table by `update_table`)."""
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):  # ValueError: over 4300 digits
        return raw
    return value if isinstance(value, (bool, int, float, str, list, dict)) else raw


def _pairs(text: str) -> dict[str, object]:
    """`"seer=1,peddler=2"` as a table (each value read as TOML, else kept as text)."""
    pairs = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, raw = part.partition("=")
        pairs[name.strip()] = parse_value(raw.strip())
    return pairs


def _entry_for(document: Document, section: str, key: str, holder: Mapping[str, object],
               changes: Mapping[str, Any]) -> str:
    """The key under which `section` already holds the card `key` names (`seer` for 占い師),
    else `key` as typed. Only for a setting of the table's game that names cards."""
    if key in holder:
        return key
    game = changes.get("game") or document.get("game") or DEFAULT_GAME
    try:
        rules = get_game(str(game))
    except Exception:
        return key
    setting = next((s for s in rules.settings if s.key == section and s.names_at == "keys"), None)
    names = rules.card_names
    ident = names.lookup(setting.names, key) if setting is not None and names is not None else None
    if ident is None or setting is None or names is None:  # (ident is None when either is)
        return key
    return next((k for k in holder if names.lookup(setting.names, k) == ident), key)
