"""The names a table may type for a game's cards and roles, in every language it declares.

A Japanese table writes 占い師, not `seer`: in the table file (`[cards] 占い師 = 1`), in a flag
(`--cards "占い師=1,香具師=1"`, `--night-order`, `--countdowns "占い師=20"`) and in
`narrator config set countdowns.占い師 20`. A card's name is the one the narrator says: its
label line in the voice packs, text and reading (`spoken_names`), so renaming a card in the
pack renames what a table types; a game adds only the *other* words a table may also type, per
vocabulary (its cards, its roles) and per language, in `[names]` of its definition.toml
(`CardNames.spoken`), and marks the settings whose values name them (`names`, `names_at` of a
`Setting`). `translate` is the one normaliser every game's `configure` calls first: it turns
each name into its id, so the game's own checks, its config and the saved game see ids only.
A word it does not know is refused here, in one line naming the word and the nearest name, in
the table's language (the wording lives in `messages.toml`, not in code).

The rules kernel's game files hand their names over the same way: each role's `wolf.role.<id>`
line (the file's own lines beneath the packs'), then its `aliases`, as
`CardNames({"roles": {id: role.names}}, {"roles": {"en": "role", "ja": "役職"}})`.

Words are compared folded (`fold`): full-width as ASCII, any case, katakana as hiragana,
spaces and hyphens as `_`; so `ウラナイシ`, `うらないし`, `占い師` and `SEER` all mean `seer`.
"""

from __future__ import annotations

import difflib
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Callable, Mapping

from narrator.errors import Refusal, shown
from narrator.settings import Setting
from narrator.values.readers import split_items

MESSAGES_FILE = Path(__file__).with_name("messages.toml")
LANGS = ("en", "ja")
"""The languages a refusal is written in (the page picks its own)."""
KIND = "kind"
"""The key of a vocabulary's `[names.VOCAB]` table that says what one of it is called."""


@cache
def messages() -> dict[str, dict[str, str]]:
    """The setup errors' wording per language (`messages.toml`)."""
    return tomllib.loads(MESSAGES_FILE.read_text(encoding="utf-8"))


def message(lang: str, line: str, **params: object) -> str:
    """One line of `messages.toml` in `lang` (English when the language has none)."""
    table = messages()
    text = table.get(lang, {}).get(line) or table["en"][line]
    return text.format(**params)


def fold(word: str) -> str:
    """A name as names are compared: NFKC, any case, katakana as hiragana, ` `/`-` as `_`."""
    text = unicodedata.normalize("NFKC", str(word)).strip().casefold()
    text = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)
    return "_".join(text.replace("-", " ").split())


@dataclass(frozen=True, eq=False)
class CardNames:
    """A game's names: `words[vocab][id][lang]` = the names a table may type for that id (the
    first is the one the game's rule text uses), `kinds[vocab][lang]` = what one is called."""

    words: Mapping[str, Mapping[str, Mapping[str, tuple[str, ...]]]] = field(default_factory=dict)
    kinds: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def spoken(cls, table: Mapping[str, object],
               said: Mapping[str, Mapping[str, Mapping[str, tuple[str, ...]]]]) -> CardNames:
        """A game's names: each id's name as the narrator says it first (`said[vocab][id][lang]`,
        the packs' label lines: `spoken_names.spoken_names`), then the other words a table may
        also type, from `[names.VOCAB]` of its definition.toml (`traitor = { ja = ["裏切者"] }`;
        a string is one word), and `kind = { en = …, ja = … }`: what one of the vocabulary is
        called. An id there that the game does not have is a slip in the data, refused."""
        words: dict[str, dict[str, dict[str, tuple[str, ...]]]] = {}
        kinds: dict[str, dict[str, str]] = {}
        for vocab, ids in said.items():
            entries = table.get(vocab, {})
            entries = entries if isinstance(entries, Mapping) else {}
            unknown = sorted(set(entries) - set(ids) - {KIND})
            if unknown:
                raise Refusal("names_unknown_id", vocab=vocab, word=unknown[0], known=list(ids))
            kind = entries.get(KIND, {})
            kinds[vocab] = {str(k): str(v) for k, v in kind.items()} if isinstance(kind, Mapping) else {}
            words[vocab] = {ident: joined(by_lang, _words(entries.get(ident))) for ident, by_lang in ids.items()}
        return cls(words, kinds)

    def ids(self, vocab: str) -> tuple[str, ...]:
        return tuple(self.words.get(vocab, {}))

    def name(self, vocab: str, ident: str, lang: str) -> str:
        """The id's name in `lang` (the rule text's), else the id itself."""
        names = self.words.get(vocab, {}).get(ident, {}).get(lang)
        return names[0] if names else ident

    def kind(self, vocab: str, lang: str) -> str:
        kinds = self.kinds.get(vocab, {})
        return kinds.get(lang) or kinds.get("en") or vocab

    def lookup(self, vocab: str, word: str) -> str | None:
        """The id a typed word names (an id, or a name in any language), or None."""
        return _index(self, vocab).get(fold(word))

    def nearest(self, vocab: str, word: str) -> str | None:
        """The id whose id or name is closest to a word that names none (a typo, 「占い」)."""
        index = _index(self, vocab)
        close = difflib.get_close_matches(fold(word), list(index), n=1, cutoff=0.5)
        return index[close[0]] if close else None


def joined(first: Mapping[str, tuple[str, ...]], then: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Names per language: `first`'s (the said name), then `then`'s (the other words), each once."""
    return {lang: tuple(dict.fromkeys((*first.get(lang, ()), *then.get(lang, ())))) for lang in {**first, **then}}


def _words(spec: object) -> dict[str, tuple[str, ...]]:
    """`{ ja = ["裏切者"], en = "minion" }` of a definition.toml: the words per language."""
    if not isinstance(spec, Mapping):
        return {}
    return {str(lang): (names,) if isinstance(names, str) else tuple(str(n) for n in names)
            for lang, names in spec.items() if isinstance(names, (str, list, tuple))}


@cache
def _index(names: CardNames, vocab: str) -> dict[str, str]:
    index: dict[str, str] = {}
    for ident, by_lang in names.words.get(vocab, {}).items():
        index[fold(ident)] = ident
        for spelled in by_lang.values():
            index.update({fold(word): ident for word in spelled})
    return index


class Translator:
    """Names → ids for one table: its game's names, its language and where it came from."""

    def __init__(self, names: CardNames, lang: str, source: str):
        self.names, self.lang, self.source = names, lang, source

    def word(self, vocab: str, word: str, key: str) -> str:
        """The id `word` names; an unknown word is one line with the nearest name. A word typed
        in the table's language gets the line in that language; an ASCII one (an id mistyped)
        the English line, which the ids are written in."""
        word = str(word).strip()
        found = self.names.lookup(vocab, word)
        if found is not None:
            return found
        close = self.names.nearest(vocab, word)

        def line(lang: str) -> str:
            hint = message(lang, "did_you_mean", name=self._shown(vocab, close, lang)) if close else ""
            known = message(lang, "list_separator").join(self._shown(vocab, i, lang) for i in self.names.ids(vocab))
            return message(lang, "unknown_name", source=shown(lang, "source", self.source), key=_key(lang, key),
                           word=self._word(word, lang), kind=self.names.kind(vocab, lang), hint=hint, known=known)

        raise Refusal.written("unknown_name", {lang: line(lang) for lang in LANGS},
                              self.lang if not word.isascii() else "en", self.source)

    def _word(self, word: str, lang: str) -> str:
        """A refused word as a line in `lang` shows it: an id of another of the game's lists
        (`citizen`, a role typed where a card goes) by its name there (市民), else as typed."""
        if lang == "en":
            return word
        for vocab, entries in self.names.words.items():
            if word in entries:
                return self.names.name(vocab, word, lang)
        return word

    def _shown(self, vocab: str, ident: str, lang: str) -> str:
        """An id as a line in `lang` names it: its name there; an English line in a Japanese
        table gives the id with the table's own name beside it, `seer (占い師)` (an English one
        too where it is another word: `S (Sole)`, not `phantom_mage (phantom mage)`)."""
        if lang != "en":
            return self.names.name(vocab, ident, lang)
        local = self.names.name(vocab, ident, self.lang)
        return ident if fold(local) == fold(ident) else f"{ident} ({local})"

    def unique(self, vocab: str, pairs: list[tuple[str, str]], key: str) -> None:
        """Two entries naming the same id (`占い師 = 1` beside `seer = 2`) are one line."""
        seen: dict[str, str] = {}
        for written, ident in pairs:
            if ident in seen:
                lines = {lang: message(lang, "named_twice", source=shown(lang, "source", self.source), key=_key(lang, key),
                                       id=ident if lang == "en" else self.names.name(vocab, ident, lang),
                                       kind=self.names.kind(vocab, lang), first=seen[ident], second=written)
                         for lang in LANGS}
                raise Refusal.written("named_twice", lines,
                                      self.lang if not (written + seen[ident]).isascii() else "en", self.source)
            seen[ident] = written


def _key(lang: str, key: str) -> str:
    """A setting's key as a line in `lang` names it (countdowns: カウントダウン; English: as typed)."""
    return key if lang == "en" else shown(lang, "key", key)


def _role_part(translator: Translator, vocab: str, text: str, key: str) -> str:
    """`占い師` or `預言者:S` → the id, with what follows `:` kept, or read in the vocabulary
    `vocab` names after its own `:` (`roles:attributes`: `魔獣:ソーレ` → `beast:S`)."""
    vocab, _, after = vocab.partition(":")
    name, colon, rest = str(text).replace("：", ":").partition(":")
    if not name.strip():
        return str(text)
    if colon and after and rest.strip():
        rest = translator.word(after, rest, key)
    return translator.word(vocab, name, key) + (colon + rest.strip() if colon else "")


def translate_value(value: object, vocab: str, at: str, key: str, translator: Translator) -> object:
    """One setting's value with every name turned into its id, in the form it was given:
    `keys` (a table or "name=count,…"), `items` (a list or "name,name:attr,…") or `values`
    (a table or "Aki=name:attr,…"). A form the game does not take is left for its own check."""
    if isinstance(value, str):
        text = _TEXT_FORMS.get(at)
        return value if text is None else text(value, vocab, key, translator)
    if isinstance(value, Mapping):
        table = _TABLE_FORMS.get(at)
        return value if table is None else table(value, vocab, key, translator)
    if isinstance(value, (list, tuple)) and at == "items":
        return _items_list(value, vocab, key, translator)
    return value


def _keys_table(value: Mapping[str, object], vocab: str, key: str, translator: Translator) -> dict[str, object]:
    """`keys` as a table ({name = count}): each key is a name; two for one card are refused."""
    vocab_of_keys = vocab.partition(":")[0]
    pairs = [(str(k), translator.word(vocab_of_keys, k, key)) for k in value]
    translator.unique(vocab_of_keys, pairs, key)
    return {ident: value[written] for written, ident in pairs}


def _keys_text(value: str, vocab: str, key: str, translator: Translator) -> str:
    """`keys` as a line ("name=count,…"): a part without `=` is left for the game's own check."""
    vocab_of_keys = vocab.partition(":")[0]
    parts, pairs = [], []
    for part in split_items(value):
        name, sep, count = part.replace("＝", "=").partition("=")
        ident = translator.word(vocab_of_keys, name, key) if sep and name.strip() else name
        pairs.append((name.strip(), ident))
        parts.append(f"{ident}{sep}{count.strip()}")
    translator.unique(vocab_of_keys, [p for p in pairs if p[0]], key)
    return ",".join(parts)


def _items_list(value: list[object] | tuple[object, ...], vocab: str, key: str, translator: Translator) -> list[object]:
    """`items` as a list: each text item is a name (with its attribute); others are left."""
    return [_role_part(translator, vocab, v, key) if isinstance(v, str) else v for v in value]


def _items_text(value: str, vocab: str, key: str, translator: Translator) -> str:
    """`items` as a line ("name,name:attr,…")."""
    return ",".join(_role_part(translator, vocab, v, key) for v in split_items(value))


def _values_table(value: Mapping[str, object], vocab: str, key: str, translator: Translator) -> dict[str, object]:
    """`values` as a table ({Aki = name}): each text value is a name, refused under `key.Aki`."""
    return {k: _role_part(translator, vocab, v, f"{key}.{k}") if isinstance(v, str) else v
            for k, v in value.items()}


def _values_text(value: str, vocab: str, key: str, translator: Translator) -> str:
    """`values` as a line ("Aki=name:attr,…"): a part without `=` is left for the game's check."""
    parts = []
    for part in filter(None, (p.strip() for p in value.replace("，", ",").split(","))):
        who, sep, card = part.partition("=")
        parts.append(f"{who.strip()}{sep}{_role_part(translator, vocab, card, f'{key}.{who.strip()}')}"
                     if sep else part)  # the refusal names the player whose card it is, as a table's does
    return ",".join(parts)


_TEXT_FORMS: dict[str, Callable[[str, str, str, Translator], str]] = {
    "keys": _keys_text, "items": _items_text, "values": _values_text}
"""How a setting's names written as one line ("name=count,…") become ids, per `names_at`."""
_TABLE_FORMS: dict[str, Callable[[Mapping[str, object], str, str, Translator], dict[str, object]]] = {
    "keys": _keys_table, "values": _values_table}
"""How a setting's names written as a table become ids, per `names_at` (a list: `items` only)."""


def translate(options: Mapping[str, Any], declared: tuple[Setting, ...], names: CardNames | None,
              lang: str, source: str) -> dict[str, Any]:
    """A game's raw options with the names of its cards and roles turned into ids, for every
    declared setting that names them (`Setting.names`, `Setting.names_at`)."""
    out = dict(options)
    if names is None:
        return out
    translator = Translator(names, lang, source)
    for setting in declared:
        if setting.names and setting.key in out:
            out[setting.key] = translate_value(out[setting.key], setting.names, setting.names_at, setting.key,
                                               translator)
    return out
