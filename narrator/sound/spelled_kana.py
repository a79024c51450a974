"""English spellings as katakana by a few rules, where kanalizer cannot be installed.

kanalizer (`narrator.sound.names.english_katakana`) ships wheels for 64-bit machines only;
on a 32-bit Raspberry Pi OS (armv7l) the narrator installs without it and reads a Western
name by these rules instead: jaconv spells romaji into kana after a few steps that give every
consonant its vowel, so a name is never spelled letter by letter ("Chris" → クリス, "Mike" →
ミケ: the host corrects what the rules get wrong).
"""

from __future__ import annotations

import re

import jaconv

_ONSETS = {"k", "s", "t", "n", "h", "m", "y", "r", "w", "g", "z", "d", "b", "p", "f", "j", "sh", "ch", "ts",
           "ky", "gy", "ny", "hy", "my", "ry", "by", "py", "dh", "th"}
_UNITS = ("sh", "ch", "ts", "dh", "th")


def spelled_katakana(word: str) -> str:
    """A word of Latin letters (a-z) as katakana ("Tom" → トム, "Max" → マクス)."""
    kana = jaconv.hira2kata(jaconv.alphabet2kana(_syllables(word.lower())))
    return re.sub(r"[A-Za-z]", "", kana)


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
        cluster = part.rstrip("aeiou")  # each part is consonants then vowels (the findall above)
        vowels = part[len(cluster):]
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
