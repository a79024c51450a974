"""The natural voice at a first game: how long the table waits for its names.

After `narrator voices render ja-natural` (every fixed line and the words around names are in
the cache), a new table's names are all that is left. This measures, with the real Kokoro
engine and a loaded model, Additional Werewolf with 5 new names:

- names apart (the narrator's way): the game start's `prepare_voice` renders each name in
  its two forms (「太郎」, 「太郎さん」) and says how long first; wall time, engine runs,
  and the estimate it announced against the time it took;
- naive: the same game start with names_apart off renders every line that names someone,
  whole (each nominee and each pair of nominees: 15 lines for 5 names).

The words of those lines are rendered first, untimed (what `voices render` leaves behind).
Run: `.venv/bin/python bench/kokoro_names.py` (a few minutes on a loaded 2-core PC).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts the repository on sys.path)

from narrator.games import get_game
from narrator.settings import build_settings
from narrator.sound import name_clips
from narrator.sound.engines import load_tts
from narrator.sound.render_ahead import game_requests
from narrator.sound.voice import EngineVoice
from narrator.sound.voicepack import load_pack
from narrator.table.session import prepare_voice

NAMES = "太郎,花子,健,美咲,翔"


class Counting:
    """The real engine, counting its runs; `names_apart` can be switched off (the naive way)."""

    def __init__(self, engine, names_apart: bool):
        self.engine, self.name, self.reads_kanji, self.names_apart = engine, engine.name, True, names_apart
        self.runs = 0

    @property
    def loaded(self):
        return self.engine.loaded

    @property
    def load_seconds(self):
        return self.engine.load_seconds

    def render(self, text, out, voice):
        self.runs += 1
        self.engine.render(text, out, voice)


def main() -> None:
    pack = load_pack("ja-natural")
    kokoro = load_tts("kokoro")
    kokoro.load()
    rules = get_game("additional-werewolf")
    base = rules.configure(build_settings({}, {"game": "additional-werewolf", "players": 5}, "bench"))
    named = rules.configure(build_settings({}, {"game": "additional-werewolf", "names": NAMES}, "bench"))
    for apart in (True, False):
        cache = Path(tempfile.mkdtemp(prefix="kokoro-names-"))
        engine = Counting(kokoro, apart)
        voice = EngineVoice(pack, engine, cache_dir=cache)
        # what `voices render ja-natural` leaves: the game's fixed lines, the words around names
        voice.prepare(game_requests(rules, base))
        todo = name_clips.missing(voice, game_requests(rules, named), named.names)
        voice.prepare_pieces([p for p in todo if not p.name])  # only this game's lines: the rest is alike
        notice = name_clips.notice_line(name_clips.estimate_seconds(voice, [p for p in todo if p.name]))
        if apart:
            voice.clip(notice)
        engine.runs = 0
        started = time.monotonic()
        prepare_voice(voice, rules, named)
        took = time.monotonic() - started
        way = "names apart" if apart else "naive (whole lines)"
        print(f"{way}: {took:.1f} s for a first game with 5 new names, {engine.runs} engine runs"
              + (f"; announced {notice}" if apart else ""), flush=True)


if __name__ == "__main__":
    main()
