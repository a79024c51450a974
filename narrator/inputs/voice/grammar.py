"""What the narrator may hear right now: a small grammar per question.

Small grammars are what make offline recognition usable on a Pi, and they are also its
danger: speech outside the grammar is forced onto a grammar word. So the grammar holds
only what can be answered now (the question's choices, the players' names it asks for,
and the always-on commands), and every phrase maps back to exactly one meaning.

Phrases come from the voice pack: `[listening.phrases]` in `voice.toml` when the pack
spells words the way its model does, else the `[vocabulary]` words. A phrase may have
several words separated by spaces (the recognizer's own words).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from narrator import home
from narrator.cues import Ask
from narrator.inputs.words import COMMANDS  # the words every table has, one source

TABLE_WORDS = ("release_host",)
"""Heard at any moment where the pack spells them (the hub's `table_actions`, asked back first)."""


def _norm(phrase: str) -> str:
    return " ".join(phrase.casefold().split())


@dataclass(frozen=True)
class Grammar:
    """The phrases a recognizer may hear, each with the word it means for the hub."""

    meanings: Mapping[str, str]
    """normalized phrase → canonical word (yes, no, done, repeat, … or a player's name)."""
    names: frozenset[str] = frozenset()
    """The canonical words that are players' names (several make one answer)."""

    @property
    def phrases(self) -> list[str]:
        return list(self.meanings)

    def read(self, text: str) -> str | None:
        """The hub's word for what was heard, or None when it does not parse cleanly.

        A run of several names ("aki ben") is one answer "aki,ben"; a run that mixes
        meanings ("yes no") is refused rather than guessed.
        """
        tokens = _norm(text).split()
        found: list[str] = []
        i = 0
        while i < len(tokens):
            for j in range(len(tokens), i, -1):
                meaning = self.meanings.get(" ".join(tokens[i:j]))
                if meaning is not None:
                    found.append(meaning)
                    i = j
                    break
            else:
                return None
        unique = list(dict.fromkeys(found))
        if len(unique) == 1:
            return unique[0]
        if unique and all(m in self.names for m in unique):
            return ",".join(unique)
        return None


class PhraseBook:
    """Per-language phrases for each meaning, and spoken forms of the players' names."""

    def __init__(self, phrases: Mapping[str, Sequence[str]], names: Mapping[str, Sequence[str]] | None = None,
                 declared: Sequence[str] = ()):
        self.phrases = {m: [p for p in ps if p.strip()] for m, ps in phrases.items()}
        self.names = dict(names or {})
        self.declared = tuple(declared)
        """Meanings the pack spells for the recognizer (`[listening.phrases]`): checked at start."""

    @classmethod
    def from_pack(cls, pack: object, names: Iterable[str] = (), readings: Mapping[str, Any] | None = None) -> PhraseBook:
        """Phrases from a voice pack (its `[listening.phrases]`, else `[vocabulary]`)."""
        listening = _listening_table(pack)
        vocabulary = dict(getattr(pack, "vocabulary", {}) or {})
        chosen: dict[str, list[str]] = {}
        for meaning in set(vocabulary) | set(listening.get("phrases", {})) | set(COMMANDS) | {"yes", "no"}:
            words = listening.get("phrases", {}).get(meaning, vocabulary.get(meaning, []))
            chosen[meaning] = [words] if isinstance(words, str) else list(words)
        spoken = {}
        for name in names:
            reading = (readings or {}).get(name, name)
            spoken[name] = [reading] if isinstance(reading, str) else list(reading)
        return cls(chosen, spoken, tuple(listening.get("phrases", {})))

    def grammar(self, ask: Ask | None, also: tuple[str, ...] = ()) -> Grammar:
        """The grammar for `ask` (None: between questions, commands only), with the words `also`."""
        meanings: dict[str, str] = {}
        wanted = [*COMMANDS, *TABLE_WORDS, *also]
        names: list[str] = []
        if ask is not None:
            for choice in ask.choices:  # a word of the vocabulary (yes, innocent …), else a name
                (wanted if choice in self.phrases else names).append(choice)
        for meaning in wanted:
            for phrase in self.phrases.get(meaning, []):
                meanings.setdefault(_norm(phrase), meaning)
        for name in names:
            for phrase in self.names.get(name, [name]):
                meanings.setdefault(_norm(phrase), name)
        return Grammar(meanings, frozenset(names))

    def every_phrase(self) -> list[str]:
        """The phrases checked against the model at start: yes/no, commands, the pack's
        `[listening.phrases]` and the names. A game's own answer words that the pack does not
        spell for the recognizer are checked when a question needs them (VoiceListener)."""
        meanings = dict.fromkeys(["yes", "no", *COMMANDS, *self.declared])
        out = [p for m in meanings for p in self.phrases.get(m, [])]
        out += [p for spoken in self.names.values() for p in spoken]
        return list(dict.fromkeys(out))


def _listening_table(pack: object) -> dict[str, Any]:
    """`[listening]` of the pack's voice.toml (read here so the pack loader stays as it is)."""
    path = getattr(pack, "path", None)
    if path is None or not (path / "voice.toml").is_file():
        return {}
    try:  # a user's pack is a file in the home: read bounded, a FIFO or a device refused
        raw = home.read_bounded(path / "voice.toml")
        table = tomllib.loads(raw.decode("utf-8")) if raw is not None else {}
    except (OSError, ValueError, RecursionError):  # the pack's loader names a damaged voice.toml
        return {}
    listening = table.get("listening", {})
    return listening if isinstance(listening, dict) else {}
