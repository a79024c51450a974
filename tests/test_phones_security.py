"""Each security rule of the phone page as an attack that must be refused and change nothing."""

import asyncio
import json
import logging

import aiohttp
import pytest

from narrator.games.additional_werewolf import cards
from narrator.phones import network
from narrator.phones.seats import Seats
from narrator.table.clock import settle
from tests.phones_harness import NAMES5, Phone, as_sent, open_table, wait_for


def run(test):
    """Run `test(table, phones)` on a fresh table where every player has joined."""
    async def main():
        table = await open_table(NAMES5, seed=5)
        phones = {n: Phone(table.base, n) for n in NAMES5.split(",")}
        try:
            for p in phones.values():
                assert await p.join() == 200
            await wait_for(lambda: _open(table, "setup.ready"))
            await test(table, phones)
        finally:
            for p in phones.values():
                await p.close()
            await table.close()

    asyncio.run(main())


async def _open(table, line):
    open_ask = table.sitting.hub.open_ask
    return open_ask if open_ask and open_ask[1].line == line else None


async def _to_seer(table, phones):
    """Play on to the seer's private question; returns (seer, serial)."""
    assert (await (await table.host()).answer(1, "done"))[0] == 200
    serial, ask = await wait_for(lambda: _open(table, "seer.act_phone"))
    return ask.player, serial


def _unchanged(table, before):
    assert table.events() == before


def test_no_token_and_forged_tokens_are_refused():
    async def attack(table, phones):
        stranger = Phone(table.base, "Mallory")
        forged = Phone(table.base, "Mallory")
        forged.session.cookie_jar.update_cookies({table.server.cookie: "A" * 43})
        before = table.events()
        try:
            for phone in (stranger, forged):
                assert (await phone.view())[0] == 401
                assert (await phone.answer(1, "done"))[0] == 401
                async with phone.session.get("/api/events") as r:
                    assert r.status == 401
        finally:
            await stranger.close()
            await forged.close()
        _unchanged(table, before)
        assert table.sitting.hub.open_ask[0] == 1  # the question is still open

    run(attack)


def test_a_token_from_another_game_is_worth_nothing():
    async def main():
        first = await open_table(NAMES5, seed=1)
        second = await open_table(NAMES5, seed=1)
        aki = Phone(first.base, "Aki")
        try:
            assert await aki.join() == 200
            token = next(c.value for c in aki.session.cookie_jar)
            thief = Phone(second.base, "Aki")
            thief.session.cookie_jar.update_cookies({second.server.cookie: token})
            assert (await thief.view())[0] == 401
            await thief.close()
            assert first.server.cookie != second.server.cookie
        finally:
            await aki.close()
            await first.close()
            await second.close()

    asyncio.run(main())


def test_nobody_answers_another_players_private_question():
    async def attack(table, phones):
        seer, serial = await _to_seer(table, phones)
        before, state = table.events(), table.state
        for name, phone in phones.items():
            if name != seer:
                status, body = await phone.answer(serial, next(n for n in NAMES5.split(",") if n != seer))
                assert status == 403, body
        _unchanged(table, before)
        assert table.state == state and table.sitting.hub.open_ask == (serial, table.sitting.hub.open_ask[1])

    run(attack)


def test_no_view_shows_another_players_cards_memos_or_question():
    async def attack(table, phones):
        seer, serial = await _to_seer(table, phones)
        target = next(n for n in NAMES5.split(",") if n != seer)
        assert (await phones[seer].answer(serial, target))[0] == 200
        await wait_for(lambda: _has_memo(table, seer))
        for name, phone in phones.items():
            status, view = await phone.view()
            assert view["private"] == as_sent(table.server, cards.private_view(table.config, table.state, name))
            others = [n for n in NAMES5.split(",") if n != name]
            text = json.dumps(view["private"])
            # the only other names a view may hold are those its own memos are about
            memo_names = {m.get("target") for m in view["private"]["memos"]}
            assert not [n for n in others if n in text and n not in memo_names]

    run(attack)


async def _has_memo(table, name):
    return any(m["player"] == name for m in table.state.memos)


def test_stale_and_replayed_answers_are_refused():
    async def attack(table, phones):
        aki = await table.host()
        assert (await phones["Aki"].answer(1, "done"))[0] == 403  # a public question: the host screen's
        assert (await aki.answer(1, "done"))[0] == 200
        answers = lambda: [e for e in table.events() if e["type"] == "answer"]  # noqa: E731
        await wait_for(lambda: _true(answers()))
        count = len(answers())
        assert (await aki.answer(1, "done"))[0] == 409  # replay of the same request
        assert (await phones["Ben"].answer(1, "done"))[0] == 409  # late duplicate from another phone
        assert (await aki.answer(99, "done"))[0] == 409  # a question that never was
        await settle()  # whatever the game would do with an answer taken has been done
        assert len(answers()) == count == 1

    run(attack)


def test_bad_inputs_get_a_4xx_and_change_nothing():
    async def attack(table, phones):
        seer, serial = await _to_seer(table, phones)
        phone = phones[seer]
        before, state = table.events(), table.state
        assert (await phone.answer(serial, "Nobody"))[0] == 400  # unknown player id
        assert (await phone.answer(serial, seer))[0] == 400  # the seer looks at another player
        assert (await phone.answer(serial, ["Aki", "Ben"]))[0] == 400  # two where one is asked
        assert (await phone.answer(serial, 3))[0] == 400
        assert (await phone.answer("1", "Aki"))[0] == 400
        assert (await phone.answer(True, "Aki"))[0] == 400
        assert await phone.post_raw("/api/answer", b"{not json") == 400
        assert await phone.post_raw("/api/answer", b"[1, 2]") == 400
        assert await phone.post_raw("/api/answer", b"serial=1&value=Aki", "application/x-www-form-urlencoded") == 415
        huge = json.dumps({"serial": serial, "value": "A" * 100_000}).encode()
        assert await phone.post_raw("/api/answer", huge) == 400
        assert await phone.post_raw("/api/join", json.dumps({"code": "B" * 5000}).encode()) == 400
        nested = b'{"serial": 1, "value": ' + b"[" * 900 + b"]" * 900 + b"}"
        assert await phone.post_raw("/api/answer", nested) == 400
        _unchanged(table, before)
        assert table.state == state and table.sitting.hub.open_ask[0] == serial

    run(attack)


def test_wrong_step_answers_are_refused():
    async def attack(table, phones):
        seer, serial = await _to_seer(table, phones)
        before = table.events()
        # a public-style answer ("done") to the seer's question, and the old ready question
        assert (await phones[seer].answer(serial, "done"))[0] == 400
        assert (await phones[seer].answer(serial - 1, "done"))[0] == 409
        _unchanged(table, before)

    run(attack)


def test_seats_cannot_be_stolen_or_invented():
    async def attack(table, phones):
        intruder = Phone(table.base, "Aki")
        try:
            assert await intruder.join("Aki") == 403  # taken by Aki's phone: its code is spent
            await table.door.advance(1.0)  # a wrong code shuts its phone out for a second
            assert await intruder.post_raw("/api/join", b'{"seat": "Zed"}') == 400  # a name is no code
            assert await intruder.post_raw("/api/join", b'{"seat": ["Aki"]}') == 400
            assert (await intruder.view())[0] == 401
        finally:
            await intruder.close()
        # Ben's phone may not switch to Aki's seat either
        assert await phones["Ben"].join("Aki") == 403
        status, view = await phones["Ben"].view()
        assert view["seat"] == "Ben"

    run(attack)


def test_cookie_is_httponly_strict_and_pages_carry_security_headers():
    async def attack(table, phones):
        fresh = await open_table(NAMES5, seed=2)
        try:
            async with aiohttp.ClientSession(headers={"Origin": fresh.base}) as s:
                code = fresh.server.seats.code("Aki")
                async with s.post(f"{fresh.base}/api/join", json={"code": code}) as r:
                    cookie = r.headers["Set-Cookie"]
                    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
                async with s.get(f"{fresh.base}/") as r:
                    assert r.headers["X-Frame-Options"] == "DENY"
                    assert "default-src 'self'" in r.headers["Content-Security-Policy"]
                    assert r.headers["Cache-Control"] == "no-store"
                async with s.get(f"{fresh.base}/static/..%2Fserver.py") as r:
                    assert r.status == 404
        finally:
            await fresh.close()

    run(attack)


def test_tokens_are_random_and_only_their_digest_is_stored(tmp_path):
    path = tmp_path / "phones.json"
    seats = Seats(("Aki", "Ben"), path)
    a, b = seats.claim("Aki"), seats.claim("Ben")
    assert a != b and len(a) >= 40
    saved = path.read_text()
    assert a not in saved and b not in saved
    again = Seats(("Aki", "Ben"), path)  # a resumed game keeps its seats
    assert again.player(a) == "Aki" and again.player(b) == "Ben"
    assert again.player(a[:-1] + ("x" if a[-1] != "x" else "y")) is None
    seats.release("Aki")
    assert seats.player(a) is None


_real_lan_ip = network.lan_ip


def test_listens_only_where_configured(monkeypatch):
    assert network.bind_host("127.0.0.1") == "127.0.0.1"
    monkeypatch.setattr(network, "lan_ip", lambda: "192.168.1.23")
    assert network.bind_host(None) == "192.168.1.23"  # the local network, not every interface
    monkeypatch.setattr(network, "lan_ip", lambda: None)
    assert network.bind_host(None) == "127.0.0.1"

    async def main():
        table = await open_table(NAMES5, seed=4)
        try:
            sockets = table.server.addresses
            assert all(host == "127.0.0.1" for host, _ in sockets)
            lan = _real_lan_ip()
            if lan:  # this machine has a network address: nothing must answer there
                port = sockets[0][1]
                with pytest.raises(OSError):
                    reader, writer = await asyncio.wait_for(asyncio.open_connection(lan, port), 2)
                    writer.close()
        finally:
            await table.close()

    asyncio.run(main())


def test_join_address_prefers_the_mdns_name(monkeypatch):
    monkeypatch.setattr(network, "mdns_name", lambda: "narrator-pi.local")
    assert network.join_url("192.168.1.23", 8080) == "http://narrator-pi.local:8080/"
    assert network.join_url("127.0.0.1", 8080) == "http://127.0.0.1:8080/"
    monkeypatch.setattr(network, "mdns_name", lambda: None)
    assert network.join_url("192.168.1.23", 8080) == "http://192.168.1.23:8080/"
    assert network.spoken_address("http://192.168.1.23:8080/") == "192.168.1.23:8080"


def test_nothing_private_is_logged_or_written_to_the_transcript(tmp_path, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    transcript = tmp_path / "t.jsonl"

    async def main():
        table = await open_table(NAMES5, seed=11, transcript=str(transcript))
        phones = [Phone(table.base, n) for n in NAMES5.split(",")]
        try:
            for p in phones:
                await p.join()
            from tests.test_phones_api import play_through

            await play_through(table, phones)
            await table.task
            tokens = [c.value for p in phones for c in p.session.cookie_jar]
            return table, tokens
        finally:
            for p in phones:
                await p.close()
            await table.close()

    table, tokens = asyncio.run(main())
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    private_lines = {"seer.act_phone", "peddler.act_phone", "phantom_mage.act_phone",
                     "phantom_mage.act_phone_second", "strategist.pick_phone", "strategist.pick_second",
                     "strategist.give_phone"}
    answers = [r for r in records if r["kind"] == "answer" and r["line"] in private_lines]
    assert answers and all("value" not in r and "source" not in r for r in answers)
    out = capsys.readouterr()
    logged = caplog.text + out.out + out.err + transcript.read_text()
    assert not [t for t in tokens if t in logged]
    for role in ("citizen", "traitor", "werewolf"):
        # roles are never named in what is printed or logged (the end line names no role card)
        assert f"is a {role}" not in logged


async def _true(value):
    return bool(value)


def test_a_foreign_host_name_gets_no_seat_and_no_view():
    """DNS rebinding: a web page elsewhere points its own name at this machine."""
    async def attack(table, phones):
        async with aiohttp.ClientSession() as s:
            headers = {"Host": "evil.example:80"}
            async with s.post(f"{table.base}/api/join", json={"seat": "Aki"}, headers=headers) as r:
                assert r.status == 421
            async with s.get(f"{table.base}/api/seats", headers=headers) as r:
                assert r.status == 421
        aki = phones["Aki"]
        async with aki.session.get("/api/view", headers={"Host": "evil.example"}) as r:
            assert r.status == 421
        assert (await aki.view())[0] == 200

    run(attack)


def test_one_seat_cannot_hog_the_live_streams():
    async def attack(table, phones):
        from narrator.phones.event_stream import MAX_STREAMS_PER_SEAT

        aki = phones["Aki"]
        open_streams = [await aki.session.get("/api/events") for _ in range(MAX_STREAMS_PER_SEAT)]
        try:
            assert all(r.status == 200 for r in open_streams)
            async with aki.session.get("/api/events") as r:
                assert r.status == 429
            assert (await phones["Ben"].first_event())["seat"] == "Ben"  # the others still connect
        finally:
            for r in open_streams:
                r.close()
        streams = table.server.live.seats  # the server checks a quiet stream's page every CHECK_EVERY s
        await wait_for(lambda: _true(streams.get("Aki", 0) < MAX_STREAMS_PER_SEAT), timeout=30)
        assert (await aki.first_event())["seat"] == "Aki"  # closed pages free their places

    run(attack)


def test_only_the_tables_terminal_can_free_a_seat_for_a_new_phone():
    async def attack(table, phones):
        hub = table.sitting.hub
        new_phone = Phone(table.base, "Aki")
        try:
            assert await new_phone.join("Aki") == 403
            hint = hub.offer_text("release Aki", "script")  # only the keyboard at the table may
            assert hint and "free" not in hint
            await table.door.advance(1.0)  # a wrong code shuts its phone out for a second
            assert await new_phone.join("Aki") == 403
            await table.door.advance(1.0)
            assert "no seat 'Zed'" in hub.offer_text("release Zed", "keyboard")
            assert "Aki's seat is free" in hub.offer_text("release aki", "keyboard")
            assert (await phones["Aki"].view())[0] == 401  # the lost phone's token is worth nothing now
            assert await new_phone.join("Aki") == 200
            status, view = await new_phone.view()
            assert status == 200 and view["private"]["role"] == cards.role(table.config, table.state, "Aki")
        finally:
            await new_phone.close()

    run(attack)
