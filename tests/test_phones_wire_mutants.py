"""wire.py against its mutants: what a phone gets back (status, type, padded JSON, the one line
of an error) and what a hostile or broken body gets (refused, bounded, never a traceback)."""

import asyncio
import json
from types import SimpleNamespace

import pytest

from narrator.phones import wire


class Stream:
    """A request body as aiohttp's stream gives it: each read returns what has come so far;
    it records how much was asked and read, and a read after its end is a test failure (a
    loop that kept reading an ended body would spin forever)."""

    def __init__(self, *pieces, endless: bytes = b"", most: int = 1 << 30,
                 error: BaseException | None = None):
        self.pieces, self.endless, self.most, self.error = list(pieces), endless, most, error
        self.read_bytes = 0
        self.ended = False

    async def read(self, n=-1):
        if self.error is not None:
            raise self.error
        assert not self.ended, "read again after the body ended"
        if self.endless:
            chunk = (self.endless * (n // len(self.endless) + 1))[:min(n, self.most)]
        elif self.pieces:
            chunk = self.pieces.pop(0)[:n]
        else:
            chunk = b""
        self.ended = not chunk
        self.read_bytes += len(chunk)
        return chunk


def request(*pieces, content_type="application/json", content_length=None, **stream):
    return SimpleNamespace(content_type=content_type, content_length=content_length,
                           content=Stream(*pieces, **stream))


def body_of(request_):
    return asyncio.run(wire.json_body(request_))


def refusal(reply):
    """(status, the error line) of a refused request, read as the page reads it."""
    assert len(reply.body) % wire.BUCKET == 0, "an error is padded like every reply"
    return reply.status, json.loads(reply.body)["error"]


def test_a_reply_is_compact_padded_json_with_its_status_and_type():
    reply = wire.reply({"name": "Aki", "seat": 3}, 201)
    assert reply.status == 201 and reply.content_type == "application/json"
    assert reply.body == b'{"name":"Aki","seat":3}' + b" " * (wire.BUCKET - 23)
    assert wire.reply({"a": 1}).status == 200
    assert refusal(wire.error(409, "the table already has a host screen")) == (
        409, "the table already has a host screen")


def test_an_event_and_a_framed_message_are_padded_between_their_frame():
    assert wire.event_frame({"a": 1}) == b'data: {"a":1}' + b" " * (wire.BUCKET - 15) + b"\n\n"
    assert wire.padded({"a": 1}, (b"<", b">")) == b'<{"a":1}' + b" " * (wire.BUCKET - 9) + b">"
    just_over = {"a": "x" * (wire.BUCKET - len('{"a":""}') + 1)}
    assert len(wire.padded(just_over)) == 2 * wire.BUCKET
    assert len(wire.padded({"a": "x" * (3 * wire.BUCKET)})) == 4 * wire.BUCKET


def test_japanese_text_goes_as_utf8_and_stays_in_one_bucket():
    """A Japanese view is sent as UTF-8 (3 bytes a kana), not as \\u escapes (6): 5,000 kana
    fit one bucket."""
    text = wire.padded({"a": "あ" * 5000})
    assert len(text) == wire.BUCKET and "あ".encode() * 5000 in text
    assert json.loads(text) == {"a": "あ" * 5000}


def test_a_json_object_is_taken_up_to_the_size_limit_exactly():
    exact = b'{"a": 1}' + b" " * (wire.MAX_BODY - 8)
    assert body_of(request(exact, content_length=wire.MAX_BODY)) == {"a": 1}
    assert body_of(request(exact[:1000], exact[1000:])) == {"a": 1}  # no length, in two pieces


def test_a_body_over_the_limit_is_refused_with_its_reason():
    too_big = (400, f"request body larger than {wire.MAX_BODY} bytes")
    declared = request(content_length=wire.MAX_BODY + 1, error=AssertionError("not to be read"))
    assert refusal(body_of(declared)) == too_big  # refused on its declared length, unread
    over = b'{"a": 1}' + b" " * (wire.MAX_BODY - 7)  # valid JSON, one byte too long
    assert refusal(body_of(request(over))) == too_big
    assert refusal(body_of(request(over[:100], over[100:]))) == too_big


@pytest.mark.parametrize("most", [1 << 30, 1000, 7])
def test_an_endless_body_is_read_no_further_than_one_byte_past_the_limit(most):
    """However the body arrives (all at once, or in pieces of `most` bytes), a flood of it is
    read to one byte past the limit and no further."""
    endless = request(endless=b"[1,", most=most)
    assert refusal(body_of(endless)) == (400, f"request body larger than {wire.MAX_BODY} bytes")
    assert endless.content.read_bytes == wire.MAX_BODY + 1


def test_a_form_is_refused_as_not_json():
    form = request(b"a=1", content_type="application/x-www-form-urlencoded")
    assert refusal(body_of(form)) == (415, "send JSON (Content-Type: application/json)")


@pytest.mark.parametrize("error", [ConnectionResetError("reset"), ValueError("bad chunk"),
                                   RuntimeError("Connection closed.")])
def test_a_body_that_cannot_be_read_is_a_400_not_a_traceback(error):
    assert refusal(body_of(request(error=error))) == (400, "the body could not be read")


def test_json_that_is_not_an_object_or_not_json_or_too_deep_is_refused_with_its_reason():
    assert refusal(body_of(request(b'["Aki"]'))) == (400, "the body must be a JSON object")
    assert refusal(body_of(request(b'"Aki"'))) == (400, "the body must be a JSON object")
    assert refusal(body_of(request(b'{"a": '))) == (400, "the body is not valid JSON")
    assert refusal(body_of(request(b'{"a": "\xff"}'))) == (400, "the body is not valid JSON")
    deep = b'{"a": [[[[1]]]]}'
    assert refusal(body_of(request(deep))) == (
        400, f"the body is nested more than {wire.MAX_DEPTH} levels deep")
    assert body_of(request(b'{"a": [[[1]]]}')) == {"a": [[[1]]]}


def test_closing_brackets_bring_the_depth_back_down():
    assert wire._bracket_depth(b"[][][][][][]") == 1
    assert wire._bracket_depth(b'{"a": [], "b": [], "c": [], "d": [], "e": [1]}') == 2
    assert wire._bracket_depth(b"1") == 0 and wire._bracket_depth(b'"[["') == 0
    assert wire.parse(b'{"a": [], "b": [], "c": [], "d": [], "e": [[1]]}')["e"] == [[1]]
    assert wire._bracket_depth(b"[][[]]") == 2 and wire._bracket_depth(b"{}{}{}") == 1
    many = b'{"a": [{}, {}, {}, {}, {}, {}]}'  # six objects side by side: 3 deep, taken
    assert wire.parse(many) == {"a": [{}] * 6}
    assert wire.parse(b'{"a": [], "b": [[[[1]]]]}').status == 400  # 5 deep after a closed list
