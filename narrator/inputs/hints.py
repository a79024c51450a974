"""What the terminal says when a typed answer does not fit, in the game's language.

The words live in the voice pack (`[hint]` in `lines/common.toml`, shown, never spoken);
code names a hint by its key and gives its parameters. The hub and the console display
share one `Hints`, so a Japanese table reads 「はい(y) か いいえ(n) で答えてください」,
not English.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from narrator.errors import AnswerError

if TYPE_CHECKING:
    from narrator.sound.voicepack import VoicePack

KEYS = {"yes": "y", "no": "n", "done": "Enter"}
"""The keyboard key shown beside a choice word (yes → y)."""


class Hint(AnswerError):
    """An answer that does not fit, as the pack's line `hint.<key>` with its parameters."""

    def __init__(self, key: str, **params: object):
        self.key, self.params = key, params
        super().__init__(key)

    def __str__(self) -> str:  # where no pack is at hand (a scripted file's error): English
        return Hints().of(self)


class Hints:
    """The pack's hint lines, filled in; choice words in the pack's own words."""

    def __init__(self, pack: VoicePack | None = None):
        self.pack = pack if pack is not None else _english()

    def text(self, hint: str, /, **params: object) -> str:
        line = f"hint.{hint}"
        if not self.pack.has(line):
            return f"{hint} {params}" if params else hint
        return self.pack.speak(line, params).text

    def of(self, error: AnswerError) -> str:
        """The words for an error raised while parsing an answer (choices in the pack's words)."""
        if not isinstance(error, Hint):
            return str(error)
        params = {k: self.choices(v) if k == "choices" and isinstance(v, tuple) else v for k, v in error.params.items()}
        return self.text(error.key, **params)

    def word(self, choice: str) -> str:
        """A choice as the table says it: `はい(y)` for yes in Japanese, `yes (y)` in English."""
        words = (self.pack.vocabulary or {}).get(choice)
        said = (words if isinstance(words, str) else words[0]) if words else choice
        key = KEYS.get(choice)
        return self.text("choice_key", word=said, key=key) if key else said

    def choices(self, choices: Iterable[str]) -> str:
        """`yes (y) or no (n)`; `Aki, Ben or Chika`."""
        words = [self.word(c) for c in choices]
        join = self.pack.formats.get("join", ", ")
        if len(words) < 2:
            return join.join(words)
        return join.join(words[:-1]) + self.text("or") + words[-1]


def _english() -> VoicePack:
    """The bundled English pack, as `load_pack` keeps it (read again once edited; pack_cache.py)."""
    from narrator.sound.voicepack import load_pack

    return load_pack("en")
