"""Saved games: an append-only events log and an atomic snapshot, per game folder.

`games/<id>/meta.json` holds the game, its validated config and how it was run;
`game-file.toml` is the exact text of a game file's game as it was started (a resume plays
that, whatever becomes of the file); `events.jsonl` (see `event_log`) is bound to its game by
its first line and gets every
event, flushed and fsynced before the step it starts is played; `snapshot.json` (written
to a uniquely named temp file, fsynced, then `os.replace`d) holds the state, the step's
cues and the game clock at the step's start. A kill at any instant leaves either the old
or the new snapshot, and events the snapshot lacks are replayed on resume.

Only one narrator writes a game (`lock.GameLock`). The folder is 0700 and its files 0600:
the log says who holds which card. Every disk failure becomes one `SaveError` line; what
was saved before it stays as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any, Callable

from narrator import home
from narrator.errors import DamagedGame, NarratorError, Refusal, SaveError, SetupError
from narrator.values.files import read_text_bounded
from narrator.table.event_log import LOG_FILE, MAX_LOG_BYTES, LogReading, header_line, read_at_most, read_log
from narrator.table.game_folder import MAX_JSON_BYTES, GameFolder
from narrator.table.lock import GameLock
from narrator.table.snapshot import SNAPSHOT_FILE, Snapshot, snapshot_from
from narrator.terminal import said

META_FILE, GAME_FILE = "meta.json", "game-file.toml"
GAME_FILE_SUM = "game_file_sha256"
"""The meta (and the log's setup) key of the kept game file's checksum: a copy changed or
damaged since the game was started is refused rather than played by other rules."""
SEQ = "seq"
"""The meta (and the log's setup) key of a game's creation sequence: 1 + the highest in the home
when it was created. `resume` continues the latest game by it, not by the wall-clock id: after
the clock jumps back (a Pi without a network keeps no time across a power cut) a new game's id
sorts before an older one's."""
REBUILT = "rebuilt_from_log"
"""In a meta.json rebuilt from the log's copy: whether the game ended is not yet known."""


def _warn(message: str) -> None:
    print(said("warning", message=message), file=sys.stderr, flush=True)


class GameStore(GameFolder):
    """One saved game's folder: its meta, its events log and its snapshot."""

    def __init__(self, folder: Path, warn: Callable[[str], None] | None = None):
        self.folder = folder
        self.id = folder.name
        self.warn = warn or _warn
        self.lock = GameLock(folder)
        self._tail_checked = False

    @classmethod
    def create(cls, root: Path, game: str, config: dict[str, Any], run: dict[str, Any],
               holder: str = "narrator play", warn: Callable[[str], None] | None = None,
               game_file: str | None = None) -> GameStore:
        """A new game folder, locked, with its meta and the log's binding line, all fsynced;
        with `game_file` (a game file's text, `Game.source`), a copy of it and its checksum."""
        games = root / "games"
        game_id = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)
        seq = next_seq(games)
        try:
            new_parent = not games.is_dir()
            games.mkdir(parents=True, exist_ok=True, mode=0o700)
            if new_parent:
                _fsync_dir(games.parent)
            (games / game_id).mkdir(mode=0o700)
            os.chmod(games / game_id, 0o700)
            _fsync_dir(games)
        except OSError as err:
            raise SaveError(f"cannot create a saved game in {games} ({err.strerror}); make it writable "
                            "or set NARRATOR_HOME to a writable folder") from None
        store = cls(games / game_id, warn)
        store.lock.acquire(holder)
        setup: dict[str, Any] = {"config": config, "run": run, SEQ: seq}
        if game_file is not None:
            setup[GAME_FILE_SUM] = _sha256(game_file)
        try:
            if game_file is not None:
                store._write_text(GAME_FILE, game_file)
            store._write_json(META_FILE, {"id": game_id, "game": game, **setup, "finished": False})
            store._append(header_line(game_id, game, setup))
        except SaveError as err:
            # The game is removed, so the line names no resume of it (the save error would).
            store.discard()
            reason = err.__context__.strerror if isinstance(err.__context__, OSError) else str(err)
            raise SaveError(str(Refusal("game_not_created", folder=games, reason=reason))) from None
        store._tail_checked = True
        return store

    def open(self, holder: str) -> GameStore:
        """Take the game for this process (refused while another narrator has it); fix modes."""
        self.lock.acquire(holder)
        self.secure()
        return self

    def close(self) -> None:
        self.lock.release()

    def discard(self) -> None:
        """Remove a game folder this process has just made and saved nothing playable in."""
        for path in self.folder.iterdir():
            path.unlink(missing_ok=True)
        self.close()
        self.folder.rmdir()

    def secure(self) -> None:
        """The folder 0700, its files 0600 (older versions left them world-readable)."""
        try:
            os.chmod(self.folder, 0o700)
            for path in self.folder.iterdir():
                if path.is_file() and not path.is_symlink():
                    os.chmod(path, 0o600)
        except OSError as err:
            raise SaveError(f"cannot set the modes of {self.folder} ({err.strerror}); "
                            "run the narrator as the user who owns it") from None

    # --- meta ------------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        """The game's setup; a lost or damaged meta.json is rebuilt from the copy the log's
        first line holds (an SD card that lies about fsync can lose any file), said once."""
        try:
            meta, problem = self._read_json(META_FILE), f"{META_FILE} is missing"
        except DamagedGame as err:
            meta, problem = None, str(err)
        if isinstance(meta, dict) and not _meta_problem(meta):
            return meta
        if meta is not None:
            problem = f"{META_FILE} lacks the game, its setup or its run options"
        rebuilt = self._meta_from_log()
        if rebuilt is None:
            raise DamagedGame(f"saved game {self.id}: {problem.removeprefix(f'saved game {self.id}: ')}; "
                              f"it cannot be resumed (move {self.folder} away)")
        self._write_json(META_FILE, rebuilt)
        self.warn(f"saved game {self.id}: {problem.removeprefix(f'saved game {self.id}: ')}; "
                  "its setup is rebuilt from the copy in its log")
        return rebuilt

    def _meta_from_log(self) -> dict[str, Any] | None:
        try:
            reading = read_log(self.folder / LOG_FILE)
        except NarratorError:
            return None
        header = reading.header if reading else None
        setup = header.get("setup") if header else None
        if header is None or header["id"] != self.id or not isinstance(setup, dict):
            return None
        meta = {"id": self.id, "game": header["game"], "config": setup.get("config"), "run": setup.get("run"),
                "finished": False}
        if isinstance(setup.get(GAME_FILE_SUM), str):
            meta[GAME_FILE_SUM] = setup[GAME_FILE_SUM]
        if _is_seq(setup.get(SEQ)):
            meta[SEQ] = setup[SEQ]
        # The log's copy cannot say whether the game ended: `saved_games.unfinished` replays it
        # before the game is offered for resume (a finished game is not to be set aside).
        meta[REBUILT] = True
        return None if _meta_problem(meta) else meta

    @property
    def seq(self) -> int:
        """The game's place in creation order (`next_seq`), read quietly from its meta, else its
        log's setup; 0 for a game saved before the sequence was kept (or unreadable)."""
        try:
            meta = home.read_json(self.folder / META_FILE, MAX_JSON_BYTES)
        except (home.DamagedFile, OSError):
            meta = None
        if isinstance(meta, dict) and _is_seq(meta.get(SEQ)):
            return meta[SEQ]
        try:
            reading = read_log(self.folder / LOG_FILE)
        except (NarratorError, OSError):
            return 0
        setup = reading.header.get("setup") if reading and reading.header else None
        return setup[SEQ] if isinstance(setup, dict) and _is_seq(setup.get(SEQ)) else 0

    def half_created(self) -> bool:
        """A folder a kill left inside `create`: no setup anywhere and nothing played."""
        names = {p.name for p in self.folder.iterdir()} - {"lock"}
        if META_FILE in names or SNAPSHOT_FILE in names:
            return False
        log = self.folder / LOG_FILE
        return not log.exists() or log.stat().st_size == 0

    def problem(self) -> str | None:
        """Why this game cannot be resumed or listed (None when it is sound)."""
        try:
            meta = self.meta
            if not meta.get("finished"):
                self.events()
                self.game_file()
        except NarratorError as err:
            return str(err)
        return None

    def update_run(self, run: dict[str, Any]) -> None:
        meta = self.meta
        meta["run"] = run
        self._write_json(META_FILE, meta)

    def mark_finished(self, outcome: dict[str, Any]) -> None:
        meta = self.meta
        meta.update(finished=True, outcome=outcome)
        self._write_json(META_FILE, meta)

    # --- the events log --------------------------------------------------------------------

    def append_event(self, event: dict[str, Any]) -> None:
        if not self._tail_checked:
            self.cut_torn_tail()
        self._append(json.dumps(event, ensure_ascii=False) + "\n")

    def events(self) -> list[dict[str, Any]]:
        """Every event of the log (a torn last line left out); damage or a foreign log raises."""
        reading = self.read_log()
        return reading.events if reading else []

    def read_log(self) -> LogReading | None:
        """The log, checked: no damaged line, and bound to this game (None when there is none)."""
        path = self.folder / LOG_FILE
        reading = read_log(path)
        if reading is None:
            return None
        if reading.damaged_line is not None:
            kept = len(reading.events)
            raise DamagedGame(
                f"saved game {self.id}: {path} line {reading.damaged_line} is damaged ({reading.damage}); "
                f"`narrator resume {self.id} --cut-log` resumes from the {kept} events before it")
        header = reading.header
        meta = self.meta
        if header is not None and (header["id"] != self.id or header["game"] != meta["game"]):
            raise DamagedGame(f"saved game {self.id}: {path} is the log of {header['game']} game {header['id']}, "
                              f"not of this {meta['game']} game; put its own log back or start a new game")
        return reading

    def cut_torn_tail(self) -> None:
        """A power cut mid-append leaves half a line; appending after it would bury the next
        event in it. Cut it (said once: once cut it is gone) and bind an old log to its game."""
        reading = self.read_log()
        path = self.folder / LOG_FILE
        if reading is not None and reading.torn_bytes:
            self._truncate(path, reading.complete_bytes)
            self.warn(f"{path}: cut {reading.torn_bytes} bytes of an event torn by a stop mid-write "
                      "(its step is played again)")
        if reading is not None and reading.header is None and reading.events:
            lines = [json.dumps(e, ensure_ascii=False) + "\n" for e in reading.events]
            self._write_text(LOG_FILE, self._header() + "".join(lines))
        elif reading is None or not reading.complete_bytes:
            self._append(self._header())
        self._tail_checked = True

    def _header(self) -> str:
        meta = self.meta
        kept = {key: meta[key] for key in (GAME_FILE_SUM, SEQ) if key in meta}
        return header_line(self.id, meta["game"], {"config": meta["config"], "run": meta["run"], **kept})

    # --- the game file ---------------------------------------------------------------------

    def game_file(self) -> str | None:
        """The exact text of the game file this game was started with, from the copy beside it;
        None when it kept none (a game in code, or saved before copies were kept: found by its
        name). A copy missing, unreadable or changed since is one line naming the fix."""
        path = self.folder / GAME_FILE
        digest = self.meta.get(GAME_FILE_SUM)
        if digest is None and not os.path.lexists(path):
            return None
        fix = f"copy the game file it was started with there, or move {self.folder} away"
        try:
            text = read_text_bounded(path, f"saved game {self.id}: its game file", fix)
        except SetupError as err:
            raise DamagedGame(str(err)) from None
        if digest is not None and _sha256(text) != digest:
            raise DamagedGame(f"saved game {self.id}: its game file {path} was changed since the game was "
                              f"started; {fix}")
        return text

    def cut_log(self, line: int | None) -> None:
        """`resume --cut-log`: keep the lines before `line`, set the rest aside in
        `events.jsonl.cut-<time>`, and drop the snapshot (rebuilt from what is kept).
        Without a line, only a snapshot newer than the log is dropped."""
        path = self.folder / LOG_FILE
        snapshot = self.folder / SNAPSHOT_FILE
        if line is None:
            if not snapshot.exists():
                raise DamagedGame(f"saved game {self.id}: nothing to cut; resume without --cut-log")
            self._write_bytes(f"{SNAPSHOT_FILE}.cut-{time.strftime('%Y%m%d-%H%M%S')}",
                              read_at_most(snapshot, MAX_JSON_BYTES) or b"")
            snapshot.unlink()
            self.warn(f"{snapshot} set aside; the game goes on from its log")
            return
        data = read_at_most(path, MAX_LOG_BYTES) or b""
        keep = sum(len(raw) + 1 for raw in data.split(b"\n")[:line - 1])
        self._write_bytes(f"{LOG_FILE}.cut-{time.strftime('%Y%m%d-%H%M%S')}", data[keep:])
        self._truncate(path, keep)
        snapshot.unlink(missing_ok=True)
        self.warn(f"{path}: cut at line {line} (the rest is kept beside it); the game goes on from the "
                  "events before it")

    # --- the snapshot ----------------------------------------------------------------------

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self._write_json(SNAPSHOT_FILE, {"game_id": self.id, **snapshot.__dict__})

    def load_snapshot(self) -> tuple[Snapshot | None, str | None]:
        """The snapshot, or None with the reason it cannot be used (missing, damaged, foreign)."""
        try:
            data = self._read_json(SNAPSHOT_FILE)
        except DamagedGame as err:
            return None, str(err)
        if data is None:
            return None, f"{self.folder / SNAPSHOT_FILE} is missing"
        snapshot = snapshot_from(data, self.id)
        if isinstance(snapshot, str):
            return None, f"{self.folder / SNAPSHOT_FILE} {snapshot}"
        return snapshot, None

def next_seq(games: Path) -> int:
    """1 + the highest creation sequence of the games in `games` (1 in a new home). Two
    narrators creating games at the same instant may take the same number; their ids order them."""
    try:
        folders = [p for p in games.iterdir() if p.is_dir() and not p.name.startswith(".")]
    except OSError:
        return 1
    return 1 + max((GameStore(p).seq for p in folders), default=0)


def _is_seq(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**53


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _meta_problem(meta: object) -> bool:
    return not isinstance(meta, dict) or not isinstance(meta.get("game"), str) \
        or not isinstance(meta.get("config"), dict) or not isinstance(meta.get("run"), dict)


_fsync_dir = home.fsync_dir
