"""`narrator stats forget NAME`: a player taken out of the table's history.

Who a player is: a name, however typed (full width, case, a `:reading` after it). A finished
game needs nothing for resume, so forgetting rewrites its saved files with the name blanked
wherever it is a whole value (meta, snapshot, log) and drops its phone files (which quote
private lines); the history built from it then has no such player. A game not yet finished
still needs the name to resume, so it is kept as it is and noted (by the SHA-256 of the name,
so the note does not spell it) in `history-forgotten.json`: once it ends, the history leaves
that player out of it. Games begun after the forgetting count the name again.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError, SaveError, SetupError
from narrator.table.event_log import LOG_FILE
from narrator.table.saved_games import saved_games
from narrator.table.store import META_FILE, SNAPSHOT_FILE, GameStore

NOTE_FILE = "history-forgotten.json"
PHONE_FILES = ("phones.json", "phones-private.json")


def player_key(name: str) -> str:
    """The same name, however it was typed, is the same player in every game."""
    return " ".join(shown_name(name).split()).casefold()


def shown_name(name: str) -> str:
    """A name as shown: without its reading (how it is said, not who it is)."""
    return unicodedata.normalize("NFKC", name).partition(":")[0].strip()


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def forgotten(root: Path) -> dict[str, set[str]]:
    """Each unfinished game's id → the digests of the players forgotten while it was played."""
    try:
        data = json.loads((root / NOTE_FILE).read_text(encoding="utf-8"))
        return {game: set(digests) for game, digests in data.items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, AttributeError, TypeError) as err:
        raise NarratorError(f"{root / NOTE_FILE} is damaged ({err.__class__.__name__}); "
                            "remove it and forget the players again") from None


def is_forgotten(notes: dict[str, set[str]], game_id: str, name: str) -> bool:
    return _digest(player_key(name)) in notes.get(game_id, set())


def forget(root: Path, name: str) -> tuple[int, int]:
    """Blank `name` in every finished game; note it for the unfinished ones.
    Returns (finished games rewritten, unfinished games noted)."""
    key = player_key(name)
    if not key:
        raise SetupError("give the player's name: narrator stats forget NAME")
    rewritten, noted = 0, []
    for store in saved_games(root):
        try:
            finished = bool(store.meta.get("finished"))
        except NarratorError:
            continue  # a damaged game is in no record
        if not finished:
            noted.append(store.id)
        elif _scrub(store, key):
            rewritten += 1
    if noted:
        notes = forgotten(root)
        for game_id in noted:
            notes.setdefault(game_id, set()).add(_digest(key))
        _write_note(root, notes)
    return rewritten, len(noted)


def _scrub(store: GameStore, key: str) -> bool:
    """Rewrite one finished game's files without the name; True when it was there."""
    changed = False
    for name in (META_FILE, SNAPSHOT_FILE):
        path = store.folder / name
        if path.is_file():
            data, hit = _blank(json.loads(path.read_text(encoding="utf-8")), key)
            if hit:
                store._write_text(name, json.dumps(data, ensure_ascii=False))  # atomic, as the store writes
                changed = True
    log = store.folder / LOG_FILE
    if log.is_file():
        lines, hit_any = [], False
        for raw in log.read_text(encoding="utf-8").splitlines():
            data, hit = _blank(json.loads(raw), key) if raw.strip() else (None, False)
            lines.append(json.dumps(data, ensure_ascii=False) if hit else raw)
            hit_any = hit_any or hit
        if hit_any:
            store._write_text(LOG_FILE, "".join(line + "\n" for line in lines))
            changed = True
    if changed:
        for name in PHONE_FILES:
            (store.folder / name).unlink(missing_ok=True)
    return changed


def _blank(value: Any, key: str) -> tuple[Any, bool]:
    """`value` with every string (and mapping key) that names the player made empty."""
    if isinstance(value, str):
        return ("", True) if player_key(value) == key else (value, False)
    if isinstance(value, list):
        items = [_blank(v, key) for v in value]
        return [v for v, _ in items], any(hit for _, hit in items)
    if isinstance(value, dict):
        out, hit_any = {}, False
        for k, v in value.items():
            new_k, hit_k = _blank(k, key)
            new_v, hit_v = _blank(v, key)
            out[new_k] = new_v
            hit_any = hit_any or hit_k or hit_v
        return out, hit_any
    return value, False


def _write_note(root: Path, notes: dict[str, set[str]]) -> None:
    path = root / NOTE_FILE
    tmp = path.with_name(f".{NOTE_FILE}.tmp")
    try:
        tmp.write_text(json.dumps({g: sorted(d) for g, d in notes.items()}), encoding="utf-8")
        tmp.chmod(0o600)
        tmp.replace(path)
    except OSError as err:
        raise SaveError(f"cannot write {path} ({err.strerror}); make {root} writable") from None
