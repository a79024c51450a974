"""Which names a table may give its players, and the readings given with them.

It stands apart because a name is more than a value: it must not be a number (typed, it
picks a seat) nor an answer or command word in either language (a player named "undo" or
「はい」 would rewind or answer the game), so it reads every bundled voice pack's vocabulary.
`narrator.settings` reads the `names` key with it, the appliance's spoken setup its typed names.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache

from narrator import home
from narrator.errors import Refusal
from narrator.values.readers import split_items

NAME_MAX = 20
"""Characters a player's name may have (its reading not counted)."""
ASCII_VOCABULARY = {
    "yes": ("y", "yes"),
    "no": ("n", "no"),
    "done": ("", "d", "done", "next", "ok"),
    "repeat": ("r", "repeat"),
    "pause": ("p", "pause"),
    "resume": ("resume",),
    "undo": ("u", "undo"),
    "help": ("h", "help"),
}
"""The keys every table has, in every language (`narrator.inputs.words` reads answers with them)."""


def parse_names(value: object, source: str) -> tuple[str, ...]:
    """Names from a TOML list or a comma-separated string (readings dropped; see `parse_name_entries`)."""
    return parse_name_entries(value, source)[0]


def parse_name_entries(value: object, source: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """Names and readings from a TOML list or "Aki,心愛:ここあ,…": `name:reading` gives the
    reading the narrator says and listens for. Refused, with the fix: duplicates, a name over
    `NAME_MAX` characters, a number (typed, it picks a seat), and a name that is an answer or
    command word in either language (a player named "undo" or 「はい」 would rewind or answer the game)."""
    if isinstance(value, str):
        items = split_items(value)
    elif isinstance(value, (list, tuple)):
        items = [str(n).strip() for n in value]
    else:
        raise Refusal("names_form", source=source)
    names, readings = [], {}
    for item in filter(None, items):
        name, _, reading = item.replace("：", ":").partition(":")
        name, reading = name.strip(), reading.strip()
        if not name:
            raise Refusal("reading_without_name", source=source, item=item)
        if len(name) > NAME_MAX:
            raise Refusal("name_too_long", source=source, name=name, length=len(name), most=NAME_MAX)
        word = _fold(name)
        if word.isdigit():
            raise Refusal("name_is_number", source=source, name=name)
        if word in _command_words() or (reading and _fold(reading) in _command_words()):
            raise Refusal("name_is_command", source=source, name=item)
        names.append(name)
        if reading:
            readings[name] = reading
    if len({_fold(n) for n in names}) != len(names):
        raise Refusal("names_twice", source=source, names=names)
    return tuple(names), readings


def _fold(word: str) -> str:
    """A word as words are compared: full-width as ASCII, any case, katakana as hiragana."""
    import unicodedata

    import jaconv

    return jaconv.kata2hira(unicodedata.normalize("NFKC", word).strip().strip("。.!！?？").casefold())


@lru_cache(maxsize=1)
def _command_words() -> frozenset[str]:
    """The keys every table has and the [vocabulary] words of every bundled voice pack."""
    words = {w for keys in ASCII_VOCABULARY.values() for w in keys if w}
    for voice_toml in home.bundled_voices().glob("*/voice.toml"):
        try:
            vocabulary = tomllib.loads(voice_toml.read_text(encoding="utf-8")).get("vocabulary", {})
        except (OSError, tomllib.TOMLDecodeError):
            continue
        for spoken in vocabulary.values():
            words.update([spoken] if isinstance(spoken, str) else spoken)
    return frozenset(_fold(w) for w in words)
