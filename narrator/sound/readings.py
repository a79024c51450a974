"""Reviewed readings: how Open JTalk reads every Japanese line, checked once by a person and
kept (`voices/<pack>/readings.toml`), so a new or changed line is never misread unnoticed.

Each line (and each of its wordings) whose words for Open JTalk still have kanji after the
pack's `[pronounce]` fixes is analysed with its placeholders filled from `SAMPLES` (numbers
chosen where Japanese counters read irregularly: 2日目 ふつかめ, 3日間 みっかかん, 4人 よにん,
1組目 ひとくみめ). `tests/test_readings.py` fails on any difference;
`scripts/review-readings` prints the lines missing from the file, ready to review and add.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, runtime_checkable

if TYPE_CHECKING:
    from narrator.sound.voicepack import VoicePack

FILE = "readings.toml"
KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3005]")
SAMPLES: dict[str, Any] = {
    "name": "アキ", "target": "ベン", "names": ["アキ", "ベン"], "players": 4, "days": 3, "day": 2, "night": 2,
    "n": 1, "count": 2, "total": 3, "left": 2, "turn": 2, "to_win": 3, "sole": 2, "mese": 1, "seconds": 60,
    "address": "192.168.1.20:8080", "answer": "はい", "word": "はい", "key": "y", "text": "x",
    "choices": "はい", "numbered": "1=アキ", "time": "1:00", "code": "4821", "seat": 2,
    "roles": [["card.citizen", 4], ["card.werewolf", 1]], "cards": [["card.seer", 1], ["card.medium", 2]],
    "order": [["label.seer", 0], ["label.peddler", 0]], "special": [["countdown_of.seer", 20]],
    "what": [["appliance.setting.night_order", 0]], "countdown": 10, "discussion": 180,
}
"""The value each placeholder is analysed with."""


@runtime_checkable
class Reads(Protocol):
    """Open JTalk's engine: besides rendering (`TextToSpeech`), the kana reading it gives words."""

    def reading(self, text: str) -> str: ...


def entries(pack: VoicePack) -> Iterator[tuple[str, str]]:
    """(key, words for Open JTalk) of every wording with kanji; key `line` or `line#variant`."""
    for line_id in sorted(pack.lines):
        if not pack.is_spoken(line_id):
            continue
        params = {p: SAMPLES.get(p, 2) for p in pack.placeholders(line_id)}
        for variant in range(len(pack.lines[line_id].wordings())):
            spoken = pack.speak(line_id, params, variant)
            words = pack.kanji_words(spoken.said or spoken.text)
            if KANJI.search(words):
                yield (line_id if variant == 0 else f"{line_id}#{variant}"), words


def reviewed(pack: VoicePack) -> dict[str, str]:
    """The pack's reviewed readings: its own file, or the file of the pack it inherits (ja-natural: ja's)."""
    found = [Path(folder) / FILE for folder in (getattr(pack, "folders", ()) or (pack.path,))]
    path = next((p for p in found if p.is_file()), Path(pack.path) / FILE)
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        return {k: v for k, v in tomllib.load(f).items() if isinstance(v, str)}


def differences(pack: VoicePack, analyse: Callable[[str], str]) -> list[tuple[str, str, str | None, str]]:
    """(key, words, reviewed reading or None, Open JTalk's reading) for every line that differs."""
    from concurrent.futures import ThreadPoolExecutor

    kept = reviewed(pack)
    lines = list(entries(pack))
    with ThreadPoolExecutor(max_workers=2) as pool:  # one open_jtalk process per line
        heard = list(pool.map(analyse, [words for _, words in lines]))
    return [(key, words, kept.get(key), said) for (key, words), said in zip(lines, heard) if kept.get(key) != said]


def main(argv: list[str] | None = None, widen: Callable[[VoicePack], VoicePack] | None = None) -> int:
    """`scripts/review-readings [pack …]`: print Open JTalk's reading of each line that the
    reviewed file lacks (or that changed), as TOML to paste after checking it by ear and eye.
    `widen(pack)`: the pack with the lines reviewed beside it (the games' own, from the CLI floor)."""
    from narrator.sound.engines import load_tts
    from narrator.sound.voicepack import load_pack

    engine = load_tts("openjtalk")
    assert isinstance(engine, Reads)  # the openjtalk engine (engines/openjtalk) gives readings
    found = 0
    for name in (argv or ["ja"]):
        pack = load_pack(name)
        for key, words, was, heard in differences(widen(pack) if widen else pack, engine.reading):
            found += 1
            print(f"# {words}" + (f"\n# was: {was}" if was is not None else ""))
            print(f'"{key}" = "{heard}"')
        print(f"# {pack.path / FILE}: {found} line(s) to review", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
