"""The phone server's own replies, exactly: who a phone is (/api/seats), each refusal's
status and message, the page's files and their types, the security headers on every reply,
and the lines `release` prints at the table's terminal."""

import asyncio
import base64

import aiohttp

from narrator.phones.seats import HOST
from narrator.phones.page_files import SECURITY_HEADERS
from tests.phones_harness import NAMES5, Phone, open_table

NO_SEAT = (401, {"error": "no seat: enter your seat's code first"})


async def get(phone, path, **kw):
    async with phone.session.get(path, **kw) as r:
        return r.status, await r.json()


def run(test):
    async def main():
        table = await open_table(NAMES5, seed=4)
        aki, stranger = Phone(table.base, "Aki"), Phone(table.base, "Mallory")
        try:
            assert await aki.join() == 200
            await test(table, aki, stranger)
        finally:
            await aki.close()
            await stranger.close()
            await table.close()

    asyncio.run(main())


def test_seats_tells_a_phone_what_it_holds_and_how_many_seats_are_free():
    async def check(table, aki, stranger):
        public = {"salt": base64.b64encode(table.server.keys.salt).decode(),  # what the page derives keys with
                  "key": table.server.keys.public_key}
        assert await get(stranger, "/api/seats") == (
            200, {"lang": "en", "you": None, "host": False, "has_host": False, "free": 4, **public})
        assert await get(aki, "/api/seats") == (
            200, {"lang": "en", "you": "Aki", "host": False, "has_host": False, "free": 4, **public})
        host = await table.host()
        assert await get(host, "/api/seats") == (
            200, {"lang": "en", "you": None, "host": True, "has_host": True, "free": 4, **public})
        assert await get(stranger, "/api/view") == NO_SEAT
        assert await get(stranger, "/api/events") == NO_SEAT

    run(check)


def test_refusals_by_host_name_origin_stream_count_and_file_name_say_why():
    async def check(table, aki, stranger):
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{table.base}/api/seats", headers={"Host": "evil.example"}) as r:
                assert (r.status, await r.json()) == (
                    421, {"error": "unknown host: open the address the narrator announced"})
            async with s.post(f"{table.base}/api/join", json={"code": "A"},
                              headers={"Origin": "http://evil.example"}) as r:
                assert (r.status, await r.json()) == (
                    403, {"error": "this request did not come from the narrator's page"})
        for name in ("index.html", "server.py", "..%2Fserver.py", "APP.JS"):
            assert await get(stranger, f"/static/{name}") == (404, {"error": "no such file"}), name
        streams = [await aki.session.get("/api/events") for _ in range(4)]
        try:
            assert await get(aki, "/api/events") == (
                429, {"error": "too many open pages for this seat; close one and reload"})
        finally:
            for r in streams:
                r.close()

    run(check)


def test_the_page_and_its_files_have_their_types_and_every_reply_the_security_headers():
    assert SECURITY_HEADERS == {
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": "default-src 'self'; style-src 'self'; script-src 'self'; "
                                   "frame-ancestors 'none'",
    }

    async def check(table, aki, stranger):
        types = {"/": "text/html; charset=utf-8", "/static/app.js": "text/javascript; charset=utf-8",
                 "/static/style.css": "text/css; charset=utf-8",
                 "/static/strings.json": "application/json; charset=utf-8"}
        for path, kind in types.items():
            async with stranger.session.get(path) as r:
                assert r.status == 200 and r.headers["Content-Type"] == kind, path
                assert {k: r.headers.get(k) for k in SECURITY_HEADERS} == SECURITY_HEADERS, path
        for path in ("/api/seats", "/api/view", "/static/none"):
            async with stranger.session.get(path) as r:
                assert {k: r.headers.get(k) for k in SECURITY_HEADERS} == SECURITY_HEADERS, path

    run(check)


def test_release_at_the_terminal_frees_a_seat_or_the_host_screen_and_says_so():
    async def check(table, aki, stranger):
        server = table.server
        await table.host()
        assert server.release("zed") == "no seat 'zed'; seats: Aki, Ben, Chika, Dai, Emi, host"
        assert server.seats.taken("Aki") and server.seats.has_host
        assert server.release("aki") == "Aki's seat is free: the host screen shows its new code"
        assert not server.seats.taken("Aki") and server.seats.code("Aki") is not None
        assert (await aki.view())[0] == 401
        assert server.release("HOST") == (
            "the host screen is free: open the page on a phone and enter the table code "
            f"{server.seats.table_code}")
        assert not server.seats.has_host and server.seats.code(HOST) is None

    run(check)


def test_request_bodies_are_refused_with_one_line_saying_why():
    async def check(table, aki, stranger):
        async def send(data, content_type="application/json", chunked=False):
            payload = data
            if chunked:  # no Content-Length: the size is found by reading
                async def pieces():
                    yield data
                payload = pieces()
            async with aki.session.post("/api/join", data=payload, headers={"Content-Type": content_type}) as r:
                return r.status, await r.json()

        assert await send(b'{"code": "A"}', "text/plain") == (
            415, {"error": "send JSON (Content-Type: application/json)"})
        large = (400, {"error": "request body larger than 2048 bytes"})
        assert await send(b'{"code": "' + b"A" * 2037 + b'"}') == large  # 2049 bytes
        assert await send(b'{"code": "' + b"A" * 2037 + b'"}', chunked=True) == large
        assert await send(b'{"code": "' + b"A" * 2036 + b'"}', chunked=True) == (  # 2048 bytes: read
            400, {"error": "a seat is claimed with its own code: scan it on the host screen"})
        assert await send(b'["A"]') == (400, {"error": "the body must be a JSON object"})
        assert await send(b'{"code": [[[["A"]]]]}') == (400, {"error": "the body is nested more than 4 levels deep"})
        assert await send(b'{"code": [[["A"]]]}') == (
            400, {"error": "a seat is claimed with its own code: scan it on the host screen"})
        for bad in (b"{not json", b"\xff", b""):
            assert await send(bad) == (400, {"error": "the body is not valid JSON"}), bad

    run(check)


def test_release_at_the_terminal_answers_in_the_games_language():
    """A Japanese game's terminal answers `release host` in Japanese (issue 26, item 11)."""
    from tests.phones_harness import open_table

    async def scene():
        table = await open_table(lang="ja")
        try:
            server = table.server
            assert server.release("host").startswith("ホスト画面を解放しました")
            assert "の席を解放しました" in server.release("aki")
            assert server.release("zed").startswith("「zed」という席はありません")
        finally:
            await table.close()
    asyncio.run(scene())


def test_the_host_screen_asks_for_its_button_not_for_a_spoken_word():
    """Under the host screen's button the question never says 「「終わりました」と言ってください」 (item 11)."""
    from narrator.cues import Ask
    from tests.phones_harness import open_table

    async def scene():
        table = await open_table(lang="ja")
        try:
            text = table.server._ask_text(Ask("setup.ready", ("done",)))
            assert "ボタンを押してください" in text["ja"] and "言って" not in text["ja"]
            assert "press the button" in text["en"] and "say" not in text["en"]
        finally:
            await table.close()
    asyncio.run(scene())
