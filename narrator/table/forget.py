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
from typing import Any, Callable, TypeGuard

from narrator import home
from narrator.errors import DamagedGame, NarratorError, Refusal, SaveError, SetupError
from narrator.table.event_log import LOG_FILE
from narrator.table.saved_games import saved_games, unfinished
from narrator.table.game_folder import MAX_JSON_BYTES
from narrator.table.snapshot import SNAPSHOT_FILE
from narrator.table.store import META_FILE, GameStore, _warn

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


def forgotten(root: Path, warn: Callable[[str], None] | None = None) -> dict[str, set[str]]:
    """Each unfinished game's id → the digests of the players forgotten while it was played.
    Read the home's careful way (bounded, no device or FIFO followed); a damaged note is set
    aside with one line and the history goes on without it (a note that refused every `stats`
    and every evening's winners would be worse than those players counted again)."""
    path = root / NOTE_FILE
    data, damage, moved = home.read_kept_json(path)
    if damage is None and data is not None and not _note_shape(data):
        damage, moved = home.DamagedFile(path, "not a note of forgotten players"), home.set_aside(path)
    if damage is not None:
        (warn or _warn)(str(Refusal("history_note_set_aside", path=path, reason=damage.reason,
                                    moved=moved.name if moved is not None and moved != path else path.name)))
        return {}
    return {game: set(digests) for game, digests in (data if _note_shape(data) else {}).items()}


def _note_shape(data: object) -> TypeGuard[dict[str, list[str]]]:
    return isinstance(data, dict) and all(
        isinstance(game, str) and isinstance(digests, list) and all(isinstance(d, str) for d in digests)
        for game, digests in data.items())


def is_forgotten(notes: dict[str, set[str]], game_id: str, name: str) -> bool:
    return _digest(player_key(name)) in notes.get(game_id, set())


def forget(root: Path, name: str, warn: Callable[[str], None] | None = None) -> tuple[int, int]:
    """Blank `name` in every finished game; note it for the unfinished ones.
    Returns (finished games rewritten, unfinished games noted).

    The note is written first: a finished game that cannot be rewritten (damaged, unreadable)
    is named with one line and the others are still done, so the forgetting is never left half
    done (before, a damaged game stopped it with a traceback before the unfinished games were
    noted, and the name came back when they ended)."""
    warn = warn or _warn
    key = player_key(name)
    if not key:
        raise SetupError("give the player's name: narrator stats forget NAME")
    finished: list[Any] = []
    noted: list[Any] = []
    for store in saved_games(root):
        try:
            (noted if unfinished(store) else finished).append(store)
        except NarratorError:
            continue  # a damaged game is in no record
    if noted:
        notes = forgotten(root, warn)
        for store in noted:
            notes.setdefault(store.id, set()).add(_digest(key))
        _write_note(root, notes)
    rewritten = 0
    for store in finished:
        try:
            rewritten += _scrub(store, key)
        except (NarratorError, OSError) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            warn(str(Refusal("forget_game_left", game=store.id, reason=reason, folder=store.folder)))
    return rewritten, len(noted)


def _scrub(store: GameStore, key: str) -> bool:
    """Rewrite one finished game's files without the name; True when it was there. Every file is
    read the careful way; a damaged snapshot is dropped (the log rebuilds it, and it may hold the
    name), a damaged meta or log line raises DamagedGame: the name may still be in it."""
    changed = False
    for name in (META_FILE, SNAPSHOT_FILE):
        path = store.folder / name
        try:
            data = home.read_json(path, MAX_JSON_BYTES)
        except home.DamagedFile as err:
            if name != SNAPSHOT_FILE:
                raise DamagedGame(f"saved game {store.id}: {err}") from None
            path.unlink()
            changed = True
            continue
        if data is None:
            continue
        data, hit = _blank(data, key)
        if hit:
            store._write_text(name, json.dumps(data, ensure_ascii=False))  # atomic, as the store writes
            changed = True
    log = store.folder / LOG_FILE
    raw_log = home.read_bounded(log)
    if raw_log is not None:
        if len(raw_log) > home.MAX_KEPT_BYTES:
            raise DamagedGame(f"saved game {store.id}: {home.DamagedFile(log, 'over 16 MiB')}")
        lines, hit_any = [], False
        for number, raw in enumerate(raw_log.decode("utf-8", errors="surrogateescape").splitlines(), 1):
            try:
                data, hit = _blank(json.loads(raw.encode("utf-8").decode("utf-8")), key) \
                    if raw.strip() else (None, False)
            except (ValueError, RecursionError):  # UnicodeError is a ValueError
                raise DamagedGame(f"saved game {store.id}: {log} line {number} is damaged") from None
            lines.append(json.dumps(data, ensure_ascii=False) if hit else raw)
            hit_any = hit_any or hit
        if hit_any:
            store._write_text(LOG_FILE, "".join(line + "\n" for line in lines))
            changed = True
    if changed:
        for name in PHONE_FILES:
            (store.folder / name).unlink(missing_ok=True)
    return changed


def _blank(value: object, key: str) -> tuple[Any, bool]:
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
    try:
        home.write_atomic(path, json.dumps({g: sorted(d) for g, d in notes.items()}))
    except OSError as err:
        raise SaveError(f"cannot write {path} ({err.strerror}); make {root} writable") from None
