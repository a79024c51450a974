"""Kokoro reads every ja-natural line as reviewed: its reading frontend (pyopenjtalk-plus, a
newer dictionary than Open JTalk's) is run on every line that has kanji (after the pack's
[pronounce] fixes) and compared with Open JTalk's reading of the same line, which the ja
pack's reviewed readings pin. Where they differ, Kokoro's reading must be one reviewed here
(`KOKORO_READS`); a new difference fails, so a new line is never misread unnoticed."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from narrator.sound.voicepack import load_pack
from tests.kokoro_support import open_kokoro

pytestmark = pytest.mark.slow
KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\u3005]")
O_OR_U = "オコソトノホモヨロゴゾドボポョウクスツヌフムユルグズヅブプュ"
SAMPLES = {"name": "アキ", "target": "ベン", "names": ["アキ", "ベン"]}

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


def kanji_lines(pack):
    for line_id in sorted(pack.lines):
        params = {p: SAMPLES.get(p, 2) for p in pack.placeholders(line_id)}
        for variant in range(len(pack.lines[line_id].wordings())):
            words = pack.kanji_words(pack.speak(line_id, params, variant).text)
            if KANJI.search(words):
                yield line_id, words


@pytest.fixture(scope="module")
def openjtalk():
    from narrator.sound.engines import EngineUnavailable, load_tts

    try:
        return load_tts("openjtalk")
    except EngineUnavailable as err:
        pytest.skip(str(err))


def differences(pack, kokoro, openjtalk, only=None):
    """{line: (Kokoro's reading, Open JTalk's)} where they differ (of the lines in `only`, if given)."""
    found = {}
    for line, words in kanji_lines(pack):
        if only is None or line in only:
            heard = (normal(kokoro.reading(words)), normal(openjtalk.reading(words)))
            if heard[0] != heard[1]:
                found[line] = heard
    return found


def test_kokoro_reads_every_line_as_reviewed(openjtalk):
    kokoro = open_kokoro()
    pack = load_pack("ja-natural")
    found = differences(pack, kokoro, openjtalk)
    unreviewed = {line: pair for line, pair in found.items()
                  if line not in KOKORO_READS or KOKORO_READS[line][0] not in pair[0]}
    assert not unreviewed, "\n".join(f"{line}: Kokoro {k}, Open JTalk {o}" for line, (k, o) in unreviewed.items())
    assert len(list(kanji_lines(pack))) > 150


def test_without_its_own_fix_kokoro_misreads_the_title(openjtalk):
    """The control: without ja-natural's own [pronounce], Kokoro says 人狼 ジンオーカミ."""
    kokoro = open_kokoro()
    pack = load_pack("ja-natural")
    bare = replace(pack, pronounce=load_pack("ja").pronounce)
    found = differences(bare, kokoro, openjtalk, only={"title.additional_werewolf"})
    assert "ジンオーカミ" in found["title.additional_werewolf"][0]
    assert "title.additional_werewolf" not in KOKORO_READS
