"""The lines a game file needs from the voice packs: each checked at load time in the bundled
ja and en packs, and its Japanese ones not yet reviewed listed for one warning at play.
"""

from __future__ import annotations

from narrator.errors import SetupError
from narrator.games.kernel.engine import line
from narrator.games.kernel.model import CHOOSING, GameFile

PACKS = ("ja", "en")
"""The bundled packs every game file's lines must be in (a table's pack inherits one of them)."""


def needed_lines(spec: GameFile) -> list[tuple[str, str]]:
    """(entry, line id) of every line of its own a file needs (the shared `wolf.*` lines aside)."""
    needed = [("[game] lines", f"wolf.welcome.{spec.lines}")]
    needed += [(f"[roles.{r}]", f"wolf.{kind}.{r}") for r in spec.roles for kind in ("role", "card")]
    needed += [(f"[[steps]] '{s.id}'", line(spec, s, part)) for s in spec.steps
               for part in ("wake", "act") + (("choose",) if s.action in CHOOSING else ())]
    return needed + [(f"[[wins]] winner '{w.winner}'", f"wolf.win.{w.winner}") for w in spec.wins]


def unreviewed(spec: GameFile) -> list[str]:
    """The file's Japanese lines with kanji whose reading nobody has reviewed yet (a warning at
    the start of play: `scripts/review-readings` prints them, ready to check and add)."""
    from narrator.sound.readings import KANJI, SAMPLES, reviewed
    from narrator.sound.voicepack import load_pack, merged_under

    pack = merged_under(load_pack("ja"), (spec.own_lines or {}).get("ja", {}))
    kept = reviewed(pack)
    out = []
    for _, line_id in needed_lines(spec):
        params = {p: SAMPLES.get(p, 2) for p in pack.placeholders(line_id)}
        spoken = pack.speak(line_id, params)
        if KANJI.search(pack.kanji_words(spoken.said or spoken.text)) and line_id not in kept:
            out.append(line_id)
    return out


def check_lines(spec: GameFile) -> None:
    """An unknown line is refused at load time too: each line the file needs, in each bundled pack."""
    from narrator.sound.voicepack import load_pack, merged_under

    needed = needed_lines(spec)
    for name in PACKS:
        pack = merged_under(load_pack(name), (spec.own_lines or {}).get(name, {}))
        for entry, line_id in needed:
            if not pack.has(line_id):
                raise SetupError(f"game file {spec.path}: {entry}: the {name} pack has no line '{line_id}'; add it to "
                                 f"the file's [lines.{name}] (or voices/{name}/lines/wolf.toml, docs/game-files.md)")
