"""Each seat's key (issue 24, items 4 and 5): what a listener with the Wi-Fi password captures
tells nothing, a sniffed cookie or a replayed request cannot act for a seat, replies to a
decoy and to a real answer look alike. Each attack runs twice: with its protection
monkeypatched off it succeeds, with it on it fails. The page's side (a real Chromium) is in
tests/test_phones_crypto_browser.py."""

import asyncio
import base64
import json

import nacl.exceptions
import nacl.public
import nacl.secret
import pytest

from narrator.phones import answers, channel, crypto, wire
from narrator.phones.crypto import SeatKeys
from tests.phones_harness import SERVERS, Phone, open_table, wait_for
from tests.phones_listener import RecordingProxy, read_capture
from tests.test_phones_bestia import DEAL, NAMES, close, memo_for, round_open


def run(main):
    return asyncio.run(main())


async def bestia_through(proxy_on: bool = True):
    """Bestia Magica with every phone (and the host screen, with a key pair of its own) behind
    a recording proxy: (table, phones, host, its secret key, the proxy)."""
    table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL)
    proxy = RecordingProxy(("127.0.0.1", int(table.base.rsplit(":", 1)[1])))
    port = await proxy.start()
    base = f"http://127.0.0.1:{port}"
    SERVERS[base] = table.server
    table.server.allowed_hosts.add(f"127.0.0.1:{port}")
    host, host_key = Phone(base, "host"), nacl.public.PrivateKey.generate()
    key = base64.b64encode(bytes(host_key.public_key)).decode()
    async with host.session.post("/api/join", json={"code": table.server.seats.table_code, "key": key}) as r:
        assert r.status == 200
    phones = {n: Phone(base, n) for n in NAMES}
    for number, name in enumerate(NAMES, 1):  # the host screen shows each code, then its player joins
        async with host.session.get(f"/api/host/code/{number}") as r:
            assert r.status == 200
        async with host.session.get(f"/api/host/qr/{number}") as r:
            assert r.status == 200
        assert await phones[name].join() == 200
    return table, phones, host, host_key, proxy


# --- a passive listener ------------------------------------------------------------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_listener_with_the_wifi_password_reads_no_role_code_or_memo(monkeypatch, protected):
    if not protected:  # views and the host screen's seat codes in the clear, as before issue 24
        monkeypatch.setattr(channel, "sealed_view", lambda server, request, view: view)
        monkeypatch.setattr(SeatKeys, "seal_for_host", lambda self, token, obj: None)
        monkeypatch.setattr(crypto, "seal", lambda key, obj, bucket=None: json.dumps(obj))
        monkeypatch.setattr(crypto, "unseal", lambda key, text: json.loads(text))

    async def main():
        table, phones, host, _, proxy = await bestia_through()
        codes = []
        try:
            codes = list(table.server.keys._derived)  # every seat's code, to look for in the capture
            serial, _ = await wait_for(lambda: round_open(table, "night"))
            for name, phone in phones.items():
                await phone.first_event()
                request = (await phone.view())[1]["request"]
                assert (await phone.private(serial, memo_for(name, request)))[0] == 200
            roles = {n: table.rules.phones.private_view(table.config, table.state, n)["role"] for n in NAMES}
            return read_capture(proxy.captured, codes), roles, codes
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": host})

    learned, roles, codes = run(main)
    assert len(codes) == len(NAMES)
    if protected:
        assert learned == {"roles": {}, "codes": [], "targets": []}
    else:
        assert learned["roles"] == roles and sorted(learned["codes"]) == sorted(codes)
        assert "Dai" in learned["targets"]  # the beast's attack


def test_the_seat_codes_reach_the_host_screen_only_sealed_to_its_own_key():
    async def main():
        table, phones, host, host_key, proxy = await bestia_through()
        try:
            await table.host()  # a second host screen: refused, the table has one
        except AssertionError:
            pass
        try:
            table.server.seats.release("Aki")
            async with host.session.get("/api/host/code/1") as r:
                sealed = await r.json()
            async with host.session.get("/api/host/qr/1") as r:
                sealed_qr = await r.json()
            box = nacl.public.Box(host_key, table.server.keys.private_key.public_key)
            shown = json.loads(box.decrypt(base64.b64decode(sealed["box"])))
            assert shown["code"] == table.server.seats.code("Aki") and shown["link"].endswith(shown["code"])
            assert shown["qr"] == channel.qr_modules(shown["link"])
            assert len(shown["qr"]) == len(shown["qr"][0]) >= 21  # a QR code's square of modules
            assert set(sealed_qr) == {"box"}
            other = nacl.public.Box(nacl.public.PrivateKey.generate(), table.server.keys.private_key.public_key)
            with pytest.raises(nacl.exceptions.CryptoError):  # a key that is not the host screen's
                other.decrypt(base64.b64decode(sealed["box"]))
            assert table.server.seats.code("Aki") not in proxy.captured.decode("utf-8", "replace")
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": host})

    run(main)


# --- a sniffed cookie, a replayed request -------------------------------------------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_sniffed_cookie_cannot_send_a_seats_memo(monkeypatch, protected):
    if not protected:  # the cookie alone is enough, as before issue 24
        monkeypatch.setattr(answers, "sealed_only", lambda server, request: False)

    async def main():
        table, phones, host, _, proxy = await bestia_through()
        thief = Phone(table.base, "thief")
        try:
            serial, round_ = await wait_for(lambda: round_open(table, "night"))
            request = (await phones["Aki"].view())[1]["request"]
            cookie = {c.key: c.value for c in phones["Aki"].session.cookie_jar}  # read off the air
            thief.session.cookie_jar.update_cookies(cookie)
            memo = memo_for("Aki", request)
            async with thief.session.post("/api/private", json={"serial": serial, "answer": memo}) as r:
                status = r.status
            return status, round_.answers.get("Aki"), memo
        finally:
            await proxy.stop()
            await thief.close()
            await close(table, {**phones, "host": host})

    status, taken, memo = run(main)
    assert (status == 200 and taken == memo) == (not protected)
    assert (status == 401 and taken is None) == protected


@pytest.mark.parametrize("protected", [False, True])
def test_a_captured_sealed_request_sent_again_is_refused(monkeypatch, protected):
    if not protected:  # no counter check
        monkeypatch.setattr(crypto, "fresh", lambda counter, newest, seen: True)

    async def main():
        table, phones, host, _, proxy = await bestia_through()
        try:
            assert (await phones["Aki"].sealed("decoy"))[0] == 200
            raw = proxy.captured
            start = raw.rindex(b"POST /api/seat")
            head, body = raw[start:].split(b"\r\n\r\n", 1)
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
            captured = body[:length]  # the exact bytes sent, with Aki's cookie
            async with phones["Aki"].session.post("/api/seat", data=captured,
                                                  headers={"Content-Type": "application/json"}) as r:
                return r.status, await r.json()
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": host})

    status, reply = run(main)
    assert (status == 200 and "box" in reply) == (not protected)  # opened and acted on again
    assert ((status, reply) == (401, {"error": channel.NOT_SEALED})) == protected


# --- replies that look alike --------------------------------------------------------------------

@pytest.mark.parametrize("protected", [False, True])
def test_a_decoy_and_a_memo_get_replies_of_one_size_and_status(monkeypatch, protected):
    if not protected:
        monkeypatch.setattr(wire, "BUCKET", 1)
        monkeypatch.setattr(crypto, "PLAIN_REPLY", 1)

    async def main():
        table, phones, host, _, proxy = await bestia_through()
        try:
            serial, _ = await wait_for(lambda: round_open(table, "night"))
            sizes = []
            for name, phone in phones.items():
                request = (await phone.view())[1]["request"]
                for to, body in (("decoy", {}), ("private", {"serial": serial, "answer": memo_for(name, request)}),
                                 ("private", {"serial": serial + 5, "answer": {}})):  # a refused one too
                    before = len(proxy.captured)
                    status, _ = await phone.sealed(to, body)
                    await asyncio.sleep(0)
                    sizes.append((status, _last_reply(proxy.captured[before:])))
            return sizes
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": host})

    sizes = run(main)
    assert {status for status, _ in sizes} == {200, 409}  # inside the box: taken and refused
    outside = {reply for _, reply in sizes}
    assert (len(outside) == 1) == protected, outside


def _last_reply(raw: bytes) -> tuple[bytes, int]:
    """(the status line, the body length) of the last HTTP reply in `raw`."""
    start = raw.rindex(b"HTTP/1.1 ")
    head, body = raw[start:].split(b"\r\n\r\n", 1)
    return head.split(b"\r\n")[0], len(body)


# --- the sealed join -----------------------------------------------------------------------------

def test_a_sealed_join_seats_the_phone_without_its_code_and_a_wrong_one_is_refused():
    async def main():
        table = await open_table(None, seed=1, game="bestia-magica", deal=DEAL)
        phone, stranger = Phone(table.base, "Aki"), Phone(table.base, "x")
        try:
            keys = table.server.keys
            code = table.server.seats.code("Aki")
            key, seat_id = crypto.derive(code.lower(), keys.salt)  # as the page does, from the typed letters
            assert (key, seat_id) == keys.for_code(code)
            wrong_key, _ = crypto.derive("ZZZZZZZZZZ", keys.salt)
            small = crypto.PLAIN_REQUEST
            for body in ({"id": seat_id, "box": crypto.seal(wrong_key, {"from": "phone", "n": 5}, small)},  # no proof
                         {"id": seat_id, "box": crypto.seal(key, {"from": "narrator", "n": 5}, small)},  # a reflected box
                         {"id": seat_id, "box": crypto.seal(key, {"from": "phone", "n": "5"}, small)},  # no counter
                         {"id": "00" * 16, "box": crypto.seal(key, {"from": "phone", "n": 5}, small)},  # another id
                         {"id": 7, "box": crypto.seal(key, {"from": "phone", "n": 5}, small)}):
                table.server.gate.shut_until.clear()  # each wrong try shuts the address out (gate.py): one at a time
                async with stranger.session.post("/api/join", json=body) as r:
                    assert r.status == 403, body
            table.server.gate.shut_until.clear()
            challenge = table.server.challenges.give(phone.address)
            async with phone.session.post("/api/join", json={"id": seat_id, "box": crypto.seal(
                    key, {"from": "phone", "n": 5, "join": True, "challenge": challenge}, crypto.PLAIN_REQUEST),
                    "_counter": 99}) as r:
                assert (r.status, await r.json()) == (200, {"seat": "Aki"})
            phone.key, phone.counter = key, 4
            assert (await phone.sealed("view"))[0] == 401  # counter 5 was the join's: taken once
            status, view = await phone.sealed("view")
            assert status == 200 and view["seat"] == "Aki" and view["private"]["role"] == "beast"
        finally:
            await phone.close()
            await stranger.close()
            await table.close()

    run(main)


# --- the key store --------------------------------------------------------------------------------

def test_keys_and_counters_survive_a_restart_and_forged_boxes_open_to_nothing(tmp_path):
    path = tmp_path / "phones-keys.json"
    keys = SeatKeys(path)
    key, seat_id = keys.for_code("ABCDE FGHJK")
    assert (key, seat_id) == crypto.derive("abcdefghjk", keys.salt) and len(key) == 32 and len(seat_id) == 32
    keys.bind("token-a", key, 3)
    again = SeatKeys(path)  # `narrator resume`
    assert again.salt == keys.salt and again.public_key == keys.public_key and again.key("token-a") == key
    assert again.key("token-b") is None and again.key(None) is None
    box = lambda n, who="phone": crypto.seal(key, {"from": who, "n": n}, crypto.PLAIN_REQUEST)  # noqa: E731
    assert again.open_request("token-a", box(3)) is None  # the join's counter
    assert again.open_request("token-a", box(5)) == {"from": "phone", "n": 5}
    assert again.open_request("token-a", box(4)) == {"from": "phone", "n": 4}  # out of order, inside the window
    assert again.open_request("token-a", box(4)) is None  # but once
    assert SeatKeys(path).open_request("token-a", box(5)) is None  # a restart keeps what was taken
    assert again.open_request("token-a", box(5 + crypto.WINDOW)) is not None
    assert again.open_request("token-a", box(6)) is not None  # still inside the window
    assert again.open_request("token-a", box(2)) is None  # too old now, though never taken
    assert again.open_request("token-a", box(200, "narrator")) is None  # a reply sent back
    assert again.open_request("token-a", box(True)) is None and again.open_request("token-a", "not base64!") is None
    assert again.open_request("token-b", box(300)) is None
    other = crypto.seal(crypto.derive("ZZZZZZZZZZ", keys.salt)[0], {"from": "phone", "n": 400})
    assert again.open_request("token-a", other) is None
    assert crypto.unseal(key, crypto.seal(key, {"a": 1})) == {"a": 1}
    assert crypto.unseal(key, base64.b64encode(b"x" * 30).decode()) is None
    assert crypto.unseal(key, crypto._b64(bytes(nacl.secret.SecretBox(key).encrypt(b"[1, 2]")))) is None
    assert crypto.unseal(key, 7) is None and crypto.unseal(key, "A" * 70000) is None


def test_every_sealed_message_has_one_length_whatever_it_holds():
    key = crypto.derive("ABCDEFGHJK", b"s" * 16)[0]
    lengths = {len(crypto.seal(key, {"view": "x" * n})) for n in (0, 10, 3000, 8000)}
    assert len(lengths) == 1
    assert len(crypto.seal(key, {"view": "x" * 9000})) > lengths.pop()  # a bigger one: the next bucket
    requests = {len(crypto.seal(key, {"n": 1, "to": to, "body": body}, crypto.PLAIN_REQUEST))
                for to, body in (("decoy", {}), ("private", {"serial": 3, "answer": {"target": "Chika", "ability": True}}))}
    assert len(requests) == 1
    assert crypto.padded_json({"a": 1}, 16) == b'{"a":1}' + b" " * 9


def test_a_damaged_keys_file_is_set_aside_and_the_keys_start_fresh(tmp_path):
    path = tmp_path / "phones-keys.json"
    path.write_text("{not json")
    said = []
    keys = SeatKeys(path, said.append)
    assert len(said) == 1 and "every phone joins again" in said[0] and len(keys.salt) == 16
    assert json.loads(path.read_text())["salt"] == crypto._b64(keys.salt)
    path.write_text(json.dumps({"salt": "!!", "secret": "short", "phones": {"d": {"key": "x"}, "e": 5}}))
    keys = SeatKeys(path)
    assert len(keys.salt) == 16 and keys._phones == {}


@pytest.mark.parametrize("phones", [["d"], "d", 5])
def test_a_keys_file_whose_phones_are_no_object_starts_with_no_phone(tmp_path, phones):
    """A hand-edited `phones` that is no JSON object was a traceback as the game's page started
    (`'list' object has no attribute 'items'`); every phone joins again, the salt is kept."""
    path = tmp_path / "phones-keys.json"
    salt = crypto._b64(b"s" * 16)
    path.write_text(json.dumps({"salt": salt, "phones": phones}))
    keys = SeatKeys(path)
    assert keys._phones == {} and keys.public_salt == salt


def test_the_page_derives_and_pads_as_the_narrator_does():
    """seal.js and crypto.py / wire.py agree on scrypt's cost and on the padding (the browser
    tests prove a key derived on the page opens here)."""
    import re

    from narrator.phones.page_files import STATIC, STATIC_FILES

    page = (STATIC / "seal.js").read_text()
    kdf = re.search(r"N: (\d+), r: (\d+), p: (\d+), key: (\d+), id: (\d+)", page).groups()
    assert tuple(map(int, kdf)) == (crypto.KDF_N, crypto.KDF_R, crypto.KDF_P, crypto.KEY_BYTES, crypto.ID_BYTES)
    sizes = re.search(r"sizes = \{ plain: (\d+), request: (\d+) \}", page).groups()
    assert tuple(map(int, sizes)) == (crypto.PLAIN_REQUEST, wire.REQUEST_SIZE)
    for vendored in ("nacl-fast.min.js", "scrypt.js"):  # served, with their licences beside them
        assert vendored in STATIC_FILES and (STATIC / vendored).stat().st_size > 10_000
    assert "public domain" in (STATIC / "LICENSE-tweetnacl.txt").read_text()
    assert "MIT License" in (STATIC / "LICENSE-scrypt-js.txt").read_text()
    index = (STATIC / "index.html").read_text()
    order = [index.index(f"/static/{name}") for name in ("nacl-fast.min.js", "scrypt.js", "seal.js", "app.js")]
    assert order == sorted(order)


def test_the_host_screens_key_is_kept_and_only_its_token_reads_what_is_sealed_to_it(tmp_path):
    path = tmp_path / "phones-keys.json"
    keys = SeatKeys(path)
    host = nacl.public.PrivateKey.generate()
    public = base64.b64encode(bytes(host.public_key)).decode()
    for bad in (None, 7, "!!", base64.b64encode(b"x" * 31).decode(), base64.b64encode(b"x" * 33).decode()):
        assert keys.bind_host("host-token", bad) is False
    assert keys.seal_for_host("host-token", {"code": "X"}) is None  # no key given: nothing sealed to it
    assert keys.bind_host("host-token", public) is True
    keys.bind("seat-token", crypto.derive("ABCDEFGHJK", keys.salt)[0])
    again = SeatKeys(path)  # `narrator resume`: the host screen keeps its key
    sealed = again.seal_for_host("host-token", {"code": "ABCDEFGHJK"})
    opened = nacl.public.Box(host, again.private_key.public_key).decrypt(base64.b64decode(sealed["box"]))
    assert json.loads(opened) == {"code": "ABCDEFGHJK"} and len(opened) == crypto.PLAIN_REPLY
    assert again.seal_for_host(None, {"a": 1}) is None and again.seal_for_host("seat-token", {"a": 1}) is None
    assert again.seal_for_host("other", {"a": 1}) is None
    assert again.key("host-token") is None and again.seal_for("host-token", {"a": 1}) is None  # no seat key
    assert again.open_request("host-token", "x") is None


def test_a_counter_is_taken_inside_the_window_only():
    assert crypto.fresh(37, 100, []) and not crypto.fresh(36, 100, [])  # newest - WINDOW is too old
    assert crypto.fresh(101, 100, [100]) and not crypto.fresh(100, 100, [100])
    assert not crypto.fresh(True, 0, []) and not crypto.fresh("5", 0, []) and not crypto.fresh(None, 0, [])
    keys = SeatKeys()
    key = crypto.derive("ABCDEFGHJK", keys.salt)[0]
    keys.bind("t", key, 0)
    box = lambda n: crypto.seal(key, {"from": "phone", "n": n}, crypto.PLAIN_REQUEST)  # noqa: E731
    assert keys.open_request("t", box(100)) and keys.open_request("t", box(37))
    assert keys.open_request("t", box(36)) is None and keys.open_request("t", box(37)) is None
    assert keys._phones[crypto._digest("t")]["seen"] == [100, 37]  # the window's, not every counter ever
    assert keys.open_request("t", box(200)) and keys._phones[crypto._digest("t")]["seen"] == [200]


@pytest.mark.parametrize("protected", [False, True])
def test_every_sealed_reply_waits_for_the_same_moment_whatever_it_answers(monkeypatch, protected):
    """A memo taken (saved and fsynced) takes longer than a decoy: each reply is held until
    `reply_after` seconds after its request, so both leave at the same moment. (The waits are
    recorded, not slept: the tests never wait in real time.)"""
    waits = []

    async def recorded(seconds):
        waits.append(seconds)
    monkeypatch.setattr(channel, "_sleep", recorded)

    async def main():
        table, phones, host, _, proxy = await bestia_through()
        table.server.reply_after = 30.0 if protected else 0
        try:
            serial, _ = await wait_for(lambda: round_open(table, "night"))
            for name, phone in phones.items():
                request = (await phone.view())[1]["request"]
                assert (await phone.sealed("decoy"))[0] == 200
                assert (await phone.private(serial, memo_for(name, request)))[0] == 200
        finally:
            await proxy.stop()
            await close(table, {**phones, "host": host})

    run(main)
    if protected:  # every reply held: 12 replies + 6 views, each for what was left of 30 s
        assert len(waits) == 18 and all(25.0 < w < 30.0 for w in waits), waits
    else:
        assert waits == []


def test_what_does_not_decode_as_a_key_or_token_is_nothing_and_never_an_error():
    assert crypto._unb64("QUJD") == b"ABC" and crypto._unb64("QUJD\n") is None  # strict base64 only
    assert crypto._unb64("A" * 65536) is not None and crypto._unb64("A" * 65540) is None
    keys = SeatKeys()
    assert keys.key("\udcff") is None and keys.open_request("\udcff", "x") is None  # a cookie with a lone surrogate
    keys.bind("\udcff", b"k" * 32)  # bound at counter 0: the page's first request may be 1
    assert keys.key("\udcff") == b"k" * 32
    assert keys.open_request("\udcff", crypto.seal(b"k" * 32, {"from": "phone", "n": 1})) == {"from": "phone", "n": 1}


def test_a_kept_seat_needs_its_key_its_newest_counter_and_those_taken(tmp_path):
    path = tmp_path / "phones-keys.json"
    key = crypto._b64(b"k" * 32)
    whole = {"key": key, "n": 3, "seen": [3]}
    path.write_text(json.dumps({"phones": {"whole": whole, "no-seen": {"key": key, "n": 3},
                                           "no-n": {"key": key, "seen": [3]}, "no-key": {"n": 3, "seen": [3]},
                                           "host": {"host": key}, "bad-host": {"host": "!!"}}}))
    assert set(SeatKeys(path)._phones) == {"whole", "host"}
