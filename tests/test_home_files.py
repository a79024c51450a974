"""Issue 39, items 4-6: every kept file in the home read the careful way, and what a kill, a
clock jumping back or a full disk leaves behind.

A table's evening (one finished game, one left unfinished) is played once by real `narrator`
processes; each test damages a copy of that home and checks the damage costs one line, never a
traceback, a hang or a lost result: `history-forgotten.json` damaged, a symlink to `/dev/zero`
or huge; `stats forget` meeting a damaged finished game; a finished game whose `meta.json` is
damaged; a huge `[appliance]` number; games made after the clock jumped back; a full disk at a
game's creation; the temp files kills leave.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from narrator import home as home_module
from narrator.appliance import trouble
from narrator.appliance.table import parse_appliance
from narrator.errors import NarratorError, Refusal, SaveError
from narrator.games import get_game
from narrator.settings import build_settings
from narrator.table import forget as forget_module
from narrator.table import store as store_module
from narrator.table.forget import NOTE_FILE, forgotten
from narrator.table.history import records
from narrator.table.saved_games import find_game, saved_games
from narrator.table.store import GameStore
from tests.processes import started

AW_NAMES = "Aki,Ben,Chika,Dai,Emi,Fumi"
AW_CITIZENS = ["done", "Ben,Dai", "no", "no", "done", "Emi", "no", "no", "done", "Fumi", "yes"]
"""Physical cards: the werewolf is found among day 3's nominees (tests/test_history_cli.py)."""
RUN = ["--voice", "text", "--time-scale", "0", "--no-keyboard"]
BOUND = 60
"""Seconds any narrator process of these tests may take (a hang fails the test, it does not stall it)."""


def _capped() -> None:
    """At most 1 GiB of heap per narrator process: an unbounded read (a link to /dev/zero, on the
    code before the fix) fails fast instead of taking the shared machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (2**30, 2**30))


def narrator(home: Path, *args: str, timeout: float = BOUND) -> subprocess.CompletedProcess:
    env = {**os.environ, "NARRATOR_HOME": str(home)}
    try:
        return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True, text=True, env=env,
                              timeout=timeout, stdin=subprocess.DEVNULL, preexec_fn=_capped)
    except subprocess.TimeoutExpired:  # subprocess.run kills and reaps the child before raising
        pytest.fail(f"narrator {' '.join(args)} hung past {timeout} s")


def script(folder: Path, name: str, lines: list[str]) -> str:
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> Path:
    """A home with one finished game (first) and one unfinished game (second)."""
    home = tmp_path_factory.mktemp("evening")
    files = tmp_path_factory.mktemp("scripts")
    done = narrator(home, "play", "additional-werewolf", "--names", AW_NAMES, "--seed", "7", *RUN,
                    "--answers", script(files, "all.txt", AW_CITIZENS))
    assert done.returncode == 0, done.stderr
    half = narrator(home, "play", "additional-werewolf", "--names", AW_NAMES, "--seed", "7", *RUN,
                    "--answers", script(files, "half.txt", AW_CITIZENS[:3]))
    assert half.returncode == 3, half.stderr  # the script ran dry: a game left unfinished
    return home


@pytest.fixture
def table(evening, tmp_path) -> tuple[Path, GameStore, GameStore]:
    """A copy of the evening's home: (home, the finished game, the unfinished game)."""
    copy = tmp_path / "table"
    shutil.copytree(evening, copy, symlinks=True)
    finished, unfinished = saved_games(copy)
    assert finished.meta["finished"] and not unfinished.meta["finished"]
    return copy, finished, unfinished


def one_line(done: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.splitlines()
    return line


# --- item 4: history-forgotten.json ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["garbage", "a list", "dev-zero", "huge"])
def test_a_damaged_forgotten_note_is_set_aside_with_one_line_and_stats_goes_on(table, damage):
    home, finished, _ = table
    note = home / NOTE_FILE
    if damage == "garbage":
        note.write_bytes(b"{ not json")
    elif damage == "a list":
        note.write_text("[1, 2]")
    elif damage == "dev-zero":
        note.symlink_to("/dev/zero")  # read without a bound: a hang and gigabytes of memory
    else:
        with note.open("wb") as f:
            f.truncate(home_module.MAX_KEPT_BYTES + 1)  # sparse: 16 MiB + 1 of zeros, no disk used
    done = narrator(home, "stats", "--json")
    line = one_line(done)
    assert done.returncode == 0 and line.startswith(f"warning: {note} is damaged (") and "stats forget" in line
    assert [g["id"] for g in json.loads(done.stdout)["games"]] == [finished.id]
    assert not os.path.lexists(note) and len(list(home.glob(f"{NOTE_FILE}.damaged-*"))) == 1
    again = narrator(home, "stats", "--json")
    assert again.returncode == 0 and again.stderr == ""  # set aside: said once, not every time


def test_the_evenings_winners_read_past_a_damaged_note(tmp_path):
    """What `serve` asks when the table wants tonight's winners (`evening.again`): the history,
    which refused as a whole before (and `serve` exited 1 in front of the table)."""
    (tmp_path / NOTE_FILE).write_bytes(b"\xff\xfe not json")
    said = []
    assert records(tmp_path, said.append) == []
    assert len(said) == 1 and "is damaged (not UTF-8)" in said[0]
    assert list(tmp_path.glob(f"{NOTE_FILE}.damaged-*"))


def test_a_sound_note_reads_back_as_written(tmp_path):
    (tmp_path / NOTE_FILE).write_text(json.dumps({"g1": ["a", "b"]}))
    assert forgotten(tmp_path, pytest.fail) == {"g1": {"a", "b"}}
    assert forgotten(tmp_path / "none", pytest.fail) == {}


# --- item 5: stats forget meets a damaged finished game -----------------------------------------


def _damage_snapshot(folder: Path) -> None:
    (folder / "snapshot.json").write_bytes(b'{"state": {"names": ["Ben"')


def _damage_log(folder: Path) -> None:
    lines = (folder / "events.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "events.jsonl").write_bytes(b"".join(lines[:3]) + b"{ damaged\n" + b"".join(lines[3:]))


def _damage_meta(folder: Path) -> None:
    (folder / "meta.json").write_bytes(b'{"id": ')


@pytest.mark.slow
@pytest.mark.parametrize("damage", [_damage_snapshot, _damage_log, _damage_meta], ids=["snapshot", "log", "meta"])
def test_forget_meets_a_damaged_finished_game_and_still_forgets_everywhere_else(table, damage):
    home, finished, unfinished = table
    damage(finished.folder)
    done = narrator(home, "stats", "forget", "Ben")
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1].startswith("forgot Ben: ")
    # the unfinished game is noted whatever became of the finished one: the name does not come back
    notes = json.loads((home / NOTE_FILE).read_text())
    assert notes == {unfinished.id: [forget_module._digest("ben")]}
    if damage is _damage_log:  # the damaged line may hold the name: said, the folder named
        assert f"saved game {finished.id} could not be rewritten" in done.stderr and str(finished.folder) in done.stderr
    else:  # a damaged snapshot is dropped (the log rebuilds it); a damaged meta is rebuilt, then scrubbed
        assert "forgot Ben: 1 finished game(s) rewritten" in done.stderr
        for name in ("meta.json", "events.jsonl"):
            assert '"Ben"' not in (finished.folder / name).read_text(encoding="utf-8")
        assert not (finished.folder / "snapshot.json").exists() or \
            '"Ben"' not in (finished.folder / "snapshot.json").read_text(encoding="utf-8")


# --- item 6: a finished game's meta.json damaged ------------------------------------------------


@pytest.mark.slow
def test_a_finished_game_whose_meta_is_damaged_is_rebuilt_finished_and_keeps_its_result(table):
    home, finished, unfinished = table
    shutil.rmtree(unfinished.folder)
    before = records(home, pytest.fail)
    _damage_meta(finished.folder)
    warned = []
    with pytest.raises(NarratorError, match="no unfinished game"):
        find_game(home, None, warned.append)  # before: offered for resume as unfinished
    assert trouble.latest_unfinished(home) is None  # what `serve` asks "resume?" about
    meta = GameStore(finished.folder).meta
    assert meta["finished"] and meta["outcome"]["winner"] == before[0]["winner"]
    assert records(home, pytest.fail) == before
    listed = narrator(home, "games")
    assert f"{finished.id}  additional-werewolf  over (" in listed.stdout, listed.stdout


# --- item 6: a huge number in [appliance] ---------------------------------------------------------


@pytest.mark.parametrize("digits", [400, 5000])
def test_a_huge_appliance_number_is_one_line_in_config_show(tmp_path, digits):
    (tmp_path / "table.toml").write_text(f"[appliance]\nresume_timeout = 1{'0' * digits}\n")
    done = narrator(tmp_path, "config", "show")
    line = one_line(done)
    assert done.returncode == 2 and line.startswith(f"error: table file {tmp_path / 'table.toml'}")


def test_a_huge_appliance_number_is_refused_in_both_languages():
    with pytest.raises(Refusal) as err:
        parse_appliance({"hold_time": 10**400}, "table file t")
    assert "appliance.hold_time must be more than 0 and at most 3600 seconds, not 10000000000000000000…(401" \
        in err.value.line("en")
    assert "3600秒以下" in err.value.line("ja")


# --- item 6: the clock jumps back -------------------------------------------------------------


def _made_at(monkeypatch, root: Path, stamp: str) -> GameStore:
    monkeypatch.setattr(store_module.time, "strftime", lambda fmt: stamp)
    rules = get_game("pagan")
    store = GameStore.create(root, rules.name, rules.configure(build_settings({}, {}, "test")).to_dict(), {})
    store.close()
    return store


def test_resume_takes_the_game_made_last_even_after_the_clock_jumped_back(tmp_path, monkeypatch):
    older = _made_at(monkeypatch, tmp_path, "20261205-210000")
    newer = _made_at(monkeypatch, tmp_path, "20260101-000005")  # a Pi without a network after a power cut
    assert [s.id for s in saved_games(tmp_path)] == [older.id, newer.id]
    assert find_game(tmp_path, None).id == newer.id
    assert trouble.latest_unfinished(tmp_path).id == newer.id
    (newer.folder / "meta.json").unlink()  # the sequence is in the log's copy of the setup too
    assert find_game(tmp_path, None).id == newer.id


def test_games_saved_before_the_sequence_come_first_in_their_old_order(tmp_path, monkeypatch):
    legacy = [_made_at(monkeypatch, tmp_path, f"20261205-21000{n}") for n in range(2)]
    for store in legacy:  # as an older narrator saved them: no sequence in the meta or the log
        for name in ("meta.json", "events.jsonl"):
            path = store.folder / name
            first, *rest = path.read_text().splitlines(keepends=True)
            data = json.loads(first)
            (data.get("setup") or data).pop("seq")
            path.write_text(json.dumps(data) + "\n" + "".join(rest))
    new = _made_at(monkeypatch, tmp_path, "20260101-000000")
    assert new.meta["seq"] == 1
    assert [s.id for s in saved_games(tmp_path)] == [legacy[0].id, legacy[1].id, new.id]


# --- item 6: a full disk at a game's creation ------------------------------------------------------


def test_a_full_disk_at_creation_names_no_resume_of_the_game_it_removed(tmp_path, monkeypatch):
    def full(path, data, mode=0o600):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_module.home, "write_atomic", full)
    with pytest.raises(SaveError) as err:
        GameStore.create(tmp_path, "pagan", {}, {}, game_file="[game]\n")
    line = str(err.value)
    assert "resume" not in line and "No space left on device" in line and str(tmp_path / "games") in line
    assert list((tmp_path / "games").iterdir()) == []
    assert trouble.line_for(err.value) == "appliance.disk_full"  # the appliance still says the card is full


# --- item 6: temp files left by kills --------------------------------------------------------------


def _dead_pid() -> int:
    child = started([sys.executable, "-c", "pass"])
    child.wait(timeout=BOUND)
    return child.pid


def test_the_temp_files_kills_left_are_removed_at_the_next_start_and_nothing_else(tmp_path, monkeypatch):
    store = _made_at(monkeypatch, tmp_path, "20261205-210000")
    dead, alive = _dead_pid(), os.getpid()
    stale = [store.folder / f".snapshot.json.{dead}.0a1b2c3d.tmp", tmp_path / f".table.toml.{dead}.deadbeef.tmp"]
    kept = [store.folder / f".snapshot.json.{alive}.0a1b2c3d.tmp",  # a live writer's
            store.folder / f".snapshot.json.{dead}.nothex00.tmp",  # not our name
            store.folder / "notes.tmp", tmp_path / "table.toml"]
    for path in stale + kept:
        path.write_text("x")
    os.symlink("/dev/null", store.folder / f".meta.json.{dead}.00000000.tmp")  # not a regular file
    kept.append(store.folder / f".meta.json.{dead}.00000000.tmp")
    assert [s.id for s in saved_games(tmp_path)] == [store.id]
    assert [p for p in stale if os.path.lexists(p)] == []
    assert [p for p in kept if not os.path.lexists(p)] == []


# --- the audit: a saved game's log that is a FIFO or a device ---------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_log_that_is_a_fifo_or_a_device_is_a_damaged_game_not_a_hang(tmp_path, monkeypatch, kind):
    store = _made_at(monkeypatch, tmp_path, "20261205-210000")
    log = store.folder / "events.jsonl"
    log.unlink()
    os.mkfifo(log) if kind == "fifo" else log.symlink_to("/dev/zero")
    listed = narrator(tmp_path, "games")  # before: opening the FIFO blocked until the bound
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert f"{store.id}  damaged: {log} is damaged (not a regular file)" in listed.stdout
