"""What a passive listener with the Wi-Fi password learns (issue 24, items 4 and 5).

Run on demand: `.venv/bin/python bench/phones_listener.py`. Real pages in Debian's Chromium
(Playwright), every phone and the host screen behind a recording proxy on 127.0.0.1 that
keeps every byte both ways (what WPA2-Personal gives anyone holding the password), and the
listener's script (`tests/phones_listener.py: read_capture`) reading the capture. Each game
runs twice in one run: "off" = issue 24's protections switched off (views, requests and
the host screen's seat codes in the clear, no padding of requests, no decoys: what the code
before them sent, through today's page), "on" = as shipped.

- Bestia Magica, 6 players, every role: the roles, seat codes and memo targets the capture
  gives; the request sizes of the memos and votes (distinct sizes, and how many players
  their sizes name: no player of another role sent a request of the same size).
- Additional Werewolf, 5 players, digital cards, every called player tapping the moment the
  question shows (the listener's best case): requests per phone over the game against the
  number of calls (who sends), how often "the first phone to send after a call opens" is the
  called player (timing), the calls where every phone sent in the same slots, and the median
  time from a call's opening to its answer reaching the narrator; with the page before slots
  (random decoys) and with slots (as shipped). `... phones_listener.py werewolf`: this part only.
- Join to first view: a seat's link opened (a QR scan) until the page shows the seat, with the
  key derived on the page, against a plain join with sealing off.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from narrator.phones import channel, crypto
from narrator.phones.crypto import SeatKeys
from tests.phones_harness import NAMES5, open_table
from tests.phones_listener import RecordingProxy, posts_by_cookie, read_capture
from tests.test_phones_bestia import DEAL, NAMES, memo_for, vote_for
from tests.test_phones_browser import CHROMIUM, LAUNCH_ARGS, new_phone, play_rounds, seat_everyone
from tests.test_phones_timing_browser import INSTANT_TAPS, host_plays

OFF_PAGE = ("Seal.sizes.plain = 1; Seal.sizes.request = 1; COVER.on = false; decoy = () => {};"
            "Seal.seal = (key, obj) => JSON.stringify(obj); Seal.open = (key, text) => JSON.parse(text); true")
"""The page with issue 24's protections off: requests in the clear and unpadded, no decoys."""


def switch(on: bool) -> None:
    """Issue 24's protections on the narrator's side, on or off (off: boxes hold plain JSON)."""
    switch.saved = getattr(switch, "saved", (channel.sealed_view, SeatKeys.seal_for_host, crypto.seal, crypto.unseal))
    channel.sealed_view = switch.saved[0] if on else (lambda server, request, view: view)
    SeatKeys.seal_for_host = switch.saved[1] if on else (lambda self, token, obj: None)
    crypto.seal = switch.saved[2] if on else (lambda key, obj, bucket=None: json.dumps(obj))
    crypto.unseal = switch.saved[3] if on else (lambda key, text: _plain(text) or switch.saved[3](key, text))


def _plain(text):
    """A box that holds plain JSON (the page with its protections off), or None."""
    try:
        obj = json.loads(text)
    except (TypeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


async def behind_proxy(table):
    proxy = RecordingProxy(("127.0.0.1", int(table.base.rsplit(":", 1)[1])))
    port = await proxy.start()
    table.server.allowed_hosts.add(f"127.0.0.1:{port}")
    return proxy, dataclasses.replace(table, base=f"http://127.0.0.1:{port}")


def watch(pages, names):
    """Every POST each page makes: {name: [(time, path, body length)]}."""
    posts = collections.defaultdict(list)
    for name in names:
        pages[name].on("request", lambda r, name=name: posts[name].append(
            (time.perf_counter(), "/" + r.url.split("/", 3)[3], len(r.post_data_buffer or b"")))
            if r.method == "POST" else None)
    return posts


async def bestia(browser, on: bool) -> dict:
    switch(on)
    table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
    table.server.reply_after = channel.REPLY_AFTER if on else 0  # the tests' tables answer at once
    proxy, seen_as = await behind_proxy(table)
    pages = {}
    try:
        await seat_everyone(seen_as, browser, NAMES, pages)
        posts = watch(pages, NAMES)
        if not on:
            for name in NAMES:
                await pages[name].evaluate(OFF_PAGE)
        await play_rounds(table, {n: pages[n] for n in NAMES}, {"night": memo_for, "vote": vote_for, "revote": vote_for})
        await table.task
        roles = {n: table.state.player(n).role for n in NAMES}
        codes = [c for c in table.server.keys._derived]
        learned = read_capture(proxy.captured, codes)
    finally:
        for page in pages.values():
            await page.context.close()
        await proxy.stop()
        await table.close()
    sizes = {n: [size for _, path, size in posts[n] if path in ("/api/seat", "/api/private")] for n in NAMES}
    named = [n for n in NAMES if not any(set(sizes[n]) & set(sizes[m]) for m in NAMES if roles[m] != roles[n])]
    return {"roles read": sum(learned["roles"].get(n) == r for n, r in roles.items()), "players": len(roles),
            "codes read": len(learned["codes"]), "targets read": len(learned["targets"]),
            "request sizes": sorted({s for v in sizes.values() for s in v}), "named by size": len(named),
            "captured bytes": len(proxy.captured)}


async def werewolf(browser, on: bool, slots: bool = True) -> dict:
    """`on` and `slots`: as shipped; `on` without `slots`: the page before slots (a decoy at a
    random moment 1-6 s after the call, the answer at the tap); neither: no decoys at all."""
    switch(on)
    table = await open_table(NAMES5, seed=11, lang="ja")
    table.server.reply_after = channel.REPLY_AFTER if on else 0
    proxy, seen_as = await behind_proxy(table)
    names = NAMES5.split(",")
    pages, calls, latency, logs = {}, [], [], {}
    dispatch = channel.dispatch

    def hear(server, request, to, body):  # whom each call calls, and when its answer came
        if to in ("answer", "private"):
            latency.append(time.monotonic() - server.calls.opened)
        return dispatch(server, request, to, body)
    channel.dispatch = hear
    try:
        host = await seat_everyone(seen_as, browser, names, pages)
        posts = watch(pages, names)
        for name in names:
            if not on:
                await pages[name].evaluate(OFF_PAGE)
            elif not slots:
                await pages[name].evaluate("COVER.on = false; true")
            await pages[name].evaluate(INSTANT_TAPS)  # the listener's best case: every tap at once

        async def follow_calls():  # when each private call opens, and whom it calls
            last = table.server.call
            while True:
                if table.server.call != last:
                    last = table.server.call
                    open_ask = table.sitting.hub.open_ask
                    who = open_ask[1].player if open_ask is not None and open_ask[1].player else None
                    calls.append((time.perf_counter(), who))
                await asyncio.sleep(0.001)
        follower = asyncio.ensure_future(follow_calls())
        await host_plays(table, host)
        await asyncio.sleep(7)  # the last decoys (DECOY_DELAY: 1-6 s)
        follower.cancel()
        for name in names:  # the slots each page sent, by call
            for entry in await pages[name].evaluate("COVER.log"):
                logs.setdefault(entry["call"], collections.defaultdict(list))[name].append(entry["slot"])
        seat_of = {}  # the listener's view: a cookie is a phone; the bench knows whose
        for name in names:
            for cookie in await pages[name].context.cookies():
                if cookie["name"] == table.server.cookie:
                    seat_of[cookie["value"]] = name
    finally:
        channel.dispatch = dispatch
        for page in pages.values():
            await page.context.close()
        await proxy.stop()
        await table.close()
    sent = {n: len([p for p in posts[n] if p[1] in ("/api/seat", "/api/answer")]) for n in names}
    seen = posts_by_cookie(proxy, b"/api/seat") + posts_by_cookie(proxy, b"/api/answer")
    heard = sorted((when, next((n for v, n in seat_of.items() if v in c), None)) for when, c in seen)
    first_is_actor = []
    for i, (start, who) in enumerate(calls):
        if who is None:
            continue
        end = calls[i + 1][0] if i + 1 < len(calls) else float("inf")
        firsts = [n for t, n in heard if start <= t < end and n is not None]
        if firsts:
            first_is_actor.append(firsts[0] == who)
    same = [c for c, by in logs.items() if len(by) == len(names) and len({tuple(v) for v in by.values()}) == 1]
    return {"calls": len(calls), "requests per phone": sent,
            "first sender is the called player": f"{sum(first_is_actor)}/{len(first_is_actor)}",
            "calls where every phone sent in the same slots": f"{len(same)}/{len(calls)}" if logs else None,
            "slots per call": dict(collections.Counter(len(next(iter(logs[c].values()))) for c in same)) if logs else None,
            "answer after the call opened, median ms": round(statistics.median(latency) * 1000) if latency else None}


async def join_times(browser, on: bool, runs: int) -> list[float]:
    switch(on)
    table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL, lang="ja")
    times = []
    try:
        host = await new_phone(browser)
        await host.goto(f"{table.base}/#code={table.server.seats.table_code}")
        await host.wait_for_selector("#host")
        for number, name in enumerate(NAMES[:runs], 1):
            page = await new_phone(browser)
            code = table.server.seats.code(name)
            if on:  # a QR scan: the link carries the code; the page derives the key
                start = time.perf_counter()
                await page.goto(f"{table.base}/#code={code}")
            else:  # the page before issue 24: the code sent as it is
                await page.goto(f"{table.base}/static/strings.json")
                start = time.perf_counter()
                await page.goto(f"{table.base}/")
                await page.wait_for_selector("#code")
                await page.evaluate(f"post('/api/join', {{code: '{code}'}}).then(() => listen())")
            await page.wait_for_selector(f"#who:text-is('{number}. {name}')")
            times.append(time.perf_counter() - start)
            await page.context.close()
        derive = await host.evaluate(
            "(async () => { const t = performance.now(); await Seal.derive('ABCDEFGHJK', table.salt); return performance.now() - t; })()")
        times.append(derive / 1000)
        await host.context.close()
    finally:
        await table.close()
    return times


async def reply_times(on: bool, rounds: int = 5) -> dict[str, float]:
    """Median time of a sealed reply to a decoy and to a real memo (taken), phone by phone;
    `on`: replies paced (`channel.REPLY_AFTER`), as shipped."""
    from tests.phones_harness import Phone, wait_for
    from tests.test_phones_bestia import round_open

    switch(True)
    table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL)
    table.server.reply_after = channel.REPLY_AFTER if on else 0
    phones = {n: Phone(table.base, n) for n in NAMES}
    times = collections.defaultdict(list)
    try:
        for phone in phones.values():
            assert await phone.join() == 200
        serial, _ = await wait_for(lambda: round_open(table, "night"))
        for name, phone in phones.items():
            request = (await phone.view())[1]["request"]
            for _ in range(rounds):
                start = time.perf_counter()
                assert (await phone.sealed("decoy"))[0] == 200
                times["decoy"].append(time.perf_counter() - start)
            start = time.perf_counter()
            assert (await phone.private(serial, memo_for(name, request)))[0] == 200
            times["memo"].append(time.perf_counter() - start)
    finally:
        for phone in phones.values():
            await phone.close()
        await table.close()
    return {k: statistics.median(v) * 1000 for k, v in times.items()}


async def main() -> None:
    for on in (False, True) if "werewolf" not in sys.argv else ():
        replies = await reply_times(on)
        print(f"sealed reply, {'paced' if on else 'not paced'}, median ms: decoy {replies['decoy']:.2f}, "
              f"a memo taken {replies['memo']:.2f}", flush=True)
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            for on in (False, True) if "werewolf" not in sys.argv else ():
                print(f"bestia-magica, 6 players, protections {'on' if on else 'off'}: {await bestia(browser, on)}", flush=True)
            for on, slots, label in ((False, False, "off"), (True, False, "on, the page before slots"), (True, True, "on")):
                print(f"additional-werewolf, 5 players, instant taps, protections {label}: "
                      f"{await werewolf(browser, on, slots)}", flush=True)
            if "werewolf" in sys.argv:  # `bench/phones_listener.py werewolf`: this part alone
                return
            for on in (False, True):
                *joins, derive = await join_times(browser, on, 6)
                print(f"join to first view, {'sealed' if on else 'plain, sealing off'}: median "
                      f"{statistics.median(joins) * 1000:.0f} ms over {len(joins)} joins"
                      + (f" (scrypt on the page: {derive * 1000:.0f} ms)" if on else ""))
        finally:
            await browser.close()
            switch(True)


if __name__ == "__main__":
    if not CHROMIUM.exists():
        sys.exit("needs Debian's chromium: scripts/setup --test")
    import os
    import tempfile

    os.environ.setdefault("NARRATOR_HOME", tempfile.mkdtemp(prefix="narrator-bench-"))  # games saved apart
    asyncio.run(main())
