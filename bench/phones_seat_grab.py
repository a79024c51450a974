"""The seat-grab attack (issue 12's attack 1): a device that knows only the seat names.

Run on demand: `.venv/bin/python bench/phones_seat_grab.py`. A real table (Additional
Werewolf, 5 players, digital cards, phone page on 127.0.0.1); nobody has joined yet. The
attacker's script tries every seat by name (the old API: `{"seat": NAME}`; the new one:
the name as a code, and as a seat field), then reads whatever views its cookies open. Then a
real player joins, the table frees that seat (`release`), and the script polls for 5 s to
grab it again. Prints how many seats were grabbed, how many roles were read, how many
guesses were tried and whether (and how fast) the released seat was grabbed.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _phones_table as bench


async def try_seat(table, name: str) -> tuple[bool, str | None]:
    phone = bench.session(table.base)
    try:
        for body in ({"seat": name}, {"code": name}):
            async with phone.post("/api/join", json=body) as r:
                pass
        async with phone.get("/api/view") as r:
            if r.status != 200:
                return False, None
            view = await r.json()
            return view.get("seat") == name, view.get("private", {}).get("role")
    finally:
        await phone.close()


async def main() -> None:
    table = await bench.open_game()
    names = list(table.server.seats.names)
    start = time.monotonic()
    results = [await try_seat(table, n) for n in names]
    grabbed = [n for n, (ok, _) in zip(names, results) if ok]
    roles = [r for ok, r in results if ok and r]
    print(f"api={'new' if bench.NEW_API else 'old'}  seats grabbed by name: {len(grabbed)}/{len(names)}  "
          f"roles read: {len(roles)}  ({time.monotonic() - start:.2f} s)")
    # a real player joins Aki's seat, then the table frees it
    for n in grabbed:
        table.server.seats.release(n)
    aki = bench.session(table.base)
    status = await bench.seat(aki, table, "Aki")
    table.hub.offer_text("release Aki", "keyboard")
    released = time.monotonic()
    regrab, tries = None, 0
    while time.monotonic() - released < 5.0:
        tries += 1
        ok, _ = await try_seat(table, "Aki")
        if ok:
            regrab = time.monotonic() - released
            break
        await asyncio.sleep(0.05)
    await aki.close()
    print(f"real player joined: {status}; released seat grabbed again: "
          f"{'after %.2f s' % regrab if regrab is not None else 'no (5 s, %d tries)' % tries}")
    table.task.cancel()
    await table.server.stop()


if __name__ == "__main__":
    asyncio.run(main())
