"""Issue 25: the appliance recovers alone. Damaged phones and table files are set aside and
said, never a traceback; a game's phone server leaves nothing behind in the hub; a full or
read-only card is one spoken line and a wait for the button; lying storage (a lost meta.json,
a log shorter than its snapshot, an empty log, a half-created game) is recovered without a
terminal. Each through `narrator resume`/`games`/`config` and `narrator serve` as processes."""

import errno
import json
import os
import stat

import pytest

from narrator import home as home_module
from narrator.appliance.serve import ServeOptions, serve
from narrator.errors import SetupError
from narrator.inputs.hub import ListenerHub
from narrator.phones import seats as seats_module
from narrator.phones.private import PrivateLines
from narrator.phones.seats import Seats
from narrator.settings import build_settings
from narrator.values.files import read_text_bounded
from narrator.table import store as store_module
from narrator.table.transcript import read_transcript
from tests.test_saved_game_cli import ANSWERS, answers_file, narrator, resume, stopped_game

pytestmark = pytest.mark.slow  # real narrator processes

SERVE = ["serve", "--once", "--no-keyboard", "--no-buttons", "--voice", "text", "--lang", "en", "--time-scale", "0"]
PHONES_TABLE = 'lang = "en"\nphones = true\nhost = "127.0.0.1"\nport = 0\n'
DAMAGES = {"cut": lambda data: data[: len(data) // 2], "not utf-8": lambda data: b"\xff" + data[1:],
           "nested": lambda data: b"[" * 100000, "not an object": lambda data: b"42"}


def serve_proc(home, tmp_path, answers, *extra):
    transcript = tmp_path / f"serve{len(list(tmp_path.glob('serve*.jsonl')))}.jsonl"
    proc = narrator(*SERVE, "--answers", str(answers_file(tmp_path, answers, "serve.txt")),
                    "--transcript", str(transcript), *extra, home=home)
    return proc, [r["line"] for r in read_transcript(transcript) if r["kind"] in ("say", "ask", "end")]


def phones_game(tmp_path, name, damage):
    """A stopped game played with phones, whose phones file `name` is then damaged."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    home, folder = stopped_game(tmp_path)
    meta = json.loads((folder / "meta.json").read_text())
    meta["run"].update(phones=True, host="127.0.0.1")
    (folder / "meta.json").write_text(json.dumps(meta))
    good = {"phones.json": json.dumps({"seats": {}, "codes": {"Aki": "ABCDEFGHJK"}, "table_code": "12345678"}),
            "phones-private.json": json.dumps([{"to": "Aki", "line": "x", "text": {"en": "x"}, "when": [1, 0]}])}
    (folder / name).write_bytes(DAMAGES[damage](good[name].encode()))
    (home / "table.toml").write_text(PHONES_TABLE)
    return home, folder


@pytest.mark.parametrize("name", ["phones.json", "phones-private.json"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_phones_file_is_set_aside_and_the_game_goes_on(tmp_path, name, damage):
    home, folder = phones_game(tmp_path / "cli", name, damage)
    proc = resume(home, tmp_path / "cli", "--port", "0")
    assert proc.returncode == 0, proc.stderr
    assert "game over: citizens win" in proc.stderr
    assert sum("set aside as" in line for line in proc.stderr.splitlines()) == 1
    assert list(folder.glob(f"{name}.damaged-*"))
    home, folder = phones_game(tmp_path / "serve", name, damage)
    proc, spoken = serve_proc(home, tmp_path / "serve", ["yes"] + ANSWERS[4:])
    assert proc.returncode == 0, proc.stderr
    assert spoken[:2] == ["appliance.greeting", "appliance.resume_question"] and spoken[-1] == "end.citizens_win"
    assert list(folder.glob(f"{name}.damaged-*"))


def test_without_the_careful_read_a_damaged_seats_file_stops_the_game(tmp_path, monkeypatch):
    path = tmp_path / "phones.json"
    path.write_bytes(b'{"seats": {"Aki": ')
    monkeypatch.setattr(seats_module, "read_kept", lambda p, kind, warn, fresh: json.loads(p.read_text()))
    with pytest.raises(ValueError):
        Seats(("Aki",), path)
    monkeypatch.undo()
    warned = []
    seats = Seats(("Aki",), path, warned.append)
    assert seats.free() == ["Aki"] and len(warned) == 1 and "players join again with new codes" in warned[0]
    assert json.loads(path.read_text())["codes"]["Aki"]


class _Server:
    """Only what the hub sees of a phone server: its registrations, as PhoneServer makes them."""

    def __init__(self, hub, path):
        self.hub, self.lines = hub, PrivateLines(path)
        hub.subscribe_private(self.private)
        hub.add_table_command("release", self.release)

    def private(self, to, line, text):
        self.lines.add(to, line, {"en": text}, (1, 0))

    def release(self, name):
        return name


def test_a_finished_games_phone_server_gets_no_private_line_of_the_next_game(tmp_path, monkeypatch):
    from narrator.phones.server import PhoneServer

    def two_games(forget):
        hub = ListenerHub()
        first = _Server(hub, tmp_path / f"{forget}-1.json")
        if forget:
            hub.forget(first)
        _Server(hub, tmp_path / f"{forget}-2.json")
        hub.publish_private("Aki", "card.seer", "Seer")
        return [len(json.loads(p.read_text())) if p.exists() else 0
                for p in (tmp_path / f"{forget}-1.json", tmp_path / f"{forget}-2.json")], hub

    assert two_games(False)[0] == [1, 1]  # without forgetting: game 2's role card lands in game 1's file
    counts, hub = two_games(True)
    assert counts == [0, 1] and len(hub._private_subscribers) == 1 and len(hub._table_commands) == 1
    assert "forget" in PhoneServer.stop.__code__.co_names  # the real server's stop forgets


def test_a_table_file_that_is_not_toml_text_is_set_aside_and_said(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for text in (b"\xff\xfe game = 1", b"a = " + b"[" * 100000, b"players = 5\n" + b"#" * (2 * 2**20)):
        (home / "table.toml").write_bytes(text)
        shown = narrator("config", "show", home=home)
        assert shown.returncode == 2 and shown.stderr.startswith("error: table file")
        assert narrator("config", "set", "players", "6", home=home).returncode == 2
        proc, spoken = serve_proc(home, tmp_path, ["yes", "done", "yes"])
        assert proc.returncode == 0, proc.stderr
        assert spoken[:3] == ["appliance.greeting", "appliance.table_set_aside", "title.additional_werewolf"]
        assert narrator("config", "show", home=home).returncode == 0  # the defaults are in its place
        assert len(list(home.glob("table.toml.damaged-*"))) >= 1
        for aside in home.glob("table.toml.damaged-*"):
            aside.unlink()


def run_serve(tmp_path, answers, **overrides):
    transcript = tmp_path / "t.jsonl"
    options = ServeOptions(once=True, keyboard=False, buttons=False, overrides={
        "voice": "text", "lang": "en", "time_scale": "0", "transcript": str(transcript),
        "answers": str(answers_file(tmp_path, answers, "a.txt")), **overrides})
    messages = []
    played = serve(options, log=messages.append)
    return played, [r["line"] for r in read_transcript(transcript) if r["kind"] in ("say", "ask")], messages


@pytest.mark.parametrize("code, line", [(errno.ENOSPC, "appliance.disk_full"),
                                        (errno.EROFS, "appliance.disk_read_only")])
def test_a_full_or_read_only_card_is_said_and_the_button_tries_again(narrator_home, tmp_path, monkeypatch,
                                                                     code, line):
    real, failures = store_module.GameStore._append, [1]

    def failing(self, text):
        if failures:
            failures.pop()
            try:
                raise OSError(code, os.strerror(code))
            except OSError as err:
                raise self._save_error(err) from None
        return real(self, text)

    monkeypatch.setattr(store_module.GameStore, "_append", failing)
    played, spoken, _ = run_serve(tmp_path, ["yes", "done", "yes", "done", "yes"])
    assert played == 1
    assert spoken[:3] == ["appliance.greeting", "title.additional_werewolf", "appliance.offer"]
    assert spoken[3] == line and "setup.welcome" in spoken[4:]


def test_a_table_file_that_cannot_be_written_is_said_and_the_game_played(narrator_home, tmp_path, monkeypatch):
    real = home_module.write_atomic

    def read_only(path, data, mode=0o600):
        if path.name == "table.toml" and path.exists():
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real(path, data, mode)

    monkeypatch.setattr(home_module, "write_atomic", read_only)
    played, spoken, messages = run_serve(tmp_path, ["no", "yes", "yes", "yes", "done", "yes"])
    assert played == 1 and "appliance.table_unwritable" in spoken and "setup.welcome" in spoken
    assert any("without saving it" in m and "Read-only" in m for m in messages)


def lying_game(tmp_path, damage):
    home, folder = stopped_game(tmp_path)
    log = folder / "events.jsonl"
    if damage == "meta.json lost":
        (folder / "meta.json").unlink()
    elif damage == "log shorter than its snapshot":
        log.write_text("".join(log.read_text().splitlines(keepends=True)[:3]))
    elif damage == "log empty":
        log.write_bytes(b"")
    return home, folder


@pytest.mark.parametrize("damage, kept", [("meta.json lost", 4), ("log shorter than its snapshot", 1),
                                          ("log empty", 0)])
def test_lying_storage_is_recovered_by_the_service_alone(tmp_path, damage, kept):
    """`kept`: the answers the log still holds (the game goes on after them)."""
    home, folder = lying_game(tmp_path, damage)
    proc, spoken = serve_proc(home, tmp_path, ["yes"] + ANSWERS[kept:])
    assert proc.returncode == 0, proc.stderr
    assert spoken[:2] == ["appliance.greeting", "appliance.resume_question"] and spoken[-1] == "end.citizens_win"
    assert ("appliance.recovered" in spoken) == (damage != "meta.json lost")
    assert json.loads((folder / "meta.json").read_text())["finished"]


def test_a_lost_meta_is_rebuilt_by_narrator_resume_too(tmp_path):
    home, folder = lying_game(tmp_path, "meta.json lost")
    listed = narrator("games", home=home)
    assert "damaged" not in listed.stdout and "rebuilt from the copy in its log" in listed.stderr
    proc = resume(home, tmp_path)
    assert proc.returncode == 0 and "game over: citizens win" in proc.stderr


def test_a_half_created_game_is_cleaned_up_not_listed_forever(tmp_path):
    home = tmp_path / "home"
    half = home / "games" / "20260101-000000-abcdef"
    half.mkdir(parents=True)
    (half / "lock").write_text("")
    listed = narrator("games", home=home)
    assert listed.returncode == 0 and "damaged" not in listed.stdout and not half.exists()
    half.mkdir()
    proc, spoken = serve_proc(home, tmp_path, ["yes", "done", "yes"])
    assert proc.returncode == 0 and "appliance.resume_question" not in spoken and not half.exists()


def test_an_answers_file_that_is_a_fifo_is_one_line_not_a_hang(tmp_path):
    fifo = tmp_path / "answers.fifo"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(SetupError, match="is a pipe, not a file"):
        read_text_bounded(fifo, "answers file", "check --answers")
    proc = narrator("play", "--voice", "text", "--time-scale", "0", "--no-keyboard", "--answers", str(fifo),
                    home=tmp_path / "home", timeout=30)
    assert proc.returncode == 2 and "is a pipe, not a file" in proc.stderr


def test_a_full_width_time_scale_is_refused():
    with pytest.raises(SetupError, match="time_scale must be a number"):
        build_settings({}, {"time_scale": "１"}, "test")
    assert build_settings({}, {"time_scale": "1"}, "test").time_scale == 1.0
