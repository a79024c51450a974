"""How players' names are read aloud in a Japanese game, and heard back.

A `names` entry may carry its reading (`"心愛:ここあ"`); without one, a kana name is read as
written, a romaji name as katakana (spelled into kana by `jaconv`, after a few spelling
steps that give every consonant its vowel, so no name is ever spelled letter by letter:
"Chris" → クリス needs the host's correction, but never 「シー・エイチ・アール…」), and a
kanji name as the engine reads it (Open JTalk's analysis shows how, at setup). One reading
serves the voice (the kana handed to the engine) and recognition (its hiragana).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable, Mapping, Sequence

import jaconv

KANA = re.compile(r"^[\u3041-\u3096\u30a1-\u30fa\u30fc\u30fb・ー\s]+$")
KANJI = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\u3005]")
LATIN = re.compile(r"[A-Za-z]")
_ONSETS = {"k", "s", "t", "n", "h", "m", "y", "r", "w", "g", "z", "d", "b", "p", "f", "j", "sh", "ch", "ts",
           "ky", "gy", "ny", "hy", "my", "ry", "by", "py", "dh", "th"}
_UNITS = ("sh", "ch", "ts", "dh", "th")


def is_kana(text: str) -> bool:
    return bool(KANA.match(text))


def romaji_katakana(name: str) -> str:
    """A name in Latin letters as katakana ("Aki" → アキ, "Tom" → トム, "Max" → マクス)."""
    words = re.findall(r"[a-z]+", unicodedata.normalize("NFKC", name).lower())
    kana = "".join(jaconv.alphabet2kana(_syllables(w)) for w in words)
    return LATIN.sub("", jaconv.hira2kata(kana))


def _spelled(word: str) -> str:
    """English spellings as romaji jaconv knows: c, q, x, l, v, ph, th, double letters."""
    w = word.replace("ph", "f").replace("ck", "k").replace("th", "s").replace("wh", "w").replace("chr", "kr")
    w = re.sub(r"c(?=[eiy])", "s", w).replace("ch", "\0").replace("c", "k").replace("\0", "ch")
    w = w.replace("q", "k").replace("x", "ks").replace("l", "r").replace("v", "b")
    w = re.sub(r"y(?![aeiou])", "i", w)
    w = re.sub(r"(?<![sc])h(?![aeiouy])", "", w)
    w = re.sub(r"([bdfghjkmprstwz])\1", r"\1", w)
    return re.sub(r"([dt])i", r"\1hi", w)  # di, ti: ディ, ティ (not ヂ, チ)


def _syllables(word: str) -> str:
    """Romaji where every consonant has its vowel (a final n stays ン)."""
    out = []
    for part in re.findall(r"[^aeiou]*[aeiou]+|[^aeiou]+$", _spelled(word)):
        cluster, vowels = re.match(r"([^aeiou]*)([aeiou]*)", part).groups()
        units = _units(cluster)
        onset: list[str] = []
        if vowels:
            for k in range(len(units)):
                if "".join(units[k:]) in _ONSETS:
                    onset, units = units[k:], units[:k]
                    break
        out += ["n" if u == "n" else u + ("o" if u in ("t", "d") else "i" if u in ("ch", "j", "sh") else "u")
                for u in units]
        out.append("".join(onset) + vowels)
    return "".join(out)


def _units(cluster: str) -> list[str]:
    units, i = [], 0
    while i < len(cluster):
        step = 2 if cluster[i:i + 2] in _UNITS else 1
        units.append(cluster[i:i + step])
        i += step
    return units


def reading_for(name: str, given: str | None = None, analyse: Callable[[str], str] | None = None) -> str:
    """How `name` is read: its given reading, as written (kana), katakana (romaji), or as the
    engine reads it (`analyse`, Open JTalk's reading of kanji; the name itself without one)."""
    if given:
        return unicodedata.normalize("NFKC", given).strip()
    if is_kana(name):
        return name
    if LATIN.search(name) and not KANJI.search(name):
        return romaji_katakana(name) or name
    if analyse is not None:
        try:
            return analyse(name) or name
        except Exception:  # noqa: BLE001  (no analysis: the engine reads the name itself)
            return name
    return name


def readings_for(names: Sequence[str], given: Mapping[str, Any] | None = None,
                 analyse: Callable[[str], str] | None = None) -> dict[str, str]:
    """Every player's reading (see `reading_for`); `given` may hold several forms: the first is read."""
    out = {}
    for name in names:
        forms = (given or {}).get(name)
        first = forms if isinstance(forms, str) or forms is None else (list(forms) or [None])[0]
        out[name] = reading_for(name, first, analyse)
    return out


def heard_forms(reading: str) -> str:
    """A reading as a Japanese recognizer's words spell it: hiragana."""
    return jaconv.kata2hira(reading)


def openjtalk_analysis() -> Callable[[str], str] | None:
    """Open JTalk's reading of a text (katakana), where Open JTalk is installed; else None."""
    from narrator.sound.engines import EngineUnavailable, load_tts

    try:
        engine = load_tts("openjtalk")
    except EngineUnavailable:
        return None
    return getattr(engine, "reading", None)


def with_readings(pack: Any, names: Sequence[str], given: Mapping[str, Any] | None,
                  analyse: Callable[[str], str] | None = None) -> Any:
    """`pack` that reads each player's name by its reading (Japanese packs; others say names as written)."""
    from dataclasses import replace

    if not names or getattr(pack, "lang", None) != "ja":
        return pack
    if analyse is None and any(KANJI.search(n) and not (given or {}).get(n) for n in names):
        analyse = openjtalk_analysis()
    return replace(pack, name_readings=readings_for(names, given, analyse))
