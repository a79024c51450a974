"""A card's name is the one the narrator says: its label line in the voice packs.

Why here and not in each game's data: a card's Japanese name used to be written twice, in the
game's `[names]` (what a table may type) and in the pack's label line (what the narrator says
and the phones show), so renaming a card in the pack left the table typing the old name. Now
the label line — `label.<id>` (Additional Werewolf), `bm.label.<id>` (Bestia Magica),
`wolf.role.<id>` (a game file, its own `[lines.<lang>]` beneath the pack) — gives each id its
name per language, its text and its kana reading; the game's data holds only the *other* words
a table may also type (`card_names.CardNames.spoken`). An id whose line a pack lacks (a game
file's role with lines in one language only) has no name there: its id and its other words.

The bundled packs are read (`ja`, `en`: a table's own pack of that name in its home folder
first, as everywhere) by `load_pack`, once per process while their files are unchanged
(`narrator/sound/pack_cache.py`): an edited pack gives its new names at the next game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from narrator.errors import NarratorError
from narrator.games.card_names import CardNames, fold

if TYPE_CHECKING:
    from narrator.sound.voicepack import VoicePack

PACKS = ("ja", "en")
"""The bundled packs a card's name is read from: the languages a table may type names in."""


def spoken_names(label: Callable[[str], str], ids: Iterable[str],
                 own_lines: Mapping[str, Mapping[str, object]] | None = None) -> dict[str, dict[str, tuple[str, ...]]]:
    """`{id: {lang: (text, reading)}}`: each id's label line (`label(id)`) as each bundled pack
    says it, with `own_lines[lang]` (a game file's own lines) beneath the pack's; the reading
    only where it is another word than the text (`占い師`, `うらないし`; `ソーレ` alone)."""
    ids = tuple(ids)
    names: dict[str, dict[str, tuple[str, ...]]] = {ident: {} for ident in ids}
    for lang in PACKS:
        pack = _with_own(lang, (own_lines or {}).get(lang, {}))
        if pack is None:
            continue
        for ident in ids:
            said = _said(pack, label(ident))
            if said:
                names[ident][lang] = said
    return names


def definition_names(definition: Mapping[str, object], label: Callable[[str], str]) -> CardNames:
    """A seed game's names from its definition.toml: each vocabulary of `[names]` (`roles`,
    `cards`, …) names the ids of the definition's table of that name, each called by its label
    line (`label(id)`) first, then by the extra words `[names.VOCAB]` gives it."""
    extra = definition.get("names", {})
    extra = extra if isinstance(extra, Mapping) else {}
    said = {}
    for vocab in extra:
        ids = definition.get(vocab, {})
        said[str(vocab)] = spoken_names(label, ids if isinstance(ids, Mapping) else ())
    return CardNames.spoken(extra, said)


def _said(pack: VoicePack, line_id: str) -> tuple[str, ...]:
    """A label line's text and reading as names; none for a line the pack lacks or one with a
    placeholder (it is no name: the narrator fills it in)."""
    line = pack.lines.get(line_id)
    if line is None:
        return ()
    words: dict[str, str] = {}
    for word in (line.text, line.reading or ""):
        if word.strip() and "{" not in word:
            words.setdefault(fold(word), word.strip())
    return tuple(words.values())


def _with_own(lang: str, own: Mapping[str, object]) -> VoicePack | None:
    """The `lang` pack with a game's own lines beneath; None when it cannot be read (a table's
    broken pack of that name): its names are then the ids and the other words alone, and the
    pack's one-line error comes where a table plays with it, not in a game that never says it."""
    from narrator.sound.voicepack import load_pack, merged_under

    try:
        return merged_under(load_pack(lang), own)
    except NarratorError:
        return None
