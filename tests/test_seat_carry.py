"""Issue 37, item 5: 「もう一回」 keeps every seated phone in its seat. The next game of the same
table seats each phone of the last one again by its token's digest, and hands it a new key of
the new game's sealed with the last game's key, which only that phone holds: no seat code to
scan, and a sniffed cookie opens nothing. A table that changed is not carried. Real HTTP on
loopback, two games' servers one after the other as the appliance runs them."""

import asyncio
import base64

from narrator import home
from narrator.games import get_game
from narrator.phones import carry, crypto, seat_carry
from narrator.phones.table import make_server
from narrator.settings import build_settings
from narrator.table.store import GameStore
from tests.phones_harness import Phone
from tests.test_host_carry import Evening

NAMES = "Aki,Ben,Chika,Dai,Emi"


def game(hub, names=NAMES):
    settings = build_settings({}, {"game": "additional-werewolf", "players": len(names.split(",")), "seed": 3,
                                   "phones": True, "digital_cards": "true", "names": names}, "test")
    rules = get_game("additional-werewolf")
    config = rules.configure(settings)
    return make_server(rules, config, GameStore.create(home.app_home(), rules.name, config.to_dict(), {}), hub, "ja")


async def seat_every_phone(server) -> list[Phone]:
    """Game 1 on `server`: five phones scan their seats, then the game's page stops."""
    port = await server.start("127.0.0.1", 0)
    phones = [Phone(f"http://127.0.0.1:{port}", name) for name in NAMES.split(",")]
    try:
        for phone in phones:
            assert await phone.join_code(server.seats.code(phone.name)) == 200
    finally:
        await server.stop()
    return phones


async def what_each_sees(phones, server, port) -> list:
    """Each phone on the next game's page with only its cookie: (its seat, the status of a view
    sealed with the new key the carry handed it) or (None, None) when nothing was carried."""
    seen = []
    for phone in phones:
        phone.base = f"http://127.0.0.1:{port}"
        await phone.reconnect()  # the page reloads on the next game's page: only its cookie kept
        async with phone.session.get("/api/seats") as r:
            seats = await r.json()
        carried = seats.get("carried")
        opened = crypto.unseal(phone.key, carried["box"]) if carried else None
        if opened is not None:  # what app.js's seatCarried does
            phone.key, phone.counter = base64.b64decode(opened["key"]), 0
            seen.append((seats["you"], (await phone.sealed("view"))[0]))
        else:
            seen.append((seats["you"], None))
    return seen


async def evening_of_two(tmp_path, names2=NAMES):
    """Game 1: five phones scan their seats. Game 2: what each phone sees, with its own cookie."""
    evening = Evening(tmp_path)
    first = game(evening.hub)
    carry.into_game(evening.page, first)
    phones = await seat_every_phone(first)
    kept = seat_carry.after_game(first)
    second = game(evening.hub, names2)
    carry.into_game(evening.page, second)
    outcome = seat_carry.into_game(kept, second)
    port = await second.start("127.0.0.1", 0)
    try:
        seen = await what_each_sees(phones, second, port)
        free = len(second.seats.free())
        sniffed = Phone(phones[0].base, "laptop")  # the first phone's cookie, sniffed on the Wi-Fi
        sniffed.session.cookie_jar.update_cookies({c.key: c.value for c in phones[0].session.cookie_jar})
        async with sniffed.session.get("/api/seats") as r:
            box = (await r.json()).get("carried", {}).get("box")
        laptop_opens = box is not None and crypto.unseal(crypto.derive("WRONGCODE2", b"x" * 16)[0], box) is not None
        await sniffed.close()
        return outcome, seen, free, laptop_opens
    finally:
        for phone in phones:
            await phone.close()
        await second.stop()


def test_play_again_keeps_every_phone_seated_without_a_scan(narrator_home, tmp_path):
    outcome, seen, free, laptop_opens = asyncio.run(evening_of_two(tmp_path))
    assert outcome == "carried" and free == 0  # nobody waits: every seat has its phone
    assert seen == [(name, 200) for name in NAMES.split(",")]  # each sealed with its new key
    assert laptop_opens is False


def test_without_the_carry_every_phone_scans_again(narrator_home, tmp_path, monkeypatch):
    monkeypatch.setattr(seat_carry, "CARRY", False)  # as before issue 37
    outcome, seen, free, _ = asyncio.run(evening_of_two(tmp_path))
    assert outcome == "none" and free == 5 and seen == [(None, None)] * 5


def test_a_changed_table_joins_anew(narrator_home, tmp_path):
    outcome, seen, free, _ = asyncio.run(evening_of_two(tmp_path, "Aki,Ben,Chika,Dai,Fumi"))
    assert outcome == "changed" and free == 5 and seen == [(None, None)] * 5
