"""How players' names are read aloud in a Japanese game, and heard back.

A `names` entry may carry its reading (`"心愛:ここあ"`); without one, a kana name is read as
written, a name in Latin letters as katakana, and a kanji name as the engine reads it (Open
JTalk's analysis shows how, at setup). One reading serves the voice (the kana handed to the
engine) and recognition (its hiragana); the host sees every reading at setup and may correct
it, so a guess is never final, and no name is ever spelled letter by letter.

Latin letters may be a Japanese name in romaji or a Western name, and nothing in the letters
says which: "Shota" and "Mike" are both valid romaji. A word is read as Japanese when one of
the readings its romaji may spell (long vowels the spelling hides, Hepburn or kunrei) is a
Japanese given or family name common enough (`japanese_names`, Open JTalk's dictionary's
person names): Shota → ショウタ (翔太), but no ミケ is a name, so Mike is read the way Japanese
people say an English name, by kanalizer (マイク). A name the dictionary itself writes in
Latin letters comes first (Simon サイモン, not シモン). A wrong guess costs the host one
correction; the lists it is measured on are in tests/test_name_readings_list.py and
bench/name_readings.py.

A default seat (Bestia Magica's `P1`…, a game file's numbered `1`…) is no name: it is said by
its number, in every language (`seat_reading`: 「イチバンさん」, "Player one"), since romaji
would read all eight `P`s as 「プ」 and nobody could tell whose death was announced.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import jaconv

from narrator.sound import romaji
from narrator.sound.japanese_names import latin_names, name_costs

if TYPE_CHECKING:
    from narrator.sound.voicepack import VoicePack

KANA = re.compile(r"^[\u3041-\u3096\u30a1-\u30fa\u30fc\u30fb・ー\s]+$")
KANJI = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\u3005]")
LATIN = re.compile(r"[A-Za-z]")
_WORDS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
GUESS_COST = 650
"""What a long vowel the spelling does not show costs a reading (MeCab cost, about a factor of
2.5): Sato is サトウ (佐藤 is far commoner than 佐登), Ono stays オノ (小野 beside 大野)."""
KUNREI_COST = 1500
"""What a kunrei spelling costs (si, tu, hu; ti and di three times: Tina is ティナ)."""
JAPANESE_COST = 10000
"""The dearest reading still taken as a Japanese name (服部 ハットリ is 9160); a word with none
cheaper is no Japanese name (Mike is not ミケ) and is read as English is by Japanese people."""


def is_kana(text: str) -> bool:
    return bool(KANA.match(text))


def romaji_katakana(name: str) -> str:
    """A name in Latin letters as katakana, word by word: as the dictionary spells a name it
    knows in Latin letters (Simon → サイモン), as a Japanese name where the word is romaji for
    one (Shota → ショウタ, Kenichi → ケンイチ, Ohno → オオノ), else as Japanese people say the
    English name (Mike → マイク, Emily → エミリー: `english_katakana`)."""
    words = _WORDS.findall(unicodedata.normalize("NFKC", name))
    return "".join(latin_names().get(w.lower()) or japanese_reading(w) or english_katakana(w)
                   for w in words if LATIN.search(w))


def japanese_reading(word: str) -> str | None:
    """The commonest Japanese name `word` spells in romaji, weighing each guessed long vowel
    and kunrei spelling (`narrator.sound.romaji`); None when it spells none."""
    costs = name_costs()
    best = min(((costs[r.kana] + GUESS_COST * r.guesses + KUNREI_COST * r.kunrei, r.kana)
                for r in romaji.readings(word) if r.kana in costs), default=None)
    return best[1] if best is not None and best[0] <= JAPANESE_COST else None


def english_katakana(word: str) -> str:
    """`word` as katakana the way Japanese people say an English word: kanalizer's model
    (VOICEVOX's, trained on English words with their katakana; shipped in its wheel), or,
    where it has no wheel (32-bit ARM), `spelled_kana`'s rules."""
    parts = re.split(r"-", unicodedata.normalize("NFKD", word.lower()))  # Mary-Jane: メアリージェーン
    letters = ["".join(ch for ch in part if "a" <= ch <= "z") for part in parts]
    convert = _english_converter()
    return "".join(convert(part) for part in letters if part)


def _english_converter() -> Callable[[str], str]:
    try:
        import kanalizer
    except ImportError:
        from narrator.sound.spelled_kana import spelled_katakana

        return spelled_katakana
    return lambda word: kanalizer.convert(word, on_incomplete="ignore")


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
        except Exception:
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


SEAT = re.compile(r"^[Pp]?([0-9]{1,3})$")
"""A default seat's name: Bestia Magica's `P1`…, the numbered seats (`1`…) of the other games."""


def seat_reading(pack: VoicePack, name: str) -> str | None:
    """How the pack says a default seat (`P3`, `3`): its `[format] seat_readings` entry for the
    number, else its `seat_reading` with the number (「さんばん」, "Player 3"), so that eight
    seats are eight words (romaji would read every `P` as 「プ」); None for any other name."""
    match = SEAT.match(unicodedata.normalize("NFKC", name).strip())
    formats = getattr(pack, "formats", {}) or {}
    if match is None or not ("seat_reading" in formats or "seat_readings" in formats):
        return None
    n = int(match.group(1))
    return (formats.get("seat_readings", {}) or {}).get(str(n)) or formats.get("seat_reading", "{n}").format(n=n)


def spoken_readings(pack: VoicePack, names: Sequence[str], given: Mapping[str, Any] | None,
                    analyse: Callable[[str], str] | None = None) -> dict[str, str]:
    """How `pack` reads each name: a reading the table gave first, then a default seat's
    (`seat_reading`), then (Japanese) `reading_for`'s; other languages say the rest as written
    (a kana reading is no English)."""
    japanese = getattr(pack, "lang", None) == "ja"
    out: dict[str, str] = {}
    for name in names:
        forms = (given or {}).get(name)
        first = forms if isinstance(forms, str) or forms is None else (list(forms) or [None])[0]
        seat = None if first else seat_reading(pack, name)
        if seat is not None:
            out[name] = seat
        elif japanese:
            out[name] = reading_for(name, first, analyse)
    return out


def with_readings(pack: VoicePack, names: Sequence[str], given: Mapping[str, Any] | None,
                  analyse: Callable[[str], str] | None = None) -> VoicePack:
    """`pack` that reads each player's name by its reading (`spoken_readings`)."""
    from dataclasses import replace

    if not names:
        return pack
    if getattr(pack, "lang", None) == "ja" and analyse is None and any(
            KANJI.search(n) and not (given or {}).get(n) for n in names):
        analyse = openjtalk_analysis()
    return replace(pack, name_readings=spoken_readings(pack, names, given, analyse))
