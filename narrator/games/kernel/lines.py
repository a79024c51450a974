"""The lines a game file needs from the voice packs, each with the placeholders the narrator
fills in it. Checked at load time: every line in at least one bundled language (a file may
carry its own lines in ja, en or both), and in each language that has them all, no
placeholder the narrator would not fill (it would stop the game mid-sentence). Which
languages have them all is kept on the file, so a table in another is refused at configure
time; its Japanese ones not yet reviewed are listed for one warning at play.
"""

from __future__ import annotations

import string
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from narrator.errors import SetupError
from narrator.games.kernel.calls import line
from narrator.games.kernel.model import CHOOSING, GameFile

if TYPE_CHECKING:  # the packs are loaded where a file's lines are checked
    from narrator.sound.pack_line import Line
    from narrator.sound.voicepack import VoicePack

PACKS = ("ja", "en")
"""The bundled packs a game file's lines are looked for in (a table's pack inherits one of them)."""
FILLED = {"welcome": ("players",), "card": ("n",)}
"""What the narrator fills in each kind of a file's own lines: the welcome its players
(`engine._start`), a card line its count (`engine.box`'s `:counted`: 「人狼2枚」). A role's
name, a call's lines and a win line are said with nothing to fill (a role's name stands
alone in the history and on the host screen too)."""
MEANING = {"players": "the number of players", "n": "the number of cards"}
SAMPLE = {"players": 5, "n": 2}


class Needed(NamedTuple):
    entry: str
    """The file's entry that needs it, for the refusal (`[roles.bard]`)."""
    line: str
    params: tuple[str, ...]
    """The placeholders the narrator fills in it (`FILLED`)."""


def needed_lines(spec: GameFile) -> list[Needed]:
    """Every line of its own a file needs (the shared `wolf.*` lines aside), with what it may fill."""
    needed = [Needed("[game] lines", f"wolf.welcome.{spec.lines}", FILLED["welcome"])]
    needed += [Needed(f"[roles.{r}]", f"wolf.{kind}.{r}", FILLED.get(kind, ())) for r in spec.roles
               for kind in ("role", "card")]
    needed += [Needed(f"[[steps]] '{s.id}'", line(spec, s, part), ()) for s in spec.steps
               for part in ("wake", "act") + (("choose",) if s.action in CHOOSING else ())]
    return needed + [Needed(f"[[wins]] winner '{w.winner}'", f"wolf.win.{w.winner}", ()) for w in spec.wins]


def unreviewed(spec: GameFile) -> list[str]:
    """The file's Japanese lines with kanji whose reading nobody has reviewed yet (a warning at
    the start of play: `scripts/review-readings` prints them, ready to check and add)."""
    from narrator.sound.readings import KANJI, SAMPLES, reviewed
    from narrator.sound.voicepack import load_pack, merged_under

    pack = merged_under(load_pack("ja"), (spec.own_lines or {}).get("ja", {}))
    kept = reviewed(pack)
    out = []
    for _, line_id, _ in needed_lines(spec):
        if not pack.has(line_id):  # a file of English lines only: no Japanese to review
            continue
        params = {p: SAMPLES.get(p, 2) for p in pack.placeholders(line_id)}
        spoken = pack.speak(line_id, params)
        if KANJI.search(pack.kanji_words(spoken.said or spoken.text)) and line_id not in kept:
            out.append(line_id)
    return out


def check_lines(spec: GameFile) -> GameFile:
    """`spec` with the languages it lacks a line in (`GameFile.lines_missing`); refused in one
    line when it lacks one in every language, or has a placeholder the narrator does not fill."""
    from narrator.sound.voicepack import load_pack, merged_under

    needed = needed_lines(spec)
    missing: dict[str, list[Needed]] = {}
    for lang in PACKS:
        bundled = load_pack(lang)
        pack = merged_under(bundled, (spec.own_lines or {}).get(lang, {}))
        missing[lang] = [n for n in needed if not pack.has(n.line)]
        if not missing[lang]:
            for each in needed:
                _fills(spec, pack, lang, each, bundled.has(each.line))
    if all(missing.values()):
        lang = min(PACKS, key=lambda lang: len(missing[lang]))  # the language nearest to having them all
        raise _missing(spec, lang, missing[lang][0])
    return replace(spec, lines_missing={lang: (m[0].entry, m[0].line) for lang, m in missing.items() if m})


def _missing(spec: GameFile, lang: str, needed: Needed) -> SetupError:
    why = ", the line a new team's win is said with" if needed.line.startswith("wolf.win.") else ""
    return SetupError(f"game file {spec.path}: {needed.entry}: the {lang} pack has no line '{needed.line}'{why}; add "
                      f"it to the file's [lines.{lang}] (or voices/{lang}/lines/wolf.toml; a file needs all its lines "
                      f"in ja or en at least, docs/game-files.md)")


def _fills(spec: GameFile, pack: VoicePack, lang: str, needed: Needed, bundled: bool) -> None:
    """A placeholder the narrator does not fill would stop the game when the line is said: each
    is one that it fills, and the line can be written with them (no `{}`, no bad format)."""
    where = f"voices/{lang}/lines/wolf.toml" if bundled else f"the file's [lines.{lang}]"
    head = f"game file {spec.path}: {needed.entry}: the {lang} line '{needed.line}' in {where}"
    filled = " or ".join(f"{{{p}}} ({MEANING[p]})" for p in needed.params)
    unknown = sorted(_fields(pack.lines[needed.line]) - set(needed.params))
    if unknown:
        fix = f"write {filled} instead" if filled else "drop it: this line is said with none"
        raise SetupError(f"{head} has {{{unknown[0]}}}, which the narrator does not fill; {fix}")
    for variant in range(len(pack.lines[needed.line].wordings())):
        try:
            pack.speak(needed.line, {p: SAMPLE[p] for p in needed.params}, variant)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError) as err:
            fix = f"its placeholders may be {filled} only" if filled else "drop its placeholders: this line is said with none"
            raise SetupError(f"{head} cannot be filled ({type(err).__name__}: {err}); {fix}") from None


def _fields(line: Line) -> set[str]:
    """The placeholders of a line's every wording, as written: `{}` and `{0}` too (a pack's
    `placeholders` leaves a nameless one out, and the narrator fills none by position)."""
    return {name for text in (t for pair in line.wordings() for t in pair if t)
            for _, name, _, _ in string.Formatter().parse(text) if name is not None}
