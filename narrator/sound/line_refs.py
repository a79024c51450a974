"""A pack line that says another line's words: `{@label.seer}の方、顔を上げてください。`

Why: a card's name is its label line (`label.seer`, `bm.label.prophet`, `wolf.role.seer`), yet
the night calls, the card list and the countdowns said it again in their own words, so a table
that renamed a card in its own copy of a pack heard the new name in one line and the old one in
every other. A line now refers to the label by id and is resolved when the pack is loaded (after
inheritance: a child pack's label is the one every line follows), so everything downstream —
the formatter, render-ahead cache keys, the reviewed readings — sees plain words, as before.

`{@<line id>}` in `text` is the line's text; in `reading`, its reading (its text when it has
none); `{@<line id>:capital}` the same with its first letter upper-case ("Seer, open your eyes."
from `seer`). `@` never begins a placeholder (`{n}`, `{n:duration}`, `{name}` are identifiers),
and `{{@…}}` stays a literal brace as it does for the formatter. The referred line's words are
put in as written, placeholders and all; a line that refers to a line that refers on is followed.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Mapping

from narrator.errors import NarratorError

if TYPE_CHECKING:
    from narrator.sound.pack_line import Line

REFERENCE = re.compile(r"\{\{|\}\}|\{@([^{}:]+)(?::([^{}]*))?\}")
"""A brace escape (kept as it is) or a reference `{@id}` / `{@id:capital}`."""
MODIFIERS = ("capital",)
"""What may follow a reference's id after `:` (anything else is refused at load, never said)."""


def has_references(template: str) -> bool:
    return any(match.group(1) for match in REFERENCE.finditer(template))


def resolved(lines: Mapping[str, Line], pack: str, where: str, ids: Iterable[str] | None = None) -> dict[str, Line]:
    """Every line with its references replaced by the words they refer to; a reference to a
    line `lines` lacks, or a circle of references, is one line naming the pack, the line and the fix
    (`where`: the files to fix it in). `ids`: only these may hold references (a game's own lines
    merged under a pack whose lines are resolved already); the rest are kept as they are."""
    done: dict[str, Line] = {}

    def resolve(line_id: str, trail: tuple[str, ...]) -> Line:
        if line_id in done:
            return done[line_id]
        line = lines[line_id]
        if not any(has_references(t) for pair in line.wordings() for t in pair if t):
            done[line_id] = line
            return line

        def target(ref: str) -> Line:
            if ref in trail or ref == line_id:
                raise NarratorError.said("pack_ref_cycle", pack=pack, line=line_id,
                                         cycle=" → ".join((*trail, line_id, ref)[(*trail, line_id).index(ref):]),
                                         path=where)
            if ref not in lines:
                raise NarratorError.said("pack_ref_missing", pack=pack, line=line_id, ref=ref, path=where)
            return resolve(ref, (*trail, line_id))

        def words(template: str, reading: bool) -> str:
            def put(match: re.Match[str]) -> str:
                if not match.group(1):
                    return match.group(0)
                modifier = match.group(2)
                if modifier is not None and modifier not in MODIFIERS:
                    raise NarratorError.said("pack_ref_modifier", pack=pack, line=line_id, ref=match.group(0),
                                             modifiers=", ".join(MODIFIERS), path=where)
                ref = target(match.group(1).strip())
                said = ref.reading if reading and ref.reading is not None else ref.text
                return said[:1].upper() + said[1:] if modifier else said
            return REFERENCE.sub(put, template)

        def wording(text: str, reading: str | None) -> tuple[str, str | None]:
            said = words(text, False)
            # no reading of its own: the text read with each reference's reading, where that differs
            read = words(reading if reading is not None else text, True)
            return said, read if reading is not None or read != said else None

        text, reading = wording(line.text, line.reading)
        variants = tuple(wording(*variant) for variant in line.variants)
        done[line_id] = replace(line, text=text, reading=reading, variants=variants)
        return done[line_id]

    out = dict(lines)
    for line_id in lines if ids is None else ids:
        out[line_id] = resolve(line_id, ())
    return out

