"""The message-size oracle (issue 12's attack 3): what frame lengths alone tell an eavesdropper.

Run on demand: `.venv/bin/python bench/phones_size_oracle.py`. Real tables, every seat joined
over HTTP; for each phone this reads the length of its first server-sent event (what anyone
on the Wi-Fi sees, even with WPA3) and of its `/api/view` body:
- Additional Werewolf, 6 players, digital cards, at the start (roles and cards dealt);
- Bestia Magica, 6 players with every role and attribute, after night 1 (the prophet's and
  the undertaker's results are out).
For each: how many different lengths there are, and for how many players the length alone
names their role (no player of another role has a message of the same length).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _phones_table as bench

NAMES6 = "Aki,Ben,Chika,Dai,Emi,Fumi"
DEAL = "Aki=beast:S,Ben=prophet:M,Chika=guard:S,Dai=townsperson:M,Emi=undertaker:S,Fumi=townsperson:N"


async def first_frame(phone) -> int:
    async with phone.get("/api/events") as r:
        frame = b""
        async for chunk in r.content.iter_any():
            frame += chunk
            if b"\n\n" in frame:
                return len(frame.split(b"\n\n")[0]) + 2
    return 0


async def lengths(table, phones) -> dict[str, tuple[int, int]]:
    out = {}
    for name, phone in phones.items():
        async with phone.get("/api/view") as r:
            body = await r.read()
        out[name] = (await first_frame(phone), len(body))
    return out


def named_by_length(sizes: dict[str, tuple[int, int]], role_of: dict[str, str]) -> int:
    return sum(1 for n, size in sizes.items()
               if all(role_of[m] == role_of[n] for m, s in sizes.items() if s == size))


def report(title: str, sizes, role_of) -> None:
    print(f"{title}: {len(set(sizes.values()))} different lengths among {len(sizes)} phones; "
          f"role named by length alone: {named_by_length(sizes, role_of)}/{len(sizes)}")
    print("   " + ", ".join(f"{n}({role_of[n]})={s[0]}/{s[1]}" for n, s in sizes.items()))


async def seat_all(table):
    phones = {n: bench.session(table.base) for n in table.server.seats.names}
    for name, phone in phones.items():
        assert await bench.seat(phone, table, name) == 200
    return phones


async def main() -> None:
    from narrator.games.additional_werewolf import cards

    table = await bench.open_game(names=NAMES6, seed=11)
    phones = await seat_all(table)
    await bench.wait_for(lambda: table.hub.open_ask)
    role_of = {n: cards.role(table.config, table.state, n) for n in phones}
    report("additional-werewolf start", await lengths(table, phones), role_of)
    for p in phones.values():
        await p.close()
    table.task.cancel()
    await table.server.stop()

    table = await bench.open_game("bestia-magica", names=None, seed=1, deal=DEAL)
    phones = await seat_all(table)
    await bench.wait_for(lambda: table.hub.open_collect and table.hub.open_collect[1].phase == "night")
    serial, round_ = table.hub.open_collect
    plan = {"Aki": "Dai", "Ben": "Aki", "Chika": "Ben"}
    for name, request in round_.requests.items():
        target = plan.get(name, request.choices[0])
        answer = {request.key: target if target in request.choices else request.choices[0], "ability": False}
        assert await bench.private(phones[name], serial, answer) == 200
    await bench.wait_for(lambda: table.server.private_lines.of("Ben"))
    await asyncio.sleep(0.2)
    role_of = {p.name: p.role for p in table.state.players}
    report("bestia-magica after night 1", await lengths(table, phones), role_of)
    for p in phones.values():
        await p.close()
    table.task.cancel()
    await table.server.stop()


if __name__ == "__main__":
    asyncio.run(main())
