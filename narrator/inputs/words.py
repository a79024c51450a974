"""Words: what a listener's raw text means (yes, no, done, a player …) for the open question.

The vocabulary maps words to meanings; the ASCII keys work in every language, and each
voice pack adds its own words (hai, owarimashita … in the ja pack). `parse_answer` reads one reply
against one question and says what would fit when it does not.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Mapping

import jaconv

from narrator.cues import Ask, Request
from narrator.inputs.hints import Hint
from narrator.values.names import ASCII_VOCABULARY

COMMANDS = ("done", "repeat", "pause", "resume", "undo", "help")


class Vocabulary:
    """Maps what a listener heard or read to canonical words (yes, no, done, …)."""

    def __init__(self, extra: Mapping[str, Any] | None = None):
        self.readings: dict[str, str] = {}
        """Each player's name → its reading (「心愛」 → 「ここあ」): typed readings name the player."""
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
    """Full-width letters and digits as ASCII (ｙ → y, １ → 1), no end punctuation, any case."""
    return unicodedata.normalize("NFKC", text).strip().strip("。.!！?？").casefold()


def name_form(text: str) -> str:
    """How a typed name is compared: normalized, katakana as hiragana (アキ = あき)."""
    return jaconv.kata2hira(_norm(text))


def parse_answer(ask: Ask, text: str, vocabulary: Vocabulary) -> str | list[str]:
    """The answer `text` gives to `ask`, or raise AnswerError with what would fit.

    A word whose vocabulary meaning is one of the choices is that choice, so a question
    may offer `done` beside words (Enter or 「終わりました」 still mean done).
    """
    meaning = vocabulary.meaning(text)
    if meaning is not None and meaning in ask.choices:
        return meaning
    if ask.choices == ("done",):
        raise Hint("done_when_ready")
    if set(ask.choices) <= {"yes", "no"}:
        raise Hint("not_an_answer", text=text.strip(), choices=tuple(ask.choices))
    return _parse_names(ask, text, vocabulary)


def _parse_names(ask: Ask, text: str, vocabulary: Vocabulary | None = None) -> str | list[str]:
    """Names (or their numbers) separated by commas: as written, in hiragana or katakana,
    by their reading, or full-width (１ = 1)."""
    text = unicodedata.normalize("NFKC", text)
    parts = [p.strip() for p in text.replace("、", ",").split(",") if p.strip()]
    readings = vocabulary.readings if vocabulary is not None else {}
    by_name = {name_form(c): c for c in ask.choices}
    for known, reading in readings.items():
        if known in ask.choices:
            by_name.setdefault(name_form(reading), known)
    chosen: list[str] = []
    for part in parts:
        name: str | None = by_name.get(name_form(part))
        if name is None and part.isdigit() and 1 <= int(part) <= len(ask.choices):
            name = ask.choices[int(part) - 1]
        if name is None:
            raise Hint("not_a_choice" if "done" in ask.choices else "not_a_player", text=part,
                       choices=tuple(ask.choices))
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise Hint("name_a_player", choices=tuple(ask.choices))
    if not ask.multiple and len(chosen) > 1:
        raise Hint("one_player")
    if ask.multiple and ask.most and len(chosen) > ask.most:
        raise Hint("at_most", most=ask.most)
    return chosen if ask.multiple else chosen[0]


def parse_private(request: Request, text: str, vocabulary: Vocabulary) -> dict[str, Any]:
    """Pass-the-device: typed "Ben y" / "2 n" (memo) or "Ben" (vote) as `request`'s answer."""
    words = unicodedata.normalize("NFKC", text).replace("、", " ").replace(",", " ").split()
    answer: dict[str, Any] = {}
    if request.ability:
        if len(words) < 2 or vocabulary.meaning(words[-1]) not in ("yes", "no"):
            raise Hint("memo")
        answer["ability"] = vocabulary.meaning(words[-1]) == "yes"
        words = words[:-1]
    answer[request.key] = _parse_names(Ask(request.line, request.choices), " ".join(words), vocabulary)
    return answer
