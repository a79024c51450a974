"""Which kana readings are Japanese given names or family names, and how common: the list a
romaji name is checked against (`narrator.sound.names`) to tell Shota (ショウタ) from Mike;
and the names the dictionary knows in Latin letters with their katakana (Simon サイモン).

Both lists (`japanese_names.tsv`, `latin_names.tsv`, shipped with the package) are taken
from the person-name entries of Open JTalk's dictionary (naist-jdic, BSD licence, notice in
each file's header) by `scripts/extract-japanese-names`, so they need no Open JTalk at run
time. Each reading has one cost, MeCab's: every kanji spelling of the reading as a name (佐藤,
佐東 … for サトウ) counts, as -700·log Σ exp(-cost/700), so a lower cost is a commoner name.
Spellings in kana are left out: the dictionary lists odd kana forms (サト beside 佐藤's
サトウ) that no family writes.
"""

from __future__ import annotations

import math
import re
import struct
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path

LIST = Path(__file__).with_name("japanese_names.tsv")
LATIN_LIST = Path(__file__).with_name("latin_names.tsv")
SCALE = 700.0
"""MeCab's cost factor: a cost is about -700·log(probability)."""
_KATAKANA = re.compile(r"^[\u30a1-\u30f4\u30fc]+$")
_KANA = re.compile(r"^[\u3041-\u3096\u30a1-\u30fa\u30fc]+$")
_LATIN = re.compile(r"^[ａ-ｚＡ-Ｚ]+$")
_HEADER = """\
# {what}, from the person-name entries
# of Open JTalk's dictionary, written by scripts/extract-japanese-names.
# naist-jdic: Copyright (c) 2009, Nara Institute of Science and Technology, Japan. All rights
# reserved. Redistribution and use in source and binary forms, with or without modification,
# are permitted under the BSD licence in the dictionary's COPYING file (retain this notice).
"""


@lru_cache(maxsize=1)
def name_costs() -> dict[str, int]:
    """Every Japanese name reading on the list → its cost."""
    return {reading: int(cost) for reading, cost in _rows(LIST)}


@lru_cache(maxsize=1)
def latin_names() -> dict[str, str]:
    """Every name the dictionary spells in Latin letters (lower case) → its katakana."""
    return dict(_rows(LATIN_LIST))


def _rows(path: Path) -> list[tuple[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(kana, name) for kana, name in (line.split("\t", 1) for line in lines if line and not line.startswith("#"))]


def extract(sys_dic: Path) -> tuple[dict[str, int], dict[str, str]]:
    """The person-name readings of a MeCab system dictionary (`sys.dic`) with their cost, and
    its person names written in Latin letters with their cheapest katakana reading."""
    data = sys_dic.read_bytes()
    dsize, tsize = struct.unpack_from("<II", data, 24)
    tokens, features = 72 + dsize, 72 + dsize + tsize
    sums: dict[str, float] = {}
    latin: dict[str, tuple[int, str]] = {}
    for at in range(tokens, features, 16):
        cost, feature = struct.unpack_from("<hI", data, at + 6)
        start = features + feature
        text = data[start:data.index(b"\0", start)].decode("utf-8", "replace")
        if not text.startswith("名詞,固有名詞,人名,"):
            continue
        fields = text.split(",")
        if len(fields) < 8 or not _KATAKANA.match(fields[7]):
            continue
        if _LATIN.match(fields[6]):
            spelling = unicodedata.normalize("NFKC", fields[6]).lower()
            latin[spelling] = min(latin.get(spelling, (cost, fields[7])), (cost, fields[7]))
        elif fields[3] in ("名", "姓") and not _KANA.match(fields[6]):
            sums[fields[7]] = sums.get(fields[7], 0.0) + math.exp(-cost / SCALE)
    costs = {reading: round(-SCALE * math.log(total)) for reading, total in sorted(sums.items())}
    return costs, {spelling: reading for spelling, (_, reading) in sorted(latin.items())}


def write_lists(costs: dict[str, int], latin: dict[str, str]) -> None:
    header = _HEADER.format(what="Japanese person-name readings (katakana) and their cost (lower = commoner)")
    LIST.write_text(header + "".join(f"{r}\t{c}\n" for r, c in costs.items()), encoding="utf-8")
    header = _HEADER.format(what="Person names in Latin letters (lower case) and their katakana")
    LATIN_LIST.write_text(header + "".join(f"{s}\t{r}\n" for s, r in latin.items()), encoding="utf-8")


def main(argv: list[str]) -> int:
    """`scripts/extract-japanese-names [sys.dic]`: rewrite the list from Open JTalk's dictionary."""
    if argv:
        sys_dic = Path(argv[0])
    else:
        import pyopenjtalk

        sys_dic = Path(pyopenjtalk.OPEN_JTALK_DICT_DIR.decode() if isinstance(pyopenjtalk.OPEN_JTALK_DICT_DIR, bytes)
                       else pyopenjtalk.OPEN_JTALK_DICT_DIR) / "sys.dic"
    if not sys_dic.is_file():
        print(f"no dictionary at {sys_dic}: install Open JTalk (scripts/setup) or name its sys.dic", file=sys.stderr)
        return 1
    costs, latin = extract(sys_dic)
    write_lists(costs, latin)
    print(f"{len(costs)} readings written to {LIST}, {len(latin)} to {LATIN_LIST}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
