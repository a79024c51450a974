"""wire.py's own pieces: the nesting of a request body is counted outside its strings only,
so a memo naming "[[[[[" is no deeper than one naming "Aki", and a quote escaped inside a
string does not end it."""

from narrator.phones import wire


def test_brackets_inside_strings_do_not_count_and_escaped_quotes_do_not_end_them():
    assert wire._bracket_depth(b'[[]]') == 2 and wire._bracket_depth(b'{"a": [{}]}') == 3
    assert wire._bracket_depth(b'{"a": "[[[[[[{{{{"}') == 1
    assert wire._bracket_depth(b'{"a": "x\\"[[[[[["}') == 1  # \" inside: still the string
    assert wire._bracket_depth(b'{"a": "x\\\\", "b": [[1]]}') == 3  # \\ then ": the string ended
    assert wire._bracket_depth(b'{"a": "\\\\\\"[[[["}') == 1
    assert wire._bracket_depth(b'"]]]" [') == 1
    assert wire._bracket_depth(b'{"#": "]"}') == 1 and wire._bracket_depth(b'{"a#": [1]}') == 2
    assert wire.parse(b'{"a": "[[[[[[[[[["}') == {"a": "[[[[[[[[[["}  # deep only in a string: taken
    assert wire.parse(b'[[[[[1]]]]]').status == 400
    assert wire.parse(b'[[[[1]]]]') == [[[[1]]]]



def test_a_body_that_arrives_in_pieces_is_read_to_its_end():
    """A padded body over a slow link comes in several reads: all of it is parsed (one
    `read(n)` returned only the first piece, refused as bad JSON)."""
    import asyncio
    from types import SimpleNamespace

    class Arriving:
        """A request body as aiohttp's stream gives it: each read returns what has come so far."""

        def __init__(self, *pieces):
            self.pieces = list(pieces)

        async def read(self, n=-1):
            return self.pieces.pop(0)[:n] if self.pieces else b""

    request = SimpleNamespace(content_type="application/json", content_length=None,
                              content=Arriving(b'{"serial": 3, ', b'"answer": {"target": "Aki"}}'))
    assert asyncio.run(wire.json_body(request)) == {"serial": 3, "answer": {"target": "Aki"}}
    huge = SimpleNamespace(content_type="application/json", content_length=None,
                           content=Arriving(*[b" " * 1024] * (wire.MAX_BODY // 1024 + 2)))
    assert asyncio.run(wire.json_body(huge)).status == 400  # still bounded, piece by piece
