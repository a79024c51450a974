"""Prompts name only the inputs the table has (issue 26, item 10).

「ボタンかEnterキーを押してください」 on a laptop names a button nobody has, and on the screenless
appliance a key nobody can press. A laptop hears only Enter, the appliance with a button and
no keyboard only the button, and a table with both still hears both.
"""

from __future__ import annotations

import re

import pytest

import narrator.appliance.serve as serve_module
from narrator.appliance.serve import ServeOptions, serve
from narrator.inputs.keyboard import KeyboardListener
from narrator.settings import build_settings
from narrator.sound.voicepack import BUTTON_ONLY, KEYBOARD_ONLY, MODES, WITHOUT_MICROPHONE, load_pack
from narrator.table.session import RunOptions, open_sitting
from narrator.table.transcript import read_transcript

KEY = re.compile(r"Enter|h を|hを|type h")
BUTTON = re.compile(r"ボタン|button")


def _base(line_id: str) -> str:
    for mode in MODES:
        line_id = line_id.removeprefix(mode + ".")
    return line_id


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("mode, absent", [(KEYBOARD_ONLY, BUTTON), (BUTTON_ONLY, KEY)])
def test_each_one_input_wording_replaces_a_line_naming_both_and_names_only_its_own(lang, mode, absent):
    pack = load_pack(lang)
    prefix = f"{WITHOUT_MICROPHONE}.{mode}."
    wordings = [line for line in pack.lines if line.startswith(prefix)]
    assert len(wordings) >= 4
    for wording in wordings:
        both = f"{WITHOUT_MICROPHONE}.{_base(wording)}"
        assert both in pack.lines, f"{wording} replaces no wording that names both inputs"
        assert pack.placeholders(wording) == pack.placeholders(both)
        assert BUTTON.search(pack.lines[both].text) and KEY.search(pack.lines[both].text)
        assert not absent.search(pack.lines[wording].text), wording


def _ready_text(keyboard: bool) -> str:
    settings = build_settings({"voice": "text", "time_scale": 0, "listen": "off", "lang": "ja"}, {}, "test")
    sitting = open_sitting(RunOptions.from_settings(settings, keyboard=keyboard))
    try:
        return sitting.scheduler.voice.clip("setup.ready").spoken.text
    finally:
        sitting.close()


def test_a_laptop_without_a_button_hears_only_the_enter_key(narrator_home):
    text = _ready_text(keyboard=True)
    assert "Enter" in text and "ボタン" not in text


class FakeButtons:
    """Stands in for the GPIO button listener: registers as the button and answers nothing
    (the scripted answers do); `_open_buttons` returns it as if a button were wired."""

    def start(self, hub, loop):
        hub.register("button")

    def close(self):
        pass


def _served_ready_text(tmp_path, monkeypatch, buttons, keyboard=False) -> str:
    monkeypatch.setattr(serve_module, "_open_buttons", lambda appliance, log: buttons)
    transcript = tmp_path / "t.jsonl"
    answers = tmp_path / "answers.txt"
    answers.write_text("yes\ndone\nyes\n")
    overrides = {"voice": "text", "lang": "ja", "time_scale": "0", "listen": "off",
                 "transcript": str(transcript), "answers": str(answers)}
    monkeypatch.setattr(KeyboardListener, "start", lambda self, hub, loop: hub.register("keyboard"))  # no tty here
    serve(ServeOptions(once=True, keyboard=keyboard, buttons=True, overrides=overrides), log=lambda m: None)
    said = {r["text"] for r in read_transcript(transcript) if r["line"] == "setup.ready" and r["text"]}
    assert len(said) == 1  # asked, maybe said again: one wording
    return said.pop()


def test_the_appliance_with_a_button_and_no_keyboard_names_only_the_button(narrator_home, tmp_path, monkeypatch):
    text = _served_ready_text(tmp_path, monkeypatch, FakeButtons())
    assert "ボタン" in text and "Enter" not in text


def test_the_appliance_at_a_terminal_without_a_button_names_only_the_key(narrator_home, tmp_path, monkeypatch):
    text = _served_ready_text(tmp_path, monkeypatch, None, keyboard=True)
    assert "Enter" in text and "ボタン" not in text


def test_the_appliance_with_a_button_and_a_keyboard_names_both(narrator_home, tmp_path, monkeypatch):
    text = _served_ready_text(tmp_path, monkeypatch, FakeButtons(), keyboard=True)
    assert "Enter" in text and "ボタン" in text
