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
