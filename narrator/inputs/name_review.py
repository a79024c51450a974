"""At setup the host hears nothing yet: the terminal shows how each name will be read, and
takes corrections (`心愛:ここあ`, or `2:ここあ` by seat number) before the game starts.

Only readings the table gave or the host typed are kept (with the saved game, for resume);
the rest (kana as written, romaji as katakana, kanji as Open JTalk reads them) are worked
out again at each sitting by `narrator.sound.names`.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Callable, Mapping, Sequence

from narrator.inputs.hints import Hints
from narrator.sound.names import openjtalk_analysis, spoken_readings
from narrator.sound.voicepack import VoicePack


def review_readings(names: Sequence[str], given: Mapping[str, Any] | None, pack: VoicePack,
                    ask: Callable[[str], str] | None, show: Callable[[str], None],
                    analyse: Callable[[str], str] | None = None) -> dict[str, Any]:
    """Show each name's reading; with `ask` (a keyboard), take `name:reading` lines until an
    empty one. Returns the readings to keep: those given, with the host's corrections."""
    hints = Hints(pack)
    kept = dict(given or {})
    if analyse is None:
        analyse = openjtalk_analysis()
    while True:
        current = spoken_readings(pack, names, kept, analyse)  # default seats too: P1 → イチバン
        show(hints.text("names_intro"))
        for seat, name in enumerate(names, 1):
            show(f"  {seat}. {name} → {current[name]}")
        if ask is None:
            return kept
        show(hints.text("names_correct"))
        try:
            typed = unicodedata.normalize("NFKC", ask("> ")).strip()
        except EOFError:
            return kept
        if not typed:
            return kept
        who, _, reading = typed.partition(":")
        player = _player(names, who.strip())
        if player is None or not reading.strip():
            show(hints.text("names_bad", text=typed))
            continue
        kept[player] = reading.strip()


def _player(names: Sequence[str], who: str) -> str | None:
    if who.isdigit() and 1 <= int(who) <= len(names):
        return names[int(who) - 1]
    return next((n for n in names if n.casefold() == who.casefold()), None)
