"""Errors a user can fix, each carrying one clear line and an exit status.

The CLI prints `error: <message>` and exits with `exit_code`; nothing else of the
traceback reaches the table, because the message already names the fix.

Exit statuses (docs/cli.md): 0 the game ended; 1 any other NarratorError; 2 the table
file, a flag, a saved game or the disk needs fixing (nothing already saved was lost);
3 every listener ran dry while a question waits (the game stays saved); 130 Ctrl-C.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Mapping, Protocol

from narrator.terminal import terminal_lang


class NarratorError(Exception):
    """A problem the user can fix; `str(err)` is the one line to show.

    Made by `said(key, **params)`, it is a line of narrator/terminal/lines.toml, worded in the
    terminal's language when shown (the table's, else the locale's: narrator/terminal/lines.py)."""

    exit_code = 1
    said_key: str | None = None
    said_params: dict[str, object] = {}

    @classmethod
    def said(cls, key: str, /, **params: object) -> NarratorError:
        """The error whose line is `key` of narrator/terminal/lines.toml, filled with `params`."""
        err = cls(key)
        err.said_key, err.said_params = key, params
        return err

    def __str__(self) -> str:
        if self.said_key is None:
            return super().__str__()
        from narrator.terminal import said

        return said(self.said_key, **self.said_params)


class SetupError(NarratorError):
    """The table file or the command line describes a game that cannot be played."""

    exit_code = 2


class AnswerError(NarratorError):
    """An answer (scripted or typed) does not fit the question asked."""

    exit_code = 2


class NoMoreAnswers(NarratorError):
    """Every listener has run dry while a question waits; the game stays saved."""

    exit_code = 3


class SaveError(NarratorError):
    """The disk refused a write or a read (full, read-only, permissions, a bad path)."""

    exit_code = 2


class DamagedGame(NarratorError):
    """A saved game's files cannot be trusted as they are; the line says what to do."""

    exit_code = 2


class GameBusy(NarratorError):
    """Another narrator holds the game's lock."""

    exit_code = 2


class Named:
    """A card's or role's id inside a refusal: shown as its name in the line's language
    (占い師 in Japanese, `seer` in English), by the game's names handed to `Refusal.worded`."""

    def __init__(self, vocab: str, ident: str):
        self.vocab, self.ident = vocab, str(ident)

    def __repr__(self) -> str:
        return f"Named({self.vocab!r}, {self.ident!r})"


class Refusal(SetupError):
    """A setup refusal that can be read in every language: a line key of
    `narrator/games/messages.toml` and its params, not a sentence, so a new check cannot
    forget its Japanese (tests/test_refusal_lines.py walks every key in both languages).

    Its language and the game's names are set where the table is known (`worded`: a game's
    `configure`, `build_settings`, the table file's edit); `str()` is the line in that language,
    `lines()` every language's line (what the host screen picks from by the page's language).
    A param may be a `Named` id, a list or tuple (joined with the language's separator), or
    plain text; `source` and `key` are shown as the language names them."""

    def __init__(self, key: str, /, **params: object):
        self.key, self.params = key, params
        self.lang: str | None = None
        self.names: Names | None = None
        self.written_lines: dict[str, str] = {}
        """Lines its raiser wrote out per language (`written`); a param-worded refusal has none."""
        super().__init__(key)

    @classmethod
    def written(cls, key: str, lines: dict[str, str], lang: str, source: str | None = None) -> Refusal:
        """A refusal whose lines its raiser wrote out per language (`card_names`' own, whose
        words depend on the language in ways a param cannot say), in `lang` when printed;
        `source`, the lines' own, is kept so the host screen can show them without it."""
        err = cls(key, **({"source": source} if source is not None else {}))
        err.written_lines, err.lang = dict(lines), lang
        return err

    def worded(self, lang: str | None, names: Names | None = None) -> Refusal:
        """Set the table's language and the game's names, unless an inner door already did."""
        self.lang = self.lang or lang
        self.names = self.names if self.names is not None else names
        return self

    def line(self, lang: str) -> str:
        """The line in `lang` (English where that language has none)."""
        if lang in self.written_lines:
            return self.written_lines[lang]
        table = wordings()
        words = table.get(lang, {})
        text = words.get(self.key) or table["en"][self.key]
        return text.format(**{k: shown(lang, k, v, self.names) for k, v in self.params.items()})

    def lines(self) -> dict[str, str]:
        return {lang: self.line(lang) for lang in wordings()}

    def page_lines(self) -> dict[str, str]:
        """Every language's line without its source (`テーブルファイル /home/…/table.toml: `): the
        host screen shows it beside the field it refuses, where a file's path means nothing."""
        source = self.params.get("source")
        if source is None:
            return self.lines()
        out = {}
        for lang, line in self.lines().items():
            prefix = shown(lang, "source", source) + ": "
            out[lang] = line[len(prefix):] if line.startswith(prefix) else line
        return out

    def __str__(self) -> str:
        """In the table's language; refused before the table's language was known (a flag
        checked first), in the terminal's (narrator/terminal/lines.py: the locale's, say)."""
        return self.line(self.lang or terminal_lang())


class Names(Protocol):
    """A game's names as a refusal words an id with them (`games.card_names.CardNames`): a
    Protocol, since this ground floor imports no game."""

    @property
    def words(self) -> Mapping[str, object]: ...

    def name(self, vocab: str, ident: str, lang: str) -> str: ...


MESSAGES_FILE = Path(__file__).with_name("games") / "messages.toml"
"""The refusals' wording per language: kept beside the games, whose settings it words."""


@cache
def wordings() -> dict[str, dict[str, Any]]:
    return tomllib.loads(MESSAGES_FILE.read_text(encoding="utf-8"))


def shown(lang: str, param: str, value: object, names: Names | None = None) -> str:
    """A param as a line in `lang` shows it: a `Named` id by its name there, a list joined, the
    `source` and `key` by the words of `[LANG.sources]` and `[LANG.keys]` (`cards.seer` in
    Japanese: 追加カード「占い師」)."""
    words = wordings().get(lang, {})
    if isinstance(value, Named):
        return _name(names, value.vocab, value.ident, lang)
    if isinstance(value, (list, tuple)):
        separator = words.get("list_separator") or wordings()["en"]["list_separator"]
        return separator.join(shown(lang, "", v, names) for v in value)
    text = str(value)
    if param == "source":
        for english, local in words.get("sources", {}).items():
            if text.startswith(english):
                return local + text[len(english):]
    if param == "key":
        head, dot, tail = text.partition(".")
        label = words.get("keys", {}).get(head)
        if label and dot:
            return f"{label}「{_name(names, '', tail, lang)}」"
        quote = words.get("key_quote") or "{key}"
        return label or quote.format(key=text)
    return text


def _name(names: Names | None, vocab: str, ident: str, lang: str) -> str:
    """An id's name in `lang` by the game's names (any vocabulary when none is given), else the id."""
    if lang == "en" or names is None:
        return ident
    vocabs = [vocab] if vocab else list(names.words)
    for each in vocabs:
        found = names.name(each, ident, lang)
        if found != ident:
            return found
    return ident


class worded:
    """`with worded(lang, names):` — every `Refusal` raised inside takes the table's language
    and the game's names (the innermost door wins), so the check that raises needs neither."""

    def __init__(self, lang: str | None, names: Names | None = None):
        self.lang, self.names = lang, names

    def __enter__(self) -> worded:
        return self

    def __exit__(self, kind: object, err: object, tb: object) -> None:
        if isinstance(err, Refusal):  # worded, then raised on: the door never swallows it
            err.worded(self.lang, self.names)
