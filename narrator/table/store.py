"""Saved games: an append-only events log and an atomic snapshot, per game folder.

`games/<id>/meta.json` holds the game, its validated config and how it was run;
`events.jsonl` gets every event, flushed and fsynced before the step it starts is played;
`snapshot.json` (written to a temp file, fsynced, then `os.replace`d) holds the state, the
step's cues and the game clock at the step's start. A kill at any instant leaves either
the old or the new snapshot, and events the snapshot lacks are replayed on resume.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError


@dataclass(frozen=True)
class Snapshot:
    event_count: int
    state: dict[str, Any]
    cues: list[dict[str, Any]]
    t: float


class GameStore:
    """One saved game's folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.id = folder.name

    @classmethod
    def create(cls, root: Path, game: str, config: dict[str, Any], run: dict[str, Any]) -> GameStore:
        game_id = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)
        folder = root / "games" / game_id
        folder.mkdir(parents=True)
        store = cls(folder)
        store._write_json("meta.json", {"id": game_id, "game": game, "config": config, "run": run, "finished": False})
        return store

    @property
    def meta(self) -> dict[str, Any]:
        return self._read_json("meta.json")

    def update_run(self, run: dict[str, Any]) -> None:
        meta = self.meta
        meta["run"] = run
        self._write_json("meta.json", meta)

    def append_event(self, event: dict[str, Any]) -> None:
        with (self.folder / "events.jsonl").open("a", encoding="utf-8") as f:
            f.write(json.dumps(event, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def events(self) -> list[dict[str, Any]]:
        """Every complete event; a line torn by a power cut at the very end is dropped."""
        path = self.folder / "events.jsonl"
        if not path.exists():
            return []
        events = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError:
                break
        return events

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self._write_json("snapshot.json", snapshot.__dict__)

    def load_snapshot(self) -> Snapshot | None:
        path = self.folder / "snapshot.json"
        if not path.exists():
            return None
        return Snapshot(**self._read_json("snapshot.json"))

    def mark_finished(self, outcome: dict[str, Any]) -> None:
        meta = self.meta
        meta.update(finished=True, outcome=outcome)
        self._write_json("meta.json", meta)

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        path = self.folder / name
        tmp = path.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    def _read_json(self, name: str) -> dict[str, Any]:
        try:
            return json.loads((self.folder / name).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise NarratorError(f"saved game {self.folder} is damaged ({name}: {err}); start a new game") from None


def saved_games(root: Path) -> list[GameStore]:
    """All saved games, oldest first."""
    folder = root / "games"
    if not folder.is_dir():
        return []
    return [GameStore(p) for p in sorted(folder.iterdir()) if (p / "meta.json").is_file()]


def find_game(root: Path, game_id: str | None) -> GameStore:
    """The game `game_id`, or the most recent unfinished one."""
    games = saved_games(root)
    if game_id:
        for store in games:
            if store.id == game_id:
                return store
        raise NarratorError(f"no saved game '{game_id}' in {root / 'games'}; see `narrator games`")
    unfinished = [g for g in games if not g.meta.get("finished")]
    if not unfinished:
        raise NarratorError(f"no unfinished game in {root / 'games'}; start one with `narrator play`")
    return unfinished[-1]
