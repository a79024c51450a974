"""A word in Latin letters as the Japanese readings it may spell, if it is Japanese romaji.

Romanised names drop what the letters cannot show: Hepburn on a passport writes 翔太 Shota
and 大野 Ono, and a name read as written loses its long vowel (ショタ). So each word is
parsed as romaji (Hepburn, kunrei and wapuro spellings: shi/si, chi/ti, tsu/tu, fu/hu, ji/zi,
sha/sya, jya; n before a vowel as ン or as ナ行 (Kenichi: ケンイチ or ケニチ); n' and nn; a
doubled consonant or tch as ッ; m before b or p as ン (Namba); oh, ou, oo, uu and macrons ō û
as long vowels) into every reading it may stand for: an o may be オ, オウ or オオ and a u ウ or
ウウ, each such guess counted in `Reading.guesses`. A word that is no romaji (Emily, Sarah,
Chris) gives no readings; Mike is romaji (ミケ), so which reading is a name, if any, is for
`narrator.sound.names` to weigh.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_ROWS = {  # consonant → the kana of a, i, u, e, o ("." where no Japanese name has that syllable)
    "": "アイウエオ", "k": "カキクケコ", "s": "サ.スセソ", "t": "タ..テト", "n": "ナニヌネノ",
    "h": "ハヒ.ヘホ", "m": "マミムメモ", "y": "ヤ.ユ.ヨ", "r": "ラリルレロ", "w": "ワ...オ",
    "g": "ガギグゲゴ", "z": "ザ.ズゼゾ", "d": "ダ..デド", "b": "バビブベボ", "p": "パピプペポ",
}
_SPECIAL = {"shi": "シ", "chi": "チ", "tsu": "ツ", "fu": "フ", "ji": "ジ",
            "si": "シ", "ti": "チ", "tu": "ツ", "hu": "フ", "zi": "ジ", "di": "ヂ", "du": "ヅ"}
_YOON = {"ky": "キ", "gy": "ギ", "sh": "シ", "sy": "シ", "ch": "チ", "ty": "チ", "cy": "チ", "ny": "ニ",
         "hy": "ヒ", "my": "ミ", "ry": "リ", "by": "ビ", "py": "ピ", "j": "ジ", "jy": "ジ", "zy": "ジ"}
_SMALL = {"a": "ャ", "u": "ュ", "o": "ョ"}
KUNREI = {"si": 1, "tu": 1, "hu": 1, "zi": 1, "du": 1, "sy": 1, "ty": 1, "cy": 1, "zy": 1, "ti": 3, "di": 3}
"""Spellings of kunrei (and nihon) shiki, rare in names today, weighed by how often an English
name shares them: ti and di most (Tina, Diana), so they count three times."""
_DOUBLED = set("kstpgzdbhjc")
_VOWELS = set("aiueo")
_MACRONS = {"ā": "aa", "â": "aa", "ī": "ii", "î": "ii", "ū": "u^", "û": "u^", "ē": "ee", "ê": "ee",
            "ō": "o^", "ô": "o^"}
_WORD = re.compile(r"^[a-z'^]+$")
MAX_GUESSES = 3
"""At most this many hidden long vowels in one word (Ryunosuke: one; Shotaro: two)."""


@dataclass(frozen=True)
class Reading:
    kana: str
    guesses: int
    """Long vowels added that the spelling does not show (Shota → ショウタ: one)."""
    kunrei: int
    """Syllables spelt the kunrei way (si, tu, hu …; ti and di count three)."""


def normal(word: str) -> str:
    """The word in lower-case ASCII romaji: macrons as a doubled vowel (ō as "o^": オウ or
    オオ), a hyphen as n' (Jun-ichiro), other accents dropped."""
    text = "".join(_MACRONS.get(ch, ch) for ch in word.strip().lower())
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("-", "'").replace("’", "'")


def readings(word: str) -> list[Reading]:
    """Every katakana reading `word` may spell as romaji (with at most `MAX_GUESSES` long
    vowels guessed); [] when it is not romaji."""
    text = normal(word)
    if not _WORD.match(text) or text.startswith(("'", "^")):
        return []
    return sorted(_parse(text, 0), key=lambda r: (r.guesses, r.kunrei, r.kana))


@lru_cache(maxsize=4096)
def _parse(text: str, at: int) -> frozenset[Reading]:
    if at == len(text):
        return frozenset({Reading("", 0, 0)})
    out: set[Reading] = set()
    for kana, end, guesses, kunrei in _steps(text, at):
        for rest in _parse(text, end):
            if guesses + rest.guesses <= MAX_GUESSES:
                out.add(Reading(kana + rest.kana, guesses + rest.guesses, kunrei + rest.kunrei))
    return frozenset(out)


def _steps(text: str, at: int) -> list[tuple[str, int, int, int]]:
    """(kana, where the rest starts, long vowels guessed, kunrei spellings) of each way the
    romaji at `at` may be read."""
    ch, nxt = text[at], text[at + 1:at + 2]
    if ch == "'":
        return [("", at + 1, 0, 0)]
    if ch == "n":
        return _n(text, at)
    if ch == "m" and nxt in ("b", "p"):
        return [("ン", at + 1, 0, 0)]
    if ch in _DOUBLED and (nxt == ch or (ch == "t" and text[at + 1:at + 3] == "ch")):
        return [("ッ", at + 1, 0, 0)]
    return _syllable(text, at)


def _n(text: str, at: int) -> list[tuple[str, int, int, int]]:
    nxt = text[at + 1:at + 2]
    if nxt == "n" and text[at + 2:at + 3] in _VOWELS:  # Anna アンナ; wapuro Kennichi ケンイチ
        return [("ン" + kana, end, g, k) for kana, end, g, k in _syllable(text, at + 1)] + [("ン", at + 2, 0, 0)]
    if nxt == "'" or not nxt or (nxt not in _VOWELS and nxt != "y"):
        return [("ン", at + 1, 0, 0)]
    return [("ン", at + 1, 0, 0)] + _syllable(text, at)  # Kenichi: ケンイチ or ケニチ


def _syllable(text: str, at: int) -> list[tuple[str, int, int, int]]:
    for size in (3, 2, 1):
        head = text[at:at + size]
        if len(head) < size or head[-1] not in _VOWELS:
            continue
        onset, vowel = head[:-1], head[-1]
        kana = _kana(onset, vowel)
        if kana is None:
            continue
        kunrei = KUNREI.get(head, 0) or KUNREI.get(onset, 0)
        after_vowel = not onset and at > 0 and text[at - 1] in _VOWELS  # Aoi: no オウイ
        return _lengthened(text, at + size, kana, vowel, kunrei, hidden=not after_vowel)
    return []


def _kana(onset: str, vowel: str) -> str | None:
    if onset + vowel in _SPECIAL:
        return _SPECIAL[onset + vowel]
    if onset in _YOON:
        if onset in ("j", "sh", "ch") and vowel == "i":
            return None  # shi, chi, ji are in _SPECIAL; "she", "che", "je" are no Japanese names
        small = _SMALL.get(vowel)
        return _YOON[onset] + small if small else None
    row = _ROWS.get(onset)
    if row is None:
        return None
    kana = row["aiueo".index(vowel)]
    return None if kana == "." else kana


def _lengthened(text: str, end: int, kana: str, vowel: str, kunrei: int, hidden: bool) -> list[tuple[str, int, int, int]]:
    """The syllable, and with the long vowel its spelling may hide (o: オウ, オオ; u: ウウ)."""
    nxt, after = text[end:end + 1], text[end + 1:end + 2]
    if nxt == "^" or (vowel == "o" and nxt == "h" and after not in _VOWELS and after != "y"):
        return [(kana + long, end + 1, 0, kunrei) for long in _LONG[vowel]]  # ō, Ohno, Satoh
    steps = [(kana, end, 0, kunrei)]
    final_n = nxt == "n" and text[end + 1:end + 2] not in _VOWELS | {"y"}  # no ジュウン: a long vowel before ン
    if vowel in _LONG and nxt not in _VOWELS and hidden and not final_n:
        steps += [(kana + long, end, 1, kunrei) for long in _LONG[vowel]]
    return steps


_LONG = {"o": ("ウ", "オ"), "u": ("ウ",)}

