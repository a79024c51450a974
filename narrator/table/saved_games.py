"""The saved games in the narrator's home: which there are, and which one `resume` continues.

Apart from `store.py`, which reads and writes one game's folder: this looks across all of
them, cleans up a folder a kill left half-created, and names the damaged ones it skips; and
which rules a saved game is played by (`rules_of`: the copy of its game file it keeps, else
its game by name).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from narrator import home
from narrator.errors import DamagedGame, NarratorError, Refusal, SaveError, SetupError
from narrator.games import game_from_text, get_game
from narrator.games.contract import SomeGame
from narrator.table.store import GAME_FILE, META_FILE, REBUILT, GameStore, _warn


def saved_games(root: Path) -> list[GameStore]:
    """Every game folder, oldest first by creation sequence (`store.SEQ`; the games saved before
    it was kept come first, by id), damaged ones too (`problem()` says what is wrong). The temp
    files kills left in the home and the game folders are removed on the way (`clean_stale_temps`)."""
    folder = root / "games"
    home.clean_stale_temps(root)
    try:
        stores = [GameStore(p) for p in sorted(folder.iterdir()) if p.is_dir() and not p.name.startswith(".")]
    except FileNotFoundError:
        return []
    except OSError as err:
        raise SaveError(f"cannot list {folder} ({err.strerror}); check NARRATOR_HOME and its permissions") from None
    for store in stores:
        home.clean_stale_temps(store.folder)
    stores = [store for store in stores if not _clean_half_created(store)]
    order = {store.id: (store.seq, store.id) for store in stores}
    return sorted(stores, key=lambda store: order[store.id])


def unfinished(store: GameStore) -> bool:
    """Whether the game has not ended. A meta.json rebuilt from the log's copy cannot say, so its
    game is replayed by its rules once: a game that had ended is marked finished again (before,
    it was offered for resume as unfinished, and a "no" set it aside, erasing its result from the
    history). Raises NarratorError for a damaged game."""
    meta = store.meta
    if meta.get("finished"):
        return False
    if not meta.get(REBUILT):
        return True
    from narrator.table.runner import rebuild

    game = rules_of(store)
    try:
        config = game.config_from_dict(meta["config"])
        snapshot, _ = store.load_snapshot()
        state = game.state_from_dict(snapshot.state) if snapshot is not None else None
        if state is None or not state.finished:
            state, _ = rebuild(game, config, store.events())
    except NarratorError:
        raise
    except Exception as err:
        raise DamagedGame(str(Refusal("game_not_replayed", game=store.id, reason=err.__class__.__name__,
                                      folder=store.folder))) from None
    meta = dict(store.meta)
    meta.pop(REBUILT, None)
    if state.finished:
        meta.update(finished=True, outcome=game.outcome(config, state))
    store._write_json(META_FILE, meta)
    return not state.finished


def _clean_half_created(store: GameStore) -> bool:
    """Remove a folder a kill left inside `create` (True when it is gone): its lock is taken
    first, so a game being created right now by another narrator is left alone."""
    try:
        if not store.half_created():
            return False
        store.lock.acquire("narrator (cleaning up)")
    except (OSError, NarratorError):
        return False
    try:
        if not store.half_created():
            store.close()
            return False
        store.discard()
    except OSError:
        return False
    _warn(f"removed {store.folder}: a game left half-created by a stop during its creation")
    return True


def find_game(root: Path, game_id: str | None, warn: Callable[[str], None] | None = None,
              damaged_too: bool = False) -> GameStore:
    """The game `game_id`, or the most recent unfinished sound one (damaged ones are named and
    skipped; with `damaged_too`, an unfinished game whose log is damaged counts, for --cut-log)."""
    games = saved_games(root)
    if game_id:
        for store in games:
            if store.id == game_id:
                return store
        raise NarratorError(f"no saved game '{game_id}' in {root / 'games'}; see `narrator games`")
    warn = warn or _warn
    found, damaged = [], []
    for store in games:
        problem = store.problem()
        if problem is None:
            try:
                if unfinished(store):
                    found.append(store)
            except NarratorError as err:
                damaged.append(str(err))
                warn(f"skipping a damaged game: {err}")
            continue
        damaged.append(problem)
        if damaged_too and _unfinished_meta(store):
            found.append(store)
        else:
            warn(f"skipping a damaged game: {problem}")
    if found:
        return found[-1]
    if damaged:
        raise DamagedGame(damaged[-1])
    raise NarratorError(f"no unfinished game in {root / 'games'}; start one with `narrator play`")


def _unfinished_meta(store: GameStore) -> bool:
    try:
        return not store.meta.get("finished")
    except NarratorError:
        return False


def rules_of(store: GameStore) -> SomeGame:
    """The rules `store` is played by: the game file it keeps a copy of, whatever became of the
    file it was started from (changed, deleted, never in the home, a shipped file a later
    release changed); a game that keeps none (a game in code, an older saved game) by its name."""
    meta = store.meta
    text = store.game_file()
    if text is None:
        return get_game(meta["game"])
    try:
        rules = game_from_text(text, store.folder / GAME_FILE)
    except SetupError as err:
        raise DamagedGame(f"saved game {store.id}: its game file no longer loads ({err}); resume it with the "
                          f"narrator version that started it, or move {store.folder} away") from None
    if rules.name != meta["game"]:
        raise DamagedGame(f"saved game {store.id}: its game file {store.folder / GAME_FILE} is of game "
                          f"'{rules.name}', not '{meta['game']}'; copy the game file it was started with there, "
                          f"or move {store.folder} away")
    return rules
