"""The phones' test harness after a table closes: the next server may be given the same port
(the kernel reuses ports), and a test phone must then join *that* server. The harness kept
each table's server by its address (`SERVERS`, for the seat keys it derives like the page)
after the table closed, so a phone derived the new seat's key from the old table's salt and
was refused (CI: `test_seat_carry` got 403 for a seat code the host screen showed)."""

import asyncio

from narrator.inputs.hub import ListenerHub
from tests.phones_harness import SERVERS, Phone, open_table
from tests.test_seat_carry import game


def test_a_phone_joins_the_server_listening_now_on_a_closed_tables_port(narrator_home):
    async def main():
        old = await open_table()
        port = int(old.base.rsplit(":", 1)[1])
        await old.close()
        new = game(ListenerHub())
        assert await new.start("127.0.0.1", port) == port  # the port the kernel might hand out next
        phone = Phone(f"http://127.0.0.1:{port}", "Aki")
        try:
            return await phone.join_code(new.seats.code("Aki")), SERVERS.get(old.base) is old.server
        finally:
            await phone.close()
            await new.stop()

    joined, still_kept = asyncio.run(main())
    assert (joined, still_kept) == (200, False)
