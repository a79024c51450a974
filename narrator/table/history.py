"""The table's history: one record per finished game, built from the saved games.

Nothing is kept twice: each record is read again from the game's folder (its meta, and its
last snapshot or, failing that, its log replayed), so the games played before the history
existed are in it too, and a game left unfinished appears once it ends. What a game knows
of its players comes from the game contract (`Game.record`); this module never names a
game, a role or a state field.

Left out: unfinished games, games set aside unfinished (`abandoned`), games played with
`history = false`, and the players the table asked to forget (`forget.py`). A damaged game
is skipped with one warning line and the rest are read.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from narrator.errors import NarratorError
from narrator.games.contract import C, S, Game
from narrator.table.forget import forgotten, is_forgotten, shown_name
from narrator.table.runner import rebuild
from narrator.table.saved_games import rules_of, saved_games, unfinished
from narrator.table.store import GameStore


def record_of(game: Game[C, S], config: C, state: S, game_id: str, meta: dict[str, Any]) -> dict[str, Any]:
    """One finished game's record: when, which game, who won, and each player by name."""
    kept = game.record(config, state)
    players = [dict(p, name=shown_name(p["name"])) for p in kept.get("players", []) if p.get("name")]
    return {"id": game_id, "game": game.name, "date": _date(game_id, meta), "winner": state.winner,
            "players": players, "answers": kept.get("answers", {})}


def records(root: Path, warn: Callable[[str], None]) -> list[dict[str, Any]]:
    """Every finished game's record, oldest first; the forgotten players left out."""
    gone = forgotten(root, warn)
    out = []
    for store in saved_games(root):
        try:
            record = _read(store)
        except Exception as err:
            reason = str(err) if isinstance(err, NarratorError) else f"{err.__class__.__name__}: {str(err)[:80]}"
            warn(f"the history skips saved game {store.id}: {reason}")
            continue
        if record is not None:
            record["players"] = [p for p in record["players"] if not is_forgotten(gone, store.id, p["name"])]
            out.append(record)
    return out


def _read(store: GameStore) -> dict[str, Any] | None:
    if unfinished(store):  # a meta.json rebuilt from the log is replayed to know
        return None
    meta = store.meta
    outcome = meta.get("outcome")
    if not isinstance(outcome, dict):
        outcome = {}
    if not meta.get("finished") or outcome.get("abandoned") or meta["run"].get("history") is False:
        return None
    game = rules_of(store)
    config = game.config_from_dict(meta["config"])
    return record_of(game, config, final_state(game, config, store), store.id, meta)


def final_state(game: Game[C, S], config: C, store: GameStore) -> S:
    """The game's last state: its snapshot, else its log replayed (a snapshot lost)."""
    snapshot, _ = store.load_snapshot()
    state = game.state_from_dict(snapshot.state) if snapshot is not None else None
    if state is None or not state.finished:
        state, _ = rebuild(game, config, store.events())
    if not state.finished:
        raise NarratorError("its log does not reach the end of the game")
    return state


def _date(game_id: str, meta: dict[str, Any]) -> str:
    """The day and time a game began, from its id (`20261201-192233-…`, local time)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.strptime(game_id[:15], "%Y%m%d-%H%M%S"))
    except ValueError:
        return str(meta.get("date", "0000-00-00 00:00"))
