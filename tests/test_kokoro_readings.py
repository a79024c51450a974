"""Kokoro reads every ja-natural line as reviewed: its reading frontend (pyopenjtalk-plus, a
newer dictionary than Open JTalk's) is run on every line that has kanji (after the pack's
[pronounce] fixes) and compared with the reviewed readings ja-natural shares with ja
(`voices/ja/readings.toml`). Where they differ, Kokoro's reading must be one reviewed here
(`KOKORO_READS`); a new difference fails, so a new line is never misread unnoticed."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from narrator.sound import readings
from narrator.sound.voicepack import load_pack
from tests.kokoro_support import open_kokoro

pytestmark = pytest.mark.slow
O_OR_U = "オコソトノホモヨロゴゾドボポョウクスツヌフムユルグズヅブプュ"

KOKORO_READS = {
    # line: (what Kokoro reads, why that is right)
    "bm.private.attr.A": ("ゾクセーワアニマデス", "the Latin letter is not said; the kana name after it is"),
    "bm.private.attr.M": ("ゾクセーワメーゼデス", "the same"),
    "bm.private.attr.N": ("ゾクセーワニエンテデス", "the same"),
    "bm.private.attr.S": ("ゾクセーワソーレデス", "the same"),
    "private.ability": ("ナマエカバンゴーノアトニハイカイーエヲ", "shown on a screen; y and n are not said"),
    "bm.setup.deal": ("ホカノヒト", "他の人 is ほかのひと (Open JTalk: たのひと)"),
    "pagan.help.hunter_board": ("ジョキョワホカノイキテイル", "他の is ほかの (Open JTalk: たの)"),
    "pagan.upkeep.discard": ("テフダガ", "手札 is てふだ (Open JTalk: しゅさつ)"),
}


def normal(reading: str) -> str:
    """Katakana only, a long vowel as ー (Open JTalk writes マジュウ, pyopenjtalk-plus マジュー)."""
    kana = re.sub(r"[^\u30a0-\u30ff]", "", reading)
    return re.sub(f"(?<=[{O_OR_U}])ウ", "ー", kana)


def differences(pack, kokoro, only=None):
    """{key: (Kokoro's reading, the reviewed one)} where they differ (of the keys in `only`, if given)."""
    kept = readings.reviewed(pack)
    found = {}
    for key, words in readings.entries(pack):
        if only is None or key in only:
            heard = (normal(kokoro.reading(words)), normal(kept.get(key, "")))
            if heard[0] != heard[1]:
                found[key] = heard
    return found


def test_kokoro_reads_every_line_as_reviewed():
    kokoro = open_kokoro()
    pack = load_pack("ja-natural")
    assert readings.reviewed(pack) == readings.reviewed(load_pack("ja"))  # one reviewed file, shared
    found = differences(pack, kokoro)
    unreviewed = {line: pair for line, pair in found.items()
                  if line not in KOKORO_READS or KOKORO_READS[line][0] not in pair[0]}
    assert not unreviewed, "\n".join(f"{line}: Kokoro {k}, reviewed {o}" for line, (k, o) in unreviewed.items())
    assert len(list(readings.entries(pack))) > 150


def test_without_its_own_fix_kokoro_misreads_the_title():
    """The control: without ja-natural's own [pronounce], Kokoro says 人狼 ジンオーカミ."""
    kokoro = open_kokoro()
    pack = load_pack("ja-natural")
    bare = replace(pack, pronounce=load_pack("ja").pronounce)
    found = differences(bare, kokoro, only={"title.additional_werewolf"})
    assert "ジンオーカミ" in found["title.additional_werewolf"][0]
    assert "title.additional_werewolf" not in KOKORO_READS
