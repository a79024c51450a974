"""The natural voice at a first game: how long the table waits for its names.

After `narrator voices render ja-natural` (every fixed line and the words around names are in
the cache), a new table's names are all that is left. This measures, with the real Kokoro
engine and a loaded model, Additional Werewolf with 5 new names:

- names apart (the narrator's way): each name in its two forms (「太郎」, 「太郎さん」), as
  a game start renders them; wall time, engine runs, and the estimate the narrator would
  announce (from the speed measured while rendering the lines' own words, untimed, first:
  what `voices render` leaves behind);
- naive: every line of the game that names someone, rendered whole with its names (each
  nominee and each pair of nominees: 15 lines for 5 names).
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
    named = rules.configure(build_settings({}, {"game": "additional-werewolf", "names": NAMES}, "bench"))
    # the lines that name someone (what a game start has to render for a new table)
    requests = [(line, params) for line, params in game_requests(rules, named)
                if any(isinstance(v, (str, list)) for v in params.values())]
    for apart in (True, False):
        cache = Path(tempfile.mkdtemp(prefix="kokoro-names-"))
        engine = Counting(kokoro, apart)
        voice = EngineVoice(pack, engine, cache_dir=cache)
        if apart:
            todo = name_clips.missing(voice, requests, named.names)
            voice.prepare_pieces([p for p in todo if not p.name])  # what `voices render` leaves behind
            todo = [p for p in todo if p.name]
            estimate = name_clips.estimate_seconds(voice, todo)
        engine.runs = 0
        started = time.monotonic()
        if apart:
            voice.prepare_pieces(todo)
        else:
            voice.prepare(requests)
        took = time.monotonic() - started
        way = "names apart" if apart else "naive (each line with its names, whole)"
        print(f"{way}: {took:.1f} s for 5 new names ({len(requests)} lines name them), {engine.runs} engine runs"
              + (f"; estimated beforehand {estimate:.0f} s ({name_clips.notice_line(estimate)})" if apart else ""),
              flush=True)


if __name__ == "__main__":
    main()
