"""The phone page's HTTP API over a whole game, and its live stream (real server, real loop)."""

import asyncio
import json

from narrator.games.additional_werewolf import cards
from tests.phones_harness import NAMES5, Phone, as_sent, open_table, wait_for
from tests.phones_policy import choose


async def play_through(table, phones, duplicates: bool = False, reconnect_every: int = 0):
    """Answer every question until the game ends: private ones from their player's phone,
    public ones from the host screen; returns (accepted, refused)."""
    accepted = refused = rounds = 0
    host = await table.host()
    while not table.task.done():
        rounds += 1
        if reconnect_every and rounds % reconnect_every == 0:
            await asyncio.gather(*(p.reconnect() for p in phones[::2]))
        views = await asyncio.gather(*(p.view() for p in phones))
        status, host_view = await host.view()
        assert status == 200, host_view
        asked = [(phone, view["ask"]) for phone, (status, view) in zip(phones, views) if view["ask"]]
        assert all(ask["private"] for _, ask in asked)  # public questions go to the host screen only
        if host_view["host"]["ask"]:
            asked.append((host, host_view["host"]["ask"]))
        for phone, ask in asked[:1]:
            value = choose(table, ask)
            tries = [phone.answer(ask["serial"], value)]
            if duplicates:  # the same answer twice at once, and once more from another phone
                tries += [phone.answer(ask["serial"], value), phones[0].answer(ask["serial"], value)]
            for status, body in await asyncio.gather(*tries):
                if status == 200:
                    accepted += 1
                else:
                    assert status in (403, 409), (status, body)
                    refused += 1
        await asyncio.sleep(0.005)
    return accepted, refused


def test_whole_digital_game_through_the_api_reaches_the_winners():
    async def main():
        table = await open_table(NAMES5, seed=11)
        phones = [Phone(table.base, n) for n in NAMES5.split(",")]
        try:
            assert [await p.join() for p in phones] == [200] * 5
            accepted, _ = await play_through(table, phones)
            state = await table.task
            assert state.winner == "citizens" and state.day == 3
            assert {m["kind"] for m in state.memos} >= {"seer", "strategist"}
            answers = [e for e in table.events() if e["type"] == "answer"]
            assert len(answers) == accepted and all(e["source"] == "phone" for e in answers)
            for phone in phones:
                status, view = await phone.view()
                assert view["phase"] == "over" and view["winner"] == "citizens"
                role = cards.role(table.config, state, phone.name)
                assert view["private"]["role"] == role
                assert view["private"]["won"] == (role == "citizen")
        finally:
            for p in phones:
                await p.close()
            await table.close()

    asyncio.run(main())


def test_stream_pushes_the_players_view_and_a_reload_resumes_it():
    async def main():
        table = await open_table(NAMES5, seed=3)
        aki = Phone(table.base, "Aki")
        try:
            assert await aki.join() == 200
            host = await table.host()
            await wait_for(lambda: _host_asked(host))
            first = await aki.first_event()
            assert first["seat"] == "Aki" and first["ask"] is None  # the public question is the host's
            assert first["private"]["role"] == cards.role(table.config, table.state, "Aki")
            await aki.reconnect()  # a reload: only the cookie survives
            status, again = await aki.view()
            assert status == 200 and again == first
            assert (await aki.first_event()) == first
        finally:
            await aki.close()
            await table.close()

    asyncio.run(main())


def test_views_carry_only_the_players_own_cards_and_memos():
    async def main():
        table = await open_table(NAMES5, seed=5)
        phones = {n: Phone(table.base, n) for n in NAMES5.split(",")}
        try:
            for p in phones.values():
                await p.join()
            assert (await (await table.host()).answer(1, "done"))[0] == 200
            seer = cards.holders(table.config, table.state, "seer")[0]

            async def seer_asked():
                status, view = await phones[seer].view()
                return view if view["ask"] and view["ask"]["line"] == "seer.act_phone" else None

            view = await wait_for(seer_asked)
            assert view["ask"]["private"] and seer not in view["ask"]["choices"]
            target = view["ask"]["choices"][0]
            for name, phone in phones.items():
                status, other = await phone.view()
                mine = cards.private_view(table.config, table.server.shown, name)
                assert other["private"] == as_sent(table.server, mine)
                if name != seer:
                    assert other["ask"] is None  # nobody else learns that a private question is open
            assert (await phones[seer].answer(view["ask"]["serial"], target))[0] == 200
            await wait_for(lambda: _memo_seen(phones[seer]))
            for name, phone in phones.items():
                status, other = await phone.view()
                text = json.dumps(other)
                assert ("seer" in [m["kind"] for m in other["private"]["memos"]]) == (name == seer), text
        finally:
            for p in phones.values():
                await p.close()
            await table.close()

    asyncio.run(main())


async def _memo_seen(phone):
    status, view = await phone.view()
    return bool(view["private"]["memos"])


async def _asked(phone):
    status, view = await phone.view()
    return view["ask"] is not None


async def _host_asked(host):
    status, view = await host.view()
    return view["host"]["ask"]


def test_resumed_game_keeps_seats_tokens_and_cards():
    from narrator.phones.table import make_server
    from narrator.table.runner import play as play_loop
    from narrator.table.runner import resume_position

    async def main():
        table = await open_table(NAMES5, seed=9)
        aki = Phone(table.base, "Aki")
        try:
            assert await aki.join() == 200
            host = await table.host()
            ask = await wait_for(lambda: _host_asked(host))
            assert (await host.answer(ask["serial"], "done"))[0] == 200
            await wait_for(lambda: _seer_asked(table))
            status, before = await aki.view()
        finally:
            await table.close()  # the Pi loses power mid-night
        # `narrator resume`: a new server for the same saved game, on a new port
        position = resume_position(table.rules, table.config, table.store)
        server = make_server(table.rules, table.config, table.store, table.sitting.hub, "en")
        port = await server.start("127.0.0.1", 0)
        task = asyncio.create_task(play_loop(table.rules, table.config, table.store, table.sitting.scheduler,
                                             position, recap=True, on_state=server.set_state))
        again = Phone(f"http://127.0.0.1:{port}", "Aki")
        again.session.cookie_jar.update_cookies({c.key: c.value for c in aki.session.cookie_jar})
        again.key, again.counter = aki.key, aki.counter  # the page keeps both in its storage
        try:
            status, after = await again.view()
            assert status == 200 and after["seat"] == "Aki"
            assert after["private"] == before["private"]
            other = Phone(again.base, "Aki")
            assert await other.join() == 403  # the seat is still Aki's phone's: its code is spent
            await other.close()
        finally:
            task.cancel()
            await again.close()
            await aki.close()
            await server.stop()

    asyncio.run(main())


async def _seer_asked(table):
    open_ask = table.sitting.hub.open_ask
    return open_ask and open_ask[1].line == "seer.act_phone"


def test_physical_cards_game_answered_from_phones():
    """Without digital cards the phones offer what the narrator asks: ready, nominees, found, strategist."""
    answers = {"setup.ready": "done", "strategist.question": "yes"}

    async def main():
        table = await open_table(NAMES5, seed=2, digital_cards="false")
        phones = [Phone(table.base, n) for n in NAMES5.split(",")]
        asked = []
        try:
            for p in phones:
                await p.join()
            host = await table.host()
            while not table.task.done():
                status, view = await phones[len(asked) % 5].view()
                assert view["ask"] is None and view["private"] == {}
                status, view = await host.view()
                ask = view["host"]["ask"]
                if ask is None:
                    await asyncio.sleep(0.005)
                    continue
                assert not ask["private"]
                if ask["line"] == "nomination.who":
                    value = ["Ben", "Chika"]
                elif ask["line"] == "nomination.werewolf_found":
                    value = "yes" if view["day"] == 2 else "no"
                else:
                    value = answers.get(ask["line"], "no")
                asked.append(ask["line"])
                assert (await phones[len(asked) % 5].answer(ask["serial"], value))[0] == 403  # not a player's to answer
                assert (await host.answer(ask["serial"], value))[0] == 200
            state = await table.task
            assert state.winner == "citizens" and state.day == 2 and state.nominations[0] == ("Ben", "Chika")
            assert "strategist.question" in asked
        finally:
            for p in phones:
                await p.close()
            await table.close()

    asyncio.run(main())


def test_the_host_screen_shows_codes_one_seat_at_a_time_and_releases_and_moves_seats():
    async def main():
        table = await open_table(NAMES5, seed=4)
        host = await table.host()
        aki, ben = Phone(table.base, "Aki"), Phone(table.base, "Ben")
        try:
            async with aki.session.get("/api/host/code/1") as r:
                assert r.status == 403  # not the host screen
            async with host.session.get("/api/host/code/1") as r:
                shown = await r.json()
            assert shown["seat"] == "Aki" and shown["link"].endswith(f"#code={shown['code']}")
            async with host.session.get("/api/host/qr/1") as r:
                assert r.status == 200 and r.content_type == "image/svg+xml" and b"<svg" in await r.read()
            async with host.session.get("/api/host/code/9") as r:
                assert r.status == 404
            assert await aki.join_code(shown["code"]) == 200
            async with host.session.get("/api/host/code/1") as r:
                assert r.status == 409  # a taken seat has no code to show
            status, view = await host.view()
            assert [s["taken"] for s in view["host"]["seats"]] == [True, False, False, False, False]
            assert view["host"]["free"] == 4 and view["seat"] is None
            # Aki scanned the wrong code: the host moves that phone to Ben's seat
            async with host.session.post("/api/host/move", json={"from": "Aki", "to": "Ben"}) as r:
                assert r.status == 200
            assert (await aki.view())[1]["seat"] == "Ben"
            assert table.server.seats.code("Aki") not in (None, shown["code"])  # a new code for the freed seat
            assert await ben.join_code(shown["code"]) == 403  # the old code is spent
            await table.door.advance(1.0)  # a wrong code shuts its phone out for a second
            assert await ben.join("Aki") == 200
            async with host.session.post("/api/host/move", json={"from": "Aki", "to": "Ben"}) as r:
                assert r.status == 409  # Ben's seat has a phone
            # a lost phone: the host releases the seat; its token stops working
            async with aki.session.post("/api/host/release", json={"seat": "Ben"}) as r:
                assert r.status == 403
            async with host.session.post("/api/host/release", json={"seat": "Ben"}) as r:
                assert r.status == 200
            assert (await aki.view())[0] == 401
            assert table.server.seats.code("Ben") is not None
            # a second phone cannot become the host screen with the table code
            other = Phone(table.base, "other")
            assert await other.join_code(table.server.seats.table_code) == 409
            await other.close()
        finally:
            await aki.close()
            await ben.close()
            await table.close()

    asyncio.run(main())
