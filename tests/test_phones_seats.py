"""Seats, codes and tokens, and the wire format, unit by unit (fast; the mutation tests' floor)."""

import json
import os
import stat

import pytest

from narrator.phones import seats as seats_module, wire
from narrator.phones.seats import HOST, Seats, SeatTaken, normal_code

NAMES = ("Aki", "Ben", "Chika")


def test_each_seat_has_its_own_ten_letter_code_and_the_table_an_eight_digit_one(tmp_path):
    seats = Seats(NAMES, tmp_path / "phones.json")
    codes = [seats.code(n) for n in NAMES]
    assert len(set(codes)) == 3
    assert all(len(c) == 10 and set(c) <= set(seats_module.CODE_ALPHABET) for c in codes)
    assert len(seats.table_code) == 8 and seats.table_code.isdigit()
    assert seats.free() == list(NAMES) and not seats.has_host


def test_a_code_is_compared_without_case_spaces_or_dashes_and_works_once(tmp_path):
    seats = Seats(NAMES, tmp_path / "phones.json")
    code = seats.code("Ben")
    typed = f" {code[:5].lower()}-{code[5:]} "
    assert normal_code(typed) == code
    assert seats.seat_for_code(typed) == "Ben"
    assert seats.seat_for_code("Ben") is None and seats.seat_for_code("") is None
    assert seats.seat_for_code(code[:-1]) is None
    token = seats.claim("Ben")
    assert seats.seat_for_code(code) is None and seats.code("Ben") is None  # spent
    assert seats.player(token) == "Ben" and seats.holder(token) == "Ben" and not seats.is_host(token)
    assert seats.taken("Ben") and seats.free() == ["Aki", "Chika"]
    with pytest.raises(SeatTaken):
        seats.claim("Ben")
    with pytest.raises(KeyError):
        seats.claim("Zed")


def test_the_table_code_makes_the_host_screen_which_holds_no_seat(tmp_path):
    seats = Seats(NAMES, tmp_path / "phones.json")
    assert seats.is_table_code(seats.table_code[:4] + " " + seats.table_code[4:])
    assert not seats.is_table_code(seats.table_code[:-1]) and not seats.is_table_code("")
    assert seats.seat_for_code(seats.table_code) is None
    token = seats.claim(HOST)
    assert seats.has_host and seats.is_host(token) and seats.player(token) is None
    assert seats.holder(token) == HOST and seats.free() == list(NAMES)
    assert not seats.is_host(None) and not seats.is_host("x")
    with pytest.raises(SeatTaken):
        seats.claim(HOST)
    seats.release(HOST)
    assert not seats.has_host and seats.holder(token) is None


def test_release_and_move_give_freed_seats_new_codes(tmp_path):
    seats = Seats(NAMES, tmp_path / "phones.json")
    first = seats.code("Aki")
    token = seats.claim("Aki")
    seats.move("Aki", "Chika")
    assert seats.player(token) == "Chika" and not seats.taken("Aki")
    assert seats.code("Aki") not in (None, first) and seats.code("Chika") is None
    with pytest.raises(SeatTaken):
        seats.move("Chika", "Chika")
    with pytest.raises(KeyError):
        seats.move("Aki", "Ben")  # Aki's seat has no phone to move
    with pytest.raises(KeyError):
        seats.move("Chika", "Zed")
    seats.release("Chika")
    assert seats.player(token) is None and seats.code("Chika") is not None
    seats.release("Chika")  # twice: nothing more happens
    assert seats.free() == list(NAMES)


def test_tokens_are_long_random_and_only_their_digest_is_kept(tmp_path):
    path = tmp_path / "phones.json"
    seats = Seats(NAMES, path)
    tokens = [seats.claim(n) for n in NAMES]
    assert len(set(tokens)) == 3 and all(len(t) == 43 for t in tokens)
    saved = path.read_text()
    assert not [t for t in tokens if t in saved]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    data = json.loads(saved)
    assert set(data) == {"seats", "codes", "table_code"} and set(data["seats"]) == set(NAMES)
    assert seats.player("A" * 201) is None and seats.player("") is None and seats.player(None) is None
    assert seats.player(tokens[0][:-1] + ("x" if tokens[0][-1] != "x" else "y")) is None


def test_a_resumed_game_keeps_seats_codes_host_and_table_code(tmp_path):
    path = tmp_path / "phones.json"
    seats = Seats(NAMES, path)
    aki, host = seats.claim("Aki"), seats.claim(HOST)
    ben_code, table_code = seats.code("Ben"), seats.table_code
    again = Seats(NAMES, path)
    assert again.player(aki) == "Aki" and again.is_host(host)
    assert again.code("Ben") == ben_code and again.table_code == table_code and again.code("Aki") is None
    fewer = Seats(("Ben", "Chika"), path)  # a seat that is gone is dropped, the host kept
    assert fewer.player(aki) is None and fewer.is_host(host) and fewer.code("Ben") == ben_code


def test_messages_are_padded_to_whole_buckets():
    small, large = {"a": 1}, {"a": "x" * (wire.BUCKET + 10)}
    assert len(wire.padded(small)) == wire.BUCKET
    assert len(wire.padded(large)) == 2 * wire.BUCKET
    frame = wire.event_frame(small)
    assert len(frame) == wire.BUCKET and frame.startswith(b"data: {") and frame.endswith(b"\n\n")
    assert json.loads(frame[6:]) == small and b"\n" not in frame[:-2]
    exact = {"a": "x" * (wire.BUCKET - len('{"a":""}'))}
    assert len(wire.padded(exact)) == wire.BUCKET  # a full bucket is not padded to the next one


def test_request_bodies_are_parsed_within_limits():
    assert wire.parse(b'{"a": [1, {"b": "[[[[[[[["}]}') == {"a": [1, {"b": "[[[[[[[["}]}
    assert wire.parse(b'{"a": "\\" [[[[[["}') == {"a": '" [[[[[['}
    nested = b'{"a":' + b"[" * 4 + b"]" * 4 + b"}"
    assert wire.parse(nested).status == 400
    assert wire.parse(b'{"a":' + b"[" * 3 + b"]" * 3 + b"}") == {"a": [[[]]]}
    assert wire.parse(b"{not json").status == 400 and wire.parse(b"\xff").status == 400


def test_a_moved_or_claimed_seats_code_is_gone_from_the_saved_file(tmp_path):
    path = tmp_path / "phones.json"
    seats = Seats(NAMES, path)
    seats.claim("Aki")
    seats.move("Aki", "Ben")
    assert set(json.loads(path.read_text())["codes"]) == {"Aki", "Chika"}


def test_a_private_answer_carries_only_its_own_fields():
    from narrator.cues import Request
    from narrator.phones.private import check_private_answer

    vote = Request("Aki", "bm.vote.prompt", ("Ben", "Chika"), key="vote")
    memo = Request("Aki", "bm.memo.attack", ("Ben", "Chika"), ability=True)
    assert check_private_answer(vote, {"vote": "Ben"}) == ({"vote": "Ben"}, None)
    assert check_private_answer(vote, ["Ben"]) == (None, "the answer must be an object")
    assert check_private_answer(vote, {"vote": "Ben", "ability": True}) == (None, "unexpected field 'ability'")
    assert check_private_answer(vote, {"vote": "Ben", "C" * 60: "Ben"})[1] == f"unexpected field {'C' * 40!r}"
    assert check_private_answer(memo, {"target": "Ben", "ability": True}) == ({"target": "Ben", "ability": True}, None)
    answer, problem = check_private_answer(memo, {"target": "Aki", "ability": True})
    assert answer is None and "Aki" in problem


def test_private_lines_are_kept_per_player_once_and_survive_a_resume(tmp_path):
    from narrator.phones.private import PrivateLines

    path = tmp_path / "phones-private.json"
    lines = PrivateLines(path)
    assert lines.add("Ben", "bm.private.prophet.B", {"en": "Aki is a beast."}, (1, 0)) is True
    assert lines.add("Ben", "bm.private.prophet.B", {"en": "Aki is a beast."}, (1, 0)) is False  # replayed step
    assert lines.add("Ben", "bm.private.prophet.B", {"en": "Aki is a beast."}, (2, 1)) is True  # another night
    assert lines.add("Emi", "bm.private.nothing", {"en": "ニュースなし"}, (1, 0)) is True
    again = PrivateLines(path)
    assert [e["when"] for e in again.of("Ben")] == [[1, 0], [2, 1]] and again.of("Aki") == []
    assert again.of("Emi")[0]["text"] == {"en": "ニュースなし"}
    assert again.add("Ben", "bm.private.prophet.B", {"en": "Aki is a beast."}, (1, 0)) is False
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_table_codes_are_digits_only_and_seat_codes_from_the_alphabet():
    assert all(len(c) == 8 and c.isdigit() for c in (seats_module.new_table_code() for _ in range(200)))
    alphabet = set(seats_module.CODE_ALPHABET)
    assert all(len(c) == 10 and set(c) <= alphabet for c in (seats_module.new_seat_code() for _ in range(200)))


def test_a_claimed_seats_code_is_gone_from_the_saved_file_and_refusals_name_the_seat(tmp_path):
    path = tmp_path / "phones.json"
    seats = Seats(NAMES, path)
    seats.claim("Aki")
    assert set(json.loads(path.read_text())["codes"]) == {"Ben", "Chika"}
    with pytest.raises(SeatTaken) as taken:
        seats.claim("Aki")
    assert taken.value.args == ("Aki",)
    with pytest.raises(KeyError) as unknown:
        seats.claim("Zed")
    assert unknown.value.args == ("Zed",)


def test_a_token_with_an_undecodable_byte_holds_nothing_and_raises_nothing(tmp_path):
    seats = Seats(NAMES, tmp_path / "phones.json")
    seats.claim("Aki")
    forged = "\udcff" + "A" * 42  # a cookie byte that is not UTF-8, decoded with surrogateescape
    assert seats.holder(forged) is None and seats.player(forged) is None and not seats.is_host(forged)


def test_a_saved_file_missing_its_codes_or_table_code_still_resumes(tmp_path):
    path = tmp_path / "phones.json"
    token = Seats(NAMES, path).claim("Aki")
    seats_only = {"seats": json.loads(path.read_text())["seats"]}  # as written before seat and table codes
    path.write_text(json.dumps(seats_only))
    again = Seats(NAMES, path)
    assert again.player(token) == "Aki" and again.code("Aki") is None
    assert all(len(again.code(n)) == 10 for n in ("Ben", "Chika"))
    assert len(again.table_code) == 8 and again.table_code.isdigit()
    path.write_text("{}")
    empty = Seats(NAMES, path)
    assert empty.player(token) is None and empty.free() == list(NAMES) and empty.table_code.isdigit()
