"""The host screen's replies, exactly: every status and whole JSON body of /api/host/*, the
seats it lists, and the QR code it shows (what the page reads and the table sees)."""

import asyncio
import io

import pytest
import segno

from narrator.phones.seats import HOST, Seats, SeatTaken
from tests.phones_harness import NAMES5, Phone, open_table, wait_for


async def get(phone, path):
    async with phone.session.get(path) as r:
        return r.status, await r.json()


async def post(phone, path, body):
    async with phone.session.post(path, json=body) as r:
        return r.status, await r.json()


def run(test, names=NAMES5):
    """Run `test(table, host, aki)` on a fresh table with a host screen and Aki's phone (not joined)."""
    async def main():
        table = await open_table(names, seed=4)
        host = await table.host()
        aki = Phone(table.base, "Aki")
        try:
            await test(table, host, aki)
        finally:
            await aki.close()
            await table.close()

    asyncio.run(main())


def test_a_seat_code_reply_names_the_seat_its_code_and_its_join_link():
    async def check(table, host, aki):
        codes = {n: table.server.seats.code(n) for n in NAMES5.split(",")}
        assert await get(host, "/api/host/code/1") == (
            200, {"seat": "Aki", "code": codes["Aki"], "link": f"{table.base}/#code={codes['Aki']}"})
        assert await get(host, "/api/host/code/5") == (  # the last seat has a number too
            200, {"seat": "Emi", "code": codes["Emi"], "link": f"{table.base}/#code={codes['Emi']}"})
        for number in ("0", "6", "x", "-1", "1.0"):
            assert await get(host, f"/api/host/code/{number}") == (404, {"error": "no such seat number"}), number
        assert await get(aki, "/api/host/code/1") == (403, {"error": "only the host screen shows seat codes"})
        assert await aki.join_code(codes["Aki"]) == 200
        assert await get(aki, "/api/host/code/2") == (403, {"error": "only the host screen shows seat codes"})
        assert await get(host, "/api/host/code/1") == (409, {"error": "this seat already has a phone"})

    run(check)


def _qr_svg(link):
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, dark="#000", light="#fff")
    return out.getvalue()


def test_the_qr_code_is_the_seats_join_link_black_on_white_with_a_quiet_zone():
    """Error level M, six pixels a module, two modules of quiet zone. The link is as long as a
    LAN address's, where a lower error level would fit in a smaller, less robust code."""
    async def check(table, host, aki):
        port = table.base.rsplit(":", 1)[1]
        lan = f"narrator-table.local:{port}"
        table.server.allowed_hosts.add(lan)
        code = table.server.seats.code("Ben")
        async with host.session.get("/api/host/qr/2", headers={"Host": lan}) as r:
            assert r.status == 200 and r.content_type == "image/svg+xml"
            svg = await r.read()
        assert svg == _qr_svg(f"http://{lan}/#code={code}")
        symbol = segno.make(f"http://{lan}/#code={code}", error="m")
        assert symbol.error == "M" and segno.make(f"http://{lan}/#code={code}").error == "L"
        size = (symbol.symbol_size(scale=6, border=2))[0]
        assert f'width="{size}" height="{size}"'.encode() in svg
        assert b'fill="#fff"' in svg and b'stroke="#000"' in svg
        assert await get(aki, "/api/host/qr/2") == (403, {"error": "only the host screen shows seat codes"})
        assert await get(host, "/api/host/qr/6") == (404, {"error": "no such seat number"})
        assert await aki.join_code(table.server.seats.code("Aki")) == 200
        assert await get(host, "/api/host/qr/1") == (409, {"error": "this seat already has a phone"})

    run(check)


def test_release_replies_with_the_freed_seat_and_refuses_unknown_seats_and_other_phones():
    async def check(table, host, aki):
        assert await aki.join() == 200
        assert await post(aki, "/api/host/release", {"seat": "Aki"}) == (
            403, {"error": "only the host screen may do this"})
        for seat in ("Zed", "aki", "", None, ["Aki"], 1):
            assert await post(host, "/api/host/release", {"seat": seat}) == (404, {"error": "unknown seat"}), seat
        assert await post(host, "/api/host/release", {}) == (404, {"error": "unknown seat"})
        assert table.server.seats.taken("Aki")
        assert await post(host, "/api/host/release", {"seat": "Aki"}) == (200, {"ok": True, "free": "Aki"})
        assert not table.server.seats.taken("Aki") and (await aki.view())[0] == 401

    run(check)


def test_move_replies_ok_and_refuses_a_free_source_an_unknown_seat_or_a_taken_target():
    async def check(table, host, aki):
        ben = Phone(table.base, "Ben")
        try:
            assert await aki.join() == 200 and await ben.join() == 200
            refused = (404, {"error": "move a taken seat to a free one"})
            assert await post(aki, "/api/host/move", {"from": "Aki", "to": "Chika"}) == (
                403, {"error": "only the host screen may do this"})
            for source, target in (("Aki", "Zed"), ("Aki", None), ("Zed", "Chika"), (None, "Chika"),
                                   ("Chika", "Dai"), (None, None), ("Aki", ["Chika"])):
                body = {"from": source, "to": target}
                assert await post(host, "/api/host/move", body) == refused, body
            assert await post(host, "/api/host/move", {"from": "Aki", "to": "Ben"}) == (
                409, {"error": "that seat already has a phone; release it first"})
            assert table.server.seats.free() == ["Chika", "Dai", "Emi"]
            assert await post(host, "/api/host/move", {"from": "Aki", "to": "Chika"}) == (200, {"ok": True})
            assert (await aki.view())[1]["seat"] == "Chika" and table.server.seats.free() == ["Aki", "Dai", "Emi"]
        finally:
            await ben.close()

    run(check)


def test_start_replies_ok_whether_or_not_the_game_is_waiting_for_phones():
    async def check(table, host, aki):
        assert await post(aki, "/api/host/start", {}) == (403, {"error": "only the host screen may do this"})
        assert await post(host, "/api/host/start", {}) == (200, {"ok": True})  # nothing to wait for
        waiting = asyncio.ensure_future(table.server.wait_for_phones())
        await wait_for(lambda: _waiting(table))
        assert await post(host, "/api/host/start", {}) == (200, {"ok": True})
        await asyncio.wait_for(waiting, 2)
        assert await post(host, "/api/host/start", {}) == (200, {"ok": True})  # started already

    run(check)


async def _waiting(table):
    return table.server.waiting is not None


async def _public_ask(table):
    open_ask = table.sitting.hub.open_ask
    return open_ask if open_ask is not None and open_ask[1].player is None else None


def test_the_host_view_numbers_the_seats_from_one_and_shows_the_public_question():
    async def check(table, host, aki):
        assert await aki.join() == 200
        serial, ask = await wait_for(lambda: _public_ask(table))
        status, view = await host.view()
        assert status == 200
        assert view["host"] == {
            "seats": [{"number": 1, "name": "Aki", "taken": True}, {"number": 2, "name": "Ben", "taken": False},
                      {"number": 3, "name": "Chika", "taken": False}, {"number": 4, "name": "Dai", "taken": False}],
            "free": 3,
            "ask": {"serial": serial, "line": "setup.ready", "text": table.server._ask_text(ask),
                    "choices": list(ask.choices), "multiple": False, "private": False},
            "timer_serial": None, "end_lines": [],  # no timer runs, the game is not over
            "no_speaker": False,  # the speaker answers (appliance/speaker.py)
        }
        assert view["host"]["ask"]["text"]["en"] and view["host"]["ask"]["text"]["ja"]

    run(check, "Aki,Ben,Chika,Dai")


def test_a_seat_moved_from_or_to_a_wrong_place_names_that_seat(tmp_path):
    seats = Seats(("Aki", "Ben", "Chika"), tmp_path / "phones.json")
    seats.claim("Aki")
    seats.claim("Ben")
    host = seats.claim(HOST)
    with pytest.raises(KeyError) as unknown:
        seats.move("Aki", "Zed")
    assert unknown.value.args == ("Zed",)
    with pytest.raises(SeatTaken) as taken:
        seats.move("Aki", "Ben")
    assert taken.value.args == ("Ben",)
    with pytest.raises(KeyError):  # the host screen holds no seat to move
        seats.move(HOST, "Chika")
    assert seats.is_host(host) and seats.free() == ["Chika"] and seats.code("Chika") is not None


def _cookie_attributes(header):
    name_value, *attributes = [part.strip() for part in header.split(";")]
    return name_value.split("=")[0], {a.split("=")[0].lower(): (a.split("=") + [""])[1] for a in attributes}


def test_join_replies_with_the_seat_or_the_host_and_a_day_long_cookie_for_the_whole_page():
    async def check(table, _host, aki):
        table.server.seats.release(HOST)  # the harness's host screen gives way to a new one
        code = table.server.seats.code("Aki")
        padded = f"{code[:5]} - {code[5:]}".center(40).lower()  # a typed code, spaces and dashes and all
        assert len(padded) == 40
        async with aki.session.post("/api/join", json={"code": padded}) as r:
            assert (r.status, await r.json()) == (200, {"seat": "Aki"})
            name, attributes = _cookie_attributes(r.headers["Set-Cookie"])
        assert name == table.server.cookie
        assert attributes == {"httponly": "", "samesite": "Strict", "path": "/", "max-age": "86400"}
        screen = Phone(table.base, "screen")
        try:
            async with screen.session.post("/api/join", json={"code": table.server.seats.table_code}) as r:
                assert (r.status, await r.json()) == (200, {"host": True})
                name, attributes = _cookie_attributes(r.headers["Set-Cookie"])
            assert name == table.server.host_cookie
            assert attributes == {"httponly": "", "samesite": "Strict", "path": "/", "max-age": "86400"}
        finally:
            await screen.close()
        claimed = (400, {"error": "a seat is claimed with its own code: scan it on the host screen"})
        for typed in ("", "A" * 41, 1234567890, None, ["A"]):
            assert await post(aki, "/api/join", {"code": typed}) == claimed, typed
        wrong = (403, {"error": "wrong or used code: ask the host screen for your seat's code"})
        assert await post(aki, "/api/join", {"code": "A"}) == wrong
        await table.door.advance(1.0)  # a wrong code shuts its phone out for a second
        assert await post(aki, "/api/join", {"code": code}) == wrong  # spent
        await table.door.advance(1.0)
        assert await post(aki, "/api/join", {"code": table.server.seats.table_code}) == (
            409, {"error": "the table already has a host screen; release it at the table first"})

    run(check)
