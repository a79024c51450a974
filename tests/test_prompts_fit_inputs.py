"""Prompts fit the inputs present (#14 item 6): no 「終わりました」 without a microphone, hints in
the game's language, full-width keys and kana forms of names accepted."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import pytest

from narrator.cues import Ask, Collect, Request
from narrator.inputs.hints import Hints
from narrator.inputs.hub import ListenerHub, Vocabulary
from narrator.sound.voicepack import BUTTON_ONLY, KEYBOARD_ONLY, WITHOUT_MICROPHONE, load_pack
from narrator.table.session import RunOptions, open_sitting
from narrator.settings import build_settings

SAY_WORDS = re.compile(r"「終わりました」|と言って|say done|Say done|say next|instead of done")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_keyboard_wording_replaces_a_line_and_asks_for_no_spoken_word(lang):
    pack = load_pack(lang)
    alternates = [l for l in pack.lines if l.startswith(WITHOUT_MICROPHONE + ".")]
    assert len(alternates) >= 5
    for alternate in alternates:
        line = alternate.removeprefix(WITHOUT_MICROPHONE + ".")
        for other in (KEYBOARD_ONLY, BUTTON_ONLY):  # the same, naming one input (checked beside)
            line = line.removeprefix(other + ".")
        assert line in pack.lines, f"{alternate} replaces no line"
        assert pack.placeholders(alternate) == pack.placeholders(line)
        assert SAY_WORDS.search(pack.lines[line].text), f"{line} needs no keyboard wording"
        assert not SAY_WORDS.search(pack.lines[alternate].text)


def _sitting(tmp_path, listen):
    settings = build_settings({"voice": "text", "time_scale": 0, "listen": listen}, {}, "test")
    return open_sitting(RunOptions.from_settings(settings, keyboard=False))


def test_without_a_microphone_the_ready_prompt_names_the_button_or_enter(tmp_path, narrator_home):
    sitting = _sitting(tmp_path, "off")
    try:
        text = sitting.scheduler.voice.clip("setup.ready").spoken.text
    finally:
        sitting.close()
    assert "終わりました" not in text and "Enter" in text and "ボタン" in text
    said = load_pack("ja").speak("setup.ready").text
    assert "「終わりました」" in said  # with a microphone the table says it


def test_the_keyboard_wording_keeps_the_line_id(tmp_path):
    pack = replace(load_pack("ja"), without_microphone=True)
    spoken = pack.speak("pagan.action.witch", {"left": 2, "total": 3})
    assert spoken.line == "pagan.action.witch" and "Enter" in spoken.text and "2" in spoken.text


def _offer(hub, ask, text):
    async def scene():
        task = asyncio.ensure_future(hub.answer(ask))
        await asyncio.sleep(0)
        hint = hub.offer_text(text, "keyboard")
        if hint:
            task.cancel()
            return hint
        return (await task).value
    return asyncio.run(scene())


@pytest.mark.parametrize("typed, expected", [("ｙ", "yes"), ("Ｙ", "yes"), ("ｎ", "no"), ("はい", "yes")])
def test_full_width_keys_answer_yes_or_no(typed, expected):
    hub = ListenerHub(Vocabulary(load_pack("ja").vocabulary))
    hub.register("keyboard")
    assert _offer(hub, Ask("q", ("yes", "no")), typed) == expected


@pytest.mark.parametrize("typed, expected", [
    ("１", "あき"), ("アキ", "あき"), ("ケン", "Ken"), ("けん", "Ken"), ("ここあ", "心愛"), ("ココア", "心愛"),
    ("２、３", ["Ken", "心愛"]),
])
def test_names_by_full_width_number_hiragana_katakana_or_reading(typed, expected):
    vocabulary = Vocabulary(load_pack("ja").vocabulary)
    vocabulary.readings.update({"心愛": "ここあ", "Ken": "ケン"})
    hub = ListenerHub(vocabulary)
    hub.register("keyboard")
    ask = Ask("nomination.who", ("あき", "Ken", "心愛"), multiple="、" in typed)
    assert _offer(hub, ask, typed) == expected


def test_a_pass_the_device_memo_takes_full_width_too():
    vocabulary = Vocabulary(load_pack("ja").vocabulary)
    hub = ListenerHub(vocabulary)
    hub.register("keyboard")
    hub.sequential_private = True
    request = Request("Aki", "bm.memo", ("Aki", "Ben"), ability=True)

    async def scene():
        task = asyncio.ensure_future(hub.collect(Collect("night", 1, (request,))))
        await asyncio.sleep(0)
        assert hub.offer_text("２ ｎ", "keyboard") is None
        return (await task).value

    assert asyncio.run(scene()) == {"Aki": {"ability": False, "target": "Ben"}}


def test_keyboard_hints_are_in_the_games_language():
    hub = ListenerHub(Vocabulary(load_pack("ja").vocabulary), Hints(load_pack("ja")))
    hub.register("keyboard")
    hint = _offer(hub, Ask("q", ("yes", "no")), "maybe")
    assert hint == "「maybe」はここでの答えではありません。はい(y) か いいえ(n) で答えてください"
    assert hub.offer_text("y", "keyboard") == "いま答える質問はありません"
    english = ListenerHub()
    english.register("keyboard")
    assert _offer(english, Ask("q", ("yes", "no")), "maybe") == "'maybe' is not an answer here; answer yes (y) or no (n)"


def test_every_hint_is_in_both_packs_with_the_same_placeholders():
    ja, en = load_pack("ja"), load_pack("en")
    hints = sorted(l for l in en.lines if l.startswith("hint."))
    assert hints == sorted(l for l in ja.lines if l.startswith("hint."))
    assert all(ja.placeholders(h) == en.placeholders(h) for h in hints)
