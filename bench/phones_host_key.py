"""The host screen is the table's alone (issue 38, items 1, 2 and 4): three attacks, off and on.

Run on demand: `.venv/bin/python bench/phones_host_key.py` (about a minute; `... roles`,
`... announce` or `... turns` runs one part). "off" = the part's protection monkeypatched off
(the code before issue 38), "on" = as shipped; both in the same run.

- roles: a real game (Additional Werewolf, 6 players, digital cards, phones on 127.0.0.1), its
  host screen joined with a key pair of its own. A listener with the Wi-Fi password holds the
  host cookie (in the clear): he binds his own key with it (`POST /api/host/key`), asks for every
  free seat's code, binds the real key back, derives each seat's key from its code and the
  public salt, and opens the view each player's phone is sent (sniffed): roles read of 6, and
  whether the captured sealed "release seat 6" refused once is taken after the rebind.
- announce: the real `narrator play --phones` (a subprocess, stdin an open pipe: its keyboard).
  A laptop that heard the table code claims once a second from the moment the page answers;
  "release host" is typed at once, which the keyboard reads when it starts (the table code in
  phones.json changes then). Seconds during which a claim became the host screen with no press.
- turns: a laptop types the table code again the moment its 15 s window runs out; the table's
  phone tries every 2 s for 40 s (20 tries, the server's clock driven, no real waiting).
  Tries that got the claim (202, waiting for the press), of 20, and when the first did (the
  table does not press here, so the real phone's own window runs out too and the line goes on).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import nacl.public

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.phones import carry, crypto, host_turns  # noqa: E402
from tests.phones_harness import SERVERS, Phone, open_table  # noqa: E402

NAMES6 = "Aki,Ben,Chika,Dai,Emi,Fumi"


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _roles_in(obj) -> int:
    if isinstance(obj, dict):
        return int(bool(obj.get("role"))) + sum(_roles_in(v) for v in obj.values())
    if isinstance(obj, list):
        return sum(_roles_in(v) for v in obj)
    return 0


async def roles(protected: bool) -> tuple[int, int, str]:
    carry.PRESS_FOR_KEY = crypto.KEEP_COUNTERS = protected
    table = await open_table(NAMES6)
    server = table.server
    names = list(server.seats.names)
    screen, laptop = Phone(table.base, "host"), Phone(table.base, "laptop")
    real = nacl.public.PrivateKey.generate()
    try:
        async with screen.session.post("/api/join", json={"code": server.seats.table_code,
                                                          "key": b64(bytes(real.public_key))}) as r:
            assert r.status == 200, r.status
        cookie = next(c.value for c in screen.session.cookie_jar if c.key == server.host_cookie)
        laptop.session.cookie_jar.update_cookies({server.host_cookie: cookie})  # sniffed
        honest = nacl.public.Box(real, server.keys.private_key.public_key)
        # the host screen's sealed "release seat 6" (sent while seat 6 was free), captured
        captured = b64(bytes(honest.encrypt(crypto.padded_json(
            {"from": "host", "n": 10 ** 13, "to": "release", "body": {"seat": names[5]}}, crypto.PLAIN_REQUEST))))
        async with screen.session.post("/api/host", data=json.dumps({"box": captured}),
                                       headers={"Content-Type": "application/json"}) as r:
            assert r.status == 200  # the host screen sent it; the listener captured it
        async with laptop.session.post("/api/host", data=json.dumps({"box": captured}),
                                       headers={"Content-Type": "application/json"}) as r:
            first = r.status  # sent again: refused
        started = time.perf_counter()
        own = nacl.public.PrivateKey.generate()
        async with laptop.session.post("/api/host/key", json={"key": b64(bytes(own.public_key))}) as r:
            rebind = r.status
        box, codes = nacl.public.Box(own, server.keys.private_key.public_key), {}
        for number, name in enumerate(names, 1):
            async with laptop.session.get(f"/api/host/code/{number}") as r:
                reply = await r.json()
            try:
                codes[name] = json.loads(box.decrypt(base64.b64decode(reply["box"])))["code"]
            except Exception:
                pass
        async with laptop.session.post("/api/host/key", json={"key": b64(bytes(real.public_key))}) as r:
            pass
        took = time.perf_counter() - started
        phones = {n: Phone(table.base, n) for n in names}
        for name in names:
            assert await phones[name].join() == 200
        for _ in range(200):  # the cards dealt
            if getattr(server.state, "roles_of", None):
                break
            await asyncio.sleep(0.01)
        read = 0
        salt = base64.b64decode(server.keys.public_salt)
        for name, phone in phones.items():  # each phone's sealed view, as the listener sees it go by
            phone.counter += 1
            request = crypto.seal(phone.key, {"from": "phone", "n": phone.counter, "to": "view", "body": {}},
                                  crypto.PLAIN_REQUEST)
            async with phone.session.post("/api/seat", json={"box": request}) as r:
                sniffed = (await r.json())["box"]
            if name in codes:
                opened = crypto.unseal(crypto.derive(codes[name], salt)[0], sniffed)
                read += bool(opened and _roles_in(opened))
        async with laptop.session.post("/api/host", data=json.dumps({"box": captured}),
                                       headers={"Content-Type": "application/json"}) as r:
            again = r.status
        for phone in phones.values():
            await phone.close()
        return read, rebind, f"rebind {rebind}, codes read {len(codes)}/6 in {took * 1000:.0f} ms, " \
                             f"a captured release sent again: {first} before the rebind, {again} after"
    finally:
        carry.PRESS_FOR_KEY = crypto.KEEP_COUNTERS = True
        await screen.close()
        await laptop.close()
        await table.close()
        SERVERS.clear()


def announce(protected: bool) -> tuple[float | None, list[tuple[float, int]], float | None]:
    """(seconds a claim was given with no press, the claims (time, status), when the keyboard
    started) for one real `narrator play --phones`."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "NARRATOR_HOME": home, "PYTHONPATH": str(ROOT)}
        code = ("import narrator.phones.host as h; h.WAITS_FOR_TABLE = %r; "
                "from narrator.cli import main; main()" % protected)
        port = 18700 + (1 if protected else 0)
        args = [sys.executable, "-c", code, "play", "--names", NAMES6, "--phones", "--host", "127.0.0.1",
                "--port", str(port), "--voice", "text", "--seed", "3"]
        proc = subprocess.Popen(args, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=home)
        try:
            return asyncio.run(_announce(proc, port, Path(home)))
        finally:
            proc.kill()
            proc.wait(timeout=30)


async def _announce(proc, port: int, home: Path):
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession(base, headers={"Origin": base}) as probe:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                async with probe.get("/api/seats") as r:
                    if r.status == 200:
                        break
            except aiohttp.ClientError:
                await asyncio.sleep(0.05)
        up = time.monotonic()
    seats_file = next(home.rglob("phones.json"))
    first_code = json.loads(seats_file.read_text())["table_code"]
    proc.stdin.write(b"release host\n")  # the keyboard reads it once it starts
    proc.stdin.flush()
    claims, keyboard = [], None
    for n in range(20):
        async with aiohttp.ClientSession(base, headers={"Origin": base}) as laptop:
            key = b64(bytes(nacl.public.PrivateKey.generate().public_key))
            async with laptop.post("/api/join", json={"code": first_code, "key": key}) as r:
                claims.append((round(time.monotonic() - up, 1), r.status))
        if keyboard is None and json.loads(seats_file.read_text())["table_code"] != first_code:
            keyboard = time.monotonic() - up
            break
        await asyncio.sleep(max(0.0, n + 1 - (time.monotonic() - up)))
    given = [t for t, status in claims if status == 200]
    return (keyboard if given and keyboard else 0.0 if not given else None), claims, keyboard


async def turns(protected: bool) -> tuple[int, float | None]:
    host_turns.FAIR = protected
    table = await open_table()
    table.server.hub.register("button")  # the appliance's button confirms
    clock = [0.0]
    table.server.gate.now = lambda: clock[0]
    laptop, screen = Phone(table.base, "laptop"), Phone(table.base, "screen")
    code, got, first = table.server.seats.table_code, 0, None
    try:
        await laptop.join_code(code)
        for step in range(20):
            clock[0] = 2.0 * step + 1.0
            pending = table.server.pending_host
            if pending is not None and pending.until <= clock[0] and pending.address == laptop.address:
                await laptop.join_code(code)
            if await screen.join_code(code) == 202:
                got += 1
                first = first if first is not None else clock[0]
        return got, first
    finally:
        host_turns.FAIR = True
        await laptop.close()
        await screen.close()
        await table.close()
        SERVERS.clear()


def main() -> None:
    parts = sys.argv[1:] or ["roles", "announce", "turns"]
    os.environ.setdefault("NARRATOR_HOME", tempfile.mkdtemp())
    if "roles" in parts:
        for protected in (False, True):
            read, _, detail = asyncio.run(roles(protected))
            print(f"roles    {'on ' if protected else 'off'}: roles read from one sniffed session {read}/6 ({detail})")
    if "announce" in parts:
        for protected in (False, True):
            seconds, claims, keyboard = announce(protected)
            shown = ", ".join(f"{t}s:{s}" for t, s in claims)
            print(f"announce {'on ' if protected else 'off'}: seconds of unconfirmed claims "
                  f"{'?' if seconds is None else f'{seconds:.1f}'} (keyboard up at "
                  f"{'?' if keyboard is None else f'{keyboard:.1f}'} s; claims {shown})")
    if "turns" in parts:
        for protected in (False, True):
            got, first = asyncio.run(turns(protected))
            print(f"turns    {'on ' if protected else 'off'}: real-host tries that got the claim {got}/20"
                  f" (the first at {first} s)")


if __name__ == "__main__":
    main()
