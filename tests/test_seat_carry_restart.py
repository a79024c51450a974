"""「もう一回」 after a restart between games: the last game's seated phones keep their seats
(seats_keep.py). A game ends, the Pi is unplugged on the settings page, `narrator serve`
starts again with nothing in memory, and the next game of the same table seats each phone
again by its cookie, with a new key sealed with its last one: no seat code to scan. Real
HTTP on loopback, through the appliance's own `PageHost.carry_back` / `carry_in`."""

import asyncio
import stat
from types import SimpleNamespace

from narrator import home
from narrator.appliance import setup_menu
from narrator.appliance.table import DEFAULT_TABLE, load_table
from narrator.inputs.hub import ListenerHub
from narrator.phones import seats_keep
from tests.test_seat_carry import NAMES, game, seat_every_phone, what_each_sees


def appliance(tmp_path, log):
    """A fresh `narrator serve` run's page host: nothing in memory from before."""
    path = tmp_path / "table.toml"
    if not path.exists():
        path.write_text(DEFAULT_TABLE, encoding="utf-8")
    hub = ListenerHub()
    hub.register("button")
    app = SimpleNamespace(path=path, table=load_table(path), hub=hub, log=log.append,
                          run_options=SimpleNamespace(voice="text", lang="ja"))
    return setup_menu.PageHost(app), hub


async def evening_with_a_restart(tmp_path):
    log: list[str] = []
    host, hub = appliance(tmp_path, log)
    first = game(hub)
    assert host.carry_in(first) == "none"
    phones = await seat_every_phone(first)
    host.carry_back(first)
    kept_file = home.app_home() / seats_keep.FILE
    written = kept_file.read_text(encoding="utf-8") if kept_file.exists() else ""
    mode = stat.S_IMODE(kept_file.stat().st_mode) if kept_file.exists() else None
    tokens = [c.value for phone in phones for c in phone.session.cookie_jar]

    host, hub = appliance(tmp_path, log)  # the power cut: a new service run
    second = game(hub)
    outcome = host.carry_in(second)
    left_after = kept_file.exists()
    port = await second.start("127.0.0.1", 0)
    try:
        seen = await what_each_sees(phones, second, port)
        free = len(second.seats.free())
    finally:
        for phone in phones:
            await phone.close()
        await second.stop()
    return SimpleNamespace(outcome=outcome, seen=seen, free=free, written=written, mode=mode,
                           tokens=tokens, left_after=left_after, log=log)


def test_a_restart_between_games_keeps_every_phone_seated(tmp_path):
    run = asyncio.run(evening_with_a_restart(tmp_path))
    assert run.outcome == "carried" and run.free == 0
    assert run.seen == [(name, 200) for name in NAMES.split(",")]  # each sealed with its new key
    assert run.mode == 0o600 and run.tokens and not any(t in run.written for t in run.tokens)  # digests, no token
    assert run.left_after is False  # the new game's seats file holds them now
    assert any(line.startswith("5 phones keep their seats") for line in run.log)


def test_kept_in_memory_only_a_restart_makes_every_phone_scan(tmp_path, monkeypatch):
    monkeypatch.setattr(seats_keep, "save", lambda path, kept: True)  # as before: nothing on the card
    run = asyncio.run(evening_with_a_restart(tmp_path))
    assert run.outcome == "none" and run.free == 5 and run.seen == [(None, None)] * 5


def test_a_damaged_file_is_set_aside_and_the_phones_scan_again(tmp_path):
    path = tmp_path / seats_keep.FILE
    path.write_text("{not json", encoding="utf-8")
    warned: list[str] = []
    assert seats_keep.load(path, warned.append) is None
    assert len(warned) == 1 and "scan their seats again" in warned[0] and not path.exists()
    path.write_text('{"names": ["Aki"], "salt": "s", "seats": {"Aki": ["short", "k"], "Zed": ["%s", "k"]}}' % ("a" * 64),
                    encoding="utf-8")
    assert seats_keep.load(path) is None  # a digest of the wrong length, a seat the table lacks
    assert seats_keep.load(tmp_path / "none.json") is None
