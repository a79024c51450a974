"""The saved game's edges, each pinned exactly: what the files hold, which line each failure
gives, and the cases a kill or an old version leaves behind (no log yet, a stray file, a
symlink, a second header). Written from the survivors of `bench/mutation.sh store`: each
test here is one way the store could quietly change without any other test noticing."""

import dataclasses
import errno
import json
import os
import re
import stat

import pytest

from narrator.errors import DamagedGame, GameBusy, NarratorError, SaveError
from narrator.games import get_game
from narrator.settings import build_settings
from narrator.table import event_log, lock as lock_module, store as store_module
from narrator.table.event_log import read_at_most, read_log
from narrator.table.lock import GameLock, held_by_other
from narrator.table.runner import Position, cut_log, rebuild, resume_position, start_position
from narrator.table.saved_games import find_game, saved_games
from narrator.table.snapshot import Snapshot
from narrator.table.store import GameStore

NAMES = "Aki,Ben,千佳,Dai,Emi"


@pytest.fixture
def game(tmp_path):
    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": NAMES}, "test"))
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {"voice": "text"})
    return rules, config, store


def answer(rules, config, store, position, value):
    event = {"type": "answer", "value": value, "source": "script"}
    state, cues = rules.advance(config, position.state, event)
    store.append_event(event)
    count = position.event_count + 1
    store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], 12.5))
    return Position(state, cues, count, 12.5)


def log_text(store):
    return (store.folder / "events.jsonl").read_text(encoding="utf-8")


def header(store):
    """The log's first line: its game, and a copy of the setup meta.json holds (issue 25)."""
    meta = json.loads((store.folder / "meta.json").read_text())
    return json.dumps({"type": "log", "id": store.id, "game": "additional-werewolf",
                       "setup": {"config": meta["config"], "run": meta["run"], "seq": meta["seq"]}},
                      ensure_ascii=False) + "\n"


# --- what the files hold ----------------------------------------------------------------------


def test_meta_names_the_game_its_setup_and_run_and_update_run_replaces_the_run(game):
    _, config, store = game
    meta = json.loads((store.folder / "meta.json").read_text(encoding="utf-8"))
    assert meta == {"id": store.id, "game": "additional-werewolf", "config": config.to_dict(),
                    "run": {"voice": "text"}, "seq": 1, "finished": False}
    assert "千佳" in (store.folder / "meta.json").read_text(encoding="utf-8")  # readable, not \\u escapes
    store.update_run({"voice": "ja"})
    assert store.meta["run"] == {"voice": "ja"}


def test_the_log_keeps_japanese_as_text_and_the_snapshot_names_its_game(game):
    rules, config, store = game
    pos = answer(rules, config, store, start_position(rules, config, store), "done")
    store.append_event({"type": "answer", "value": ["千佳"], "source": "keyboard"})
    assert log_text(store) == (header(store) + '{"type": "start"}\n'
                               '{"type": "answer", "value": "done", "source": "script"}\n'
                               '{"type": "answer", "value": ["千佳"], "source": "keyboard"}\n')
    snapshot = json.loads((store.folder / "snapshot.json").read_text(encoding="utf-8"))
    assert snapshot["game_id"] == store.id and snapshot["event_count"] == pos.event_count == 2


def test_a_new_game_starts_at_time_zero_with_a_sound_snapshot(game):
    rules, config, store = game
    position = start_position(rules, config, store)
    snapshot, problem = store.load_snapshot()
    assert problem is None and snapshot.t == 0.0 and position.t == 0.0 and snapshot.event_count == 1
    assert snapshot.cues == json.loads(json.dumps([c.to_dict() for c in position.cues]))


def test_create_hands_its_warnings_to_the_callers_warn(tmp_path):
    warned = []
    store = GameStore.create(tmp_path, "additional-werewolf", {}, {}, warn=warned.append)
    with (store.folder / "events.jsonl").open("a") as f:
        f.write('{"type"')
    store._tail_checked = False  # as after a crash and a reopen
    store.append_event({"type": "start"})
    assert warned == [f"{store.folder / 'events.jsonl'}: cut 7 bytes of an event torn by a stop mid-write "
                      "(its step is played again)"]


# --- a log that is missing, old, or bound to another game ----------------------------------------


def test_a_game_killed_before_its_start_was_saved_starts_on_resume(game):
    """create() wrote meta and the log's first line; the kill came before the start event."""
    rules, config, store = game
    assert store.events() == []
    position = resume_position(rules, config, store)
    expected = start_position(rules, config, GameStore.create(store.folder.parent.parent, rules.name,
                                                              config.to_dict(), {}))
    assert position.state == expected.state and position.cues == expected.cues and position.event_count == 1
    assert log_text(store) == header(store) + '{"type": "start"}\n'


def test_a_folder_without_a_log_gets_one_bound_to_its_game(game):
    rules, config, store = game
    (store.folder / "events.jsonl").unlink()
    fresh = GameStore(store.folder)
    assert fresh.events() == [] and fresh.read_log() is None
    assert resume_position(rules, config, fresh).event_count == 1
    assert log_text(store) == header(store) + '{"type": "start"}\n'


def test_an_old_log_is_rebound_with_its_events_exactly(game):
    rules, config, store = game
    answer(rules, config, store, start_position(rules, config, store), "done")
    store.append_event({"type": "answer", "value": ["千佳"]})
    old = "".join(log_text(store).splitlines(keepends=True)[1:])
    (store.folder / "events.jsonl").write_text(old, encoding="utf-8")
    fresh = GameStore(store.folder)
    fresh.append_event({"type": "continue"})
    assert log_text(store) == header(store) + old + '{"type": "continue"}\n'


def test_the_log_of_another_game_of_the_same_kind_is_refused(tmp_path, game):
    rules, config, store = game
    start_position(rules, config, store)
    other = GameStore.create(tmp_path / "other", rules.name, config.to_dict(), {})
    start_position(rules, config, other)
    (store.folder / "events.jsonl").write_bytes((other.folder / "events.jsonl").read_bytes())
    with pytest.raises(DamagedGame) as err:
        store.events()
    assert str(err.value) == (f"saved game {store.id}: {store.folder / 'events.jsonl'} is the log of "
                              f"additional-werewolf game {other.id}, not of this additional-werewolf game; "
                              "put its own log back or start a new game")


# --- resume: what is replayed, and from when ------------------------------------------------------


def test_an_undo_logged_after_the_snapshot_is_replayed_from_the_log_with_the_snapshots_clock(game):
    """The kill came between appending the undo and saving the snapshot after it."""
    rules, config, store = game
    start = start_position(rules, config, store)
    answer(rules, config, store, start, "done")
    store.append_event({"type": "undo", "source": "keyboard"})
    position = resume_position(rules, config, store)
    assert position.state == start.state and position.event_count == 3 and position.t == 12.5
    assert [c.to_dict() for c in position.cues] == [{"kind": "say", "line": "control.undone", "params": {}},
                                                    start.cues[-1].to_dict()]


def test_a_rebuilt_game_says_undone_only_after_an_undo(game):
    rules, config, store = game
    start = start_position(rules, config, store)
    state, cues = rebuild(rules, config, [{"type": "start"}])
    assert state == start.state and cues == start.cues


def test_a_rebuilt_snapshot_starts_its_clock_at_zero(game):
    rules, config, store = game
    answer(rules, config, store, start_position(rules, config, store), "done")
    (store.folder / "snapshot.json").unlink()
    store.warn = lambda message: None
    position = resume_position(rules, config, store)
    assert position.t == 0.0 and store.load_snapshot()[0].t == 0.0


def test_an_event_after_the_snapshot_that_does_not_replay_names_its_line(game):
    rules, config, store = game
    start_position(rules, config, store)
    store.append_event({"type": "continue"})  # the game waits for an answer there
    with pytest.raises(DamagedGame) as err:
        resume_position(rules, config, store)
    assert re.fullmatch(rf"saved game {store.id}: {re.escape(str(store.folder / 'events.jsonl'))} line 3 does not "
                        r"replay into additional-werewolf \(\w+: .*\); `narrator resume "
                        rf"{store.id} --cut-log` resumes from the events before it", str(err.value)), str(err.value)

    def refuse(config, state, event):
        raise ValueError("x" * 100)

    with pytest.raises(DamagedGame) as err:
        resume_position(dataclasses.replace(rules, advance=refuse), config, store)
    assert f"(ValueError: {'x' * 80}); " in str(err.value)


def test_cut_log_without_a_log_sets_the_snapshot_aside_with_its_time(game):
    rules, config, store = game
    start_position(rules, config, store)
    (store.folder / "events.jsonl").unlink()
    store.warn = lambda message: None
    cut_log(rules, config, store)
    [aside] = store.folder.glob("snapshot.json.cut-*")
    assert re.fullmatch(r"snapshot\.json\.cut-\d{8}-\d{6}", aside.name)


def test_the_cut_part_of_a_log_is_kept_under_its_time(game):
    rules, config, store = game
    answer(rules, config, store, start_position(rules, config, store), "done")
    store.warn = lambda message: None
    store.cut_log(3)
    [aside] = store.folder.glob("events.jsonl.cut-*")
    assert re.fullmatch(r"events\.jsonl\.cut-\d{8}-\d{6}", aside.name)
    assert aside.read_text() == '{"type": "answer", "value": "done", "source": "script"}\n'


def test_a_damaged_snapshots_reason_is_the_damage_line(game):
    rules, config, store = game
    start_position(rules, config, store)
    (store.folder / "snapshot.json").write_text("{")
    assert store.load_snapshot() == (None, f"saved game {store.id}: {store.folder / 'snapshot.json'} is damaged "
                                           f"(JSONDecodeError)")  # it is rebuilt, so nothing says it cannot be resumed


# --- which games are listed, found and skipped ----------------------------------------------------


def test_a_finished_games_log_is_not_read_for_its_problems(game):
    rules, config, store = game
    start_position(rules, config, store)
    (store.folder / "events.jsonl").write_text("garbage\n")
    assert "line 1 is damaged" in store.problem()
    store.mark_finished({"winner": "citizens"})
    assert store.problem() is None


def test_stray_files_and_hidden_folders_are_not_games(tmp_path):
    made = GameStore.create(tmp_path, "pagan", {}, {})
    (tmp_path / "games" / "notes.txt").write_text("x")
    (tmp_path / "games" / ".trash").mkdir()
    assert [s.id for s in saved_games(tmp_path)] == [made.id]


def test_games_that_is_not_a_folder_is_one_line(tmp_path):
    (tmp_path / "games").write_text("")
    with pytest.raises(SaveError) as err:
        saved_games(tmp_path)
    assert str(err.value) == (f"cannot list {tmp_path / 'games'} (Not a directory); check NARRATOR_HOME "
                              "and its permissions")


def test_find_game_skips_a_damaged_unfinished_game_unless_asked_and_never_a_finished_one(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt: "20260101-000000")
    older = GameStore.create(tmp_path, "pagan", {}, {})
    older.close()
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt: "20260101-000001")
    damaged = GameStore.create(tmp_path, "pagan", {}, {})
    damaged.close()
    (damaged.folder / "events.jsonl").write_text("garbage\n")
    warned = []
    assert find_game(tmp_path, None, warned.append).id == older.id
    assert len(warned) == 1 and warned[0].startswith(f"skipping a damaged game: saved game {damaged.id}: ")
    assert find_game(tmp_path, None, warned.append, damaged_too=True).id == damaged.id
    meta = damaged.meta
    (damaged.folder / "meta.json").write_text(json.dumps({**meta, "finished": True}))
    (damaged.folder / "events.jsonl").write_text("garbage\n")
    older.mark_finished({"winner": "witch"})
    with pytest.raises(NarratorError) as err:
        find_game(tmp_path, None, warned.append, damaged_too=True)
    assert str(err.value) == f"no unfinished game in {tmp_path / 'games'}; start one with `narrator play`"


# --- disk failures: one line each, and what was saved stays -------------------------------------


def test_an_unwritable_home_names_the_fix(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(SaveError) as err:
        GameStore.create(tmp_path / "file", "pagan", {}, {})
    assert str(err.value) == (f"cannot create a saved game in {tmp_path / 'file' / 'games'} (Not a directory); "
                              "make it writable or set NARRATOR_HOME to a writable folder")


def test_a_temp_file_that_could_not_be_made_is_one_line(game, monkeypatch):
    _, _, store = game
    before = (store.folder / "meta.json").read_bytes()

    def read_only(path, flags, mode=0o777):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(store_module.os, "open", read_only)
    with pytest.raises(SaveError, match=r"\(Read-only file system\); free some space"):
        store.update_run({"voice": "ja"})
    monkeypatch.undo()
    assert (store.folder / "meta.json").read_bytes() == before


def test_a_failed_cut_of_a_torn_tail_is_one_line(game, monkeypatch):
    rules, config, store = game
    start_position(rules, config, store)
    with (store.folder / "events.jsonl").open("a") as f:
        f.write('{"ty')
    fresh = GameStore(store.folder, lambda message: None)

    def broken(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(store_module.os, "fsync", broken)
    with pytest.raises(SaveError) as err:
        fresh.append_event({"type": "continue"})
    assert str(err.value).startswith(f"cannot save game {store.id} in {store.folder} (Input/output error); ")


def test_modes_skip_symlinks_and_folders_and_a_failure_is_one_line(game, tmp_path, monkeypatch):
    _, _, store = game
    outside = tmp_path / "outside.txt"
    outside.write_text("mine")
    os.chmod(outside, 0o644)
    (store.folder / "link").symlink_to(outside)
    (store.folder / "sub").mkdir(mode=0o755)
    os.chmod(store.folder / "sub", 0o755)
    store.secure()
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644
    assert stat.S_IMODE((store.folder / "sub").stat().st_mode) == 0o755

    def refuse(path, mode):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(store_module.os, "chmod", refuse)
    with pytest.raises(SaveError) as err:
        store.secure()
    assert str(err.value) == (f"cannot set the modes of {store.folder} (Operation not permitted); "
                              "run the narrator as the user who owns it")


# --- the events log, line by line -----------------------------------------------------------------


def test_read_at_most_reads_one_byte_past_its_limit_and_a_folder_is_one_line(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 100)
    assert read_at_most(path, 10) == b"x" * 11
    assert read_at_most(tmp_path / "none", 10) is None
    with pytest.raises(SaveError) as err:
        read_at_most(tmp_path, 10)
    assert str(err.value) == f"cannot read {tmp_path} (Is a directory); check its permissions"


def test_a_log_over_the_bound_is_refused_and_one_at_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(event_log, "MAX_LOG_BYTES", 2 * 2**20)
    path = tmp_path / "events.jsonl"
    line = b'{"type": "start"}\n'
    path.write_bytes(b'{"type": "continue"' + b" " * (2 * 2**20 - len(line) - 21) + b"}\n" + line)
    assert path.stat().st_size == 2 * 2**20
    assert len(read_log(path).events) == 2
    with path.open("ab") as f:
        f.write(b"\n")
    with pytest.raises(DamagedGame) as err:
        read_log(path)
    assert str(err.value) == (f"{path} is over 2 MiB, far more than any game logs; it is not this game's log "
                              "(move it away and start a new game)")


@pytest.mark.parametrize("line, damage", [
    (b"\xff\xfe", "not UTF-8"),
    (b"[1]", "not an object"),
    (b'{"type": "log", "id": "x"}', "a log header without id and game"),
    (b'{"type": "log", "game": "pagan"}', "a log header without id and game"),
    (b'{"type": "log", "id": "x", "game": "pagan"}', "a second log header"),
    (b'{"type": "' + b"z" * 30 + b'"}', "unknown event type 'zzzzzzzzzzzzzzzzzzzz'"),
    (b'{"type": null}', "unknown event type 'None'"),
    (b'{"type": "answer"}', "an answer without a value"),
    (b"{", "not JSON (JSONDecodeError)"),
])
def test_each_kind_of_damaged_line_is_named(tmp_path, line, damage):
    path = tmp_path / "events.jsonl"
    path.write_bytes(b'{"type": "log", "id": "a", "game": "pagan"}\n{"type": "start"}\n' + line + b"\n")
    reading = read_log(path)
    assert (reading.damaged_line, reading.damage, len(reading.events)) == (3, damage, 1)


# --- one narrator per game ------------------------------------------------------------------------


def test_the_lock_file_says_exactly_who_holds_it(game):
    _, _, store = game
    store.close()
    (store.folder / "lock").write_text("x" * 300)
    store.open("narrator serve")
    assert (store.folder / "lock").read_text() == f"pid {os.getpid()} (narrator serve)\n"
    assert held_by_other(store.folder) == f"pid {os.getpid()} (narrator serve)"
    with pytest.raises(GameBusy) as err:
        GameStore(store.folder).open("narrator resume")
    assert str(err.value) == (f"game {store.id} is being played by another narrator (pid {os.getpid()} "
                              "(narrator serve)); stop that one first (e.g. `sudo systemctl stop narrator`)")
    store.close()
    assert held_by_other(store.folder) is None
    assert held_by_other(store.folder / "none") is None


def test_a_holder_that_left_no_label_or_a_broken_one(game):
    _, _, store = game
    (store.folder / "lock").write_bytes(b"")
    assert held_by_other(store.folder) == "a process that has not said who it is"
    (store.folder / "lock").write_bytes(b"pid 1 (\xff)")
    assert held_by_other(store.folder) == "pid 1 (\ufffd)"


def test_a_lock_that_cannot_be_opened_or_taken_is_one_line(tmp_path, monkeypatch):
    with pytest.raises(SaveError) as err:
        GameLock(tmp_path / "gone").acquire("narrator play")
    assert str(err.value) == (f"cannot open {tmp_path / 'gone' / 'lock'} (No such file or directory); "
                              f"make {tmp_path / 'gone'} writable by the narrator's user")

    def broken(fd, operation):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(lock_module.fcntl, "flock", broken)
    with pytest.raises(SaveError) as err:
        GameLock(tmp_path).acquire("narrator play")
    assert str(err.value) == f"cannot lock {tmp_path / 'lock'} (No locks available)"


def test_a_game_whose_meta_is_damaged_is_never_resumed_even_to_cut_its_log(tmp_path):
    damaged = GameStore.create(tmp_path, "pagan", {}, {})
    damaged.close()
    log = damaged.folder / "events.jsonl"  # a log from before issue 25: no copy of the setup
    log.write_text(json.dumps({k: v for k, v in json.loads(log.read_text()).items() if k != "setup"}) + "\n")
    (damaged.folder / "meta.json").write_text("")
    with pytest.raises(DamagedGame, match="meta.json is damaged"):
        find_game(tmp_path, None, lambda message: None, damaged_too=True)


def test_a_lock_file_that_cannot_be_read_names_no_one(game, monkeypatch):
    _, _, store = game

    def unreadable(fd, size, offset):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(lock_module.os, "pread", unreadable)
    assert held_by_other(store.folder) == "a process that has not said who it is"


def test_a_game_that_could_not_be_saved_leaves_no_folder_behind(tmp_path, monkeypatch):
    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store_module.os, "write", full)
    with pytest.raises(SaveError, match="No space left on device"):
        GameStore.create(tmp_path, "pagan", {}, {})
    assert list((tmp_path / "games").iterdir()) == []
