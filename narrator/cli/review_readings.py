"""`scripts/review-readings`: the pack's lines and every game's own lines (a shipped game
file's `[lines.ja]`), read by Open JTalk and printed for review.

On the CLI floor because it needs the games (the sound floor never names one): a role added to
a shipped game file keeps its lines in the file, and their readings are reviewed in the pack's
`readings.toml` like any other line (docs/extending.md).
"""

from __future__ import annotations

import sys

from narrator.games import game_names, get_game
from narrator.sound import readings
from narrator.sound.voicepack import VoicePack, merged_under


def with_games_lines(pack: VoicePack) -> VoicePack:
    """`pack` with every game's own lines in its language merged under its own."""
    for name in game_names():
        own = get_game(name).lines
        if own is not None:
            pack = merged_under(pack, own(pack.lang))
    return pack


if __name__ == "__main__":
    sys.exit(readings.main(sys.argv[1:], widen=with_games_lines))
