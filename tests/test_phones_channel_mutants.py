"""channel.py against its mutants, with a stand-in server and a real `SeatKeys`: what a seated
phone's sealed request gets (its view, a decoy's push, an answer routed to its round or
question, one refusal for what is not sealed or replayed), when the reply leaves, and how a
join's code, a bound seat's counter and the host screen's sealed reply come out."""

import asyncio
import json
from types import SimpleNamespace

import pytest
import segno

from narrator.phones import answers, channel, crypto, wire
from narrator.phones.crypto import SeatKeys
from narrator.phones.decoys import DecoyBudget
from narrator.phones.join_challenge import Challenges

AKI_CODE, CHIKA_CODE, SPENT_CODE = "ABCDEFGH", "JKMNPQRS", "TUVWXYZ2"
SALT = b"0123456789abcdef"
DERIVED = {crypto.normal_code(c): crypto.derive(c, SALT) for c in (AKI_CODE, CHIKA_CODE, SPENT_CODE)}
"""Each code's key, derived once for the module (scrypt is slow on purpose)."""


class Body:
    def __init__(self, raw: bytes):
        self.raw = raw

    async def read(self, n=-1):
        raw, self.raw = self.raw[:n], self.raw[n:]
        return raw


class FakeServer:
    """What channel.py asks of the phone server: tokens, seated players, views, pushes, keys."""

    def __init__(self):
        self.keys = SeatKeys(None)
        self.keys.salt, self.keys._derived = SALT, dict(DERIVED)
        self.challenges = Challenges()
        self.decoys = DecoyBudget()
        self.players = {"aki-token": "Aki"}
        self.pushes = 0
        self.host_cookie_asked = []
        self.seats = SimpleNamespace(free=lambda: ["Aki", "Chika", "Dai"],
                                     code=lambda n: {"Aki": AKI_CODE, "Chika": CHIKA_CODE}.get(n))

    def token(self, request, host_cookie=False):
        self.host_cookie_asked.append(host_cookie)
        return request.host_token if host_cookie else request.token

    def player(self, request):
        return self.players.get(request.token)

    def view(self, name, is_host=False):
        return {"you": name, "host": is_host}

    def _changed(self):
        self.pushes += 1


def post(token, body, content_type="application/json", host_token=None):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return SimpleNamespace(token=token, host_token=host_token, content_type=content_type,
                           content_length=len(raw), content=Body(raw))


@pytest.fixture
def table():
    server = FakeServer()
    server.reply_after = 0
    key, _ = server.keys.for_code(AKI_CODE)
    server.keys.bind("aki-token", key, 0)
    return server, key


def sealed(key, n, to, body=None, sender=crypto.FROM_PHONE):
    return {"box": crypto.seal(key, {"from": sender, "n": n, "to": to, "body": body or {}},
                               crypto.PLAIN_REQUEST)}


def send(server, request):
    return asyncio.run(channel.seat(server, request))


def opened(key, reply):
    """(outer status, the sealed reply's inside) of a reply to a sealed request."""
    assert len(reply.body) % wire.BUCKET == 0
    return reply.status, crypto.unseal(key, json.loads(reply.body)["box"])


def error_of(reply):
    return reply.status, json.loads(reply.body)["error"]


def test_a_seated_phone_gets_its_own_view_sealed_with_its_counter(table):
    server, key = table
    status, inside = opened(key, send(server, post("aki-token", sealed(key, 1, "view"))))
    assert status == 200
    assert inside == {"status": 200, "body": {"you": "Aki", "host": False}, "n": 1, "from": "narrator"}


def test_a_decoy_gets_ok_and_pushes_to_every_phone_as_a_memo_does(table):
    server, key = table
    status, inside = opened(key, send(server, post("aki-token", sealed(key, 5, "decoy"))))
    assert (status, inside["status"], inside["body"], inside["n"]) == (200, 200, {"ok": True}, 5)
    assert server.pushes == 1


def test_a_request_to_nowhere_is_a_sealed_400(table):
    server, key = table
    status, inside = opened(key, send(server, post("aki-token", sealed(key, 1, "vote"))))
    assert (status, inside["status"]) == (200, 400)
    assert inside["body"] == {"error": "a sealed request goes to: view, private, answer or decoy"}
    assert server.pushes == 0


def test_a_memo_goes_to_its_round_and_an_answer_to_its_question(table, monkeypatch):
    server, key = table
    got = []
    monkeypatch.setattr(answers, "private_body", lambda s, r, body, serial: (
        got.append(("private", s, r.token, body, serial)), wire.reply({"taken": serial}, 202))[1])
    monkeypatch.setattr(answers, "answer_body", lambda s, name, is_host, body, serial: (
        got.append(("answer", s, name, is_host, body, serial)), wire.reply({"heard": serial}))[1])
    memo = {"serial": 7, "answer": {"target": "Chika"}}
    _, inside = opened(key, send(server, post("aki-token", sealed(key, 1, "private", memo))))
    assert (inside["status"], inside["body"]) == (202, {"taken": 7})
    vote = {"serial": 9, "answer": "yes"}
    _, inside = opened(key, send(server, post("aki-token", sealed(key, 2, "answer", vote))))
    assert (inside["status"], inside["body"]) == (200, {"heard": 9})
    assert got == [("private", server, "aki-token", memo, 7), ("answer", server, "Aki", False, vote, 9)]


@pytest.mark.parametrize("to, what", [("private", "round"), ("answer", "question")])
def test_an_answer_without_its_serial_is_a_sealed_400_naming_what_it_answers(table, to, what):
    server, key = table
    for n, body in enumerate(({"answer": "yes"}, {"serial": "7"}), 1):
        _, inside = opened(key, send(server, post("aki-token", sealed(key, n, to, body))))
        assert (inside["status"], inside["body"]) == (
            400, {"error": f"serial must be the number of the {what} being answered"})
    box = crypto.seal(key, {"from": "phone", "n": 3, "to": to, "body": [7]}, crypto.PLAIN_REQUEST)
    _, inside = opened(key, send(server, post("aki-token", {"box": box})))  # a body not an object
    assert inside["status"] == 400


def test_a_phone_without_a_seat_is_told_to_enter_its_code(table):
    server, key = table
    assert error_of(send(server, post("stranger", sealed(key, 1, "view")))) == (
        401, "no seat: enter your seat's code first")


def test_what_is_not_sealed_with_the_seats_key_or_is_replayed_is_refused(table):
    server, key = table
    other, _ = server.keys.for_code(CHIKA_CODE)
    for body in ({"box": "not a box"}, {}, sealed(other, 1, "view"),
                 sealed(key, 1, "view", sender=crypto.FROM_NARRATOR)):
        assert error_of(send(server, post("aki-token", body))) == (401, channel.NOT_SEALED)
    request = sealed(key, 4, "decoy")
    assert send(server, post("aki-token", request)).status == 200
    assert error_of(send(server, post("aki-token", request))) == (401, channel.NOT_SEALED)
    assert server.pushes == 1  # the replay did nothing


def test_a_body_that_is_not_json_gets_the_wire_refusal(table):
    server, _ = table
    assert error_of(send(server, post("aki-token", b"box=1", "application/x-www-form-urlencoded")))[0] == 415
    assert error_of(send(server, post("aki-token", b"[1]")))[0] == 400


def test_a_sealed_reply_leaves_reply_after_seconds_after_its_request(table, monkeypatch):
    server, key = table
    waits = []

    async def sleep(seconds):
        waits.append(seconds)

    monkeypatch.setattr(channel, "_sleep", sleep)
    server.reply_after = 0.05
    send(server, post("aki-token", sealed(key, 1, "decoy")))
    assert len(waits) == 1 and 0.0 < waits[0] <= 0.05
    del server.reply_after  # a server that does not say: REPLY_AFTER
    send(server, post("aki-token", sealed(key, 2, "view")))
    assert len(waits) == 2 and channel.REPLY_AFTER - 0.1 < waits[1] <= channel.REPLY_AFTER
    server.reply_after = 0  # already late: no wait
    send(server, post("aki-token", sealed(key, 3, "view")))
    assert len(waits) == 2


def test_a_view_travels_sealed_to_a_seated_phone_and_plain_to_the_host_screen(table):
    server, key = table
    view = {"role": "werewolf"}
    box = channel.sealed_view(server, SimpleNamespace(token="aki-token"), view)
    assert set(box) == {"box"} and crypto.unseal(key, box["box"]) == {"role": "werewolf", "from": "narrator"}
    assert channel.sealed_view(server, SimpleNamespace(token="host-token"), view) is view


def join_body(code, n=3, sender=crypto.FROM_PHONE, server=None, challenge=None):
    key, seat_id = server.keys.for_code(code)
    challenge = server.challenges.give(ADDRESS) if challenge is None else challenge
    return {"id": seat_id, "box": crypto.seal(key, {"from": sender, "n": n, "join": True, "challenge": challenge},
                                              crypto.PLAIN_REQUEST)}


ADDRESS = "10.42.0.9"


def code_of(server, body, address=ADDRESS):
    return asyncio.run(channel.joining_code(server, body, address))


def test_a_proven_join_gives_its_free_seats_code_and_its_counter(table):
    server, _ = table
    body = join_body(CHIKA_CODE, 3, server=server)
    assert code_of(server, body) == CHIKA_CODE and body["_counter"] == 3


def test_a_plain_join_gives_its_code_and_no_counter_it_did_not_prove(table):
    server, _ = table
    body = {"code": "table-code", "_counter": 99}
    assert code_of(server, body) == "table-code" and "_counter" not in body
    assert code_of(server, {}) is None


def test_a_join_whose_proof_fails_gives_a_code_no_seat_has(table):
    server, _ = table
    spent = server.keys.for_code(SPENT_CODE)[1]  # a seat id of a code no free seat holds
    wrong = [{"id": spent, "box": join_body(CHIKA_CODE, server=server)["box"]},
             {"id": 7, "box": join_body(CHIKA_CODE, server=server)["box"]},
             {**join_body(CHIKA_CODE, server=server), "box": join_body(AKI_CODE, server=server)["box"]},
             {**join_body(CHIKA_CODE, server=server), "box": "garbage"},
             join_body(CHIKA_CODE, sender=crypto.FROM_NARRATOR, server=server),
             join_body(CHIKA_CODE, n="3", server=server),
             join_body(CHIKA_CODE, server=server, challenge="never-given"),
             join_body(CHIKA_CODE, server=server, challenge=server.challenges.give("10.42.0.66"))]
    for body in wrong:
        assert code_of(server, body) == "-" and "_counter" not in body, body


def test_a_join_sent_again_is_refused_its_challenge_taken_once(table):
    """Issue 38: a captured join sent again (by anyone) names a challenge already taken."""
    server, _ = table
    body = join_body(CHIKA_CODE, 3, server=server)
    again = dict(body)
    assert code_of(server, body) == CHIKA_CODE
    assert code_of(server, again) == "-" and "_counter" not in again


def test_a_bound_seat_takes_only_counters_past_the_one_it_joined_with(table):
    server, _ = table
    key, _ = server.keys.for_code(CHIKA_CODE)
    channel.bind_seat(server, "chika-token", CHIKA_CODE, {"_counter": 5})
    assert server.keys.open_request("chika-token", sealed(key, 5, "view")["box"]) is None
    assert server.keys.open_request("chika-token", sealed(key, 6, "view")["box"])["n"] == 6
    for counter in ({}, {"_counter": "5"}):  # none proven: from 0
        channel.bind_seat(server, "dai-token", CHIKA_CODE, counter)
        assert server.keys.open_request("dai-token", sealed(key, 1, "view")["box"])["n"] == 1


def test_the_host_screen_gets_codes_sealed_to_its_own_key_with_the_qr_modules(table):
    import base64
    import nacl.public

    server, _ = table
    host_key = nacl.public.PrivateKey.generate()
    assert server.keys.bind_host("host-token", base64.b64encode(bytes(host_key.public_key)).decode())
    shown = {"link": "http://10.42.0.1:8080/#ABCDEFGH", "code": AKI_CODE}
    request = SimpleNamespace(token="aki-token", host_token="host-token")
    reply = channel.host_reply(server, request, shown, only_sealed=True)
    box = nacl.public.Box(host_key, nacl.public.PublicKey(base64.b64decode(server.keys.public_key)))
    inside = json.loads(box.decrypt(base64.b64decode(json.loads(reply.body)["box"])))
    assert inside == {**shown, "qr": channel.qr_modules(shown["link"])}
    assert server.host_cookie_asked[-1] is True
    plain = SimpleNamespace(token="aki-token", host_token="no-key-token")
    assert channel.host_reply(server, plain, shown, only_sealed=True) is None
    assert json.loads(channel.host_reply(server, plain, shown).body) == shown


def test_the_qr_modules_are_the_links_qr_code_dark_as_1():
    link = "http://10.42.0.1:8080/#ABCDEFGH"
    rows = channel.qr_modules(link)
    qr = segno.make(link, error="m")  # at least M (segno raises it while the size allows)
    assert len(rows) == len(rows[0]) == qr.symbol_size(border=0)[0]
    assert rows[0].startswith("1111111") and rows[1].startswith("1000001")  # a finder pattern
    assert set("".join(rows)) == {"0", "1"}


def _error_level(rows):
    """The error correction level a QR code's format bits say (read as a scanner reads them):
    the two bits beside the top-left finder, unmasked (ISO/IEC 18004: L 01, M 00, Q 11, H 10)."""
    return {1: "L", 0: "M", 3: "Q", 2: "H"}[(int(rows[8][0]) << 1 | int(rows[8][1])) ^ 0b10]


def test_a_join_qr_code_keeps_at_least_medium_error_correction_whatever_the_links_length():
    """A phone's camera on a scratched host screen still reads it: at least M (15%), also for
    the long `.local` names the appliance announces."""
    for n in range(5, 120, 7):
        rows = channel.qr_modules(f"http://{'a' * n}.local:8080/#code=ABCDEFGH")
        assert _error_level(rows) in {"M", "Q", "H"}, n
