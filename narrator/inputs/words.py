"""Words: what a listener's raw text means (yes, no, done, a player …) for the open question.

The vocabulary maps words to meanings; the ASCII keys work in every language, and each
voice pack adds its own words (hai, owarimashita … in the ja pack). `parse_answer` reads one reply
against one question and says what would fit when it does not.
"""

from __future__ import annotations

from typing import Any, Mapping

from narrator.cues import Ask
from narrator.errors import AnswerError

COMMANDS = ("done", "repeat", "pause", "resume", "undo", "help")
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


class Vocabulary:
    """Maps what a listener heard or read to canonical words (yes, no, done, …)."""

    def __init__(self, extra: Mapping[str, Any] | None = None):
        self._words: dict[str, str] = {}
        for meaning, words in ASCII_VOCABULARY.items():
            for w in words:
                self._words[w] = meaning
        for meaning, words in (extra or {}).items():
            for w in ([words] if isinstance(words, str) else words):
                self._words[_norm(w)] = meaning

    def meaning(self, text: str) -> str | None:
        return self._words.get(_norm(text))


def _norm(text: str) -> str:
    return text.strip().strip("。.!！?？").casefold()


def parse_answer(ask: Ask, text: str, vocabulary: Vocabulary) -> Any:
    """The answer `text` gives to `ask`, or raise AnswerError with what would fit.

    A word whose vocabulary meaning is one of the choices is that choice, so a question
    may offer `done` beside words (Enter or 「終わりました」 still mean done).
    """
    meaning = vocabulary.meaning(text)
    if meaning is not None and meaning in ask.choices:
        return meaning
    if ask.choices == ("done",):
        if vocabulary.meaning(text) == "done":
            return "done"
        raise AnswerError("say or type done when ready (Enter on the keyboard)")
    if set(ask.choices) <= {"yes", "no"}:
        meaning = vocabulary.meaning(text)
        if meaning in ask.choices:
            return meaning
        raise AnswerError(f"'{text.strip()}' is not an answer here; answer {' or '.join(ask.choices)}")
    return _parse_names(ask, text)


def _parse_names(ask: Ask, text: str) -> Any:
    parts = [p.strip() for p in text.replace("、", ",").split(",") if p.strip()]
    by_name = {c.casefold(): c for c in ask.choices}
    chosen: list[str] = []
    for part in parts:
        name = by_name.get(part.casefold())
        if name is None and part.isdigit() and 1 <= int(part) <= len(ask.choices):
            name = ask.choices[int(part) - 1]
        if name is None:
            what = "an answer" if "done" in ask.choices else "a player"
            raise AnswerError(f"'{part}' is not {what} here; choose from {', '.join(ask.choices)}")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise AnswerError(f"name a player: {', '.join(ask.choices)}")
    if not ask.multiple and len(chosen) > 1:
        raise AnswerError("name one player only")
    return chosen if ask.multiple else chosen[0]
