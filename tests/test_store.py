"""The store survives kills at any instant: torn logs, missing snapshots, undo in the log."""

import errno
import json
import os
import stat

from narrator.games import get_game
from narrator.table.runner import effective_events, resume_position, start_position
from narrator.settings import build_settings
from narrator.table.saved_games import find_game
from narrator.table.snapshot import Snapshot
from narrator.table.store import GameStore

import pytest

from narrator.errors import DamagedGame, GameBusy, NarratorError, SaveError
from narrator.table import saved_games as saved_games_module
from narrator.table import store as store_module
from narrator.table.runner import cut_log, rebuild


@pytest.fixture
def game(tmp_path):
    rules = get_game("additional-werewolf")
    config = rules.configure(build_settings({}, {"names": "Aki,Ben,Chika,Dai,Emi"}, "test"))
    store = GameStore.create(tmp_path, rules.name, config.to_dict(), {})
    return rules, config, store


def advance_and_save(rules, config, store, position, event):
    state, cues = rules.advance(config, position.state, event)
    store.append_event(event)
    count = position.event_count + 1
    store.save_snapshot(Snapshot(count, state.to_dict(), [c.to_dict() for c in cues], 12.5))
    return type(position)(state, cues, count, 12.5)


def test_snapshot_and_events_round_trip(game):
    rules, config, store = game
    pos = start_position(rules, config, store)
    pos = advance_and_save(rules, config, store, pos, {"type": "answer", "value": "done"})
    again = resume_position(rules, config, store)
    assert again.state == pos.state and again.cues == pos.cues and again.t == 12.5
    assert again.event_count == 2


def test_events_logged_after_the_snapshot_are_replayed(game):
    """A kill between appending an event and writing the snapshot loses nothing."""
    rules, config, store = game
    pos = start_position(rules, config, store)
    state, cues = rules.advance(config, pos.state, {"type": "answer", "value": "done"})
    store.append_event({"type": "answer", "value": "done"})  # ... and the process dies here
    again = resume_position(rules, config, store)
    assert again.state == state and again.cues == cues and again.event_count == 2


def test_a_torn_last_event_line_is_dropped(game):
    rules, config, store = game
    start_position(rules, config, store)
    with (store.folder / "events.jsonl").open("a") as f:
        f.write('{"type": "ans')
    assert store.events() == [{"type": "start"}]
    assert resume_position(rules, config, store).state.step == "ask_boxed"


def test_snapshot_is_replaced_atomically(game):
    rules, config, store = game
    start_position(rules, config, store)
    assert not list(store.folder.glob("*.tmp"))
    data = json.loads((store.folder / "snapshot.json").read_text())
    assert data["event_count"] == 1 and data["state"]["step"] == "ask_boxed"


def test_effective_events_undo_the_latest_answer_and_the_steps_after_it():
    events = [{"type": "start"}, {"type": "answer", "value": "done"}, {"type": "continue"},
              {"type": "answer", "value": ["Aki"]}, {"type": "undo"}]
    assert effective_events(events) == events[:3]
    assert effective_events(events + [{"type": "undo"}]) == events[:1]
    assert effective_events([{"type": "start"}, {"type": "undo"}]) == [{"type": "start"}]


def test_damaged_meta_is_a_clear_error(game, tmp_path):
    """...when the log holds no copy of the setup either (a log written before issue 25)."""
    _, _, store = game
    as_before_issue_25(store)
    (store.folder / "meta.json").write_text("{")
    with pytest.raises(NarratorError, match="damaged"):
        find_game(tmp_path, None)


@pytest.mark.parametrize("damage", ["lost", "cut", "not a meta"])
def test_a_lost_or_damaged_meta_is_rebuilt_from_the_copy_in_the_log(game, tmp_path, damage, capsys):
    rules, config, store = game
    before = json.loads((store.folder / "meta.json").read_text())
    meta = store.folder / "meta.json"
    {"lost": meta.unlink, "cut": lambda: meta.write_text(meta.read_text()[:30]),
     "not a meta": lambda: meta.write_text("[]")}[damage]()
    assert find_game(tmp_path, None).meta == before
    assert json.loads(meta.read_text()) == before
    assert "rebuilt from the copy in its log" in capsys.readouterr().err


# --- issue 13: never bricked, never silently wrong ------------------------------------------


@pytest.fixture
def warned(game):
    messages = []
    game[2].warn = messages.append
    return messages


def answered(rules, config, store, *values):
    """A started game with these answers logged and snapshotted, as the runner does."""
    pos = start_position(rules, config, store)
    for value in values:
        pos = advance_and_save(rules, config, store, pos, {"type": "answer", "value": value, "source": "script"})
    return pos


def log_lines(store):
    return (store.folder / "events.jsonl").read_text(encoding="utf-8").splitlines()


def header_of(store):
    """The log's first line: its game, and a copy of the setup meta.json holds (issue 25)."""
    meta = json.loads((store.folder / "meta.json").read_text())
    return {"type": "log", "id": store.id, "game": meta["game"],
            "setup": {"config": meta["config"], "run": meta["run"], **({"seq": meta["seq"]} if "seq" in meta else {})}}


def as_before_issue_25(store):
    """The log's first line without the copy of the setup (so a lost meta.json stays lost)."""
    log = store.folder / "events.jsonl"
    first, *rest = log.read_text().splitlines(keepends=True)
    header = {k: v for k, v in json.loads(first).items() if k != "setup"}
    log.write_text(json.dumps(header) + "\n" + "".join(rest))


def test_the_log_starts_with_its_game_and_every_line_is_an_event(game):
    rules, config, store = game
    answered(rules, config, store, "done")
    first, *rest = [json.loads(line) for line in log_lines(store)]
    assert first == header_of(store)
    assert [e["type"] for e in rest] == ["start", "answer"] and store.events() == rest


def test_a_torn_tail_is_cut_before_the_next_append_and_said_once(game, warned):
    rules, config, store = game
    answered(rules, config, store, "done")
    with (store.folder / "events.jsonl").open("a") as f:
        f.write('{"type": "answer", "val')
    again = GameStore(store.folder, warned.append)
    again.append_event({"type": "continue"})
    again.append_event({"type": "continue"})
    assert [json.loads(line)["type"] for line in log_lines(store)] == ["log", "start", "answer", "continue", "continue"]
    assert len(warned) == 1 and "cut" in warned[0] and "events.jsonl" in warned[0]


def test_a_damaged_line_in_the_middle_names_the_file_and_line_and_cut_log_resumes_before_it(game, warned):
    rules, config, store = game
    answered(rules, config, store, "done", ["Aki"], "no")
    lines = log_lines(store)
    lines[3] = '{"type": "answer", "value": ["Aki"], "sou'  # line 4, torn in the middle of the log
    (store.folder / "events.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(DamagedGame, match=r"events\.jsonl line 4 is damaged.*--cut-log"):
        resume_position(rules, config, store)
    cut_log(rules, config, store)
    position = resume_position(rules, config, store)
    assert position.event_count == 2 and position.state.step == answered(
        *game[:2], GameStore.create(store.folder.parent.parent, rules.name, config.to_dict(), {}), "done").state.step
    kept = list(store.folder.glob("events.jsonl.cut-*"))
    assert len(kept) == 1 and kept[0].read_text().startswith('{"type": "answer", "value": ["Aki"], "sou')


@pytest.mark.parametrize("content", [b"", b'{"event_count": 3, "sta', b"\xff\xfe\x00", b"[]",
                                     b'{"event_count": 3, "state": {}, "cues": [], "t": 1.0}', None])
def test_a_damaged_or_missing_snapshot_is_rebuilt_from_the_log_and_said_once(game, warned, content):
    rules, config, store = game
    pos = answered(rules, config, store, "done", ["Aki"])
    path = store.folder / "snapshot.json"
    path.unlink() if content is None else path.write_bytes(content)
    again = resume_position(rules, config, store)
    assert again.state == pos.state and again.cues == pos.cues and again.event_count == 3
    assert len(warned) == 1 and "rebuilt from its log" in warned[0]
    resume_position(rules, config, store)
    assert len(warned) == 1  # the rebuilt snapshot was saved: said once


def test_an_empty_log_beside_a_snapshot_is_refused_and_nothing_is_overwritten(game):
    rules, config, store = game
    answered(rules, config, store, "done")
    snapshot = (store.folder / "snapshot.json").read_bytes()
    (store.folder / "events.jsonl").write_bytes(b"")
    with pytest.raises(DamagedGame, match="holds no events"):
        resume_position(rules, config, store)
    assert (store.folder / "snapshot.json").read_bytes() == snapshot
    assert (store.folder / "events.jsonl").read_bytes() == b""


def test_a_log_older_than_its_snapshot_is_refused_and_cut_log_goes_on_from_the_log(game, warned):
    rules, config, store = game
    answered(rules, config, store, "done", ["Aki"])
    lines = log_lines(store)
    (store.folder / "events.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(DamagedGame, match="older than its snapshot"):
        resume_position(rules, config, store)
    cut_log(rules, config, store)
    assert resume_position(rules, config, store).event_count == 2


def test_another_games_log_is_never_replayed(tmp_path, game):
    rules, config, store = game
    answered(rules, config, store, "done")
    pagan = get_game("pagan")
    pconfig = pagan.configure(build_settings({}, {"game": "pagan"}, "test"))
    other = GameStore.create(tmp_path, pagan.name, pconfig.to_dict(), {})
    start_position(pagan, pconfig, other)
    other.append_event({"type": "answer", "value": "done"})
    (store.folder / "events.jsonl").write_bytes((other.folder / "events.jsonl").read_bytes())
    with pytest.raises(DamagedGame, match=f"log of pagan game {other.id}, not of this additional-werewolf game"):
        resume_position(rules, config, store)


def test_an_old_log_without_its_first_line_is_bound_to_its_game_on_resume(game):
    rules, config, store = game
    pos = answered(rules, config, store, "done")
    lines = log_lines(store)
    (store.folder / "events.jsonl").write_text("\n".join(lines[1:]) + "\n")  # as before issue 13
    resumed = GameStore(store.folder)
    assert resume_position(rules, config, resumed).state == pos.state
    resumed.append_event({"type": "continue"})
    assert json.loads(log_lines(store)[0]) == header_of(store)


def test_an_event_the_rules_cannot_take_is_a_damaged_line_not_a_traceback(game):
    rules, config, store = game
    start_position(rules, config, store)
    store.append_event({"type": "continue"})  # the game waits for an answer there
    (store.folder / "snapshot.json").unlink()
    with pytest.raises(DamagedGame, match=r"events\.jsonl line 3 does not replay"):
        resume_position(rules, config, store)
    cut_log(rules, config, store)
    assert resume_position(rules, config, store).event_count == 1


def test_an_answer_whose_value_is_a_command_word_is_an_answer(game):
    """A player named "undo" answers a name question; the log keeps it as an answer."""
    events = [{"type": "start"}, {"type": "answer", "value": "done"}, {"type": "answer", "value": "undo"},
              {"type": "answer", "value": ["undo"]}]
    assert effective_events(events) == events


def test_temp_files_have_unique_names(game):
    """A leftover `snapshot.tmp` (or another writer's temp file) no longer breaks a save."""
    rules, config, store = game
    (store.folder / "snapshot.tmp").mkdir()
    (store.folder / ".snapshot.json.tmp").mkdir()
    answered(rules, config, store, "done")
    assert json.loads((store.folder / "snapshot.json").read_text())["event_count"] == 2
    assert not [p for p in store.folder.iterdir() if p.name.endswith(".tmp") and p.is_file()]


def test_a_new_game_folder_is_fsynced_into_games(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(os.fstat(fd).st_ino)
        real(fd)

    monkeypatch.setattr(store_module.os, "fsync", fsync)
    created = GameStore.create(tmp_path, "additional-werewolf", {}, {})
    assert (tmp_path / "games").stat().st_ino in synced and tmp_path.stat().st_ino in synced
    assert created.folder.stat().st_ino in synced


def test_folder_0700_files_0600_and_resume_fixes_older_modes(game):
    rules, config, store = game
    answered(rules, config, store, "done")
    assert stat.S_IMODE(store.folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in store.folder.iterdir()} == {0o600}
    os.chmod(store.folder, 0o755)
    for p in store.folder.iterdir():
        os.chmod(p, 0o644)
    store.close()
    GameStore(store.folder).open("test")
    assert stat.S_IMODE(store.folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in store.folder.iterdir()} == {0o600}


def test_a_second_narrator_is_refused_naming_the_first(game):
    _, _, store = game  # created, so held by "narrator play" in this process
    with pytest.raises(GameBusy, match=rf"pid {os.getpid()} \(narrator play\)"):
        GameStore(store.folder).open("narrator resume")
    store.close()
    GameStore(store.folder).open("narrator resume").close()


def test_a_full_disk_is_one_line_and_the_log_keeps_what_it_had(game, monkeypatch):
    rules, config, store = game
    answered(rules, config, store, "done")
    before = (store.folder / "events.jsonl").read_bytes(), (store.folder / "snapshot.json").read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store_module.os, "write", full)
    with pytest.raises(SaveError, match="No space left on device"):
        store.append_event({"type": "continue"})
    with pytest.raises(SaveError, match="No space left on device"):
        store.save_snapshot(Snapshot(3, {}, [], 0.0))
    assert ((store.folder / "events.jsonl").read_bytes(), (store.folder / "snapshot.json").read_bytes()) == before
    assert not [p for p in store.folder.iterdir() if p.name.endswith(".tmp")]


def test_an_unwritable_home_is_one_line(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(SaveError, match="cannot create a saved game"):
        GameStore.create(tmp_path / "file", "pagan", {}, {})


def test_rebuild_replays_undo_by_index():
    rules = get_game("pagan")
    config = rules.configure(build_settings({}, {"game": "pagan"}, "test"))
    events = [{"type": "start"}, {"type": "answer", "value": "done"}]
    assert rebuild(rules, config, events + [{"type": "undo"}])[0] == rebuild(rules, config, events[:1])[0]


# --- every refusal is one exact line that names the file and the fix -------------------------


def test_the_damage_lines_are_exact(game, warned, tmp_path):
    rules, config, store = game
    folder, log, snap = store.folder, store.folder / "events.jsonl", store.folder / "snapshot.json"
    answered(rules, config, store, "done", ["Aki"])
    good_log, good_snap = log.read_bytes(), snap.read_bytes()

    lines = log_lines(store)
    log.write_text("\n".join(lines[:2] + ["{oops"] + lines[3:]) + "\n")
    with pytest.raises(DamagedGame) as err:
        resume_position(rules, config, store)
    assert str(err.value) == (f"saved game {store.id}: {log} line 3 is damaged (not JSON (JSONDecodeError)); "
                              f"`narrator resume {store.id} --cut-log` resumes from the 1 events before it")

    log.write_bytes(b"")
    with pytest.raises(DamagedGame) as err:
        resume_position(rules, config, store)
    assert str(err.value) == (f"saved game {store.id}: {log} holds no events but a snapshot exists; "
                              "put the log back from a backup, or start a new game")

    log.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(DamagedGame) as err:
        resume_position(rules, config, store)
    assert str(err.value) == (f"saved game {store.id}: {log} holds 2 events, older than its snapshot (3); put the "
                              f"whole log back, or `narrator resume {store.id} --cut-log` to go on from the log alone")

    log.write_bytes(good_log)
    snap.write_text(json.dumps({**json.loads(good_snap), "state": {"step": "start"}}))
    resume_position(rules, config, store)
    assert warned == [f"{snap} does not fit the game (ValueError: its state does not read back the same); "
                      f"the game is rebuilt from its log {log}"]

    log.write_bytes(good_log)
    as_before_issue_25(store)  # with the copy of the setup in the log, meta.json is rebuilt
    (folder / "meta.json").unlink()
    with pytest.raises(DamagedGame) as err:
        _ = store.meta
    assert str(err.value) == f"saved game {store.id}: meta.json is missing; it cannot be resumed (move {folder} away)"
    (folder / "meta.json").write_text('{"game": "x"}')
    with pytest.raises(DamagedGame) as err:
        _ = store.meta
    assert str(err.value) == (f"saved game {store.id}: meta.json lacks the game, its setup or its run options; "
                              f"it cannot be resumed (move {folder} away)")
    (folder / "meta.json").write_text('{"game": ')
    with pytest.raises(DamagedGame) as err:
        _ = store.meta
    assert str(err.value) == (f"saved game {store.id}: {folder / 'meta.json'} is damaged (JSONDecodeError); "
                              f"it cannot be resumed (move {folder} away)")
    (folder / "meta.json").write_text("")
    with pytest.raises(DamagedGame, match=r"is damaged \(empty\)"):
        _ = store.meta


@pytest.mark.parametrize("data,reason", [
    ([], "is not a snapshot"),
    ({"game_id": "other", "event_count": 1, "state": {}, "cues": [], "t": 0}, "belongs to game other"),
    ({"event_count": 0, "state": {}, "cues": [], "t": 0}, "has no event count"),
    ({"event_count": True, "state": {}, "cues": [], "t": 0}, "has no event count"),
    ({"event_count": "1", "state": {}, "cues": [], "t": 0}, "has no event count"),
    ({"event_count": 1, "state": [], "cues": [], "t": 0}, "has no state or cues"),
    ({"event_count": 1, "state": {}, "cues": {}, "t": 0}, "has no state or cues"),
    ({"event_count": 1, "state": {}, "cues": [], "t": -1}, "has no game clock"),
    ({"event_count": 1, "state": {}, "cues": [], "t": True}, "has no game clock"),
    ({"event_count": 1, "state": {}, "cues": [], "t": "0"}, "has no game clock"),
    ({"event_count": 1, "state": {}, "cues": [], "t": float("inf")}, "has no game clock"),
    ({"event_count": 1, "state": {}, "cues": []}, "has no game clock"),
])
def test_each_snapshot_problem_is_named(game, data, reason):
    _, _, store = game
    (store.folder / "snapshot.json").write_text(json.dumps(data))
    assert store.load_snapshot() == (None, f"{store.folder / 'snapshot.json'} {reason}")


def test_a_sound_snapshot_loads_with_its_clock(game):
    _, _, store = game
    store.save_snapshot(Snapshot(1, {"a": 1}, [{"b": 2}], 0))
    assert store.load_snapshot() == (Snapshot(1, {"a": 1}, [{"b": 2}], 0.0), None)
    (store.folder / "snapshot.json").unlink()
    assert store.load_snapshot() == (None, f"{store.folder / 'snapshot.json'} is missing")


def test_the_store_lines_are_exact(game, warned, monkeypatch):
    rules, config, store = game
    log = store.folder / "events.jsonl"
    answered(rules, config, store, "done")
    with log.open("a") as f:
        f.write('{"ty')
    fresh = GameStore(store.folder, warned.append)
    fresh.append_event({"type": "continue"})
    assert warned == [f"{log}: cut 4 bytes of an event torn by a stop mid-write (its step is played again)"]
    lines = log_lines(store)
    log.write_text("\n".join(lines[:3] + ["[]"] + lines[3:]) + "\n")
    fresh.cut_log(4)
    assert warned[-1] == f"{log}: cut at line 4 (the rest is kept beside it); the game goes on from the events before it"
    assert log_lines(store) == lines[:3] and not (store.folder / "snapshot.json").exists()
    [kept] = store.folder.glob("events.jsonl.cut-*")
    assert kept.read_text().splitlines() == ["[]"] + lines[3:]
    with pytest.raises(DamagedGame) as err:
        fresh.cut_log(None)
    assert str(err.value) == f"saved game {store.id}: nothing to cut; resume without --cut-log"
    fresh.save_snapshot(Snapshot(9, {}, [], 0.0))
    fresh.cut_log(None)
    assert warned[-1] == f"{store.folder / 'snapshot.json'} set aside; the game goes on from its log"
    assert len(list(store.folder.glob("snapshot.json.cut-*"))) == 1

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module.os, "write", full)
    with pytest.raises(SaveError) as err:
        fresh.append_event({"type": "continue"})
    assert str(err.value) == (f"cannot save game {store.id} in {store.folder} (No space left on device); free some "
                              f"space or make it writable, then `narrator resume {store.id}` (what was saved is kept)")


def test_find_game_picks_the_latest_sound_unfinished_game(tmp_path, monkeypatch):
    made = []
    for second in range(3):
        monkeypatch.setattr(store_module.time, "strftime", lambda fmt, s=second: f"20260101-00000{s}")
        made.append(GameStore.create(tmp_path, "pagan", {}, {}))
        made[-1].close()
    made[2].mark_finished({"winner": "witch"})
    warned = []
    assert find_game(tmp_path, None, warned.append).id == made[1].id
    as_before_issue_25(made[1])
    (made[1].folder / "meta.json").write_text("")
    assert find_game(tmp_path, None, warned.append).id == made[0].id
    assert warned == [f"skipping a damaged game: saved game {made[1].id}: {made[1].folder / 'meta.json'} is damaged "
                      f"(empty); it cannot be resumed (move {made[1].folder} away)"]
    assert find_game(tmp_path, made[2].id).id == made[2].id
    with pytest.raises(NarratorError, match=f"no saved game 'nope' in {tmp_path / 'games'}; see `narrator games`"):
        find_game(tmp_path, "nope")
    made[0].mark_finished({"winner": "witch"})
    with pytest.raises(DamagedGame, match="is damaged"):
        find_game(tmp_path, None, warned.append)
    (made[1].folder / "meta.json").write_text(json.dumps({"game": "pagan", "config": {}, "run": {}}))
    (made[1].folder / "events.jsonl").write_text("garbage\n")
    assert find_game(tmp_path, None, warned.append, damaged_too=True).id == made[1].id
    # made[1]'s meta was rewritten without its creation sequence and its log is garbage: it counts
    # as saved before the sequence was kept, so it comes first; the others keep their order
    assert [s.id for s in saved_games_module.saved_games(tmp_path)] == [made[1].id, made[0].id, made[2].id]
    assert saved_games_module.saved_games(tmp_path / "none") == []


# --- what mutation testing found untested (bench/mutation.sh store) ------------------------------


def test_a_game_id_is_its_start_time_and_six_hex_digits(tmp_path):
    import re

    store = GameStore.create(tmp_path, "pagan", {}, {})
    assert re.fullmatch(r"\d{8}-\d{6}-[0-9a-f]{6}", store.id), store.id
    assert store.folder == tmp_path / "games" / store.id


def test_the_games_folder_itself_is_0700(tmp_path):
    old = os.umask(0o022)
    try:
        GameStore.create(tmp_path, "pagan", {}, {})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "games").stat().st_mode) == 0o700


def test_a_store_warning_is_one_line_starting_with_warning(game, capsys):
    rules, config, store = game
    answered(rules, config, store, "done")
    with (store.folder / "events.jsonl").open("a") as f:
        f.write('{"ty')
    GameStore(store.folder).append_event({"type": "continue"})
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and err.count("\n") == 1 and "cut 4 bytes" in err


@pytest.mark.parametrize("size, damaged", [(16 * 1024 * 1024, False), (16 * 1024 * 1024 + 1, True)])
def test_meta_over_16_mib_is_not_ours(game, size, damaged):
    _, _, store = game
    meta = json.dumps(store.meta)
    (store.folder / "meta.json").write_text(meta + " " * (size - len(meta.encode())))
    if damaged:
        as_before_issue_25(store)
        with pytest.raises(DamagedGame) as err:
            _ = store.meta
        assert str(err.value) == (f"saved game {store.id}: {store.folder / 'meta.json'} is damaged (over 16 MiB); "
                                  f"it cannot be resumed (move {store.folder} away)")
    else:
        assert store.meta["game"] == "additional-werewolf"
