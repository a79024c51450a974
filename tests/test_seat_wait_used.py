"""On the appliance the phones are on unless the table says no, so a game that can be played
without them waits for the seats only when the table uses phones (a host screen, or a seat
taken): a table with none is not kept waiting, in silence or not, for phones nobody brought
(a game resumed after a power cut by a silent table hung at the wait). A game that needs its
phones (cards dealt to them) always waits."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from narrator.phones.seats import HOST, Seats
from narrator.phones.table import wait_for_seats


class Server:
    def __init__(self, seats):
        self.seats, self.waited = seats, False

    async def wait_for_phones(self):
        self.waited = True


def _waits(tmp_path, only_if_used, take=(), host=False):
    seats = Seats(("Aki", "Ben", "Chika"), tmp_path / "phones.json")
    for name in take:
        seats.claim(name)
    if host:
        seats.claim(HOST)
    server = Server(seats)
    asyncio.run(wait_for_seats(server, SimpleNamespace(answers=None), only_if_used=only_if_used))
    return server.waited


def test_a_table_using_no_phone_is_not_kept_waiting(tmp_path):
    assert _waits(tmp_path, only_if_used=True) is False


def test_one_seat_taken_or_a_host_screen_and_the_table_waits(tmp_path):
    assert _waits(tmp_path, only_if_used=True, take=("Aki",)) is True
    (tmp_path / "h").mkdir()
    assert _waits(tmp_path / "h", only_if_used=True, host=True) is True


def test_a_game_that_needs_its_phones_always_waits(tmp_path):
    assert _waits(tmp_path, only_if_used=False) is True
